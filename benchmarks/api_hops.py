"""Where the API's time to first token goes, hop by hop, for streamed requests to `eagle-chat serve`.

    python benchmarks/api_hops.py [--repeats 3] [--max-new-tokens 128] [--model DIR --draft DIR]

The server runs as a child process with timestamps (``time.perf_counter``: CLOCK_MONOTONIC, one clock for
both processes) wrapped around the functions each hop passes; the client here marks the request sent and
the first text read. It prints the median time of each mark from "client sent", and the step from the
mark before. The engine's own part (engine start → first text) is what benchmarks/api_overhead.py's
engine side also spends; everything else is what the API adds. The wrappers reach into private names:
when a hop is renamed this script says which mark it lost.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

from _common import PROMPTS, ROOT, median, private_home

HOPS = [  # (mark, what happened by then)
    ("recv", "server read the request's bytes (uvicorn, h11)"),
    ("handler", "guards passed, route found (Starlette)"),
    ("job", "body read, parsed, checked; Job made"),
    ("dispatched", "controller queued it for the worker (Qt signal)"),
    ("engine", "worker thread started engine.generate"),
    ("pipe", "budget, template, config done: pipe.generate"),
    ("text", "first visible text from GenAI's streamer"),
    ("signal", "worker signalled it"),
    ("gui", "GUI thread: controller hands it to the Job"),
    ("loop", "HTTP handler woke with it (asyncio on qasync)"),
    ("written", "SSE headers + first event written"),
    ("client headers", "client has the response headers"),
    ("client text", "client parsed the first text"),
]


def instrument() -> None:
    """Wrap the hops of one streamed request (child process); one HOPS line per finished response."""
    import uvicorn.protocols.http.h11_impl as h11

    from eagle_chat.core.generation import engine, streamer
    from eagle_chat.core.generation.reasoning import ReasoningSplitter
    from eagle_chat.core.serving import backend, http
    from eagle_chat.ui.runtime import request_queue, worker

    marks: dict[str, float] = {}  # set from several threads: dict.setdefault is atomic

    def mark(name: str) -> None:
        marks.setdefault(name, time.perf_counter())

    def before(cls, name: str, label: str, *, is_async: bool = False) -> None:
        original = getattr(cls, name)
        if is_async:
            async def wrapped(*args, **kwargs):
                mark(label)
                return await original(*args, **kwargs)
        else:
            def wrapped(*args, **kwargs):
                mark(label)
                return original(*args, **kwargs)
        setattr(cls, name, wrapped)

    def after(cls, name: str, label: str) -> None:
        original = getattr(cls, name)

        def wrapped(*args, **kwargs):
            result = original(*args, **kwargs)
            mark(label)
            return result
        setattr(cls, name, wrapped)

    before(h11.H11Protocol, "data_received", "recv")
    before(http._Api, "_complete", "handler", is_async=True)
    before(backend.Job, "__init__", "job")
    after(request_queue.RequestQueue, "_dispatch", "dispatched")
    before(engine.Engine, "_config", "engine")
    before(streamer.ChunkStreamer, "start", "pipe")
    on_text = streamer.ChunkStreamer._on_text

    def text(self, piece):  # the first text a reader sees, as the API's splitter decides it
        splitter = self.__dict__.setdefault("_hops_splitter", ReasoningSplitter())
        if "text" not in marks and any(splitter.feed(piece)):
            mark("text")
        return on_text(self, piece)

    streamer.ChunkStreamer._on_text = text
    flush = worker._ChunkBatcher.flush

    def signalled(self):
        if "text" in marks and self._parts:
            mark("signal")
        flush(self)

    worker._ChunkBatcher.flush = signalled
    on_chunk = backend.Job.on_chunk

    def gui(self, *args):
        if "signal" in marks:
            mark("gui")
        on_chunk(self, *args)

    backend.Job.on_chunk = gui
    send, next_event = h11.RequestResponseCycle.send, backend.Job.next_event

    async def loop_event(self):
        event = await next_event(self)
        if event.kind == "chunk" and "gui" in marks:
            mark("loop")
        return event

    async def sent(self, message):
        await send(self, message)
        if message["type"] == "http.response.body":
            if "loop" in marks:
                mark("written")
            if not message.get("more_body"):
                print("HOPS " + json.dumps(marks), file=sys.stderr, flush=True)
                marks.clear()

    backend.Job.next_event = loop_event
    h11.RequestResponseCycle.send = sent


def main() -> None:
    if sys.argv[1:2] == ["--instrumented"]:
        instrument()
        from eagle_chat import cli
        sys.exit(cli.main(sys.argv[2:]))
    home = private_home()
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--model", default=str(ROOT / "tests" / "models" / "tiny-qwen3"))
    parser.add_argument("--draft", default=str(ROOT / "tests" / "models" / "tiny-qwen3-eagle3"))
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()

    import httpx

    log_path = home / "serve.log"
    server = subprocess.Popen(
        [sys.executable, __file__, "--instrumented", "serve", "--model", args.model, "--draft", args.draft,
         "--k", str(args.k), "--port", "0", "--home", str(home / "srv")],
        stdout=subprocess.PIPE, stderr=open(log_path, "w"), text=True, cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)))
    rows = []
    try:
        url = next((m.group(1) for line in server.stdout
                    if (m := re.search(r"(http://127\.0\.0\.1:\d+/v1)", line))), None)
        assert url, f"the server did not start; see {log_path}"
        model = os.path.basename(args.model.rstrip("/"))
        with httpx.Client(base_url=url, timeout=300) as client:
            for repeat in range(args.repeats + 1):  # the first round warms up
                for prompt in PROMPTS:
                    row = _request(client, model, prompt, args)
                    if repeat:
                        rows.append(row)
    finally:
        server.terminate()
        server.wait(timeout=60)
    hops = [json.loads(line[5:]) for line in log_path.read_text().splitlines() if line.startswith("HOPS ")]
    hops = hops[-len(rows):]
    for row, marks in zip(rows, hops):
        row.update(marks)
    missing = [name for name, _ in HOPS if any(name not in row for row in rows)]
    assert not missing, f"these marks never fired (renamed code?): {missing}"
    print(f"{len(rows)} streamed requests, {args.max_new_tokens} max tokens, K={args.k}; median ms")
    print(f"{'mark':16}{'from sent':>10}{'step':>8}  what happened by then")
    previous = 0.0
    for name, what in HOPS:
        at = median((row[name] - row["sent"]) * 1000.0 for row in rows)
        print(f"{name:16}{at:10.2f}{at - previous:+8.2f}  {what}")
        previous = at
    engine = median((row["text"] - row["engine"]) * 1000.0 for row in rows)
    added = median((row["client text"] - row["sent"] - row["text"] + row["engine"]) * 1000.0 for row in rows)
    print(f"engine start → first text (the engine's own TTFT) {engine:.2f} ms; "
          f"the rest, what the API adds: {added:.2f} ms (median per request)")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def _request(client, model: str, prompt: str, args) -> dict:
    body = {"model": model, "messages": [{"role": "user", "content": prompt}], "stream": True,
            "max_tokens": args.max_new_tokens, "num_assistant_tokens": args.k}
    row = {"sent": time.perf_counter()}
    with client.stream("POST", "/chat/completions", json=body) as response:
        row["client headers"] = time.perf_counter()
        for line in response.iter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            choices = json.loads(line[6:])["choices"]
            delta = choices[0]["delta"] if choices else {}
            if "client text" not in row and (delta.get("content") or delta.get("reasoning_content")):
                row["client text"] = time.perf_counter()
    return row


if __name__ == "__main__":
    main()
