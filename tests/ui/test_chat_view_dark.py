"""The chat view in dark mode: role names, status notes, the "not sent to the model" mark and a failed
reply's reason are drawn in the theme's colours, readable (≥ 4.5:1) on the view's own base colour; and a
theme switch draws the messages already shown again in the new colours — those in view first, the rest
between frames, so a long conversation does not freeze the window."""

from __future__ import annotations

from PySide6.QtGui import QPalette, QTextDocument

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.chat.chat_view import ChatView

CODE = "Here is one:\n\n```python\ndef merge(a, b):\n    return sorted(a + b)\n```\n\nDone {i}."


def colour_of(view: ChatView, text: str, nth: int = 0) -> str:
    """The colour ``text`` (its ``nth`` occurrence) is drawn in."""
    cursor = None
    for _ in range(nth + 1):
        cursor = view.document().find(text, cursor or 0, QTextDocument.FindFlag.FindCaseSensitively)
        assert not cursor.isNull(), text
    return cursor.charFormat().foreground().color().name()


def stats(dropped: int = 0) -> GenerationStats:
    return GenerationStats(mode="baseline", num_assistant_tokens=0, generated_tokens=5, input_tokens=30,
                           ttft_ms=10.0, tpot_ms=5.0, tokens_per_s=100.0, duration_ms=40.0, history_dropped=dropped)


def conversation() -> Conversation:
    return Conversation(messages=[
        Message("user", "Old question?", id=1),
        Message("assistant", "Old answer.", id=2, stats=stats()),
        Message("user", "Write a merge", id=3),
        Message("assistant", "Half a rep", id=4, status="stopped", stats=stats(dropped=2)),
        Message("user", "Again", id=5),
        Message("assistant", "", id=6, status="failed", error="The device was lost"),
    ])


def make_view(qtbot, shown: Conversation) -> ChatView:
    view = ChatView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    view.show_conversation(shown)
    qtbot.waitUntil(lambda: not view.loading(), timeout=20_000)
    return view


def test_on_a_dark_palette_the_role_names_and_notes_are_readable(qtbot, palette):
    palette("dark")
    view = make_view(qtbot, conversation())
    base = view.palette().color(QPalette.ColorRole.Base).name()
    assert base == theme.dark_palette().color(QPalette.ColorRole.Base).name()
    drawn = {
        "You": colour_of(view, "You"),
        "EagleChat": colour_of(view, "EagleChat"),
        "(stopped)": colour_of(view, "(stopped)"),
        "(failed)": colour_of(view, "(failed)"),
        "mark": colour_of(view, "Earlier messages are not sent to the model"),
        "error": colour_of(view, "The device was lost"),
    }
    assert drawn["You"] == theme.DARK.user_role and drawn["EagleChat"] == theme.DARK.assistant_role
    assert drawn["(stopped)"] == theme.DARK.warning and drawn["error"] == theme.DARK.danger
    unreadable = {k: round(theme.contrast_ratio(v, base), 2) for k, v in drawn.items()
                  if theme.contrast_ratio(v, base) < 4.5}
    assert unreadable == {}
    html = view.toHtml().lower()
    for light_only in ("#1d4ed8", "#047857", "#b45309", "#b91c1c", "#6b7280"):  # the old literals
        assert light_only not in html


def test_a_theme_switch_redraws_the_messages_already_shown(qtbot, palette):
    palette("light")
    view = make_view(qtbot, conversation())
    assert colour_of(view, "You") == theme.LIGHT.user_role
    assert colour_of(view, "(stopped)") == theme.LIGHT.warning
    palette("dark")
    qtbot.waitUntil(lambda: not view.loading(), timeout=20_000)
    assert colour_of(view, "You") == theme.DARK.user_role
    assert colour_of(view, "You", nth=2) == theme.DARK.user_role
    assert colour_of(view, "EagleChat", nth=2) == theme.DARK.assistant_role
    assert colour_of(view, "(stopped)") == theme.DARK.warning
    assert colour_of(view, "The device was lost") == theme.DARK.danger
    assert theme.LIGHT.user_role not in view.toHtml()
    palette("light")  # and back
    qtbot.waitUntil(lambda: colour_of(view, "You") == theme.LIGHT.user_role, timeout=20_000)


def test_a_long_conversation_is_redrawn_in_view_first_and_between_frames(qtbot, palette):
    palette("light")
    messages = []
    for i in range(50):
        messages += [Message("user", f"Question {i}?", id=2 * i + 1),
                     Message("assistant", CODE.format(i=i), id=2 * i + 2, stats=stats())]
    view = make_view(qtbot, Conversation(messages=messages))
    view.verticalScrollBar().setValue(0)  # reading the oldest messages
    newest = "Done 49."
    assert colour_of(view, "You") == theme.LIGHT.user_role

    palette("dark")
    qtbot.waitUntil(lambda: colour_of(view, "You") == theme.DARK.user_role, timeout=20_000)
    # The messages in view came first; the newest one, far below, is not redrawn yet: the rest follows
    # between frames (the window repaints and takes input meanwhile).
    assert view.loading()
    last_role = view.document().find("EagleChat", view.document().find(newest).position(),
                                     QTextDocument.FindFlag.FindBackward)
    assert last_role.charFormat().foreground().color().name() == theme.LIGHT.assistant_role
    qtbot.waitUntil(lambda: not view.loading(), timeout=30_000)
    last_role = view.document().find("EagleChat", view.document().find(newest).position(),
                                     QTextDocument.FindFlag.FindBackward)
    assert last_role.charFormat().foreground().color().name() == theme.DARK.assistant_role
    assert {colour_of(view, "You", nth) for nth in range(50)} == {theme.DARK.user_role}
    assert view.verticalScrollBar().value() == 0  # the reader's place is kept
