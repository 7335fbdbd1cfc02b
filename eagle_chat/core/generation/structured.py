"""Structured output: a grammar the reply must follow, applied through GenAI's ``StructuredOutputConfig``.

Two uses, both written as one EBNF grammar with bounded whitespace (see :mod:`json_grammar`):

- **JSON** (the API's ``response_format``): one JSON document, any object (``json_object``) or one matching a
  schema (``json_schema``);
- **tool calls** (``tool_choice`` ``required`` or a named function): ``min_calls`` to ``max_calls`` blocks in
  Qwen3's (Hermes) format, ``<tool_call>\\n{"name": "f", "arguments": {…}}\\n</tool_call>``, separated by a
  newline, each naming one of the offered functions with arguments matching its ``parameters`` schema.

Once the grammar is complete only the end-of-sequence token is allowed, so the reply ends there.

Drafting: GenAI 2026.4.1 applies the grammar to EAGLE-3's verification too, and greedy output is the same as
without a draft (full-vocabulary draft). With a draft that predicts over a reduced vocabulary (a ``d2t`` map)
the grammar's mask is applied to the draft's logits in the target's id space: next to no draft tokens are
accepted, the output can differ from plain decoding (2 of 6 JSON replies on the tiny d2t pair), and the heap
gets corrupted (glibc aborts within a dozen replies) — so such replies are decoded without drafting
(:func:`stops_drafting`, the one rule the engine, the window's next-reply line and the API apply) and say so:
the API as ``drafting_limited_by_grammar``, the window in the reply's figures
(``GenerationStats.drafting_off_by_grammar``); ``benchmarks/grammar_drafting.py`` reproduces it. A
:class:`Constraint` is plain data: it is pickled to the engine host.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from eagle_chat.core.generation.json_grammar import GrammarBuilder, UnsupportedSchema, literal, schema_grammar

__all__ = ["Constraint", "UnsupportedSchema", "apply", "grammar", "stops_drafting", "CALL_OPEN", "CALL_CLOSE",
           "GRAMMAR_D2T_REASON"]

CALL_OPEN, CALL_CLOSE = "<tool_call>", "</tool_call>"
GRAMMAR_D2T_REASON = ("a grammar with a reduced-vocabulary (d2t) draft: OpenVINO GenAI 2026.4.1 applies it to the "
                      "draft in the wrong id space, so this reply ran without drafting")


@dataclass(frozen=True)
class Constraint:
    """What the reply must be. ``kind``: ``json_object``, ``json_schema`` (``schema``: its JSON text) or
    ``tool_calls`` (``schema``: the JSON text of the offered functions, ``[{"name", "parameters"}]``)."""

    kind: str
    schema: str | None = None
    min_calls: int = 1
    max_calls: int = 1

    @property
    def name(self) -> str:
        """What the API reports as the grammar applied."""
        return "tool_call" if self.kind == "tool_calls" else self.kind


def stops_drafting(constraint: Constraint | None, draft_reduced_vocab: bool) -> bool:
    """Must a reply held to ``constraint`` decode without drafting? Yes when there is a grammar and the draft
    predicts over a reduced vocabulary (see the module's docstring); a full-vocabulary draft drafts on."""
    return constraint is not None and bool(draft_reduced_vocab)


def grammar(constraint: Constraint) -> str:
    """The EBNF grammar of ``constraint`` (raises UnsupportedSchema for a schema it cannot enforce)."""
    if constraint.kind == "json_object":
        return schema_grammar(None)
    if constraint.kind == "json_schema":
        return schema_grammar(json.loads(constraint.schema or "true"))
    if constraint.kind != "tool_calls":
        raise ValueError(f"unknown constraint kind {constraint.kind!r}")
    functions = json.loads(constraint.schema or "[]")
    builder = GrammarBuilder()
    calls = []
    for function in functions:
        parameters = function.get("parameters") or {"type": "object", "properties": {}}
        arguments = builder.schema_rule(parameters, root=parameters)
        head = f'{{"name": {json.dumps(function["name"], ensure_ascii=False)}, "arguments": '
        calls.append(f"{literal(head)} {arguments}")
    builder.rules["tool_call"] = f'{literal(CALL_OPEN + chr(10))} ({" | ".join(calls)}) {literal("}" + chr(10) + CALL_CLOSE)}'
    low, high = max(1, constraint.min_calls), max(1, constraint.max_calls, constraint.min_calls)
    root = "tool_call" if high == 1 else f'tool_call ("\\n" tool_call){{{low - 1},{high - 1}}}'
    return builder.ebnf(root)


def apply(config, constraint: Constraint | None) -> None:
    """Set ``config.structured_output_config`` (a GenAI GenerationConfig) for ``constraint``, if any."""
    if constraint is None:
        return
    import openvino_genai as ov_genai

    config.structured_output_config = ov_genai.StructuredOutputConfig(grammar=grammar(constraint))
