"""Core user errors are raised as literal templates with named values, so the UI can translate them.

``SomeError("The folder {path} has no {name}.", path=p, name=n)``: the scanner (tools/user_errors.py) finds
every subclass of ``UserError`` defined anywhere in eagle_chat, through imports and aliases, and every call
in core and commands that builds one.
"""

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


user_errors = _load("user_errors")


def test_every_user_error_in_core_and_commands_has_a_literal_template_and_named_values():
    calls = user_errors.calls()
    assert len(calls) > 100, "the scanner no longer finds the user errors core raises"
    bad = [f"{c.where()}: {c.cls}: {c.problem}" for c in calls if c.problem]
    assert not bad, "\n".join(bad)


def test_the_scanner_knows_subclasses_defined_anywhere_in_the_package():
    classes = user_errors.user_error_classes()
    for name in ("eagle_chat.core.acquisition.pull_steps.Cancelled",  # UserError -> AcquireError -> Cancelled
                 "eagle_chat.core.generation.engine_errors.SamplingWithDraftError",  # moved out of engine.py
                 "eagle_chat.core.acquisition.download_files.WorkerError",
                 "eagle_chat.core.serving.server.ServerError"):
        assert name in classes
    assert "eagle_chat.core.serving.errors.ApiError" not in classes  # an API error, not a user's


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = tmp_path / "eagle_chat" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    for folder in [p for p in (tmp_path / "eagle_chat").rglob("*") if p.is_dir()] + [tmp_path / "eagle_chat"]:
        (folder / "__init__.py").touch()
    return tmp_path / "eagle_chat"


ERRORS = """
    class UserError(Exception):
        def __init__(self, template, /, **params):
            self.template, self.params = template, params
"""


@pytest.mark.parametrize("raise_line, problem", [
    ('raise FarError(f"The folder {path} is gone.")', "f-string"),
    ('raise FarError("The folder " + str(path) + " is gone.")', "+ or %"),
    ('raise FarError("The folder %s is gone." % path)', "+ or %"),
    ("raise FarError(message)", "not a string literal"),
    ('raise FarError("The folder {path} is gone.")', "without a value: path"),
    ('raise FarError("The folder {} is gone.", path)', "by position"),
    ('raise alias.FarError(f"{path} is gone.")', "f-string"),
    ('raise Near(f"{path} is gone.")', "f-string"),
    ('raise FarError("The folder {path} is gone.", path=path)', None),
    ('raise FarError("The folder {path} is gone.", **facts)', None),
])
def test_the_scanner_flags_templates_that_are_not_literals(tmp_path, raise_line, problem):
    package = _package(tmp_path, {
        "core/errors.py": ERRORS,
        # a subclass two levels down, in another package, imported relatively
        "core/deep/base.py": "from eagle_chat.core.errors import UserError\nclass MidError(UserError): pass\n",
        "other/far.py": "from ..core.deep.base import MidError\nclass FarError(MidError): pass\n",
        "core/user.py": f"""
            from eagle_chat.other.far import FarError
            from eagle_chat.other.far import FarError as Near
            import eagle_chat.other.far as alias
            def fail(path, message, facts):
                {raise_line}
        """,
    })
    found = user_errors.calls([package / "core" / "user.py"], package=package, root=tmp_path)
    assert len(found) == 1, found
    if problem is None:
        assert found[0].problem is None
    else:
        assert found[0].problem and problem in found[0].problem


def test_templates_are_collected_sorted_and_once():
    templates = user_errors.templates()
    assert templates == sorted(set(templates))
    assert "The {role} folder {path} does not exist." in templates
    assert not any("FIXME" in t for t in templates)


def test_a_worker_s_user_error_reaches_the_parent_as_template_and_values(tmp_path):
    """Download and check workers are child processes: their errors arrive as JSON lines, and must still be
    user errors (template + values) on this side so the window can translate them."""
    import json

    from eagle_chat.core.acquisition.download_files import WorkerError
    from eagle_chat.core.acquisition.protocol import error_fields
    from eagle_chat.core.acquisition.pull_steps import Step
    from eagle_chat.core.errors import UserError

    error = WorkerError("The hub lists {path} of {repo} with two different sizes ({size:,} and {other_size:,}); "
                        "try again later.", path=tmp_path / "model.bin", repo="o/r", size=1234567,
                        other_size=7, kind="integrity")
    step = Step()
    step.handle_line(json.dumps({"event": "error", "kind": error.kind, **error_fields(error)}))
    assert isinstance(step.last_error, UserError)
    assert step.last_error.template == error.template
    assert step.last_error.params["size"] == 1234567
    assert str(step.last_error) == str(error)
    assert "1,234,567" in str(step.failure_detail(1))
    step.handle_line(json.dumps({"event": "error", "message": "an old worker's plain sentence"}))
    assert step.last_error == "an old worker's plain sentence"
