"""What a newcomer meets: the keyboard in the message box, from the start and after each conversation they
open or create (LM Studio and Jan do the same), so typing right away is never lost to a button."""

from __future__ import annotations

from eagle_chat.ui import texts


def install(window) -> None:
    """Give the message box the keyboard now and whenever the user opens or starts a conversation."""
    window.model_bar.set_model_text(texts.model_label(window.model))
    window.prompt.setFocus()  # before the window is shown: it takes the focus when the window is activated
    window.conversations.sig_open.connect(lambda _id: window.prompt.setFocus())  # after the controller's slot
