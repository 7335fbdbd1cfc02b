"""OtherSourceButton: when a download could not reach its hub (Hugging Face is blocked or slow in some
countries), the Get models dialog says that the other hub (ModelScope) has the model too and offers to
download from there in one click."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton

from eagle_chat.core.models.catalog import SOURCE_LABELS


class OtherSourceButton(QPushButton):
    def __init__(self, dialog):
        super().__init__()
        self.setObjectName("tryOtherSourceButton")
        self._dialog = dialog
        self.clicked.connect(self._download_there)
        self.hide()

    def other_source(self) -> str | None:
        """The other hub that carries the selected entry for the chosen device, if any."""
        d = self._dialog
        entry = d.selected_entry()
        if entry is None:
            return None
        return next((s for s in entry.sources(d.device_combo.currentText()) if s != d.source_combo.currentData()),
                    None)

    def offer(self) -> str:
        """Show the button if another hub has the entry; returns the sentence to add to the failure ("" if none)."""
        other = self.other_source()
        if other is None:
            return ""
        here, there = SOURCE_LABELS[self._dialog.source_combo.currentData()], SOURCE_LABELS[other]
        self.setText(self.tr("Download from {there}").format(there=there))
        self.show()
        return " " + self.tr("{there} has this model too, and is often reachable where {here} is not.").format(
            there=there, here=here)

    def _download_there(self) -> None:
        other = self.other_source()
        self.hide()
        if other is not None:
            d = self._dialog
            d.source_combo.setCurrentIndex(d.source_combo.findData(other))
            d.start_download()
