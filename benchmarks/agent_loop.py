"""An agent's tool loop through a real `eagle-chat serve`, with the official `openai` client: TTFT per step, with
and without the next-turn prefill, on both tiny pairs.

    python benchmarks/agent_loop.py [--steps 10] [--runs 3] [--choice required|auto] [--tool-ms 0] [--k 5]

Each step sends the conversation so far with the tools (streamed, ``tool_choice`` required by default: the tiny
pairs were never trained on tools, so ``auto`` mostly writes prose), takes the model's call, appends a synthetic
tool result (a JSON blob of ~``--result-chars``) and sends the next request at once (``--tool-ms`` waits that long
first, as a real tool would take). After the last step one answer with ``tool_choice`` none gives the prose
figures. A warm-up conversation first puts the system prompt and tools in the prefix cache, as an agent's
earlier sessions would.

Per step: ``client ttft`` = request sent → first streamed chunk as the client sees it (the server sends it with
the reply's first text), queue wait included; ``1st delta`` = → the first delta with text or the call's name (a
call's name needs ~8 tokens); ``server ttft`` = GenAI's time to first token; ``queued`` =
time the request waited in the server's queue (behind the prefill, when it was still running);
``prefilled`` = prompt tokens the next-turn prefill had run before the request; ``cached`` = the response's
``usage.prompt_tokens_details.cached_tokens`` (prompt tokens served from the KV cache, whole blocks);
``new`` = prompt tokens − cached; ``alone ms`` / ``alone tok`` = server TTFT and prompt tokens of the same new
messages (the step's assistant call and tool result) sent by themselves as a fresh prompt without tools, after
the conversation (so it disturbs neither its cache nor its prefill): what prefilling only the new tokens
costs; ``ttft/alone`` = server TTFT ÷ that. Medians over ``--runs`` conversations. Tokens per step = generated tokens / target steps (above 1: the draft's tokens were accepted).
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import tempfile
import time
from pathlib import Path

from _common import ROOT, start_serve

MODELS = ROOT / "tests" / "models"
PAIRS = {"tiny (full vocabulary)": MODELS, "tiny d2t (reduced vocabulary)": MODELS / "d2t"}
KEY = "agent-loop-key"
TOOLS = [
    {"type": "function", "function": {"name": "read_file", "description": "Read a file of the project.", "parameters": {
        "type": "object", "properties": {"path": {"type": "string", "maxLength": 40}}, "required": ["path"],
        "additionalProperties": False}}},
    {"type": "function", "function": {"name": "run_tests", "description": "Run the tests matching a pattern.",
                                      "parameters": {"type": "object", "properties": {
                                          "pattern": {"type": "string", "maxLength": 30},
                                          "verbose": {"type": "boolean"}}, "required": ["pattern"],
                                          "additionalProperties": False}}},
]
SYSTEM = "You are a coding agent. Call a tool for every step; answer when the work is done."
TASKS = ["Fix the failing test in parser.py.", "Find why the cache is slow.", "Add a --quiet flag to the CLI.",
         "Rename the Engine class to Pipeline.", "Explain what serve.py does."]


def result_text(step: int, call, chars: int) -> str:
    """A synthetic tool result: JSON, about ``chars`` long, different at every step."""
    lines, n = [], 0
    while n < chars:
        line = f"def f_{step}_{len(lines)}(x):\n    return x * {step + len(lines)}\n"
        lines.append(line)
        n += len(line)
    return json.dumps({"tool": call.function.name if call else None, "ok": True, "output": "".join(lines)})


def start(target: Path, draft: Path, home: Path, *extra: str):
    return start_serve(["--model", str(target), "--draft", str(draft), "--precision", "f32", *extra], home,
                       env={"EAGLE_CHAT_HOME": str(home), "EAGLE_CHAT_API_KEY": KEY})


def step(client, model: str, messages: list, **fields) -> dict:
    """One streamed request: the client's time to the first delta, the reply as the SDK accumulates it, and
    the server's figures (they ride on the finish chunk)."""
    from openai.lib.streaming.chat import ChatCompletionStreamState

    state, first, delta_at, figures = ChatCompletionStreamState(), None, None, {}
    sent = time.perf_counter()
    for chunk in client.chat.completions.create(model=model, messages=messages, tools=TOOLS, stream=True,
                                                stream_options={"include_usage": True}, parallel_tool_calls=False,
                                                **fields):
        if chunk.usage is not None:
            details = chunk.usage.prompt_tokens_details
            figures.update(prompt_tokens=chunk.usage.prompt_tokens, generated=chunk.usage.completion_tokens,
                           cached=details.cached_tokens if details else None)
            continue
        state.handle_chunk(chunk)
        if chunk.choices:
            delta = chunk.choices[0].delta
            first = first or time.perf_counter() - sent
            if delta_at is None and (delta.content or delta.tool_calls):
                delta_at = time.perf_counter() - sent
            if chunk.choices[0].finish_reason:
                figures.update(chunk.model_extra.get("eagle_chat", {}))
    message = state.current_completion_snapshot.choices[0].message
    ended = time.perf_counter() - sent
    return {"client_ttft_ms": (first or ended) * 1000, "first_delta_ms": (delta_at or ended) * 1000,
            "message": message, **figures}


def conversation(client, model: str, task: str, args) -> tuple[list[dict], dict]:
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": task}]
    steps, tails, sent = [], [], len(messages)
    for i in range(args.steps):
        tails.append(json.dumps(messages[sent:], ensure_ascii=False))  # what this step adds to the last one's prompt
        sent = len(messages)
        got = step(client, model, messages, tool_choice=args.choice, max_tokens=args.call_tokens)
        steps.append(got)
        message = got.pop("message")
        messages.append(message.model_dump(exclude_none=True))
        call = message.tool_calls[0] if message.tool_calls else None
        if args.tool_ms:
            time.sleep(args.tool_ms / 1000)
        if call is not None:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result_text(i, call, args.result_chars)})
        else:  # prose instead of a call (auto): the user nudges
            messages.append({"role": "user", "content": result_text(i, None, args.result_chars)})
    answer = step(client, model, messages, tool_choice="none", max_tokens=args.prose_tokens)
    answer.pop("message")
    for got, tail in zip(steps, tails):  # the same new tokens prefilled alone (after: the loop's cache is untouched)
        alone = client.chat.completions.create(model=model, messages=[{"role": "user", "content": tail}], max_tokens=1)
        got.update(alone_ms=alone.model_extra["eagle_chat"].get("ttft_ms"), alone_tokens=alone.usage.prompt_tokens)
    return steps, answer


def run_pair(name: str, folder: Path, prefill: bool, args) -> dict:
    import openai

    home = Path(tempfile.mkdtemp(prefix="agent-loop-"))
    target, draft = (folder / "target", folder / "draft") if (folder / "target").is_dir() else \
        (folder / "tiny-qwen3", folder / "tiny-qwen3-eagle3")
    process, url = start(target, draft, home, "--k", str(args.k),
                         *([] if prefill else ["--no-prefill"]))
    try:
        with openai.OpenAI(base_url=url, api_key=KEY, max_retries=0, timeout=300) as client:
            model = client.models.list().data[0].id
            conversation(client, model, "Warm up: list the files.", argparse.Namespace(**{**vars(args), "steps": 2}))
            runs = [conversation(client, model, TASKS[r % len(TASKS)] + f" (run {r})", args) for r in range(args.runs)]
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
    return {"name": name, "prefill": prefill, "runs": runs}


def med(values) -> float:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def report(result: dict, args) -> None:
    runs = result["runs"]
    print(f"\n{result['name']}, prefill {'on' if result['prefill'] else 'off'}, K={args.k}, "
          f"tool_choice {args.choice}, medians of {len(runs)} conversations")
    print(f"{'step':>4} {'client ttft ms':>14} {'1st delta ms':>12} {'server ttft ms':>14} {'queued ms':>9} {'prompt tok':>10} "
          f"{'prefilled':>9} {'cached':>6} {'new':>5} {'alone tok':>9} {'alone ms':>8} {'ttft/alone':>10} {'tokens':>6} "
          f"{'tok/s':>7} {'tok/step':>8} {'mode':>11}")
    for i in range(args.steps):
        rows = [steps[i] for steps, _ in runs]
        print(f"{i + 1:>4} {med(r['client_ttft_ms'] for r in rows):>14.1f} {med(r['first_delta_ms'] for r in rows):>12.1f} {med(r.get('ttft_ms') for r in rows):>14.1f} "
              f"{med(r.get('queue_ms') for r in rows):>9.1f} {med(r.get('prompt_tokens') for r in rows):>10.0f} "
              f"{med(r.get('prefilled_tokens') for r in rows):>9.0f} {med(r.get('cached') for r in rows):>6.0f} "
              f"{med(r['prompt_tokens'] - (r.get('cached') or 0) for r in rows):>5.0f} "
              f"{med(r.get('alone_tokens') for r in rows):>9.0f} {med(r.get('alone_ms') for r in rows):>8.1f} "
              f"{med(r.get('ttft_ms', 0) / r['alone_ms'] for r in rows if r.get('alone_ms')):>10.2f} "
              f"{med(r.get('generated') for r in rows):>6.0f} "
              f"{med(r.get('tokens_per_s') for r in rows):>7.0f} {med(r.get('tokens_per_step') for r in rows):>8.2f} "
              f"{rows[0].get('mode', '?'):>11}")
    first, last = (med(steps[i]["client_ttft_ms"] for steps, _ in runs) for i in (0, args.steps - 1))
    s1, sn = (med(steps[i].get("ttft_ms", 0) + steps[i].get("queue_ms", 0) for steps, _ in runs)
              for i in (0, args.steps - 1))
    calls = [s for steps, _ in runs for s in steps]
    answers = [a for _, a in runs]
    print(f"step {args.steps} / step 1: client TTFT {last / first:.2f}, server TTFT + queue {sn / s1:.2f}  |  tokens per step: tool-call JSON "
          f"{med(s.get('tokens_per_step') for s in calls):.2f} ({calls[0].get('grammar') or 'no grammar'}), "
          f"prose {med(a.get('tokens_per_step') for a in answers):.2f}  |  tok/s: calls "
          f"{med(s.get('tokens_per_s') for s in calls):.0f}, prose {med(a.get('tokens_per_s') for a in answers):.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--choice", default="required", choices=["required", "auto"])
    parser.add_argument("--tool-ms", type=float, default=0.0, help="a synthetic tool's own time before the result")
    parser.add_argument("--result-chars", type=int, default=400)
    parser.add_argument("--call-tokens", type=int, default=100)
    parser.add_argument("--prose-tokens", type=int, default=128)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--pair", choices=["full", "d2t", "both", "speed-demo"], default="both",
                        help="speed-demo: the tiny target widened to ~50M weights (built here), where a prefill costs "
                             "what a real model's does")
    args = parser.parse_args()
    pairs = list(PAIRS.items())
    pairs = pairs[:1] if args.pair == "full" else pairs[1:] if args.pair == "d2t" else pairs
    if args.pair == "speed-demo":
        from eagle_chat.core.models.speed_demo import build_speed_demo

        out = Path(tempfile.mkdtemp(prefix="agent-loop-speed-demo-"))
        build_speed_demo(MODELS / "tiny-qwen3", MODELS / "tiny-qwen3-eagle3", out)
        pairs = [("speed-demo (tiny widened to ~50M weights)", out)]
    for name, folder in pairs:
        for prefill in (True, False):
            report(run_pair(name, folder, prefill, args), args)


if __name__ == "__main__":
    main()
