"""``eagle-chat models …``: list, pull, import and remove model pairs from a terminal.

Everything here goes through the same code as the Get models dialog (:mod:`eagle_chat.core.acquisition.pulls`,
:mod:`eagle_chat.core.models.registry`), so a pair pulled or imported here is what the app shows in its model menu.
Exit status: 0 done, 1 a download/export/check failed, 2 a usage or validation error, 130 stopped.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.device_kinds import DEVICE_KINDS
from eagle_chat.core.errors import UserError
from eagle_chat.paths import add_home_argument, add_home_before_subcommand, apply_home
from eagle_chat.ui.words.texts import progress_text

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_CANCELLED = 130


def models_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eagle-chat models",
        description="Manage target + EAGLE-3 draft model pairs: download known pairs, add folders you "
        "already have, list and remove them.",
    )
    add_home_before_subcommand(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("list", help="installed pairs, pairs available to download, unfinished downloads")
    p.add_argument("--json", action="store_true", help="print JSON (for scripts)")
    add_home_argument(p)

    p = sub.add_parser("pull", help="download a pair from the catalog, export its draft, check and register it")
    p.add_argument("name", help="catalog entry (see `eagle-chat models list`)")
    p.add_argument("--source", choices=["hf", "modelscope"], help="hub to download from (default: the setting, "
                   "else hf)")
    p.add_argument("--device", default="CPU", type=str.upper, choices=list(DEVICE_KINDS),
                   help="device the pair is for; NPU picks the NPU build of the target and an int8 draft")
    p.add_argument("--endpoint", metavar="URL", help="hub mirror or endpoint, e.g. https://hf-mirror.com "
                   "(default: the setting, else the hub's own site)")
    add_home_argument(p)

    p = sub.add_parser("import", help="register a target folder and an EAGLE-3 draft folder you already have")
    p.add_argument("target_dir", type=Path, metavar="TARGET_DIR")
    p.add_argument("draft_dir", type=Path, metavar="DRAFT_DIR")
    p.add_argument("--name", help="name in the model menu (default: the target folder's name)")
    p.add_argument("--device", default="CPU", type=str.upper, choices=list(DEVICE_KINDS),
                   help="the device this build is meant for")
    add_home_argument(p)

    p = sub.add_parser("remove", help="unregister a pair (and delete its files if EagleChat downloaded them)")
    p.add_argument("name")
    files = p.add_mutually_exclusive_group()
    files.add_argument("--delete-files", action="store_true",
                       help="also delete the folders of an imported pair, without asking")
    files.add_argument("--keep-files", action="store_true", help="never delete any files")
    add_home_argument(p)
    return parser


def main(argv: list[str]) -> int:
    parser = models_parser()
    args = parser.parse_args(argv)
    apply_home(args)
    handler = {"list": cmd_list, "pull": cmd_pull, "import": cmd_import, "remove": cmd_remove}[args.command]
    return handler(args)


# -- list -------------------------------------------------------------------------------------------------


def cmd_list(args: argparse.Namespace) -> int:
    from eagle_chat.core.acquisition import pulls
    from eagle_chat.core.models.catalog import SOURCE_LABELS, load_catalog
    from eagle_chat.core.models.document_models import DocumentModelRegistry
    from eagle_chat.core.models.registry import ModelRegistry, bundled_pair

    registry = ModelRegistry()
    installed = registry.pairs()
    catalog = load_catalog()
    unfinished = pulls.leftovers(registry)
    bundled = bundled_pair()
    document_models = DocumentModelRegistry()
    if args.json:
        print(json.dumps({
            "installed": [p.to_json() for p in installed],
            "bundled": bundled.to_json() if bundled else None,
            "available": [
                {"name": e.name, "title": e.title, "devices": list(e.devices()),
                 "sources": list(e.sources()), "approx_bytes": e.target.approx_bytes + e.draft.approx_bytes,
                 "needs_export": e.needs_export, "cannot_pull_here": pulls.export_problem(e),
                 "evidence": e.evidence, "unverified": e.unverified or None}
                for e in catalog.entries
            ],
            "document_models": {
                "installed": [m.to_json() for m in document_models.models()],
                "available": [{"name": e.name, "kind": e.kind, "title": e.title, "sources": list(e.sources()),
                               "approx_bytes": e.model.approx_bytes, "languages": e.languages,
                               "evidence": e.evidence, "unverified": e.unverified or None}
                              for e in catalog.document_models],
            },
            "unfinished": {name: [str(p) for p in folders] for name, folders in unfinished.items()},
            "problems": catalog.problems + ([registry.notice] if registry.notice else []),
        }, indent=2))
        return 0
    for notice in catalog.problems + ([registry.notice] if registry.notice else []):
        print(f"note: {notice}", file=sys.stderr)
    print("Installed:")
    for pair in installed:
        origin = "downloaded" if pair.owned else "imported"
        source = f" from {pair.source}" if pair.source not in ("import", "") else ""
        print(f"  {pair.name:<22} {origin}{source}; for {pair.device}, start K {pair.k_for(pair.device)}")
        print(f"  {'':<22} target {pair.target_dir}")
        print(f"  {'':<22} draft  {pair.draft_dir}")
    if bundled:
        print(f"  {bundled.name:<22} bundled tiny test pair (toy quality)")
    if not installed and not bundled:
        print("  (none)")
    installed_names = {p.name for p in installed}
    print("\nAvailable to download (eagle-chat models pull NAME [--device NPU] [--source modelscope]):")
    from eagle_chat.core.acquisition.staging import format_bytes

    for entry in catalog.entries:
        mark = " (installed)" if entry.name in installed_names else ""
        mark += " (unverified)" if entry.unverified else ""
        mark += " (needs a draft export this installation cannot do)" if pulls.export_problem(entry) else ""
        sources = ", ".join(SOURCE_LABELS[s] for s in entry.sources()) or "no source"
        size = format_bytes(entry.target.approx_bytes + entry.draft.approx_bytes)
        print(f"  {entry.name:<22} {entry.title}, about {size}; {'/'.join(entry.devices())}; {sources}{mark}")
    print("\nDocument models (embedders for `docs add --embedder NAME`, rerankers for `docs search --rerank NAME`):")
    installed_documents = {m.name: m for m in document_models.models()}
    for model in installed_documents.values():
        print(f"  {model.name:<22} {model.kind}, installed in {model.model_dir}")
    for entry in catalog.document_models:
        if entry.name in installed_documents:
            continue
        mark = " (unverified)" if entry.unverified else ""
        sources = ", ".join(SOURCE_LABELS[s] for s in entry.sources()) or "no source"
        print(f"  {entry.name:<22} {entry.kind}: {entry.title}, about {format_bytes(entry.model.approx_bytes)}; "
              f"{entry.languages or '?'}; {sources}{mark}")
    if unfinished:
        print("\nUnfinished downloads (resume with `models pull NAME`, delete with `models remove NAME`):")
        for name, folders in unfinished.items():
            print(f"  {name:<22} {', '.join(str(f) for f in folders)}")
    return 0


# -- pull -------------------------------------------------------------------------------------------------


def cmd_pull(args: argparse.Namespace) -> int:
    from eagle_chat.core.acquisition import pulls, runner, pull_steps
    from eagle_chat.settings import load_settings

    settings, _ = load_settings(paths.settings_file())
    source = args.source or (settings.download_source if settings.download_source in ("hf", "modelscope")
                             else "hf")
    endpoint = args.endpoint or (settings.hf_endpoint if source == "hf" else settings.modelscope_endpoint)
    try:
        plan = pulls.plan_pull(args.name, source=source, device=args.device, endpoint=endpoint)
    except UserError as error:
        print(f"eagle-chat models pull: {error}", file=sys.stderr)
        return EXIT_USAGE
    printer = ProgressPrinter(sys.stderr)
    try:
        pair = runner.run_plan(plan, printer)
    except pull_steps.Cancelled as error:
        printer.end()
        print(f"eagle-chat models pull: {error}", file=sys.stderr)
        return EXIT_CANCELLED
    except UserError as error:
        printer.end()
        print(f"eagle-chat models pull: {error}", file=sys.stderr)
        return EXIT_FAILED
    printer.end()
    if isinstance(plan, pulls.DocumentModelPlan):
        option = "--embedder" if pair.kind == "embedding" else "--rerank"
        print(f"{pair.name} is ready in {pair.model_dir}. Use it with `eagle-chat docs "
              f"{'add PATH' if pair.kind == 'embedding' else 'search QUERY'} {option} {pair.name}`.")
        return 0
    checks = [s.result for s in plan.steps if isinstance(s, pull_steps.VerifyStep) and s.result]
    for result in checks:
        rate = result.get("acceptance")
        share = f" ({rate:.0%} of the drafted tokens)" if rate is not None else ""
        print(f"Checked on {result.get('device')}: the draft got {result.get('accepted')} tokens accepted{share}.")
    print(f"{pair.name} is ready: target {pair.target_dir}, draft {pair.draft_dir}. "
          f"Start it with `eagle-chat` and pick it in the model menu.")
    return 0


class ProgressPrinter:
    """Progress on one rewritten line on a terminal; a line every few seconds (and per step) in a log."""

    def __init__(self, stream):
        self.stream = stream
        self.tty = stream.isatty()
        self.step = None
        self.last = 0.0
        self.width = 0

    def __call__(self, progress) -> None:
        new_step = progress.step != self.step
        if new_step:
            self.end()
            self.step = progress.step
            print(f"{progress.step}…", file=self.stream, flush=True)
        text = progress_text(progress)
        if progress.fraction is not None:
            text = f"{progress.fraction * 100:5.1f}% {text}"
        now = time.monotonic()
        if self.tty:
            line = text[:120]
            self.stream.write("\r" + line.ljust(self.width))
            self.stream.flush()
            self.width = len(line)
        elif text and (new_step or now - self.last >= 2.0):
            print(f"  {text}", file=self.stream, flush=True)
            self.last = now

    def end(self) -> None:
        if self.tty and self.width:
            self.stream.write("\n")
            self.stream.flush()
            self.width = 0


# -- import -----------------------------------------------------------------------------------------------


def cmd_import(args: argparse.Namespace) -> int:
    from eagle_chat.core.acquisition import pulls

    try:
        pair = pulls.import_pair(args.target_dir, args.draft_dir, name=args.name, device=args.device)
    except UserError as error:
        print(f"eagle-chat models import: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(f"Registered {pair.name}: target {pair.target_dir}, draft {pair.draft_dir}.")
    return 0


# -- remove -----------------------------------------------------------------------------------------------


def cmd_remove(args: argparse.Namespace) -> int:
    from eagle_chat.core.acquisition import pulls
    from eagle_chat.core.models.document_models import DocumentModelRegistry
    from eagle_chat.core.models.registry import (
        BUNDLED_PAIR_NAME,
        ModelRegistry,
        RegistryError,
    )

    document_model = DocumentModelRegistry().get(args.name)
    if document_model is not None:
        return remove_document_model(document_model, args)
    registry = ModelRegistry()
    if args.name == BUNDLED_PAIR_NAME:
        print("eagle-chat models remove: the bundled tiny pair is part of EagleChat and cannot be removed.",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        pair = registry.get(args.name)
    except RegistryError:
        leftovers = pulls.leftovers(registry).get(args.name)
        if not leftovers or args.keep_files:
            print(f"eagle-chat models remove: no model named {args.name!r} is registered "
                  "(see `eagle-chat models list`).", file=sys.stderr)
            return EXIT_USAGE
        for folder in pulls.delete_leftover(args.name):
            print(f"Deleted the unfinished download {folder}.")
        return 0
    if args.keep_files:
        delete = False
    elif pair.owned or args.delete_files:
        delete = True
    else:
        delete = ask_yes_no(
            f"{pair.name} uses folders EagleChat did not download:\n  {pair.target_dir}\n  {pair.draft_dir}\n"
            "Delete these folders too? [y/N] "
        )
    try:
        result = registry.remove(pair.name, delete_files=delete)
    except RegistryError as error:  # nothing was changed: the model is still registered and whole
        print(f"eagle-chat models remove: {error.message}", file=sys.stderr)
        return EXIT_FAILED
    print(f"Removed {pair.name} from the model list.")
    for folder in result.deleted:
        print(f"Deleted {folder}.")
    for folder, why in result.kept:
        print(f"Kept {folder}: {why}.")
    if not delete and not pair.owned:
        print("Its files were left where they are.")
    if pair.owned:
        pulls.delete_leftover(pair.name)
    return 0


def remove_document_model(model, args: argparse.Namespace) -> int:
    """Unregister an embedding model or reranker; delete its folder if EagleChat downloaded it (or if asked)."""
    import shutil

    from eagle_chat.core.acquisition import pulls
    from eagle_chat.core.models.document_models import DocumentModelRegistry

    delete = not args.keep_files and (model.owned or args.delete_files or ask_yes_no(
        f"{model.name} uses a folder EagleChat did not download:\n  {model.model_dir}\nDelete it too? [y/N] "))
    DocumentModelRegistry().remove(model.name)
    print(f"Removed {model.name} from the document models.")
    if delete and model.path.is_dir() and model.path.resolve() != Path.home().resolve() and len(model.path.parts) > 2:
        shutil.rmtree(model.path)
        print(f"Deleted {model.path}.")
    if model.owned:
        pulls.delete_leftover(model.name)
    return 0


def ask_yes_no(question: str) -> bool:
    """Ask on the terminal; without one (a script, CI) the answer is no."""
    if not sys.stdin or not sys.stdin.isatty():
        print(question + "no (not asked: no terminal; pass --delete-files to delete)", file=sys.stderr)
        return False
    try:
        return input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return False
