"""``eagle-chat --home DIR <command> …``: the home given before the command holds for every command."""

from __future__ import annotations

import os

import pytest

from eagle_chat import cli, paths

# a cheap command line per command: the ones that read the home list what it holds, the rest show their help
COMMAND_LINES = {
    "models": ["list"],
    "conversations": ["list"],
    "docs": ["list"],
    "tools": ["list"],
    "bench": ["--help"],
    "serve": ["--help"],
    "--self-test": ["--help"],
}


def test_every_command_is_covered():
    assert set(COMMAND_LINES) == set(cli.COMMANDS)


@pytest.mark.parametrize("spelling", ["separate", "equals"])
@pytest.mark.parametrize("command", sorted(COMMAND_LINES))
def test_home_before_the_command(command, spelling, tmp_path, capsys):
    home = tmp_path / "家目录"
    option = ["--home", str(home)] if spelling == "separate" else [f"--home={home}"]
    try:
        code = cli.main([*option, command, *COMMAND_LINES[command]])
    except SystemExit as exit_:  # --help
        code = exit_.code
    assert code == 0, capsys.readouterr().err
    assert os.environ[paths.HOME_ENV] == str(home.resolve())
    if COMMAND_LINES[command] != ["--help"]:
        assert paths.config_dir().is_relative_to(home.resolve())
        assert any(home.iterdir()), f"{command} used another folder than --home"


def test_the_home_after_the_command_wins(tmp_path):
    assert paths.split_leading_home(["--home", "a", "--home=b", "tools", "list", "--home", "c"]) == (
        "b", ["tools", "list", "--home", "c"])
    code = cli.main(["--home", str(tmp_path / "before"), "tools", "list", "--home", str(tmp_path / "after")])
    assert code == 0
    assert os.environ[paths.HOME_ENV] == str((tmp_path / "after").resolve())


def test_the_window_still_takes_home_first():
    assert paths.split_leading_home(["--home", "x"]) == ("x", [])
    assert paths.split_leading_home(["--home"]) == (None, ["--home"])  # its parser says what is missing
