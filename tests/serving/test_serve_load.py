"""`eagle-chat serve` whose model cannot load ends at once: one sentence, exit code 2, no traceback.

It used to wait for ``sig_loaded`` or ``sig_error`` while a failed load says ``sig_load_failed``, so a bad
folder left it at "Loading …" for ever. Each case is bounded: a hang fails (TimeoutExpired), it never hangs.
"""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import TINY_DRAFT, TINY_TARGET
from tests.core.test_models import break_corrupt_xml, break_draft_hidden_size, break_draft_not_eagle3
from tests.serving.served import run_serve

BOUND_S = 90  # the tiny pair's checks take seconds; a regression waits for ever


def _pair(tmp_path):
    return shutil.copytree(TINY_TARGET, tmp_path / "target"), shutil.copytree(TINY_DRAFT, tmp_path / "draft")


def missing_folder(tmp_path):
    return ["--model", str(tmp_path / "no-such-model")], r"target model folder .*no-such-model does not exist\."


def folder_that_is_not_a_model(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("not a model", encoding="utf-8")
    return ["--model", str(tmp_path / "notes")], r"has no openvino_model\.xml, so it is not an OpenVINO model"


def damaged_model(tmp_path):
    target, _ = _pair(tmp_path)
    target, _, message = break_corrupt_xml(target, None)
    return ["--model", str(target)], message


def weights_openvino_refuses(tmp_path):
    # Passes the folder checks; OpenVINO itself refuses it (the worker's other failure path).
    target, _ = _pair(tmp_path)
    (target / "openvino_model.bin").write_bytes(b"\0" * 1000)
    return ["--model", str(target)], r"OpenVINO could not load .*target on CPU: "


def draft_for_another_model(tmp_path):
    target, draft, message = break_draft_hidden_size(*_pair(tmp_path))
    return ["--model", str(target), "--draft", str(draft)], message


def draft_that_is_no_draft(tmp_path):
    target, draft, message = break_draft_not_eagle3(*_pair(tmp_path))
    return ["--model", str(target), "--draft", str(draft)], message


CASES = [missing_folder, folder_that_is_not_a_model, damaged_model, weights_openvino_refuses,
         draft_for_another_model, draft_that_is_no_draft]


@pytest.mark.parametrize("case", CASES, ids=lambda f: f.__name__)
def test_a_model_that_cannot_load_ends_serve_with_its_sentence(case, tmp_path):
    import re

    args, message = case(tmp_path)
    result = run_serve(tmp_path / "home", *args, timeout=BOUND_S)
    assert result.returncode == 2, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("eagle-chat serve: ") and re.search(message, last), result.stderr
    assert "Traceback" not in result.stderr and "EagleChat API on" not in result.stdout


def test_a_device_this_machine_lacks_is_named_before_anything_loads(tmp_path):
    from eagle_chat.core.generation.devices import list_devices

    if "NPU" in {d.kind for d in list_devices()}:
        pytest.skip("this machine has an NPU")
    result = run_serve(tmp_path / "home", "--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT),
                       "--device", "NPU", timeout=BOUND_S)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        "eagle-chat serve: NPU is not available here. No Intel NPU found (Core Ultra processors have one; it needs "
        "the NPU driver)."]
