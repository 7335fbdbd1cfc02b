"""The Qt-free parts of demo preparation: how a comparison is laid out and judged, what is known about a
pair's speed-up, and the pre-flight facts and rules."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import SimpleNamespace

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.measure import preflight as pf
from eagle_chat.core.measure.compare import Comparison, ComparisonRun, plan_runs
from eagle_chat.core.measure.speedup_outlook import outlook, remember_speedup, speedup_key


def test_plan_warms_up_both_modes_first_then_alternates_which_goes_first():
    plan = plan_runs(3)
    assert [(p.mode, p.repeat, p.warmup) for p in plan] == [
        ("baseline", -1, True), ("speculative", -1, True),
        ("baseline", 0, False), ("speculative", 0, False),
        ("speculative", 1, False), ("baseline", 1, False),
        ("baseline", 2, False), ("speculative", 2, False),
    ]
    assert [p.position for p in plan] == list(range(8))
    assert not any(p.warmup for p in plan_runs(2, warmup=False))


def _stats(mode, rate):
    return GenerationStats(mode=mode, num_assistant_tokens=3, generated_tokens=10, input_tokens=3, ttft_ms=5.0,
                           tpot_ms=1.0, tokens_per_s=rate, duration_ms=12.0)


def test_warm_ups_are_kept_but_not_counted_and_every_answer_is_compared():
    runs = [ComparisonRun(0, "baseline", -1, True, _stats("baseline", 1.0), "abc"),
            ComparisonRun(1, "speculative", -1, True, _stats("speculative", 9999.0), "abc"),
            ComparisonRun(2, "baseline", 0, False, _stats("baseline", 100.0), "abc"),
            ComparisonRun(3, "speculative", 0, False, _stats("speculative", 200.0), "abc"),
            ComparisonRun(4, "speculative", 1, False, _stats("speculative", 210.0), "abX"),
            ComparisonRun(5, "baseline", 1, False, _stats("baseline", 105.0), "abc")]
    comparison = Comparison("p", runs)
    assert comparison.speedup == (205.0 / 102.5) and comparison.repeats == 2
    assert comparison.spread("speculative") == (200.0, 210.0) and comparison.verdict == "faster"
    assert [r["warmup"] for r in comparison.to_rows()] == [True, True, False, False, False, False]
    assert not comparison.identical and comparison.divergence.index == 2  # the second EAGLE-3 answer parted


def _settings(**measured):
    return SimpleNamespace(measured_speedup=dict(measured), tuned_k={}, tuned_tree={})


def test_outlook_knows_the_bundled_pair_and_learns_the_others(tmp_path):
    target, draft = tmp_path / "t", tmp_path / "d"
    settings = _settings()
    bundled = outlook(settings, target, draft, "CPU", "f32", bundled=True)
    assert bundled.kind == "too-small" and bundled.offer_speed_demo
    assert outlook(settings, target, None, "CPU", "f32", bundled=False).offer_speed_demo
    unknown = outlook(settings, target, draft, "CPU", "f32", bundled=False)
    assert unknown.kind == "unknown" and not unknown.offer_speed_demo
    remember_speedup(settings, target, draft, "CPU", "f32", 1.07)
    low = outlook(settings, target, draft, "CPU", "f32", bundled=False)
    assert (low.kind, low.speedup, low.offer_speed_demo) == ("measured-low", 1.07, True)
    assert outlook(settings, target, draft, "CPU", "default", bundled=False).kind == "unknown"  # per precision
    assert not outlook(settings, target, draft, "CPU", "f32", bundled=False, is_speed_demo=True).offer_speed_demo
    remember_speedup(settings, target, draft, "CPU", "f32", 2.3)
    assert outlook(settings, target, draft, "CPU", "f32", bundled=False).kind == "measured-ok"
    assert list(settings.measured_speedup) == [speedup_key(target, draft, "CPU", "f32")]


def _supply(root: Path, name: str, **files: str) -> None:
    (root / name).mkdir(parents=True)
    for key, value in files.items():
        (root / name / key).write_text(value + "\n")


def test_power_from_sysfs(tmp_path):
    assert pf.sysfs_power(tmp_path / "none").kind == "unknown"
    laptop = tmp_path / "laptop"
    _supply(laptop, "AC", type="Mains", online="0")
    _supply(laptop, "BAT0", type="Battery", status="Discharging", capacity="42")
    assert pf.sysfs_power(laptop) == pf.PowerFacts("battery", 42.0)
    plugged = tmp_path / "plugged"
    _supply(plugged, "AC", type="Mains", online="1")
    _supply(plugged, "BAT0", type="Battery", status="Charging", capacity="80")
    assert pf.sysfs_power(plugged).kind == "mains"
    desktop = tmp_path / "desktop"
    _supply(desktop, "ucsi-source-psy", type="USB", online="0")
    assert pf.sysfs_power(desktop).kind == "no-battery"
    assert pf.check_power(pf.PowerFacts("battery", 42.0)).status == "warn"
    assert pf.check_power(pf.PowerFacts("unknown")).status == "unknown"


def test_power_without_psutil_reads_sysfs(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "psutil", None)  # not installed
    laptop = tmp_path / "ps"
    _supply(laptop, "BAT1", type="Battery", status="Discharging", capacity="15")
    assert pf.power_facts(laptop) == pf.PowerFacts("battery", 15.0)


def test_cpu_load_subtracts_this_process_and_names_the_busiest_others():
    me = os.getpid()
    before = pf.CpuSample(10.0, busy_s=100.0, own_s=5.0, processes={1: ("python (build.py)", 50.0),
                                                                     2: ("sshd", 1.0), me: ("python", 5.0)})
    after = pf.CpuSample(12.0, busy_s=103.0, own_s=6.0, processes={1: ("python (build.py)", 51.8),
                                                                    2: ("sshd", 1.02), me: ("python", 6.0),
                                                                    3: ("new", 0.5)})
    load = pf.cpu_load(before, after, cores=2)
    assert load.own == 0.25 and load.others == 0.5  # 3 busy s of 4 core-seconds, 1 of them ours
    assert [name for name, _ in load.top] == ["python (build.py)"]  # sshd too small, ours and new left out
    assert abs(load.top[0][1] - 0.9) < 1e-9  # 1.8 CPU s in 2 s: 90 % of one core
    assert pf.check_cpu(load).status == "warn"
    quiet = pf.cpu_load(before, pf.CpuSample(12.0, 101.2, 6.0, {}), cores=2)
    assert pf.check_cpu(quiet).status == "ok" and pf.check_cpu(None).status == "unknown"


def test_a_real_cpu_sample_sees_this_process():
    sample = pf.sample_cpu()
    if Path("/proc/stat").is_file():
        assert sample.busy_s is not None and os.getpid() in sample.processes
    assert sample.own_s >= 0


def test_model_cache_warm_and_screen_checks(tmp_path):
    target, draft = tmp_path / "t", tmp_path / "d"
    assert pf.check_model(target, draft, "CPU", None, None, False).fix == "load"
    assert pf.check_model(target, None, "CPU", target, "CPU", False).fix == "speed-demo"
    assert pf.check_model(target, draft, "GPU", target, "CPU", True).fix == "load"  # not the intended device
    assert pf.check_model(target, draft, "CPU", target, "CPU", True).status == "ok"
    cache = tmp_path / "cache"
    cache.mkdir()
    assert pf.check_cache(cache, {}, None, None, loaded=False).fix == "load"
    assert pf.check_cache(cache, {}, 0, 900.0, loaded=True).status == "warn"  # the device does not cache
    (cache / "1.blob").write_bytes(b"x" * 10)
    blobs = pf.cache_blobs(cache)
    assert blobs == {"1.blob": 10} and pf.check_cache(cache, blobs, 1, 900.0, loaded=True).status == "ok"
    assert pf.check_cache(None, {}, None, None, loaded=True).status == "warn"
    assert pf.check_warm(("baseline", "speculative"), ("baseline",), True).facts["missing"] == ["speculative"]
    assert pf.check_warm(("baseline", "speculative"), ("speculative", "baseline"), True).status == "ok"
    assert pf.check_screen(1920, 1080, 1200, 700).status == "ok"  # what the window's layout measured it needs
    small = pf.check_screen(1280, 600, 1200, 700)
    assert small.status == "warn" and small.facts["need_height"] == 700
    assert pf.check_screen(1280, 720, 1281, 700).status == "warn"  # a pixel too narrow is too narrow
    assert pf.check_screen(None, None, 1200, 700).status == "unknown"
