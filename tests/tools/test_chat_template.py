"""The tiny pairs' chat template: Qwen3's tools format, the same in the builder and in every committed folder
(where GenAI reads it: the tokenizer IR's rt_info), and unchanged for a conversation without tools."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[1] / "models"
FOLDERS = ["tiny-qwen3", "tiny-qwen3-eagle3", "d2t/tiny-qwen3", "d2t/tiny-qwen3-eagle3"]
HF_FOLDERS = ["hf/tiny-qwen3-eagle3", "d2t/hf/tiny-qwen3-eagle3"]
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "The weather in a city.",
                                           "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                          "required": ["city"]}}}]
# What the pair was trained on (the template before its tools branch), for a conversation without tools.
TRAINED_ON = ("<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
              "yo<|im_end|>\n<|im_start|>user\nagain<|im_end|>\n<|im_start|>assistant\n")


def _builder_template() -> str:
    """CHAT_TEMPLATE as tools/build_tiny_models.py spells it (read from the source: importing the builder
    needs torch)."""
    source = (Path(__file__).resolve().parents[2] / "tools" / "build_tiny_models.py").read_text(encoding="utf-8")
    block = re.search(r"^CHAT_TEMPLATE = \(\n(.*?)^\)\n", source, re.S | re.M).group(1)
    return "".join(eval(line.strip()) for line in block.splitlines() if line.strip())  # noqa: S307 - our own literals


@pytest.mark.parametrize("folder", FOLDERS + HF_FOLDERS)
def test_every_committed_folder_has_the_builders_template(folder):
    template = _builder_template()
    config = json.loads((MODELS / folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert config["chat_template"] == template
    if folder in FOLDERS:
        import openvino_genai as ov_genai

        assert ov_genai.Tokenizer(str(MODELS / folder)).chat_template == template  # the IR's rt_info


def test_tools_render_in_qwen3_format_and_no_tools_as_trained():
    import openvino_genai as ov_genai

    tokenizer = ov_genai.Tokenizer(str(MODELS / "tiny-qwen3"))
    plain = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"},
             {"role": "assistant", "content": "<think>x</think>\n\nyo"}, {"role": "user", "content": "again"}]
    assert tokenizer.apply_chat_template(ov_genai.ChatHistory(plain), add_generation_prompt=True) == TRAINED_ON

    exchange = [
        {"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather in Paris and Rome?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
            {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        {"role": "tool", "tool_call_id": "call_2", "content": "rain"},
    ]
    text = tokenizer.apply_chat_template(ov_genai.ChatHistory(exchange), add_generation_prompt=True, tools=TOOLS)
    assert text.startswith("<|im_start|>system\nBe brief.\n\n# Tools\n")
    assert "<tools>\n" + json.dumps(TOOLS[0]) + "\n</tools>" in text
    assert "You can call any of the following tools" not in text  # not GenAI's injected generic prompt
    assert ('<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
            '</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>'
            '<|im_end|>\n') in text
    assert ("<|im_start|>user\n<tool_response>\nsunny\n</tool_response>\n<tool_response>\nrain\n"
            "</tool_response><|im_end|>\n<|im_start|>assistant\n") in text
