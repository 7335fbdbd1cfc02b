"""Composition root: Qt application + qasync loop, paths, settings, store, controller, window."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.generation.devices import (
    DEVICE_KINDS,
    device_choices,
    list_devices,
)
from eagle_chat.core.models.choice import initial_choice
from eagle_chat.paths import add_home_argument, apply_home
from eagle_chat.settings import load_settings, save_settings


def gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eagle-chat",
        description="EagleChat: chat with a local model, made fast by EAGLE-3 speculative decoding. "
        "Subcommands: `eagle-chat bench --help`, `eagle-chat models --help`, `eagle-chat conversations --help`.",
    )
    parser.add_argument("--model", type=Path, help="target model folder (OpenVINO IR)")
    parser.add_argument("--draft", type=Path, help="EAGLE-3 draft folder (OpenVINO IR)")
    parser.add_argument("--device", type=str.upper, choices=list(DEVICE_KINDS))
    add_home_argument(parser)
    return parser


def create_main_window(argv: list[str]):
    """Build the fully wired main window without entering the event loop (tests use this)."""
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from eagle_chat.core.storage.reply_marker import ReplyMarker
    from eagle_chat.core.storage.store import ConversationStore
    from eagle_chat.ui import i18n, texts, theme
    from eagle_chat.ui.controller import ChatController
    from eagle_chat.ui.main_window import MainWindow
    from eagle_chat.ui.speed.npu_tree_hint import NpuTreeHint

    args = gui_parser().parse_args(argv)
    apply_home(args)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(paths.APP_NAME)
    app.setApplicationDisplayName(paths.APP_NAME)
    app.setWindowIcon(QIcon(str(paths.resources_dir() / "icons" / "eagle-chat.svg")))

    settings_path = paths.settings_file()
    settings, settings_notice = load_settings(settings_path)
    i18n.apply_language(app, i18n.choose_language(settings.language))  # before any widget is made
    theme.apply_theme(app, settings.theme)
    notices = [settings_notice] if settings_notice else []
    if args.model is not None:
        settings.target_dir = str(args.model.resolve())
        settings.draft_dir = str(args.draft.resolve()) if args.draft else None
    elif args.draft is not None:
        notices.append("--draft was given without --model; the saved model is used.")
    if args.device:
        settings.device = args.device

    devices = list_devices()
    reasons = device_choices(devices)
    if reasons.get(settings.device) is not None:
        notices.append(f"{settings.device} is not available here ({reasons[settings.device]}); using CPU.")
        settings.device = "CPU"

    from eagle_chat.core.models.registry import ModelRegistry

    registry = ModelRegistry()
    model, model_notice = initial_choice(settings.target_dir, settings.draft_dir, registry)
    for notice in (model_notice, registry.notice):
        if notice:
            notices.append(notice)
    marker = ReplyMarker(paths.reply_marker_file())
    crashed = marker.take()  # facts of a reply the last run died in the middle of, or None
    store = ConversationStore(paths.database_file())
    if store.notice:
        notices.append(store.notice)
    if crashed is not None:
        notices.append(texts.crash_notice(crashed, store.recovered_interrupted))
    elif store.recovered_interrupted:
        notices.append(
            f"{store.recovered_interrupted} reply was cut off when EagleChat last closed; "
            "its text so far is kept and marked interrupted."
        )
    controller = ChatController(store, marker=marker)
    try:
        window = MainWindow(
            controller,
            settings,
            model=model,
            devices=devices,
            save_settings=lambda s: save_settings(s, settings_path),
            cache_dir=paths.compiled_cache_dir(),
            registry=registry,
        )
    except BaseException:
        controller.shutdown()  # never leave the worker thread running behind a failed start
        store.close()
        raise
    NpuTreeHint(window)  # the tree the NPU drafts, next to the K slider (owned by the window)
    if notices:
        offer = crashed is not None and crashed.get("prefix_cache") and settings.prefix_cache
        window.show_notice("\n".join(notices), action=(texts.PREFIX_CACHE_OFF, lambda: window.set_prefix_cache(False))
                           if offer else None)
    window.start()
    return window


def main(argv: list[str]) -> int:
    import qasync

    window = create_main_window(argv)
    window.show()
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    closed = asyncio.Event()
    app.aboutToQuit.connect(closed.set)
    with loop:
        loop.run_until_complete(closed.wait())
    return 0
