import json

from eagle_chat import paths
from eagle_chat.settings import Settings, load_settings, save_settings


def test_round_trip_and_atomic_write(tmp_path):
    path = tmp_path / "settings.json"
    settings = Settings(device="NPU", num_assistant_tokens=7, tuned_k={"a|b|CPU": 3})
    save_settings(settings, path)
    loaded, notice = load_settings(path)
    assert notice is None and loaded == settings
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temp files left


def test_corrupt_settings_give_defaults_and_a_backup(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    loaded, notice = load_settings(path)
    assert loaded == Settings()
    assert "could not be read" in notice
    backup = next(tmp_path.glob("settings.json.broken-*"))
    assert backup.read_text() == "{not json"


def test_wrong_types_are_treated_as_corrupt(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"num_assistant_tokens": "many"}), encoding="utf-8")
    loaded, notice = load_settings(path)
    assert loaded.num_assistant_tokens == 5 and notice


def test_unknown_fields_from_a_newer_version_are_ignored(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"version": 99, "device": "GPU", "hologram": True}), encoding="utf-8")
    loaded, notice = load_settings(path)
    assert notice is None and loaded.device == "GPU"


def test_home_override_keeps_everything_under_it(eagle_home):
    for location in (paths.config_dir(), paths.data_dir(), paths.cache_dir(), paths.settings_file(),
                     paths.database_file(), paths.models_dir(), paths.compiled_cache_dir()):
        assert str(location).startswith(str(eagle_home))
