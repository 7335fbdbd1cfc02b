"""Take docs/get-models-720p.png: the Get models dialog on a 1280×720 screen with the built-in catalog, the
verified Qwen3 entries selectable on a default install (no optimum-intel, no PyTorch needed).

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python tools/screenshot_get_models.py docs/get-models-720p.png
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/get-models-720p.png")
    os.environ["EAGLE_CHAT_HOME"] = tempfile.mkdtemp(prefix="eagle-shot-")
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from eagle_chat.core.models.catalog import load_catalog
    from eagle_chat.ui.models.get_models import GetModelsDialog

    app = QApplication(sys.argv[:1])
    dialog = GetModelsDialog(catalog=load_catalog())
    dialog.select_entry("qwen3-1.7b")
    dialog.show()
    screen = QGuiApplication.primaryScreen().availableGeometry()
    frame = dialog.frameGeometry()
    dialog.move(max((screen.width() - frame.width()) // 2, 0), max((screen.height() - frame.height()) // 2, 0))

    def grab() -> None:
        QGuiApplication.primaryScreen().grabWindow(0).save(str(out))
        print(f"{out}: dialog {dialog.frameGeometry().width()}×{dialog.frameGeometry().height()} on "
              f"{screen.width()}×{screen.height()}")
        dialog.close()
        app.quit()

    QTimer.singleShot(1500, grab)
    app.exec()
    return 0


if __name__ == "__main__":
    sys.exit(main())
