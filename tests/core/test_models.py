"""Each broken model folder gets its own clear error — from validation and from Engine — and life goes on."""

import json
import re
from pathlib import Path
import shutil

import pytest

from eagle_chat.core.generation.engine import (
    Engine,
    EngineError,
    GenerationSettings,
    PipelineSpec,
    plan_load,
)
from eagle_chat.core.models.folders import (
    ModelFolderError,
    check_pair,
    inspect_draft,
    inspect_target,
)


@pytest.fixture
def pair_copy(tiny_pair, tmp_path):
    target = shutil.copytree(tiny_pair[0], tmp_path / "target")
    draft = shutil.copytree(tiny_pair[1], tmp_path / "draft")
    return target, draft


def test_the_committed_pair_is_valid(tiny_pair):
    target, draft = inspect_target(tiny_pair[0]), inspect_draft(tiny_pair[1])
    check_pair(target, draft)
    assert draft.is_eagle3 and not target.is_eagle3
    assert target.hidden_size == draft.hidden_size
    assert target.supports_thinking


def break_missing_ir(target, draft):
    (target / "openvino_model.xml").unlink()
    return target, None, r"has no openvino_model\.xml.*optimum-cli export openvino"


def break_missing_bin(target, draft):
    (target / "openvino_model.bin").unlink()
    return target, None, r"weights .*openvino_model\.bin is missing"


def break_empty_bin(target, draft):
    (draft / "openvino_model.bin").write_bytes(b"")
    return target, draft, r"draft weights .*openvino_model\.bin is empty"


def break_corrupt_xml(target, draft):
    xml = target / "openvino_model.xml"
    xml.write_text(xml.read_text()[: 5000], encoding="utf-8")
    return target, None, r"openvino_model\.xml is damaged"


def break_missing_tokenizer(target, draft):
    (target / "openvino_tokenizer.xml").unlink()
    return target, None, r"has no openvino_tokenizer\.xml"


def break_draft_not_eagle3(target, draft):
    # The target itself offered as a draft: a full model, not an EAGLE-3 head.
    return target, target, r"is not an EAGLE-3 draft"


def break_draft_hidden_size(target, draft):
    config = json.loads((draft / "config.json").read_text())
    config["hidden_size"] = config["target_hidden_size"] = 4096
    (draft / "config.json").write_text(json.dumps(config))
    return target, draft, r"hidden size 4096, but .* has hidden size 64"


def break_target_is_a_draft(target, draft):
    return draft, None, r"holds an EAGLE-3 draft head, not a full model"


def break_missing_folder(target, draft):
    shutil.rmtree(draft)
    return target, draft, r"draft folder .* does not exist"


BREAKAGES = [
    break_missing_ir, break_missing_bin, break_empty_bin, break_corrupt_xml, break_missing_tokenizer,
    break_draft_not_eagle3, break_draft_hidden_size, break_target_is_a_draft, break_missing_folder,
]


@pytest.mark.parametrize("breakage", BREAKAGES, ids=lambda f: f.__name__[6:])
def test_broken_folder_gives_its_own_clear_error(breakage, pair_copy):
    target, draft, message = breakage(*pair_copy)
    spec = PipelineSpec(target, draft, device="CPU", precision="f32")
    with pytest.raises(ModelFolderError, match=message):
        plan_load(spec)
    with pytest.raises(ModelFolderError, match=message):
        Engine(spec)


def test_error_messages_are_all_different(pair_copy, tmp_path):
    messages = set()
    for i, breakage in enumerate(BREAKAGES):
        root = tmp_path / f"case{i}"
        target = shutil.copytree(pair_copy[0], root / "t")
        draft = shutil.copytree(pair_copy[1], root / "d")
        t, d, _ = breakage(target, draft)
        with pytest.raises(ModelFolderError) as info:
            plan_load(PipelineSpec(t, d))
        messages.add(str(info.value).replace(str(root), ""))
    assert len(messages) == len(BREAKAGES)


def test_openvino_load_error_becomes_engine_error_and_process_carries_on(pair_copy, tiny_pair):
    target, _ = pair_copy
    # Valid XML and a non-empty but wrong .bin passes validation; OpenVINO itself must then refuse it.
    (target / "openvino_model.bin").write_bytes(b"\0" * 1000)
    with pytest.raises(EngineError, match="OpenVINO could not load"):
        Engine(PipelineSpec(target, None, device="CPU"))
    engine = Engine(PipelineSpec(tiny_pair[0], None, device="CPU", precision="f32"))
    assert engine.generate("def add(a, b):", GenerationSettings(max_new_tokens=4, speculative=False)).text


# --- the committed tiny pair names no machine ------------------------------------------------------------
COMMITTED_MODELS = Path(__file__).resolve().parents[1] / "models"
COMMITTED_DRAFT = COMMITTED_MODELS / "tiny-qwen3-eagle3"
# An absolute path under a usual top-level folder, or a Python package folder. No token of the tiny BPE can
# hold one (its pre-tokenizer keeps punctuation and letters apart), so a match is a leaked machine path.
MACHINE_PATH = re.compile(rb"(?<![\w.])/(?:work|tmp|root|home|Users|usr|opt|var|mnt|private)/|"
                          rb"\b[A-Za-z]:(?:\\\\|\\|/)(?:Users|Program Files|Windows)\b|site-packages|dist-packages")


def test_no_committed_model_file_names_a_machine_path():
    files = [f for f in COMMITTED_MODELS.rglob("*") if f.is_file() and "speed-demo" not in f.parts]
    assert len(files) >= 20
    leaks = [f"{f.relative_to(COMMITTED_MODELS)}: {m.group(0).decode()}"
             for f in files for m in MACHINE_PATH.finditer(f.read_bytes())]
    assert not leaks
    assert "auto_map" not in json.loads((COMMITTED_DRAFT / "config.json").read_text())
