"""``eagle-chat serve``: the OpenAI-compatible API without a window.

The same pieces as the window: a ChatController (its worker thread owns the one pipeline; its queue
orders the requests) under a QCoreApplication and qasync's asyncio loop, with uvicorn running in that
loop. No widget is created, so it runs on a machine without a display.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from pathlib import Path

from eagle_chat.core.console_signals import console_stop_signals
from eagle_chat.core.device_kinds import DEVICE_KINDS
from eagle_chat.core.errors import UserError
from eagle_chat.paths import add_home_argument, apply_home

API_KEY_ENV = "EAGLE_CHAT_API_KEY"


def serve_parser() -> argparse.ArgumentParser:
    from eagle_chat.core.serving.http import DEFAULT_MAX_BODY_BYTES
    from eagle_chat.core.serving.requests import Limits
    from eagle_chat.core.serving.server import DEFAULT_PORT
    from eagle_chat.core.serving.timeouts import Timeouts
    from eagle_chat.ui.server.bridge import DEFAULT_QUEUE_LIMIT

    parser = argparse.ArgumentParser(
        prog="eagle-chat serve",
        description="Serve a model (with its EAGLE-3 draft) over an OpenAI-compatible API: /v1/models, "
        "/v1/chat/completions, /v1/completions. Without --model it serves the model the app would open.",
    )
    parser.add_argument("--model", type=Path, help="target model folder (OpenVINO IR)")
    parser.add_argument("--draft", type=Path, help="EAGLE-3 draft folder (OpenVINO IR)")
    parser.add_argument("--device", default="CPU", type=str.upper, choices=list(DEVICE_KINDS))
    parser.add_argument("--embedder", metavar="NAME|DIR",
                        help="also serve POST /v1/embeddings with this embedding model, run in a process of its "
                             "own: a name pulled with `eagle-chat models pull` or a folder (OpenVINO IR, "
                             "feature-extraction)")
    parser.add_argument("--embedder-device", default="CPU", type=str.upper, choices=list(DEVICE_KINDS),
                        help="OpenVINO device for the embedder (default CPU)")
    parser.add_argument("--precision", choices=["default", "f32"], default="default",
                        help="'f32' pins f32 inference so greedy output is exactly the plain model's")
    parser.add_argument("--k", type=int, help="draft tokens per step (default: auto-tune's choice, else 5)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; any other needs an API key)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}; 0 picks a free one")
    parser.add_argument("--api-key", help=f"require 'Authorization: Bearer KEY' (or set {API_KEY_ENV}, "
                        "which keeps the key out of the process list)")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a Host name to answer besides localhost (repeatable; '*' for any)")
    parser.add_argument("--cors-origin", action="append", default=[], metavar="ORIGIN",
                        help="let web pages from this origin (e.g. http://localhost:3000) call the API; requests "
                        "from any other page are refused with 403 (repeatable; '*' for any; none by default)")
    parser.add_argument("--max-tokens", type=int, default=Limits.max_tokens,
                        help=f"cap on max_tokens per request (default {Limits.max_tokens})")
    parser.add_argument("--max-body-bytes", type=int, default=DEFAULT_MAX_BODY_BYTES)
    parser.add_argument("--queue-limit", type=int, default=DEFAULT_QUEUE_LIMIT,
                        help=f"requests that may wait; more are answered 429 (default {DEFAULT_QUEUE_LIMIT})")
    parser.add_argument("--greedy-fallback", action="store_true",
                        help="with a draft loaded, serve requests that ask for sampling greedily instead of "
                        "refusing them (EAGLE-3 decodes greedily only)")
    parser.add_argument("--no-prefill", action="store_true",
                        help="do not prefill a conversation for its next turn after each chat reply (on by default "
                        "with prefix caching on CPU/GPU: an agent's next step then prefills only what it adds)")
    parser.add_argument("--prefill-idle-ms", type=int, default=None, metavar="MS",
                        help="how long the server waits idle after a reply before it prefills that conversation "
                        "(default 50: an agent whose tool answers at once is not made to wait behind a prefill)")
    parser.add_argument("--grace", type=float, default=30.0,
                        help="seconds stopping waits for replies in flight before it cuts them (default 30)")
    timeouts = Timeouts()
    parser.add_argument("--header-timeout", type=float, default=timeouts.header_s, metavar="SECONDS",
                        help=f"a request's line and headers must arrive within this (default {timeouts.header_s:g})")
    parser.add_argument("--body-timeout", type=float, default=timeouts.body_s, metavar="SECONDS",
                        help=f"a request's whole body must arrive within this (default {timeouts.body_s:g})")
    parser.add_argument("--keep-alive-timeout", type=float, default=timeouts.keep_alive_s, metavar="SECONDS",
                        help=f"an idle connection is closed after this (default {timeouts.keep_alive_s:g})")
    add_home_argument(parser)
    return parser


def main(argv: list[str]) -> int:
    args = serve_parser().parse_args(argv)
    apply_home(args)
    args.api_key = args.api_key or os.environ.get(API_KEY_ENV) or None
    try:
        return _run(args)
    except UserError as error:
        print(f"eagle-chat serve: {error}", file=sys.stderr)
        return 2


def _run(args) -> int:
    import qasync
    from PySide6.QtCore import QCoreApplication

    from eagle_chat import paths
    from eagle_chat.core.generation.devices import list_devices, resolve_device
    from eagle_chat.core.generation.engine import GenerationSettings, PipelineSpec
    from eagle_chat.core.measure.tuning import start_k, tuned_choice
    from eagle_chat.core.models.choice import initial_choice
    from eagle_chat.core.models.registry import ModelRegistry
    from eagle_chat.core.serving.http import HttpOptions
    from eagle_chat.core.serving.requests import Limits
    from eagle_chat.core.serving.server import ApiServer, ServerConfig
    from eagle_chat.core.serving.timeouts import Timeouts
    from eagle_chat.core.storage.store import ConversationStore
    from eagle_chat.settings import load_settings
    from eagle_chat.ui.runtime.controller import ChatController
    from eagle_chat.ui.server.bridge import ControllerBackend

    settings, _notice = load_settings(paths.settings_file())
    registry = ModelRegistry()
    if args.model is not None:
        target, draft = args.model.resolve(), args.draft.resolve() if args.draft else None
    else:
        choice, notice = initial_choice(settings.target_dir, settings.draft_dir, registry)
        if notice:
            raise UserError("{notice}", notice=notice)  # already a sentence
        target, draft = choice.target_dir, choice.draft_dir
    k = args.k or start_k(settings, registry, target, draft, args.device) or 5
    depth, branching = tuned_choice(settings, target, draft, args.device).tree_for(k)
    defaults = GenerationSettings(speculative=draft is not None, num_assistant_tokens=k, tree_depth=depth,
                                  branching_factor=branching)
    config = ServerConfig(
        host=args.host, port=args.port, grace_s=args.grace,
        timeouts=Timeouts(header_s=args.header_timeout, body_s=args.body_timeout, keep_alive_s=args.keep_alive_timeout),
        http=HttpOptions(api_key=args.api_key, allowed_hosts=tuple(args.allowed_host),
                         cors_origins=tuple(args.cors_origin), max_body_bytes=args.max_body_bytes,
                         limits=Limits(max_tokens=args.max_tokens, greedy_fallback=args.greedy_fallback)),
    )
    config.check()  # before loading a model for minutes
    resolve_device(args.device, list_devices())  # "NPU is not available here. …", not OpenVINO's library error

    embeddings = None
    if args.embedder is not None:
        from eagle_chat.core.documents.embed_host import EmbeddingHost
        from eagle_chat.core.models.document_models import DocumentModelRegistry

        registered = DocumentModelRegistry().get(args.embedder, "embedding")
        folder = registered.path if registered is not None else Path(args.embedder).expanduser().resolve()
        embeddings = EmbeddingHost(folder, args.embedder_device)
        print(f"Loading the embedder {args.embedder} on {args.embedder_device}…", file=sys.stderr, flush=True)
        embeddings.start()  # a UserError (folder missing, not an embedder) ends the command with its sentence

    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    store = ConversationStore(paths.database_file())
    controller = ChatController(store)
    backend = ControllerBackend(controller, lambda: defaults, queue_limit=args.queue_limit,
                                next_turn_prefill=not args.no_prefill, prefill_idle_ms=args.prefill_idle_ms)
    server = ApiServer(config, backend, on_record=lambda record: print(record.line(), file=sys.stderr, flush=True),
                       embeddings=embeddings)
    spec = PipelineSpec(target, draft, device=args.device, precision=args.precision,
                        cache_dir=paths.compiled_cache_dir())
    try:
        with loop:
            return loop.run_until_complete(_serve(controller, server, spec, k))
    finally:
        controller.shutdown()
        store.close()
        if embeddings is not None:
            embeddings.close()


async def _serve(controller, server, spec, k: int) -> int:
    print(f"Loading {spec.target_dir}" + (f" with draft {spec.draft_dir}" if spec.draft_dir else "")
          + f" on {spec.device}…", file=sys.stderr, flush=True)
    await _load(controller, spec)
    url = await server.start()
    mode = f"EAGLE-3, K={k}" if spec.draft_dir else "no draft"
    print(f"EagleChat API on {url} ({mode}); Ctrl+C stops.", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    previous = {sig: signal.signal(sig, lambda *_: loop.call_soon_threadsafe(stop.set))
                for sig in console_stop_signals()}  # Windows: Ctrl+Break and closing the console too
    try:
        await stop.wait()  # uvicorn's 0.1 s tick lets Python run the signal handler
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("Stopping: answering the requests in flight, refusing new ones…", file=sys.stderr, flush=True)
    await server.stop()
    return 0


async def _load(controller, spec) -> None:
    """Load ``spec`` and wait for *its* outcome: ``sig_loaded`` or ``sig_load_failed`` with the load's id
    (a failed load says nothing on ``sig_error``). A failure raises the worker's sentence as a UserError."""
    outcome = asyncio.get_running_loop().create_future()
    load_id: int | None = None

    def loaded(info: dict) -> None:
        if info.load_id == load_id and not outcome.done():
            outcome.set_result(None)

    def failed(failed_id: int, message: str, _still_loaded: bool) -> None:
        if failed_id == load_id and not outcome.done():
            outcome.set_exception(UserError("{message}", message=message))  # already a sentence

    refusals: list[str] = []  # load() refuses synchronously, on sig_error, and returns None
    controller.sig_loaded.connect(loaded)
    controller.sig_load_failed.connect(failed)
    controller.sig_error.connect(refusals.append)
    try:
        load_id = controller.load(spec)
        if load_id is None:
            raise UserError("{message}", message=refusals[-1] if refusals else "The model could not be loaded.")
        await outcome
    finally:
        controller.sig_loaded.disconnect(loaded)
        controller.sig_load_failed.disconnect(failed)
        controller.sig_error.disconnect(refusals.append)
