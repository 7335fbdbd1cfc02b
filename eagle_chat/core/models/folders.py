"""What a valid target folder and a valid EAGLE-3 draft folder are, checked before OpenVINO sees them.

OpenVINO's own load errors are terse ("Could not find a model in the directory"), and some only surface at
the first ``generate()`` (a missing tokenizer). Every check here fails with a sentence the user can act on.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from eagle_chat.core.errors import UserError

MODEL_XML = "openvino_model.xml"
MODEL_BIN = "openvino_model.bin"
TOKENIZER_XML = "openvino_tokenizer.xml"
DETOKENIZER_XML = "openvino_detokenizer.xml"
EAGLE3_ARCHITECTURES = ("LlamaForCausalLMEagle3", "Eagle3LlamaForCausalLM")
MIN_LAYERS_FOR_DEFAULT_FEATURES = 10

EXPORT_HINT = (
    "optimum-cli export openvino --model <hf-model> --task text-generation-with-past "
    "--weight-format int4 <folder>"
)
DRAFT_EXPORT_HINT = (
    "optimum-cli export openvino --model <eagle3-head> --task text-generation-with-past "
    "--trust-remote-code --weight-format int4 --group-size 128 --ratio 1.0 <folder>"
)


class ModelFolderError(UserError):
    """A model folder cannot be used; ``str(error)`` tells the user what is wrong and how to fix it."""


@dataclass(frozen=True)
class ModelInfo:
    """What EagleChat needs to know about an exported model folder."""

    path: Path
    architectures: tuple[str, ...]
    hidden_size: int | None
    vocab_size: int | None
    num_hidden_layers: int | None
    is_eagle3: bool
    hidden_layers_list: tuple[int, ...] | None
    chat_template: str | None
    max_context: int | None = None  # max_position_embeddings: the longest sequence the model was made for
    is_dflash: bool = False  # a DFlash block-diffusion draft (rt_info ``dflash_mode``; unverified here)
    has_mtp: bool = False  # a target folder with an MTP head beside it (``openvino_mtp_model.xml``; unverified)

    @property
    def draft_kind(self) -> str | None:
        """The speculative method this folder provides as a draft: "eagle3", "dflash", or None."""
        return "dflash" if self.is_dflash else "eagle3" if self.is_eagle3 else None

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def supports_thinking(self) -> bool:
        """True if the chat template reads ``enable_thinking`` (Qwen3 style), so the switch means something."""
        return bool(self.chat_template and "enable_thinking" in self.chat_template)


MTP_XML = "openvino_mtp_model.xml"  # GenAI 2026.4.1 loads an MTP head from this file in the target folder


def inspect_target(path: str | Path) -> ModelInfo:
    """Validate a target (main model) folder; raise ModelFolderError with a reason."""
    info = _inspect(Path(path), role="target model")
    if info.is_eagle3:
        raise ModelFolderError(
            "{path} holds an EAGLE-3 draft head, not a full model. Choose it as the draft and pick the matching "
            "target model (for example an OpenVINO int4 Qwen3) as the model.", path=info.path
        )
    return info


def inspect_draft(path: str | Path) -> ModelInfo:
    """Validate an EAGLE-3 draft folder; raise ModelFolderError with a reason."""
    info = _inspect(Path(path), role="draft")
    if info.draft_kind is None:
        raise ModelFolderError(
            "{path} is not an EAGLE-3 draft: its IR has no 'eagle3_mode' marker and its config.json architectures "
            "are {architectures}. Export an EAGLE-3 head with {command}",
            path=info.path, architectures=list(info.architectures) or "missing", command=DRAFT_EXPORT_HINT,
        )
    return info


def reduced_vocabulary(draft_dir: str | Path | None) -> bool:
    """Does the draft predict over fewer tokens than the target (``draft_vocab_size`` < ``vocab_size``: a
    ``d2t`` map, as AngelSlim's heads have)? False for no draft or an unreadable config."""
    if draft_dir is None:
        return False
    try:
        config = json.loads((Path(draft_dir) / "config.json").read_text(encoding="utf-8"))
        return int(config.get("draft_vocab_size") or config["vocab_size"]) < int(config["vocab_size"])
    except (TypeError, OSError, ValueError, KeyError):
        return False


def check_pair(target: ModelInfo, draft: ModelInfo) -> None:
    """Raise ModelFolderError if ``draft`` cannot drive ``target`` (hidden size, vocabulary, layers)."""
    if target.hidden_size and draft.hidden_size and target.hidden_size != draft.hidden_size:
        raise ModelFolderError(
            "The draft {draft} was trained for a model with hidden size {draft_size}, but {target} has hidden size "
            "{target_size}. Use the EAGLE-3 head made for this model (for Qwen3-8B: AngelSlim/Qwen3-8B_eagle3).",
            draft=draft.name, draft_size=draft.hidden_size, target=target.name, target_size=target.hidden_size,
        )
    if target.vocab_size and draft.vocab_size and target.vocab_size != draft.vocab_size:
        raise ModelFolderError(
            "The draft {draft} uses a vocabulary of {draft_size} tokens but {target} has {target_size}. Draft and "
            "model must come from the same model family.",
            draft=draft.name, draft_size=draft.vocab_size, target=target.name, target_size=target.vocab_size,
        )
    if draft.is_dflash:  # GenAI reads a DFlash draft's layers from its own rt_info (dflash_target_layer_ids)
        return
    if draft.hidden_layers_list is None:
        layers = target.num_hidden_layers
        if layers is not None and layers < MIN_LAYERS_FOR_DEFAULT_FEATURES:
            raise ModelFolderError(
                "{name} has {layers} layers; EAGLE-3 reads features from layers 2, N/2 and N-3, which needs at least "
                "{minimum}, unless the draft names its layers in rt_info 'hidden_layers_list'.",
                name=target.name, layers=layers, minimum=MIN_LAYERS_FOR_DEFAULT_FEATURES,
            )
    elif target.num_hidden_layers is not None:
        bad = [i for i in draft.hidden_layers_list if not 0 <= i < target.num_hidden_layers]
        if bad:
            raise ModelFolderError(
                "The draft {draft} reads layers {bad}, which {target} ({layers} layers) does not have.",
                draft=draft.name, bad=bad, target=target.name, layers=target.num_hidden_layers,
            )


def _inspect(path: Path, *, role: str) -> ModelInfo:
    if not path.exists():
        raise ModelFolderError("The {role} folder {path} does not exist.", role=role, path=path)
    if not path.is_dir():
        raise ModelFolderError("The {role} path {path} is a file; choose the folder that holds it.",
                               role=role, path=path)
    xml_path = path / MODEL_XML
    if not xml_path.is_file():
        raise ModelFolderError(
            "The {role} folder {path} has no {name}, so it is not an OpenVINO model. Export it with {command}",
            role=role, path=path, name=MODEL_XML, command=DRAFT_EXPORT_HINT if role == "draft" else EXPORT_HINT,
        )
    bin_path = path / MODEL_BIN
    if not bin_path.is_file() or bin_path.stat().st_size == 0:
        if bin_path.is_file():
            raise ModelFolderError("The {role} weights {path} is empty. The download or export did not finish — "
                                   "download or export the model again.", role=role, path=bin_path)
        raise ModelFolderError("The {role} weights {path} is missing. The download or export did not finish — "
                               "download or export the model again.", role=role, path=bin_path)
    rt_info = _read_rt_info(xml_path, role)
    for name in (TOKENIZER_XML, DETOKENIZER_XML):
        if not (path / name).is_file():
            raise ModelFolderError(
                "The {role} folder {path} has no {name}. Export the model with optimum-cli (it writes the tokenizer) "
                "or convert the tokenizer with `convert_tokenizer <hf-model> --with-detokenizer -o {path}`.",
                role=role, path=path, name=name
            )
    config = _read_json(path / "config.json", role, required=True)
    architectures = tuple(config.get("architectures") or ())
    is_eagle3 = "eagle3_mode" in rt_info or any(a in EAGLE3_ARCHITECTURES for a in architectures)
    hidden = config.get("target_hidden_size") if is_eagle3 else None
    layers_list = rt_info.get("hidden_layers_list")
    return ModelInfo(
        path=path.resolve(),
        architectures=architectures,
        hidden_size=_int_or_none(hidden or config.get("hidden_size")),
        vocab_size=_int_or_none(config.get("vocab_size")),
        num_hidden_layers=_int_or_none(config.get("num_hidden_layers")),
        is_eagle3=is_eagle3,
        hidden_layers_list=_parse_int_list(layers_list) if layers_list else None,
        chat_template=_chat_template(path),
        max_context=_int_or_none(config.get("max_position_embeddings")),
        is_dflash=str(rt_info.get("dflash_mode", "")).lower() in ("true", "1"),
        has_mtp=(path / MTP_XML).is_file(),
    )


def _read_rt_info(xml_path: Path, role: str) -> dict[str, str]:
    """Top-level rt_info entries of an IR (``<net><rt_info><name value="..."/>``), flattened."""
    try:
        root = ET.parse(xml_path).getroot()
    except (ET.ParseError, OSError) as error:
        raise ModelFolderError(
            "The {role} file {xml_path} is damaged ({error}). Download or export the model again.",
            role=role, xml_path=xml_path, error=error
        ) from None
    if root.tag != "net":
        raise ModelFolderError("The {role} file {xml_path} is XML but not an OpenVINO model (IR).",
                               role=role, xml_path=xml_path)
    entries: dict[str, str] = {}
    rt = root.find("rt_info")
    if rt is not None:
        for child in rt.iter():
            if child is not rt and "value" in child.attrib:
                entries[child.tag] = child.attrib["value"]
    return entries


def _read_json(path: Path, role: str, *, required: bool) -> dict:
    if not path.is_file():
        if required:
            raise ModelFolderError(
                "The {role} folder {parent} has no config.json; EagleChat and OpenVINO GenAI need it to pair a draft "
                "with its model. Copy it from the original model or export again.", role=role, parent=path.parent
            )
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as error:
        raise ModelFolderError("The {role} file {path} is not valid JSON ({error}).",
                               role=role, path=path, error=error) from None
    if not isinstance(data, dict):
        raise ModelFolderError("The {role} file {path} is not a JSON object.", role=role, path=path)
    return data


def _chat_template(path: Path) -> str | None:
    """The chat template, from tokenizer_config.json or a chat_template.jinja file, if present."""
    template_file = path / "chat_template.jinja"
    if template_file.is_file():
        return template_file.read_text(encoding="utf-8", errors="replace")
    try:
        config = json.loads((path / "tokenizer_config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    template = config.get("chat_template") if isinstance(config, dict) else None
    return template if isinstance(template, str) else None


def _int_or_none(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _parse_int_list(value: str) -> tuple[int, ...] | None:
    try:
        return tuple(int(v) for v in value.replace("[", " ").replace("]", " ").replace(",", " ").split())
    except ValueError:
        return None
