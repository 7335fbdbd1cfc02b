"""A windowed build has no standard streams; the engine host it starts must still log and reply."""

from __future__ import annotations

import threading

from eagle_chat.core.generation.engine import GenerationSettings, PipelineSpec
from eagle_chat.core.hosting import client, host_process
from tests.conftest import F32
from tests.windows.streamless_host import run_without_std_streams


def test_the_engine_host_runs_without_stdout_and_stderr(tiny_pair, tmp_path, monkeypatch):
    monkeypatch.setattr(host_process, "run", run_without_std_streams)
    log = tmp_path / "engine.log"
    host = client.EngineHost(log)
    try:
        host.load(PipelineSpec(tiny_pair[0], tiny_pair[1], device="CPU", precision=F32))
        chunks: list[str] = []
        result = host.generate([{"role": "user", "content": "hello"}], GenerationSettings(max_new_tokens=8),
                               threading.Event(), on_chunk=lambda text, *_: chunks.append(text),
                               on_steps=lambda steps: None)
    finally:
        host.close()
    assert result.stats.generated_tokens > 0 and "".join(chunks)
    assert "engine host" in log.read_text(encoding="utf-8")  # logging reached the log through the new streams
