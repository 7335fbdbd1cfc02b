import pytest

from eagle_chat.core.generation.metrics import GenerationStats, RateMeter


def test_rate_meter_window_and_average():
    meter = RateMeter(window_s=0.5)
    assert meter.rate() == 0.0
    for i in range(11):  # 10 tokens every 0.1 s = 100 tok/s, then a burst
        meter.add(i * 0.1, i * 10)
    assert meter.rate() == pytest.approx(100.0)
    meter.add(1.1, 200)
    assert meter.rate() > 100.0
    assert meter.average() == pytest.approx(200 / 1.1)


def test_stats_round_trip():
    stats = GenerationStats(mode="speculative", num_assistant_tokens=4, generated_tokens=10, input_tokens=3,
                            ttft_ms=float("nan"), tpot_ms=1.0, tokens_per_s=900.0, duration_ms=12.0,
                            accepted_tokens=6, draft_tokens=8, acceptance=0.75, tokens_per_step=2.5)
    data = stats.to_dict()
    assert data["ttft_ms"] is None
    assert GenerationStats.from_dict({**data, "ttft_ms": 1.0, "future": 1}).acceptance == 0.75
