"""Take the maths screenshot: a reply with formulas in the real window, grabbed from a real X server.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python tools/screenshot_math.py --theme dark docs/math-dark.png

Runs on the bundled tiny pair in a throw-away EAGLE_CHAT_HOME. The tiny model writes no LaTeX, so the
conversation is saved to the store first (a maths answer with each delimiter form, a price and inline
code), then opened as from the conversation list; the screen is grabbed once its formulas are drawn.
``--theme dark|light`` starts the window in that theme (saved in the throw-away home's settings).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import shot_kit  # noqa: E402 - beside this script (tools/)


def main() -> int:
    argv = sys.argv[1:]
    theme = "system"
    if "--theme" in argv:
        i = argv.index("--theme")
        theme = argv[i + 1]
        del argv[i:i + 2]
    out = Path(argv[0] if argv else "docs/math-dark.png")
    os.environ["EAGLE_CHAT_HOME"] = tempfile.mkdtemp(prefix="eagle-shot-")
    from eagle_chat import paths
    from eagle_chat.settings import Settings, save_settings

    save_settings(Settings(theme=theme), paths.settings_file())

    conversation_id = save_math_conversation()
    window, app = shot_kit.open_ready_window()

    def pump(until, timeout=120.0):
        shot_kit.pump(app, until, timeout)

    return math_shot(window, app, pump, conversation_id, out)


MATH_QUESTION = "Solve x² − 5x + 6 = 0, and remind me of a few classic formulas."
MATH_REPLY = r"""For $ax^2+bx+c=0$ the roots are
$$x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}$$
Here $a=1$, $b=-5$, $c=6$, so the discriminant is \(b^2-4ac = 1\) and the roots are $x=2$ and $x=3$.

Two classics:

\[
\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}, \qquad e^{i\pi} + 1 = 0
\]

勾股定理：直角三角形中 $a^2+b^2=c^2$，其中 $c$ 是斜边。Prices stay text: $5 and $10; code keeps its
dollars:

```python
roots = [(5 + s) / 2 for s in (-1, 1)]  # $x$ stays as written here
```"""


def save_math_conversation() -> int:
    """A conversation in the throw-away home whose reply has formulas: what a maths answer looks like."""
    from eagle_chat import paths
    from eagle_chat.core.storage.conversation import Message
    from eagle_chat.core.storage.store import ConversationStore

    store = ConversationStore(paths.database_file())
    conversation = store.create_conversation(title="Quadratic formula")
    store.add_message(conversation, Message("user", MATH_QUESTION))
    store.add_message(conversation, Message("assistant", MATH_REPLY))
    store.close()
    return conversation.id


def math_shot(window, app, pump, conversation_id: int, out: Path) -> int:
    """The saved maths conversation, opened, once its formulas are drawn."""

    from eagle_chat.ui.math import images

    window.controller.conversations.open_conversation(conversation_id)
    pump(lambda: images.shared().made_count >= 8 and images.shared().pending() == 0, 60)
    shot_kit.settle(app)
    return shot_kit.save_screen_and_close(window, app, out)


if __name__ == "__main__":
    sys.exit(main())
