"""Will the next reply be speculative, and if not, why not: the facts, as one :class:`Outlook`.

The window shows one line from this (the sentences are built in ``ui/words/texts.py``). The reasons are checked
in the order a reply would meet them: a model must be loaded; on NPU the whole conversation must fit the
compiled prompt limit (GenAI's stateful NPU pipelines re-read all of it every turn); a draft must be loaded,
on the target's device (GenAI's EAGLE-3 reads the target's hidden states, and its NPU pipeline refuses a
draft elsewhere: "Eagle3 pipeline supports NPU only"); EAGLE-3 must be switched on; the decoding must be
greedy (GenAI streams EAGLE-3 greedily only, even with 0 draft tokens); and a grammar on the reply (the agent
mode's tool use "Required") must not meet a reduced-vocabulary draft (``structured.stops_drafting``: the
engine then decodes without drafting).

A method pinned under Speculation (``settings.method``, not ``auto``) is named as it is: "off" right after the
load and the NPU limit (plain decoding needs nothing), prompt lookup before the draft's reasons (it needs no
draft), EAGLE-3 after them. The window offers only the methods the loaded pair has (``LoadedPipeline.methods``),
so a pin here is one the engine runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from eagle_chat.core.generation import speculation, structured
from eagle_chat.core.generation.engine import GenerationSettings

ON = "on"
ON_SAMPLING_SET_ASIDE = "on_sampling_set_aside"  # sampling was asked for; the reply is greedy EAGLE-3
NO_MODEL = "no_model"
LOADING = "loading"
NPU_PROMPT_TOO_LONG = "npu_prompt_too_long"
NO_DRAFT = "no_draft"
DEVICE_MISMATCH = "device_mismatch"
DRAFT_OFF = "draft_off"
SAMPLING = "sampling"  # sampling reaches a pipeline with a draft: GenAI refuses the reply
GRAMMAR_D2T = "grammar_d2t"  # a grammar holds the reply and the draft predicts over a reduced vocabulary
PINNED = "pinned"  # the method pinned under Speculation runs (``method``)
PINNED_OFF = "pinned_off"  # Speculation is pinned to Off: plain decoding
REASONS = (ON, ON_SAMPLING_SET_ASIDE, NO_MODEL, LOADING, NPU_PROMPT_TOO_LONG, NO_DRAFT, DEVICE_MISMATCH,
           DRAFT_OFF, SAMPLING, GRAMMAR_D2T, PINNED, PINNED_OFF)


@dataclass(frozen=True)
class Outlook:
    """``speculative``: the next reply will draft (EAGLE-3, or the pinned ``method``); ``reason`` one of
    :data:`REASONS`; ``method``: the method pinned under Speculation, or ``auto``."""

    speculative: bool
    reason: str
    k: int = 0
    tree_depth: int = 0
    branching_factor: int = 0
    device: str = ""
    draft_device: str | None = None
    history_tokens: int | None = None
    prompt_limit: int | None = None
    grammar: str | None = None  # the kind of grammar that holds the reply (structured.Constraint.kind), if any
    method: str = speculation.AUTO
    choice: speculation.Choice | None = None  # what Automatic would pick for the message as typed (ON, NO_DRAFT)


def next_reply(
    *,
    loaded: bool,
    loading: bool = False,
    has_draft: bool = False,
    device: str = "",
    draft_device: str | None = None,
    settings: GenerationSettings | None = None,
    sampling_asked: bool = False,
    history_tokens: int | None = None,
    npu_prompt_limit: int | None = None,
    draft_reduced_vocab: bool = False,
    choice: speculation.Choice | None = None,
) -> Outlook:
    """The outlook for a reply sent now with ``settings`` (what the window would send).

    ``sampling_asked``: the user asked for sampling even if the window set it aside (greedy lock);
    ``history_tokens``: tokens the conversation already holds (its last reply's prompt plus the reply), a
    lower bound on the next prompt; ``npu_prompt_limit``: MAX_PROMPT_LEN the NPU pipeline was compiled for;
    ``draft_reduced_vocab``: the loaded draft predicts over part of the vocabulary (a ``d2t`` map);
    ``choice``: what ``speculation.choose`` picks for the message as typed, kept where Automatic decides (reasons
    :data:`ON` and :data:`NO_DRAFT`) so the line can say what will run and why.
    """
    settings = settings or GenerationSettings()
    outlook = partial(Outlook, k=settings.num_assistant_tokens, tree_depth=settings.tree_depth,
                      branching_factor=settings.branching_factor, device=device, draft_device=draft_device,
                      history_tokens=history_tokens, prompt_limit=npu_prompt_limit,
                      grammar=settings.constraint.kind if settings.constraint is not None else None,
                      method=settings.method)
    if loading:
        return outlook(False, LOADING)
    if not loaded:
        return outlook(False, NO_MODEL)
    if (device.upper().startswith("NPU") and npu_prompt_limit is not None and history_tokens is not None
            and history_tokens > npu_prompt_limit):
        return outlook(False, NPU_PROMPT_TOO_LONG)
    pinned = settings.method != speculation.AUTO
    if settings.method == speculation.OFF:
        return outlook(False, PINNED_OFF)
    if settings.method == speculation.PROMPT_LOOKUP and settings.speculative:  # no draft needed
        return outlook(True, PINNED)
    automatic = partial(outlook, choice=choice if settings.method == speculation.AUTO else None)
    if not has_draft:
        return automatic(False, NO_DRAFT)
    if draft_device is not None and draft_device.upper() != device.upper():
        return outlook(False, DEVICE_MISMATCH)
    if not settings.speculative:
        return outlook(False, DRAFT_OFF)
    if settings.do_sample:
        return outlook(False, SAMPLING)
    if structured.stops_drafting(settings.constraint, draft_reduced_vocab):
        return outlook(False, GRAMMAR_D2T)
    if sampling_asked or pinned:
        return outlook(True, ON_SAMPLING_SET_ASIDE if sampling_asked else PINNED)
    return automatic(True, ON)
