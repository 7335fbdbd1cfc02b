"""Prompt lookup decoding: drafts are the tokens that followed the same n-gram earlier in the prompt (or the
reply so far), verified by the target like any draft. No draft model, so every target has it; it pays where
a reply copies its prompt: code edits of pasted code, answers quoting documents, tool results summarised.

GenAI 2026.4.1 runs it on its own pipeline (``LLMPipeline(target, device, prompt_lookup=True)``): it refuses a
draft model beside it and ``num_assistant_tokens=0`` on it. The engine builds that pipeline the first time a
reply asks for prompt lookup and keeps it; measured on the speed-demo pair at f32 (102 MB IR), the second
pipeline costs ~570 MB RSS on top of the EAGLE-3 pipeline's ~890 MB — its weights are compiled again, not
shared (docs/speculative-decoding.md). Nothing is loaded for it until then.

GenAI reports no extended metrics for it (``extended_perf_metrics`` is None): its accepted tokens and tokens
per step come from the streamer's step record, which sees one list of tokens per target step as with EAGLE-3.
"""

from __future__ import annotations

from eagle_chat.core.generation import kv_cache

MAX_NGRAM = 3  # GenAI's max_ngram_size: the longest n-gram looked up (2 and 3 drafted alike on the tiny pairs)


def lookup_pipeline(plan):
    """A prompt-lookup pipeline of ``plan``'s target on its device, with the main pipeline's properties and
    scheduler (prefix caching, the same bounded KV cache)."""
    import openvino_genai as ov_genai

    kwargs = dict(plan.properties)
    if plan.scheduler is not None:
        kwargs["scheduler_config"] = kv_cache.scheduler_config(plan.scheduler)
    return ov_genai.LLMPipeline(plan.target_dir, plan.device, prompt_lookup=True, **kwargs)


def configure(config, k: int, max_ngram: int = MAX_NGRAM) -> None:
    """Make ``config`` a prompt-lookup reply drafting ``k`` tokens from n-grams of up to ``max_ngram``."""
    config.num_assistant_tokens = int(k)
    config.max_ngram_size = int(max_ngram)
    config.tree_depth = 0
