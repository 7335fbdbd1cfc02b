"""Shared fixtures: offscreen Qt, a private EAGLE_CHAT_HOME per test, the tiny models, leak checks."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HF_HUB_OFFLINE"] = os.environ.get("HF_HUB_OFFLINE", "1")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"  # never the user's real keyring

import eagle_chat  # noqa: E402,F401 - applies the privacy switches before anything imports openvino

# The local model hub (fixtures fake_hub, hub_env, tiny_catalog) for the download / Get models tests, and
# hold_lock (a second process holding a SQLite lock) for the store tests; a hung test ends the run with every
# thread's stack (tests.hang_guard, beside pytest-timeout); the test kit's fixtures (tests/helpers): the window
# factory open_window, the zh_CN translator, the palette.
pytest_plugins = ["tests.fake_hub", "tests.locks", "tests.hang_guard",
                  "tests.helpers.window", "tests.helpers.language", "tests.helpers.theme"]

# EAGLE_CHAT_TINY_MODELS runs the whole suite on another pair of the same layout.
MODELS_DIR = Path(os.environ.get("EAGLE_CHAT_TINY_MODELS") or Path(__file__).parent / "models")
TINY_TARGET = MODELS_DIR / "tiny-qwen3"
TINY_DRAFT = MODELS_DIR / "tiny-qwen3-eagle3"
PROMPTS_FILE = Path(__file__).parent / "prompts.txt"
# f32 everywhere in tests: at the CPU's default bf16, near-tied logits can make greedy outputs part.
F32 = "f32"


@pytest.fixture(autouse=True)
def eagle_home(tmp_path_factory, monkeypatch) -> Path:
    """Every test gets its own EAGLE_CHAT_HOME, so nothing touches the real user folders."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("EAGLE_CHAT_HOME", str(home))
    # A new documents index embeds with the tiny embedder (random weights: a test fixture, never the product's
    # default, which is keyword search alone); the tests of that default take this away.
    monkeypatch.setenv("EAGLE_CHAT_EMBEDDER", str(MODELS_DIR / "tiny-embedder"))
    return home


@pytest.fixture(autouse=True)
def no_leaked_threads():
    """Fail a test that leaves a Python thread, a controller QThread or an engine host process running."""
    before = set(threading.enumerate())
    yield
    import sys

    leaked = [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
    for thread in leaked:
        thread.join(timeout=5)
    leaked = [t for t in leaked if t.is_alive()]
    assert not leaked, f"threads outlived the test: {leaked}"
    controller = sys.modules.get("eagle_chat.ui.runtime.controller")
    if controller is not None:
        running = [t for t in list(controller.LIVE_THREADS) if t.isRunning()]
        assert not running, f"QThreads outlived the test: {[t.objectName() for t in running]}"
    import multiprocessing

    hosts = [p for p in multiprocessing.active_children() if p.name == "EagleChat engine"]
    assert not hosts, f"engine host processes outlived the test: {[p.pid for p in hosts]}"


@pytest.fixture(autouse=True)
def shared_app_restored():
    """The QApplication is shared by the whole session: a test that switches the theme or the UI language
    (the every-action smoke test triggers View → Theme and View → Language) must not leave the next test
    a dark palette or Chinese texts."""
    yield
    import sys

    widgets = sys.modules.get("PySide6.QtWidgets")
    app = widgets.QApplication.instance() if widgets else None
    if app is None:
        return
    from PySide6.QtCore import QLocale

    from eagle_chat.ui.widgets import theme
    from eagle_chat.ui.words import i18n

    if theme.is_dark(app.palette()):
        theme.apply_theme(app, "system")
        if theme.is_dark(app.palette()):
            app.setPalette(app.style().standardPalette())
    if QLocale().language() != QLocale.Language.English:
        i18n.apply_language(app, "en")
    app.processEvents()


@pytest.fixture(scope="session")
def tiny_pair() -> tuple[Path, Path]:
    assert (TINY_TARGET / "openvino_model.xml").is_file(), "tiny models missing: run tools/build_tiny_models.py"
    return TINY_TARGET, TINY_DRAFT


@pytest.fixture(scope="session")
def prompts() -> list[str]:
    return [line for line in PROMPTS_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def shared_spec_engine(tiny_pair):
    from eagle_chat.core.generation.engine import Engine, PipelineSpec

    engine = Engine(PipelineSpec(tiny_pair[0], tiny_pair[1], device="CPU", precision=F32))
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def shared_plain_engine(tiny_pair):
    from eagle_chat.core.generation.engine import Engine, PipelineSpec

    engine = Engine(PipelineSpec(tiny_pair[0], None, device="CPU", precision=F32))
    yield engine
    engine.close()


def _fresh_record(engine):
    """The automatic method choice learns from the engine's own replies (core.generation.speculation); a test
    starts from what a new engine knows, not from what the tests before it taught it (seen: after other files'
    replies, test_steps' EAGLE-3 counts came from prompt lookup, chosen as measured faster)."""
    from eagle_chat.core.generation import speculation

    engine.record = speculation.Record()
    return engine


@pytest.fixture
def spec_engine(shared_spec_engine):
    """One EAGLE-3 engine on the tiny pair (f32), loaded once for the engine tests, with a fresh method record."""
    return _fresh_record(shared_spec_engine)


@pytest.fixture
def plain_engine(shared_plain_engine):
    """A draft-free engine on the tiny target (f32): the reference for lossless checks (fresh method record)."""
    return _fresh_record(shared_plain_engine)


# Test files that need POSIX (SIGKILL/SIGINT sent to a child, process groups, unshare, the Linux bundle build):
# marked posix_only, deselected by the Windows CI job (-m "not posix_only") and skipped on Windows, so there
# they are reported as not run rather than failing. tests/serving/served.py stops `eagle-chat serve` with
# SIGINT, so the files that start a server through it are listed too. A single test can carry the marker.
POSIX_ONLY_FILES = {
    "tests/documents/test_bad_inputs.py", "tests/documents/test_index.py", "tests/packaging/test_bundle.py",
    "tests/system/test_closing.py", "tests/system/test_engine_crash.py", "tests/system/test_faults.py",
    "tests/system/test_privacy.py", "tests/system/test_single_instance.py", "tests/ui/test_engine_host.py",
    "tests/ui/test_remote_backend.py",
    *(f"tests/serving/test_{name}.py" for name in (
        "api_agent_turns", "api_embeddings", "api_fuzz", "api_guards", "api_input", "api_openai", "api_responses",
        "api_tools", "callers", "serve_load", "shutdown", "timeouts")),
}
ROOT_DIR = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(config, items):
    import sys

    for item in items:
        if item.path.resolve().relative_to(ROOT_DIR).as_posix() in POSIX_ONLY_FILES:
            item.add_marker(pytest.mark.posix_only)
        if sys.platform == "win32" and item.get_closest_marker("posix_only"):
            item.add_marker(pytest.mark.skip(reason="needs POSIX signals or process groups (posix_only)"))
