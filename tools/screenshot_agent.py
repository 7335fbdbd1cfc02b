"""Take the agent-mode screenshot: a reply with tool calls in the real window, one block open, and the speed
chart of its steps, grabbed from a real X server.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python tools/screenshot_agent.py docs/agent-mode.png

Runs on the bundled tiny pair in a throw-away EAGLE_CHAT_HOME with the SDK-written test server
(tests/mcp_servers/tools_server.py, its add and weather tools, auto-approved): tool use Required, so the
toy model calls a tool on the first step of each reply; two questions give two calls. The first call's
block is opened as a click on it does.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import shot_kit  # noqa: E402 - beside this script (tools/)


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/agent-mode.png")
    os.environ["EAGLE_CHAT_HOME"] = tempfile.mkdtemp(prefix="eagle-shot-")
    from eagle_chat import paths

    paths.mcp_config_file().write_text(json.dumps({"mcpServers": {"local": {
        "command": sys.executable, "args": [str(ROOT / "tests" / "mcp_servers" / "tools_server.py")],
        "env": {"ONLY_TOOLS": "add,weather"}, "autoApprove": ["add", "weather"]}}}))
    from PySide6.QtCore import QUrl

    from eagle_chat.ui.chat import anchors

    window, app = shot_kit.open_ready_window()

    def pump(until, timeout=120.0):
        shot_kit.pump(app, until, timeout)

    pump(lambda: window.agent.hub.wait_started(0), 60)
    combo = window.agent.combo
    combo.setCurrentIndex(combo.findData("required"))
    combo.activated.emit(combo.currentIndex())
    for question in ("What is the weather in Oslo?", "And what is 2 + 3?"):
        window.prompt.setPlainText(question)
        window.send()
        pump(lambda: window.controller.state == "generating" or window.agent._run is not None, 30)
        pump(lambda: window.agent._run is None and window.controller.state == "ready")
    first = next(m for m in window.controller.conversation.messages if m.tool_steps)
    anchors.follow(window.chat, QUrl(f"toolcall:{first.id}:{first.tool_steps[0]['calls'][0]['id']}"))
    shot_kit.settle(app, 50)
    return shot_kit.save_screen_and_close(window, app, out)


if __name__ == "__main__":
    sys.exit(main())
