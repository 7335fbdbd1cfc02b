"""How a reply speculates, through the official openai client: ``eagle_chat.method`` names it, a request may
ask for one (``"speculation"``), and a pasted module asked back changed runs prompt lookup chosen by itself."""

from __future__ import annotations

import openai
import pytest

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.reasoning import split_reasoning
from eagle_chat.core.serving.errors import ApiError
from eagle_chat.core.serving.requests import Limits, ServedModel, parse_chat
from tests.core.test_speculation import EDIT

MODEL = "tiny-qwen3"
pytestmark = pytest.mark.slow


def ask(client, text, max_tokens=120, **extra):
    reply = client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": text}],
                                           max_tokens=max_tokens, extra_body=extra or None)
    message = reply.choices[0].message
    return (message.model_extra.get("reasoning_content"), message.content), reply.model_extra["eagle_chat"]


def plain(engine, text, max_tokens=120):
    split = split_reasoning(engine.generate([{"role": "user", "content": text}],
                                            GenerationSettings(max_new_tokens=max_tokens, method="off")).text)
    return split.thinking if split.has_thinking else None, split.answer


def test_a_pasted_module_asked_back_changed_runs_prompt_lookup_by_itself(client, plain_engine):
    answer, figures = ask(client, EDIT, max_tokens=200)
    assert (figures["method"], figures["method_kind"], figures["method_basis"]) == ("prompt_lookup", "code_edit", "table")
    assert figures["mode"] == "speculative" and figures["tokens_per_step"] >= 1.5
    assert answer == plain(plain_engine, EDIT, 200)  # greedy and lossless: the target's own reply


def test_a_request_names_its_method_and_gets_it(client, plain_engine, prompts):
    expected = plain(plain_engine, prompts[1])
    for method in ("off", "eagle3", "prompt_lookup", "auto"):
        answer, figures = ask(client, prompts[1], speculation=method)
        assert answer == expected, method
        assert figures["method"] == ("eagle3" if method == "auto" else method)
        assert figures["method_basis"] == ("table" if method == "auto" else "asked")
    _, figures = ask(client, prompts[1], speculation="prompt_lookup", num_assistant_tokens=0)
    assert figures["method"] == "off" and figures["mode"] == "baseline"  # K = 0 stays plain decoding


def test_a_method_this_server_lacks_is_a_400_naming_the_ones_it_has(client):
    for asked, why in (("dflash", "is not available here"), ("banana", "is unknown")):
        with pytest.raises(openai.BadRequestError) as refused:
            ask(client, "hi there", speculation=asked)
        assert refused.value.status_code == 400
        assert f"{why}: this server offers auto, off, eagle3, prompt_lookup" in refused.value.message
        assert refused.value.body["param"] == "speculation"
    listed = client.models.list().data[0].model_extra["eagle_chat"]
    assert listed["speculation"] == ["auto", "off", "eagle3", "prompt_lookup"]


def test_a_server_without_a_draft_offers_prompt_lookup_but_not_eagle3():
    alone = ServedModel(id=MODEL, has_draft=False, device="CPU")
    body = {"model": MODEL, "messages": [{"role": "user", "content": "hi"}]}
    with pytest.raises(ApiError, match="offers auto, off, prompt_lookup"):
        parse_chat({**body, "speculation": "eagle3"}, alone, Limits())
    request = parse_chat({**body, "speculation": "prompt_lookup", "num_assistant_tokens": 4}, alone, Limits())
    settings = request.settings(GenerationSettings(), has_draft=False)
    assert (settings.method, settings.speculative, settings.num_assistant_tokens) == ("prompt_lookup", True, 4)
    npu = ServedModel(id=MODEL, has_draft=False, device="NPU")
    with pytest.raises(ApiError, match="num_assistant_tokens must be 0"):
        parse_chat({**body, "num_assistant_tokens": 4}, npu, Limits())


def test_the_responses_api_takes_the_same_method_and_names_it(client, plain_engine, prompts):
    expected = plain(plain_engine, prompts[1])[1]
    for method in ("off", "prompt_lookup"):
        response = client.responses.create(model=MODEL, input=prompts[1], max_output_tokens=120,
                                           extra_body={"speculation": method})
        assert response.output_text == expected, method
        assert response.model_extra["eagle_chat"]["method"] == method
    with pytest.raises(openai.BadRequestError) as refused:
        client.responses.create(model=MODEL, input="hi", extra_body={"speculation": "dflash"})
    assert "is not available here: this server offers auto, off, eagle3, prompt_lookup" in refused.value.message
    assert refused.value.body["param"] == "speculation"
