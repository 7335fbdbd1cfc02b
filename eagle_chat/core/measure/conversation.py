"""One long conversation, measured turn by turn: does the time to first token stay flat as it grows?

Each turn's user message is the next of the given prompts (cycling); each reply is fed back as history,
and every turn is sent the way the app sends it: the conversation (system prompt first) through the
engine's context budget, on a pipeline built with the app's settings (prefix caching as the app has it).
``compare_cache`` runs the same conversation a second time with prefix caching off, in the same process
and interleaved turn by turn with the first, so both see the same machine; with greedy decoding at f32
the two must write the same texts.

As in the app, with prefix caching on the conversation is prefilled for its next turn after each reply
(``core.generation.prefill``: in the app while the user reads and types); ``prefill_ms`` is that
background work before a turn, not part of its TTFT. ``next_turn_prefill=False`` leaves it out.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from eagle_chat.core.errors import UserError
from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec
from eagle_chat.core.storage.conversation import Conversation, Message


class ConversationBenchError(UserError):
    """The conversation benchmark cannot run as asked."""


@dataclass
class Turn:
    turn: int
    prompt_tokens: int
    ttft_ms: float
    tokens_per_s: float
    generated_tokens: int
    text: str
    history_dropped: int = 0
    prefill_ms: float | None = None  # the background prefill before this turn (None: none ran)


@dataclass
class ConversationRun:
    prefix_cache: bool
    turns: list[Turn] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"prefix_cache": self.prefix_cache, "turns": [asdict(t) for t in self.turns]}


@dataclass
class ConversationReport:
    runs: list[ConversationRun]  # the app's setting first, then caching off when compared

    @property
    def identical(self) -> bool | None:
        """Whether both runs wrote the same texts (None with one run)."""
        if len(self.runs) < 2:
            return None
        return [t.text for t in self.runs[0].turns] == [t.text for t in self.runs[1].turns]

    def to_json(self) -> dict:
        data = self.runs[0].to_json()
        if len(self.runs) > 1:
            data["prefix_cache_off"] = self.runs[1].to_json()
            data["identical_texts"] = self.identical
        return data

    def write_json(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False), encoding="utf-8")

    def table(self) -> str:
        """One row per turn; with two runs, both side by side and whether the texts agree."""
        names = ["prefix cache " + ("on" if r.prefix_cache else "off") for r in self.runs]
        prefill = any(t.prefill_ms is not None for r in self.runs for t in r.turns)
        head = f"{'turn':>4} {'prompt tok':>10} " + " ".join(
            f"{name + ' TTFT ms':>23} {'tok/s':>7} {'tokens':>6}" for name in names)
        if prefill:
            head += f" {'prefill ms':>10}"
        if len(self.runs) > 1:
            head += f" {'same text':>9}"
        lines = [head, "-" * len(head)]
        for index, first in enumerate(self.runs[0].turns):
            row = f"{first.turn:>4} {first.prompt_tokens:>10} "
            others = [r.turns[index] for r in self.runs if index < len(r.turns)]
            row += " ".join(f"{t.ttft_ms:>23.1f} {t.tokens_per_s:>7.1f} {t.generated_tokens:>6}" for t in others)
            if prefill:
                row += f" {first.prefill_ms:>10.1f}" if first.prefill_ms is not None else f" {'-':>10}"
            if len(others) > 1:
                row += f" {'yes' if others[0].text == others[1].text else 'NO':>9}"
            lines.append(row)
        return "\n".join(lines)


def run_conversation(
    spec: PipelineSpec,
    prompts: Sequence[str],
    turns: int,
    settings: GenerationSettings,
    *,
    system_prompt: str = "",
    compare_cache: bool = False,
    next_turn_prefill: bool = True,
    progress: Callable[[str], None] = lambda _msg: None,
) -> ConversationReport:
    """Run a ``turns``-turn conversation on ``spec`` (and on the same spec with caching off when asked)."""
    if turns < 1:
        raise ConversationBenchError("--conversation needs at least 1 turn.")
    if not prompts:
        raise ConversationBenchError("No prompts to take the user turns from.")
    specs = [spec] + ([spec.with_changes(prefix_cache=False)] if compare_cache else [])
    progress(f"loading {spec.target_dir} + {spec.draft_dir} on {spec.device} ({spec.precision}), "
             + " and ".join("prefix cache " + ("on" if s.prefix_cache else "off") for s in specs))
    engines = [Engine(s) for s in specs]
    try:
        for engine in engines:  # a first call pays one-off costs (kernels, allocations): not turn 1's
            engine.generate("Hello!", GenerationSettings(max_new_tokens=8, speculative=settings.speculative,
                                                         num_assistant_tokens=settings.num_assistant_tokens))
        runs = [ConversationRun(s.prefix_cache) for s in specs]
        chats = [Conversation(system_prompt=system_prompt) for _ in specs]
        prefilled: list[float | None] = [None for _ in specs]
        for turn in range(1, turns + 1):
            prompt = prompts[(turn - 1) % len(prompts)]
            for index, (engine, run, chat) in enumerate(zip(engines, runs, chats)):
                chat.messages.append(Message("user", prompt))
                result = engine.generate(chat.history(), settings)
                chat.messages.append(Message("assistant", result.text, stats=result.stats))
                s = result.stats
                run.turns.append(Turn(turn, s.input_tokens, s.ttft_ms, s.tokens_per_s, s.generated_tokens,
                                      result.text, s.history_dropped, prefilled[index]))
                if next_turn_prefill and engine.spec.prefix_cache and engine.plan.device != "NPU" and turn < turns:
                    started = time.perf_counter()
                    engine.generate(chat.history(), replace(settings, next_turn=True))
                    prefilled[index] = (time.perf_counter() - started) * 1000.0
            progress(f"turn {turn}/{turns}: {runs[0].turns[-1].prompt_tokens} prompt tokens, "
                     + ", ".join(f"TTFT {r.turns[-1].ttft_ms:.0f} ms" for r in runs))
    finally:
        for engine in engines:
            engine.close()
    return ConversationReport(runs)
