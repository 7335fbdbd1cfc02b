"""The models folder the Windows installer lets the user choose (EAGLE_CHAT_MODELS)."""

from __future__ import annotations

from eagle_chat import paths


def test_the_chosen_models_folder_is_used_unless_a_home_is_given(tmp_path, monkeypatch, eagle_home):
    chosen = tmp_path / "D盘" / "模型"
    monkeypatch.setenv(paths.MODELS_ENV, str(chosen))
    assert paths.models_dir() == eagle_home / "data" / "models"  # --home / EAGLE_CHAT_HOME keeps all in one place
    monkeypatch.delenv(paths.HOME_ENV)
    assert paths.models_dir() == chosen and chosen.is_dir()
    assert paths.staging_dir() == chosen / ".partial"
