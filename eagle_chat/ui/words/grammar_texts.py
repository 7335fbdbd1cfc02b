"""The words for a grammar that turns drafting off: the next-reply line before, the reply's figures after.

OpenVINO GenAI 2026.4.1 cannot draft under a grammar with a reduced-vocabulary (``d2t``) draft, as real
EAGLE-3 heads are (AngelSlim's draft over 32,000 of Qwen3's 151,936 tokens): the engine then decodes without
drafting (``core.generation.structured.stops_drafting``). In the window the grammar comes from the agent
mode's tool use "Required", which holds a reply's first step (the tool call) to a grammar; the user reads
this before sending, and after it in the figures of that step (the stats line, the tool block). Context
"grammar_texts"; without a translator the English is the source itself.
"""

from __future__ import annotations

from eagle_chat.core.generation import outlook
from eagle_chat.ui.words.i18n import translate


def next_reply_line(o: outlook.Outlook) -> str:
    """The next-reply line for :data:`outlook.GRAMMAR_D2T`: which part of the reply goes undrafted, and why."""
    if o.grammar == "tool_calls":
        return translate("grammar_texts", "Next reply: its tool call decodes without drafting — tool use "
                                          "“Required” holds that step to a grammar, and OpenVINO GenAI cannot "
                                          "draft under a grammar with this reduced-vocabulary (d2t) draft. The "
                                          "steps after the call draft with K={k}.").format(k=o.k)
    return translate("grammar_texts", "Next reply: plain decoding — a grammar holds the reply, and OpenVINO GenAI "
                                      "cannot draft under a grammar with this reduced-vocabulary (d2t) draft.")


def figures_note() -> str:
    """A reply's (or a tool step's) figures: it ran without drafting because of its grammar."""
    return translate("grammar_texts", "grammar: drafting off (reduced-vocabulary draft)")
