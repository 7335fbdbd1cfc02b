"""The whole main window, as a screen reader meets it: every control that can take focus and shows has a
name (QAccessible's, or for a combo box the label that is its buddy); and the window's own status and notice
sentences speak the installed language."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QComboBox, QWidget

pytestmark = pytest.mark.slow  # opens the window on the tiny model


def spoken_name(widget: QWidget) -> str:
    """The name a screen reader says: the accessible name, or for a combo box (whose AT-SPI name is its
    current item) the label a relation links to it."""
    interface = QAccessible.queryAccessibleInterface(widget)
    assert interface is not None and interface.isValid(), widget
    if isinstance(widget, QComboBox):
        labels = [label.text(QAccessible.Text.Name) for label, _ in
                  interface.relations(QAccessible.Relation.Label)]
        return (widget.accessibleName() or next((t for t in labels if t.strip()), "")).strip()
    return interface.text(QAccessible.Text.Name).strip()


def focusable_shown(window: QWidget) -> list[QWidget]:
    """What can take focus and shows in ``window``; a widget that passes its focus on (a spin box's line edit,
    a chart's viewport) is read as the one it passes it to, which is in the list itself."""
    return [w for w in window.findChildren(QWidget)
            if w.focusPolicy() != Qt.FocusPolicy.NoFocus and w.focusProxy() is None and w.isVisibleTo(window)
            and w.window() is window]


def test_every_focusable_visible_control_of_the_window_has_a_spoken_name(open_window):
    window = open_window()
    window.failures.report("The stats could not be exported.", OSError("read-only"))  # the notice's buttons show
    window.server.log.setVisible(True)  # the API request log shows once the server runs
    controls = focusable_shown(window)
    names = {w.objectName() for w in controls}
    # the check looks at the whole window: chat, composer, list, model bar, side panel, server switch
    assert {"chatView", "promptEdit", "sendButton", "conversationList", "deviceCombo", "assistantTokensSlider",
            "speedChart", "serverToggle"} <= names, names
    assert len(controls) >= 20, len(controls)
    unnamed = [f"{type(w).__name__} {w.objectName() or '(no object name)'}" for w in controls if not spoken_name(w)]
    assert unnamed == []


# context -> [(source, translation)]: a few of the window's own sentences, compiled to a .qm below
CHINESE = {
    "ModelLoads": [("Loaded in {seconds:.1f} s", "已加载，用时 {seconds:.1f} 秒")],
    "GenerationWorker": [("Stopped before it started.", "尚未开始即已停止。")],
    # the engine host raises it as a core error (template and values), the window translates it
    "core": [("The draft-free reference pipeline is not loaded.", "未加载无草稿的参考流水线。")],
}


@pytest.fixture
def chinese(chinese_translator):
    return chinese_translator({(context, source): translation for context, pairs in CHINESE.items()
                               for source, translation in pairs})


def test_the_status_bar_and_a_failed_reply_speak_chinese_while_the_api_hears_english(qtbot, open_window, chinese):
    import asyncio
    import re

    from eagle_chat.core.serving.backend import STOPPED, UNAVAILABLE, Job
    from tests.gui import LOAD_TIMEOUT_MS, REPLY_TIMEOUT_MS

    window = open_window()
    with qtbot.waitSignal(window.loads.sig_committed, timeout=LOAD_TIMEOUT_MS):
        assert window.load_model()
    assert re.fullmatch(r"已加载，用时 \d+\.\d 秒", window.statusBar().currentMessage()), \
        window.statusBar().currentMessage()

    # A reply on the draft-free pipeline, which is not loaded: the worker fails it; the window says so in Chinese.
    failed = []
    window.controller.engine.worker.sig_failed.connect(lambda *args: failed.append(args), Qt.ConnectionType.DirectConnection)
    ended = []
    handle = window.controller.run_ephemeral("hi", window.generation_settings(), draft_free=True)
    handle.sig_failed.connect(lambda *args: ended.append(args))
    qtbot.waitUntil(lambda: bool(ended), timeout=REPLY_TIMEOUT_MS)
    assert ended == [(UNAVAILABLE, "未加载无草稿的参考流水线。")] and handle.ended and handle.result is None
    assert failed[-1][1:] == (UNAVAILABLE, "The draft-free reference pipeline is not loaded.", "未加载无草稿的参考流水线。")
    assert window.notice.text() == "未加载无草稿的参考流水线。"

    # An API request that failed hears the English sentence (protocol text) and why (its HTTP status: 503).
    loop = asyncio.new_event_loop()
    try:
        async def make_job():
            return Job("hi", window.generation_settings(), label="test")

        job = loop.run_until_complete(make_job())
        job.stop.set()  # the client went away while it waited: the worker never starts it
        handle = window.controller.submit_job(job)
        assert handle is not None and handle.api
        with qtbot.waitSignal(handle.sig_ended, timeout=REPLY_TIMEOUT_MS):
            pass
        events = [loop.run_until_complete(job.next_event()) for _ in range(2)]
    finally:
        loop.close()
    assert [(e.kind, e.text, e.failure) for e in events][-1] == ("failed", "Stopped before it started.", STOPPED)
    assert window.notice.text() == "未加载无草稿的参考流水线。"  # the window's notice is not the API's
