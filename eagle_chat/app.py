"""Composition root: Qt application + qasync loop, paths, settings, store, controller, window.

Order matters: the instance lock is taken before anything is read or written (a second launch on the same
home hands its command line to the first and leaves the disk alone), then the log starts, then settings,
models, the conversation database and the window.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.generation.devices import (
    DEVICE_KINDS,
    device_choices,
    list_devices,
)
from eagle_chat.core.models.choice import ModelChoice, initial_choice
from eagle_chat.paths import add_home_argument, apply_home
from eagle_chat.settings import load_settings, save_settings, saved_language

log = logging.getLogger(__name__)


def gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eagle-chat",
        description="EagleChat: chat with a local model, made fast by EAGLE-3 speculative decoding. "
        "Subcommands (each with its own --help): bench, models, serve, conversations, docs, tools. "
        "`eagle-chat --self-test` checks that the install runs.",
    )
    parser.add_argument("--model", type=Path, help="target model folder (OpenVINO IR)")
    parser.add_argument("--draft", type=Path, help="EAGLE-3 draft folder (OpenVINO IR)")
    parser.add_argument("--device", type=str.upper, choices=list(DEVICE_KINDS))
    parser.add_argument("--verbose", action="store_true", help="also print the log on stderr")
    add_home_argument(parser)
    return parser


def absolute_argv(args: argparse.Namespace) -> list[str]:
    """The command line's choices with folders made absolute (what a second launch hands over)."""
    argv = []
    for flag, value in (("--model", args.model), ("--draft", args.draft)):
        if value is not None:
            argv += [flag, str(value.expanduser().resolve())]
    return argv + (["--device", args.device] if args.device else [])


def create_main_window(argv: list[str]):
    """Build the fully wired main window without entering the event loop (tests use this).

    Raises :class:`~eagle_chat.ui.shell.single_instance.AlreadyRunning` when another EagleChat has this home."""
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from eagle_chat.ui.shell.single_instance import InstanceGuard

    args = gui_parser().parse_args(argv)
    apply_home(args)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(paths.APP_NAME)
    app.setApplicationDisplayName(paths.APP_NAME)
    app.setWindowIcon(QIcon(str(paths.resources_dir() / "icons" / "eagle-chat.svg")))
    guard = InstanceGuard(paths.data_dir())
    guard.claim(absolute_argv(args))  # before anything is read or written
    try:
        return _build_window(args, guard)
    except BaseException:
        guard.release()
        raise


def _build_window(args: argparse.Namespace, guard):
    from PySide6.QtWidgets import QApplication

    from eagle_chat.core.models.registry import ModelRegistry
    from eagle_chat.core.storage.reply_marker import ReplyMarker
    from eagle_chat.core.storage.store import ConversationStore
    from eagle_chat.ui.runtime import app_log
    from eagle_chat.ui.widgets import theme
    from eagle_chat.ui.words import core_text, i18n, texts
    from eagle_chat.ui.runtime.controller import ChatController
    from eagle_chat.ui.shell.main_window import MainWindow
    from eagle_chat.ui.speed.npu_tree_hint import NpuTreeHint
    from eagle_chat.ui.widgets import outline_style

    app = QApplication.instance()

    logs = app_log.install(verbose=args.verbose)
    settings_path = paths.settings_file()
    settings, settings_notice = load_settings(settings_path)
    i18n.apply_language(app, i18n.choose_language(settings.language))  # before any widget is made
    outline_style.install(app)  # check boxes outlined on dark palettes (Fusion draws them dark on dark)
    theme.apply_theme(app, settings.theme)
    notices = [settings_notice] if settings_notice else []
    target, draft = settings.target_dir, settings.draft_dir  # the settings change once a load succeeds
    if args.model is not None:
        target, draft = str(args.model.resolve()), str(args.draft.resolve()) if args.draft else None
    elif args.draft is not None:
        notices.append(texts.draft_without_model_notice())
    device = args.device or settings.device
    devices = list_devices()
    reasons = device_choices(devices)
    if reasons.get(device) is not None:
        notices.append(texts.device_unavailable_notice(device, reasons[device]))
        device = "CPU"

    registry = ModelRegistry()
    model, model_notice = initial_choice(target, draft, registry)
    for notice in (model_notice, registry.notice):
        if notice:
            notices.append(notice)
    marker = ReplyMarker(paths.reply_marker_file())
    crashed = marker.take()  # facts of a reply the last run died in the middle of, or None
    store = ConversationStore(paths.database_file())
    for notice in (store.notice, store.problem and core_text.user_error_text(store.problem)):
        if notice:
            notices.append(notice)
    if crashed is not None:
        notices.append(texts.crash_notice(crashed, store.recovered_interrupted))
    elif store.recovered_interrupted:
        notices.append(texts.interrupted_notice(store.recovered_interrupted))
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
            log_path=logs.path,
        )
    except BaseException:
        controller.shutdown()  # never leave the worker thread running behind a failed start
        store.close()
        logs.uninstall()
        raise
    NpuTreeHint(window)  # the tree the NPU drafts, next to the K slider (owned by the window)
    logs.on_exception = window.failures.report_exception
    window.instance_guard, window.app_log = guard, logs
    guard.sig_activated.connect(lambda argv: apply_command_line(window, argv))
    window.closer.sig_closed.connect(guard.release)
    window.closer.sig_closed.connect(logs.uninstall)
    if notices:
        offer = crashed is not None and crashed.get("prefix_cache") and settings.prefix_cache
        action = (i18n.translate("texts", texts.PREFIX_CACHE_OFF), lambda: window.set_prefix_cache(False))
        window.show_notice("\n".join(notices), action=action if offer else None)
    window.store_watch.shown = core_text.user_error_text(store.problem) if store.problem else ""
    if args.model is not None:  # a --model that does not load gives way to the pair the app opens on
        usual, _notice = initial_choice(settings.target_dir, settings.draft_dir, registry)
        if (usual.target_dir, usual.draft_dir) != (model.target_dir, model.draft_dir):
            window.loads.fallback = usual
    window.start(device=device)
    return window


def apply_command_line(window, argv: list[str]) -> None:
    """A second launch handed over: bring the window to the front, then load what it named (if anything;
    refused with a notice while a reply or a load runs)."""
    try:
        args = gui_parser().parse_args(argv)
    except SystemExit:
        log.warning("ignored a second launch's command line %s", argv)
        args = argparse.Namespace(model=None, draft=None, device=None)
    window.showNormal()
    window.raise_()
    window.activateWindow()
    if args.model is not None:
        window.loads.request(model=ModelChoice.for_folders(args.model, args.draft), device=args.device)
    elif args.device:
        window.loads.request(device=args.device)


def main(argv: list[str]) -> int:
    import qasync

    from eagle_chat.ui.shell.single_instance import AlreadyRunning, tell_not_answering

    try:
        window = create_main_window(argv)
    except AlreadyRunning as running:
        if running.handed_over:
            print("EagleChat is already running with this home; its window was brought to the front.")
            return 0
        from PySide6.QtWidgets import QApplication

        from eagle_chat.ui.words import i18n

        i18n.apply_language(QApplication.instance(), i18n.choose_language(saved_language(paths.settings_file())))
        tell_not_answering(paths.data_dir())
        return 1
    window.closer.hard_exit = lambda: _hard_exit(window)
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


def _hard_exit(window) -> None:
    """Closing waited its bound for OpenVINO to finish a load: everything is saved; end the process."""
    window.instance_guard.release()
    window.app_log.flush()
    os._exit(0)
