"""Qt side of EagleChat. Widgets live here; models and generation live in :mod:`eagle_chat.core`."""
