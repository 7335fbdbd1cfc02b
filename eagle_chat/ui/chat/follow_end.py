"""FollowEnd: a view scrolled to its end stays there when its page grows or reflows.

The chat scrolled to the end when it drew a reopened conversation, but that was before the window was
shown: laid out at its final width the page grew and the view stayed where it was — the top, or the
middle once older messages came in. Here the view follows the end as long as the reader left it there
(the last scroll position was the end); a reader who scrolled up is left alone.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer, Slot
from PySide6.QtWidgets import QAbstractScrollArea

SLACK_PX = 4  # this close to the end counts as the end


class FollowEnd(QObject):
    def __init__(self, view: QAbstractScrollArea):
        super().__init__(view)
        self._bar = view.verticalScrollBar()
        self.following = True
        self._bar.valueChanged.connect(self._on_moved)
        self._bar.rangeChanged.connect(self._on_range)
        view.installEventFilter(self)  # a resize moves the view itself (Qt keeps the top line): back to the end

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show) and self.following:
            QTimer.singleShot(0, self, self._back_to_end)
        return False

    def _back_to_end(self) -> None:
        self._bar.setValue(self._bar.maximum())
        self.following = True

    @Slot(int)
    def _on_moved(self, value: int) -> None:
        self.following = value >= self._bar.maximum() - SLACK_PX

    @Slot(int, int)
    def _on_range(self, _minimum: int, maximum: int) -> None:
        if self.following and self._bar.value() != maximum:
            self._bar.setValue(maximum)
