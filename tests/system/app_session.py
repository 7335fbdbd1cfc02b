"""A scripted EagleChat session for tests that must run the app in a separate process.

    python tests/system/app_session.py HOME MAX_NEW_TOKENS PROMPT

Opens the real window offscreen on HOME, waits for the model, sends PROMPT, prints the reply's stats
line and exits 0 when the reply is finished. Used by the privacy test (run under strace in an empty
network namespace) and the kill test (killed with SIGKILL mid-reply).
"""

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main() -> int:
    home, max_new_tokens, prompt = sys.argv[1], int(sys.argv[2]), sys.argv[3]

    from eagle_chat.app import create_main_window
    from eagle_chat.ui.words import texts

    window = create_main_window(["--home", home])
    controller = window.controller
    # Every wait below ends on the app's own signal, never on a wall-clock deadline: a load takes what the
    # machine gives it (minutes under a load average of 18), and a deadline of its own shorter than its
    # caller's made the session quit by itself ("LOAD FAILED") while the test was still waiting for it. The
    # caller bounds the whole session (the kill tests kill it, the privacy test's subprocess.run timeout,
    # and pytest-timeout above both).
    wait_for(controller.sig_state, lambda: controller.state in ("ready", "empty"))
    if controller.state != "ready":
        print("LOAD FAILED:", window.notice.text(), flush=True)
        return 1
    print("READY", flush=True)
    done = []
    controller.sig_reply_finished.connect(lambda message, result: done.append(result))
    window.options.max_tokens.setValue(max_new_tokens)
    window.prompt.setPlainText(prompt)
    window.send()
    wait_for(controller.sig_reply_finished, lambda: bool(done))
    result = done[0]
    print("REPLY", texts.stats_summary(result.stats) if result else "none", flush=True)
    window.close()  # the next-turn prefill may run: the window stays up saying "Closing after …" until it ends
    wait_for(window.closer.sig_closed, lambda: window.closer.done)
    trace_marker()
    return 0 if result is not None else 1


def wait_for(signal, condition) -> None:
    """Run the event loop until ``condition()`` holds, checked now and each time ``signal`` fires."""
    from PySide6.QtCore import QEventLoop

    loop = QEventLoop()

    def check(*_args) -> None:
        if condition():
            loop.quit()

    signal.connect(check)
    if not condition():
        loop.exec()
    signal.disconnect(check)


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
