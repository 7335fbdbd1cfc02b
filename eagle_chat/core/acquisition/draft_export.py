"""Exporting a Hugging Face-format EAGLE-3 head to OpenVINO IR with optimum-intel — the fallback for a head
EagleChat's own converter (:mod:`.eagle3_converter`) does not know — and finishing any draft folder.

optimum-intel and its dependencies (torch, transformers, nncf, …) are heavy and optional: they are the
``build-models`` extra, never imported by the app and never in the frozen bundle. The export runs them in a
child process with this same Python; when they are missing, :func:`export_tools_problem` says exactly what
to install.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

from eagle_chat.core.acquisition.child_process import worker_env
from eagle_chat.core.errors import UserError
from eagle_chat.core.models import folders
from eagle_chat.core.models.catalog import ExportOptions

EXPORT_MODULES = {  # module to import -> package to install
    "optimum.intel": "optimum-intel",
    "optimum.exporters.openvino": "optimum-intel",
    "torch": "torch",
    "transformers": "transformers",
    "nncf": "nncf",
    "einops": "einops",
    "diffusers": "diffusers",
}
TOKENIZER_FILES = (
    "openvino_tokenizer.xml", "openvino_tokenizer.bin", "openvino_detokenizer.xml", "openvino_detokenizer.bin",
)
# optimum-intel exports a head as EAGLE-3 only when ``"eagle3" in architectures[0].lower()``; the name the
# SGLang copies of the EAGLE authors' heads declare (its model_configs.py, EAGLE-3 support since v2.0.0).
EAGLE3_ARCHITECTURE = "LlamaForCausalLMEagle3"


class DraftExportError(UserError):
    """The exported draft cannot be used; the message says why."""


def export_tools_problem() -> str | None:
    """None if optimum-intel and its dependencies can be imported here, else what to install, exactly
    (English; :func:`export_tools_error` gives the same as a translatable error)."""
    error = export_tools_error()
    return None if error is None else str(error)


def export_tools_error() -> DraftExportError | None:
    """None if optimum-intel and its dependencies can be imported here, else an error saying what to install."""
    if getattr(sys, "frozen", False):
        return DraftExportError("The standalone EagleChat does not include optimum-intel. Export the draft with a "
                                "Python that has optimum-intel: {command} — then add the pair with `eagle-chat "
                                "models import TARGET_DIR DRAFT_DIR`.", command=folders.DRAFT_EXPORT_HINT)
    missing = []
    for module, package in EXPORT_MODULES.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found and package not in missing:
            missing.append(package)
    if not missing:
        return None
    return DraftExportError(
        "Exporting the EAGLE-3 draft to OpenVINO needs optimum-intel, which is not installed (missing: {missing}). "
        "Install it into the Python that runs EagleChat ({python}), CPU build of torch first:\n"
        "  {python} -m pip install torch --index-url https://download.pytorch.org/whl/cpu\n"
        "  {python} -m pip install \"eagle-chat[build-models]\"\n"
        "then start the download again (finished downloads are kept).",
        missing=", ".join(missing), python=sys.executable,
    )


def export_command(head_dir: Path, out_dir: Path, options: ExportOptions) -> list[str]:
    """``optimum-cli export openvino`` for an EAGLE-3 head, run with this Python (no PATH lookup)."""
    return [
        sys.executable, "-m", "optimum.commands.optimum_cli", "export", "openvino",
        "--model", str(head_dir), "--task", "text-generation-with-past", "--trust-remote-code",
        *options.cli_args(), str(out_dir),
    ]


def head_for_export(head_dir: Path, work_dir: Path) -> Path:
    """The folder to give ``optimum-cli``: ``head_dir`` when its config.json declares an EAGLE-3 architecture,
    else a copy of it whose config.json says ``LlamaForCausalLMEagle3``.

    Some heads (the EAGLE authors' own ``yuhuili/EAGLE3-LLaMA3.1-Instruct-8B``) declare plain
    ``LlamaForCausalLM``; optimum-intel then exports an ordinary Llama that GenAI cannot use as a draft.
    The downloaded folder stays as the hub has it (its manifest and hashes keep matching): the copy's files
    are hard links where the disk allows, with only config.json rewritten. ``work_dir`` is replaced.
    """
    config_path = head_dir / "config.json"
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise DraftExportError("The EAGLE-3 head in {head_dir} has no readable config.json ({error}).",
                               head_dir=head_dir, error=error) from None
    architectures = config.get("architectures") or []
    if architectures and "eagle3" in str(architectures[0]).lower():
        return head_dir
    if config.get("model_type") != "llama":
        raise DraftExportError(
            "The draft in {head_dir} is not an EAGLE-3 head: its config.json names architectures {architectures} and "
            "model type {model_type!r}; EAGLE-3 heads are Llama-type ({eagle3}). Choose the head made for this "
            "model.", head_dir=head_dir, architectures=architectures or "none", model_type=config.get("model_type"),
            eagle3=EAGLE3_ARCHITECTURE,
        )
    if work_dir.exists():
        shutil.rmtree(work_dir)
    work_dir.mkdir(parents=True)
    for source in head_dir.iterdir():
        if source.name == "config.json" or source.name.startswith("."):
            continue
        if source.is_dir():
            shutil.copytree(source, work_dir / source.name, copy_function=_link_or_copy)
        else:
            _link_or_copy(source, work_dir / source.name)
    config["architectures"] = [EAGLE3_ARCHITECTURE]
    (work_dir / "config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return work_dir


def _link_or_copy(source, destination) -> None:
    try:
        os.link(source, destination)
    except OSError:  # another disk, or a file system without hard links
        shutil.copy2(source, destination)


def finish_export(out_dir: Path, target_dir: Path) -> None:
    """Complete a draft folder (exported here, or downloaded as IR) and check it is an EAGLE-3 draft for the
    target.

    EAGLE-3 heads are published without a tokenizer (they share the target's), so optimum writes no
    OpenVINO tokenizer for them and pre-exported drafts often carry none; the target's is copied in, since
    draft folders must be complete models.
    """
    for name in TOKENIZER_FILES:
        if not (out_dir / name).exists() and (target_dir / name).exists():
            shutil.copy2(target_dir / name, out_dir / name)
    try:
        draft = folders.inspect_draft(out_dir)
        folders.check_pair(folders.inspect_target(target_dir), draft)
    except folders.ModelFolderError as error:
        raise DraftExportError("The exported draft cannot be used: {error}", error=error) from None


def export_env() -> dict[str, str]:
    """The export reads only local files: the hub clients are told so, and telemetry is off."""
    env = worker_env(None, None, offline=True)
    env["TRANSFORMERS_OFFLINE"] = "1"
    return env
