"""A pair whose draft repository already holds OpenVINO IR (``"format": "openvino"`` in the catalog).

The pull is download → verify → register: no export step, so neither PyTorch nor optimum-intel is needed —
the situation of a pip install without the ``build-models`` extra (and of the frozen bundle, which also
converts Hugging Face-format heads with EagleChat's own converter). The real
``eagle-chat models pull`` runs against the local hub (tests/fake_hub.py, spoken to by the real
huggingface_hub client) with torch, optimum, transformers, nncf and diffusers made unimportable in every
Python process of the pull by a ``sitecustomize`` on PYTHONPATH, which also logs any attempt to import them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from eagle_chat import paths
from eagle_chat.core.acquisition import draft_export, pulls, pull_steps
from eagle_chat.core.models import folders
from eagle_chat.core.models.registry import ModelRegistry
from tests.fake_hub import OPENVINO_TOKENIZER_FILES, TINY_HEAD_REPO, TINY_IR_DRAFT_REPO

HEAVY = ("torch", "optimum", "transformers", "nncf", "diffusers")
BLOCKER = textwrap.dedent(f"""
    import os, sys
    _LOG = os.environ["EAGLE_CHAT_TEST_IMPORT_LOG"]
    _HEAVY = {HEAVY!r}

    def _log(line):
        with open(_LOG, "a", encoding="utf-8") as log:
            log.write(f"{{os.getpid()}} {{line}}\\n")

    class _HeavyImportBlocker:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in _HEAVY:
                _log(f"blocked {{name}}")
                raise ModuleNotFoundError(f"No module named {{name!r}} (made unimportable by the test)", name=name)
            return None

    sys.meta_path.insert(0, _HeavyImportBlocker())
    _log("started")
""")


@pytest.fixture
def no_heavy_env(tmp_path):
    """Environment for child Pythons in which the heavy export packages cannot be imported; returns
    (env, log path)."""
    blocker_dir = tmp_path / "blocker"
    blocker_dir.mkdir()
    (blocker_dir / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    log = tmp_path / "imports.log"
    log.write_text("", encoding="utf-8")
    env = dict(os.environ)
    root = Path(__file__).resolve().parents[2]
    env["PYTHONPATH"] = os.pathsep.join([str(blocker_dir), str(root), *filter(None, [env.get("PYTHONPATH")])])
    env["EAGLE_CHAT_TEST_IMPORT_LOG"] = str(log)
    return env, log


def test_the_blocker_really_makes_torch_unimportable(no_heavy_env):
    env, log = no_heavy_env
    done = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode != 0 and "made unimportable by the test" in done.stderr
    assert "blocked torch" in log.read_text(encoding="utf-8")
    plain = subprocess.run([sys.executable, "-c", "import importlib.util as u; print(u.find_spec('torch') is None)"],
                           capture_output=True, text=True, timeout=120)
    assert plain.stdout.strip() == "False", "torch is installed here; without the blocker it would import"


def test_an_ir_draft_plan_has_no_export_step_and_needs_no_export_tools(tiny_ir_catalog, monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)  # as in the bundle
    plan = pulls.plan_pull("tiny-ir", catalog=tiny_ir_catalog)
    assert [type(s) for s in plan.steps] == [pull_steps.DownloadStep, pull_steps.IrDraftDownloadStep, pull_steps.VerifyStep]
    assert plan.steps[1].repo == TINY_IR_DRAFT_REPO and plan.steps[1].final_dir == plan.draft_dir
    assert pulls.export_problem(tiny_ir_catalog.get("tiny-ir")) is None


def test_the_frozen_bundle_plans_the_conversion_of_a_hugging_face_head(tiny_ir_catalog, monkeypatch):
    """The converter needs only numpy and OpenVINO, which the bundle has: nothing is refused up front."""
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert pulls.export_problem(tiny_ir_catalog.get("tiny")) is None
    plan = pulls.plan_pull("tiny", catalog=tiny_ir_catalog)
    assert [type(s) for s in plan.steps] == [pull_steps.DownloadStep, pull_steps.DownloadStep,
                                             pull_steps.ExportStep, pull_steps.VerifyStep]
    argv = plan.steps[2].command().argv
    assert argv[:3] == [sys.executable, "-m", "eagle_chat.core.acquisition.eagle3_converter"]


def test_frozen_an_unknown_head_names_its_architecture_and_the_way_out(tmp_path, monkeypatch):
    """Only optimum-intel's fallback is missing from the bundle; the message says what the head is and what to do."""
    import json

    from eagle_chat.core.models.catalog import ExportOptions

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    head = tmp_path / "head"
    head.mkdir()
    (head / "config.json").write_text(json.dumps({"architectures": ["DeepseekV3ForCausalLMNextN"],
                                                  "model_type": "deepseek_v3"}))
    step = pull_steps.ExportStep(head, tmp_path / "out", tmp_path / "draft", tmp_path / "target",
                                 ExportOptions(weight_format="fp16"))
    with pytest.raises(pull_steps.AcquireError) as refused:
        step.prepare()
    message = str(refused.value)
    assert "DeepseekV3ForCausalLMNextN" in message and "cannot try optimum-intel" in message
    assert "models import" in message and "pip install" not in message


def test_a_pip_install_without_optimum_still_offers_hf_heads(tiny_ir_catalog, fake_hub, monkeypatch, capsys):
    """The draft converter needs no optimum-intel: an entry with a Hugging Face-format head is not held back."""
    from eagle_chat.commands.models import main as models_main

    monkeypatch.setattr("importlib.util.find_spec", lambda name, *a: None if name.startswith("optimum") else object())
    assert pulls.export_problem(tiny_ir_catalog.get("tiny")) is None
    assert models_main(["list"]) == 0
    assert "needs a draft export" not in capsys.readouterr().out


@pytest.mark.slow
def test_pull_of_an_ir_draft_pair_never_imports_torch_or_optimum(tiny_ir_catalog, fake_hub, eagle_home,
                                                                no_heavy_env):
    env, log = no_heavy_env
    done = subprocess.run(
        [sys.executable, "-m", "eagle_chat", "models", "pull", "tiny-ir", "--endpoint", fake_hub.url,
         "--home", str(eagle_home)],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL, env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "tiny-ir is ready" in done.stdout and "Checked on CPU: the draft got" in done.stdout
    assert "Export" not in done.stderr

    lines = log.read_text(encoding="utf-8").splitlines()
    assert not [line for line in lines if " blocked " in line], lines
    started = {line.split()[0] for line in lines if line.endswith(" started")}
    assert len(started) >= 4, f"the CLI, two downloads and the check each ran under the blocker: {lines}"

    pair = ModelRegistry().get("tiny-ir")
    assert pair.owned and pair.draft_source == f"hf:{TINY_IR_DRAFT_REPO}"
    draft = folders.inspect_draft(pair.draft_dir)
    assert draft.is_eagle3
    for name in OPENVINO_TOKENIZER_FILES:  # the repo had none: the target's was copied in
        assert (pair.draft_path / name).read_bytes() == (pair.target_path / name).read_bytes()
    fetched = {re.match(r"/(?:api/models/)?([^/?]+/[^/?]+)", r.path).group(1) for r in fake_hub.requests}
    assert fetched == {"test/tiny-qwen3", TINY_IR_DRAFT_REPO}, "no Hugging Face-format head was fetched"
    assert TINY_HEAD_REPO not in fetched
    assert not (paths.staging_dir() / "tiny-ir").exists()


def test_an_ir_repo_that_is_not_an_eagle3_draft_is_refused_before_it_moves_into_place(tiny_ir_catalog, fake_hub,
                                                                                      tmp_path):
    from eagle_chat.core.acquisition import runner

    target = fake_hub.repos["test/tiny-qwen3"].folder
    fake_hub.add_repo(TINY_IR_DRAFT_REPO, target)  # a plain model where the draft should be
    plan = pulls.plan_pull("tiny-ir", catalog=tiny_ir_catalog, endpoint=fake_hub.url)
    with pytest.raises(pull_steps.AcquireError, match="does not hold a usable OpenVINO EAGLE-3 draft.*not an EAGLE-3"):
        runner.run_plan(plan)
    assert not plan.draft_dir.exists() and ModelRegistry().pairs() == []


def test_draft_export_module_names_every_heavy_package():
    assert {m.split(".")[0] for m in draft_export.EXPORT_MODULES} >= {"torch", "optimum", "transformers", "nncf"}
