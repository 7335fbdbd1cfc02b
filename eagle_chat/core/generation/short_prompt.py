"""Prompts EAGLE-3 cannot start from: one token long.

GenAI's EAGLE-3 pipeline (2026.4) feeds its draft the prompt shifted by one token, and refuses a prompt
of one token ("input_ids shape is invalid for creating eagle3 draft input_ids") whatever
``num_assistant_tokens`` says, and with padding too (it is stripped). Such prompts are rare but real: a
raw ``/v1/completions`` prompt such as ``"hi"`` or ``"import"`` on a model without a BOS token (Qwen).
A chat template always makes a prompt longer.

Such a reply is decoded plainly, without the draft, on a draft-free pipeline of the same target built for
it and released when it ends: the answer is exactly the target's greedy answer, at the cost of loading the
target once more for that request (a second copy of its weights while it runs). Keeping that pipeline would
hold the copy for the life of the server; building it per request bounds the cost to the rare requests
that need it.
"""

from __future__ import annotations

NO_DRAFT_REASON = ("The prompt is one token long; OpenVINO GenAI's EAGLE-3 drafts from two or more, so this "
                   "reply was decoded without the draft.")
_LONGEST_TOKEN_CHARS = 256  # a text longer than this is more than one token in any tokenizer we load


def is_one_token(tokenizer, text: str) -> bool:
    """Whether ``text`` is one token (or none) as GenAI tokenizes a prompt: with the special tokens."""
    if len(text) > _LONGEST_TOKEN_CHARS:
        return False
    return int(tokenizer.encode(text).input_ids.get_shape()[-1]) < 2


def draft_free_pipeline(plan):
    """A pipeline of ``plan``'s target alone, on its device with its properties (a KV cache that grows as
    needed: the reply is one prompt token and at most the request's max new tokens)."""
    import openvino_genai as ov_genai

    kwargs = dict(plan.properties)
    if plan.scheduler is not None:
        kwargs["scheduler_config"] = scheduler = ov_genai.SchedulerConfig()
        scheduler.cache_size = 0
        scheduler.enable_prefix_caching = False
    return ov_genai.LLMPipeline(plan.target_dir, plan.device, **kwargs)
