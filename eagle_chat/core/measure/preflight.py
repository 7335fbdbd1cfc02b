"""The facts behind the demo pre-flight panel, and the rules that turn them into checks — no Qt, no words.

Each check is a :class:`Check`: a key, a status (``ok``, ``warn``, ``todo`` — something the app can fix —
or ``unknown``), the numbers and names a sentence is built from (the UI words them), and the fix the app
can apply, if any. Facts about the machine are read the cheapest portable way and degrade to "unknown":

- **Power**: ``psutil.sensors_battery()`` when psutil is installed (it is not a dependency of EagleChat),
  else ``/sys/class/power_supply`` on Linux; on battery a laptop CPU may be throttled.
- **CPU load from other programs**: two samples of the system's CPU time a second or two apart
  (``psutil.cpu_times`` or ``/proc/stat``), minus this process's own time (``os.times``); the busiest other
  processes are named from ``/proc/<pid>/stat`` (or psutil). Without either, ``os.getloadavg``.
- **Compiled-model cache**: the ``.blob`` files OpenVINO writes to ``CACHE_DIR``; a load that found its
  blobs there writes none.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Status = Literal["ok", "warn", "todo", "unknown"]
Fix = Literal["load", "speed-demo", "tune", "warm-up"]

BUSY_OTHERS = 0.25  # other programs using more than a quarter of the machine's CPU time: warn
TOP_PROCESSES = 3
MIN_PROCESS_SHARE = 0.10  # of one core, to be named


@dataclass(frozen=True)
class Check:
    key: str
    status: Status
    facts: dict = field(default_factory=dict)
    fix: Fix | None = None


# --- power -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PowerFacts:
    kind: Literal["mains", "battery", "no-battery", "unknown"]
    percent: float | None = None


def power_facts(sysfs: Path = Path("/sys/class/power_supply")) -> PowerFacts:
    try:
        import psutil
    except ImportError:
        return sysfs_power(sysfs)
    if hasattr(psutil, "sensors_battery"):
        try:
            battery = psutil.sensors_battery()
        except (OSError, RuntimeError, NotImplementedError):
            battery = None
        else:
            if battery is None:
                known = sys.platform != "linux" or _has_sysfs(sysfs)  # an empty sysfs: a VM, or no driver
                return PowerFacts("no-battery" if known else "unknown")
            return PowerFacts("mains" if battery.power_plugged else "battery", float(battery.percent))
    return sysfs_power(sysfs)


def _has_sysfs(sysfs: Path) -> bool:
    return sysfs.is_dir() and any(sysfs.iterdir())


def sysfs_power(sysfs: Path) -> PowerFacts:
    """Linux: a mains or USB supply online → mains; a battery discharging → battery; none listed → unknown."""
    if not _has_sysfs(sysfs):
        return PowerFacts("unknown")
    mains_online, battery_seen, discharging, percent = False, False, False, None
    for supply in sysfs.iterdir():
        kind = _read(supply / "type")
        if kind in ("Mains", "USB", "USB_C", "USB_PD") and _read(supply / "online") == "1":
            mains_online = True
        elif kind == "Battery":
            battery_seen = True
            discharging |= _read(supply / "status") == "Discharging"
            capacity = _read(supply / "capacity")
            percent = float(capacity) if capacity and capacity.isdigit() else percent
    if discharging and not mains_online:
        return PowerFacts("battery", percent)
    if mains_online:
        return PowerFacts("mains", percent)
    return PowerFacts("unknown" if battery_seen else "no-battery", percent)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return None


def check_power(facts: PowerFacts) -> Check:
    statuses: dict[str, Status] = {"mains": "ok", "no-battery": "ok", "battery": "warn", "unknown": "unknown"}
    status = statuses[facts.kind]
    return Check("power", status, {"kind": facts.kind, "percent": facts.percent})


# --- CPU load ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CpuSample:
    at: float
    busy_s: float | None  # CPU seconds spent busy by the whole system, summed over cores
    own_s: float  # this process's CPU seconds
    processes: dict[int, tuple[str, float]]  # pid → (label, CPU seconds)
    load_average: float | None = None


@dataclass(frozen=True)
class CpuLoad:
    cores: int
    seconds: float
    others: float | None  # share of the machine's CPU time used by other programs, 0…1
    own: float | None
    top: list[tuple[str, float]]  # (label, share of one core)
    load_average: float | None = None


def sample_cpu(proc: Path = Path("/proc")) -> CpuSample:
    times = os.times()
    own = times.user + times.system
    busy, processes = _proc_busy(proc), _proc_processes(proc)
    if busy is None:
        busy, processes = _psutil_busy()
    load = None
    if sys.platform != "win32":  # Windows has no load average
        try:
            load = os.getloadavg()[0]
        except OSError:
            pass
    return CpuSample(time.monotonic(), busy, own, processes, load)


def _proc_busy(proc: Path) -> float | None:
    if sys.platform == "win32":  # no /proc (and no sysconf): psutil answers
        return None
    line = (_read(proc / "stat") or "").splitlines()[:1]
    if not line or not line[0].startswith("cpu "):
        return None
    ticks = [int(v) for v in line[0].split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _proc_processes(proc: Path) -> dict[int, tuple[str, float]]:
    if sys.platform == "win32" or not (proc / "stat").is_file():
        return {}
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        stat = _read(entry / "stat")
        if not stat or ")" not in stat:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        found[int(entry.name)] = (_label(entry, stat), (int(fields[11]) + int(fields[12])) / tick)
    return found


def _label(entry: Path, stat: str) -> str:
    """``python (build_tiny_models.py)``: the program, and for interpreters the script they run."""
    name = stat[stat.find("(") + 1:stat.rfind(")")]
    try:
        argv = [a for a in (entry / "cmdline").read_bytes().decode(errors="replace").split("\0") if a]
    except OSError:
        argv = []
    script = next((Path(a).name for a in argv[1:] if not a.startswith("-")), None)
    return f"{name} ({script})" if script and name.startswith(("python", "node", "java", "ruby", "perl")) else name


def _psutil_busy() -> tuple[float | None, dict[int, tuple[str, float]]]:
    try:
        import psutil
    except ImportError:
        return None, {}
    cpu = psutil.cpu_times()
    busy = sum(cpu) - cpu.idle - getattr(cpu, "iowait", 0.0)
    processes = {}
    for p in psutil.process_iter(["name", "cpu_times"]):
        times = p.info.get("cpu_times")
        if times is not None:
            processes[p.pid] = (p.info.get("name") or str(p.pid), times.user + times.system)
    return busy, processes


def cpu_load(before: CpuSample, after: CpuSample, cores: int | None = None) -> CpuLoad:
    cores = cores or os.cpu_count() or 1
    seconds = max(after.at - before.at, 1e-6)
    own = (after.own_s - before.own_s) / (seconds * cores)
    others = None
    if before.busy_s is not None and after.busy_s is not None:
        others = min(max((after.busy_s - before.busy_s) / (seconds * cores) - own, 0.0), 1.0)
    elif after.load_average is not None:
        others = min(after.load_average / cores, 1.0)
    me = os.getpid()
    deltas = [(label, (t - before.processes[pid][1]) / seconds) for pid, (label, t) in after.processes.items()
              if pid != me and pid in before.processes]
    top = sorted((d for d in deltas if d[1] >= MIN_PROCESS_SHARE), key=lambda d: -d[1])[:TOP_PROCESSES]
    return CpuLoad(cores, seconds, others, own, top, after.load_average)


def check_cpu(load: CpuLoad | None) -> Check:
    if load is None or load.others is None:
        return Check("cpu", "unknown")
    status: Status = "warn" if load.others > BUSY_OTHERS else "ok"
    return Check("cpu", status, {"others": load.others, "top": load.top, "cores": load.cores,
                                 "seconds": load.seconds})


# --- compiled-model cache ----------------------------------------------------------------------------------
def cache_blobs(cache_dir: Path | None) -> dict[str, int]:
    """The compiled blobs in ``cache_dir``: name → size in bytes."""
    if cache_dir is None or not cache_dir.is_dir():
        return {}
    return {p.name: p.stat().st_size for p in cache_dir.glob("*.blob") if p.is_file()}


def check_cache(cache_dir: Path | None, blobs: dict[str, int], new_on_last_load: int | None,
                load_time_ms: float | None, loaded: bool) -> Check:
    """In place once the cache holds blobs; before any load, loading is the fix; a load that left the cache
    empty means the device does not cache (each start compiles)."""
    facts = {"dir": str(cache_dir) if cache_dir else None, "blobs": len(blobs), "bytes": sum(blobs.values()),
             "new": new_on_last_load, "load_time_ms": load_time_ms, "loaded": loaded}
    if cache_dir is None:
        return Check("cache", "warn", facts)
    if not blobs:
        return Check("cache", "warn", facts) if loaded else Check("cache", "todo", facts, "load")
    return Check("cache", "ok", facts)


# --- the loaded pair ---------------------------------------------------------------------------------------
def check_model(intended_target: Path, intended_draft: Path | None, intended_device: str,
                loaded_target: Path | None, loaded_device: str | None, loaded_has_draft: bool,
                name: str | None = None) -> Check:
    """``name``: how the app calls the pair (a registered name), else its folders' names are used."""
    facts = {"target": intended_target.name, "draft": intended_draft.name if intended_draft else None,
             "device": intended_device, "loaded_device": loaded_device, "name": name}
    if loaded_target is None:
        return Check("model", "todo", facts, "load")
    if intended_draft is None:
        return Check("model", "todo", facts, "speed-demo")
    same = _same(loaded_target, intended_target) and (loaded_device or "").upper() == intended_device.upper()
    if not same or not loaded_has_draft:
        return Check("model", "todo", facts, "load")
    return Check("model", "ok", facts)


def _same(a: Path, b: Path) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def check_tuned(k: int | None, tree: str, device: str, has_draft: bool) -> Check:
    if not has_draft:
        return Check("tuned", "unknown", {"device": device})
    if k is None:
        return Check("tuned", "todo", {"device": device}, "tune")
    return Check("tuned", "ok", {"k": k, "tree": tree, "device": device})


def check_warm(expected: tuple[str, ...], warmed: tuple[str, ...], loaded: bool) -> Check:
    missing = [m for m in expected if m not in warmed]
    if not loaded:
        return Check("warm", "unknown", {"missing": missing})
    return Check("warm", "todo" if missing else "ok", {"missing": missing, "modes": list(expected)},
                 "warm-up" if missing else None)


def check_speedup(kind: str, speedup: float | None, precision: str, is_speed_demo: bool) -> Check:
    """From an :class:`~eagle_chat.core.measure.speedup_outlook.Outlook`'s kind and figure."""
    facts = {"kind": kind, "speedup": speedup, "precision": precision, "is_speed_demo": is_speed_demo}
    if kind == "measured-ok":
        return Check("speedup", "ok", facts)
    if kind == "unknown":
        return Check("speedup", "todo", facts, "tune")
    if is_speed_demo:
        return Check("speedup", "warn", facts)
    return Check("speedup", "todo", facts, "speed-demo")


# --- screen ------------------------------------------------------------------------------------------------
def check_screen(width: int | None, height: int | None, need_width: int, need_height: int) -> Check:
    """Does the full-screen comparison fit in its large type? ``need_*`` is what its layout measured it needs
    on that screen (the window's business: it knows its widgets)."""
    if not width or not height:
        return Check("screen", "unknown")
    facts = {"width": width, "height": height, "need_width": need_width, "need_height": need_height}
    return Check("screen", "ok" if width >= need_width and height >= need_height else "warn", facts)
