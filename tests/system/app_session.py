"""A scripted EagleChat session for tests that must run the app in a separate process.

    python tests/system/app_session.py HOME MAX_NEW_TOKENS PROMPT

Opens the real window offscreen on HOME, waits for the model, sends PROMPT, prints the reply's stats
line and exits 0 when the reply is finished. Used by the privacy test (run under strace in an empty
network namespace) and the kill test (killed with SIGKILL mid-reply).
"""

import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main() -> int:
    home, max_new_tokens, prompt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window
    from eagle_chat.ui import texts

    window = create_main_window(["--home", home])
    app = QApplication.instance()
    deadline = time.monotonic() + 120
    while window.controller.state not in ("ready", "empty") and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.005)
    if window.controller.state != "ready":
        print("LOAD FAILED:", window.notice.text(), flush=True)
        return 1
    print("READY", flush=True)
    done = []
    window.controller.sig_reply_finished.connect(lambda message, result: done.append(result))
    window.options.max_tokens.setValue(max_new_tokens)
    window.prompt.setPlainText(prompt)
    window.send()
    while not done and time.monotonic() < deadline + 300:
        app.processEvents()
        time.sleep(0.005)
    result = done[0] if done else None
    print("REPLY", texts.stats_summary(result.stats) if result else "none", flush=True)
    window.close()  # the next-turn prefill may run: the window stays up saying "Closing after …" until it ends
    while not window.closer.done and time.monotonic() < deadline + 360:
        app.processEvents()
        time.sleep(0.005)
    trace_marker()
    return 0 if result is not None else 1


def trace_marker() -> None:
    """A harmless local connect (an AF_UNIX socket to a path that does not exist) so a tracer can show
    it saw this process at all."""
    import socket

    with socket.socket(socket.AF_UNIX) as sock:
        try:
            sock.connect("/nonexistent/eagle-chat-trace-marker")
        except OSError:
            pass


if __name__ == "__main__":
    sys.exit(main())
