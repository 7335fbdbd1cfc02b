"""The engine's errors a user can act on, and the sentences a failed load or an over-long prompt gets."""

from __future__ import annotations

from eagle_chat.core.errors import UserError
from eagle_chat.core.generation import devices as dev


class EngineError(UserError):
    """A generation or load failed in a way the user can act on; the message says how."""


class SamplingWithDraftError(EngineError):
    """Sampling was asked for while an EAGLE-3 draft is active; EAGLE-3 streaming is greedy-only."""


def check_prompt_length(count: int, *, device: str, npu: dev.NpuOptions, max_context: int | None) -> None:
    """Refuse prompts the device or the model cannot take, with a sentence saying what to do."""
    if device == "NPU" and count > npu.max_prompt_len:
        raise EngineError(
            "This conversation is {count} tokens long, more than the NPU's limit of {max_prompt_len} "
            "(MAX_PROMPT_LEN). Start a new conversation, shorten the message, or raise the limit in the settings "
            "(the model is then recompiled).", count=count, max_prompt_len=npu.max_prompt_len
        )
    if max_context is not None and count >= max_context:
        raise EngineError(
            "This conversation is {count} tokens long; the model handles at most {max_context}. Start a new "
            "conversation or shorten the message.", count=count, max_context=max_context
        )


def first_line(error: BaseException) -> str:
    lines = [ln.strip() for ln in str(error).splitlines() if ln.strip()]
    useful = [ln for ln in lines if not ln.startswith(("Exception from", "Check '"))]
    return (useful or lines or [type(error).__name__])[-1]


def load_error(plan, error: BaseException) -> EngineError:
    if plan.draft_dir:
        return EngineError("OpenVINO could not load {target_dir} with draft {draft_dir} on {device}: {detail}",
                           target_dir=plan.target_dir, draft_dir=plan.draft_dir, device=plan.device,
                           detail=first_line(error))
    return EngineError("OpenVINO could not load {target_dir} on {device}: {detail}",
                       target_dir=plan.target_dir, device=plan.device, detail=first_line(error))


class MethodUnavailable(EngineError):
    """A reply asked for a speculative method the loaded pair does not offer (``method_unavailable``)."""


def method_unavailable(asked: str, methods) -> MethodUnavailable:
    return MethodUnavailable("Speculation '{asked}' is not available with the loaded model; it offers {methods}.",
                             asked=asked, methods=", ".join(methods))


def check_not_empty(prompt) -> None:
    """Refuse a request whose last user message is empty."""
    users = [{"content": prompt}] if isinstance(prompt, str) else [m for m in prompt if m.get("role") == "user"]
    if not users or not str(users[-1].get("content", "")).strip():
        raise EngineError("The message is empty; type something to send.")
