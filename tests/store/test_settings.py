"""Settings: defaults, an atomic JSON file, broken files become defaults with a warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.connect import paths
from app.connect.settings import (
    RememberedServer,
    Settings,
    SettingsError,
    load_settings,
    save_settings,
)


@pytest.fixture
def settings_path(tmp_path: Path) -> Path:
    return paths.settings_path({"TASKDESK_HOME": str(tmp_path)})


def test_missing_file_gives_defaults(settings_path: Path) -> None:
    loaded = load_settings(settings_path)
    assert loaded.settings == Settings() and loaded.warning is None
    assert loaded.settings.last_server_url is None  # the embedded default


def test_round_trip(settings_path: Path) -> None:
    settings = Settings(
        last_server_url="https://tasks.example.com",
        window_geometry="AdnQywADAAAAAAB",
        last_agent={"https://tasks.example.com": "a_scout"},
        splitter_sizes=[300, 700],
        log_level="DEBUG",
    )
    settings.remember_server("https://tasks.example.com/", "Acme")
    save_settings(settings, settings_path)
    loaded = load_settings(settings_path)
    assert loaded.warning is None
    assert loaded.settings == settings
    assert [p.name for p in settings_path.parent.iterdir()] == ["settings.json"]  # no temp left


def test_servers_never_keep_credentials(settings_path: Path) -> None:
    settings = Settings()
    settings.remember_server("https://ann:tok-secret@tasks.example.com/api?token=tok-secret", "A")
    settings.remember_server("https://tasks.example.com/api", "Acme")  # renames the same one
    assert settings.servers == [RememberedServer("https://tasks.example.com/api", "Acme")]
    save_settings(settings, settings_path)
    assert "tok-secret" not in settings_path.read_text()
    settings.forget_server("https://tasks.example.com/api")
    assert settings.servers == []


def test_a_file_that_is_not_json_gives_defaults_and_is_kept_aside(settings_path: Path) -> None:
    settings_path.parent.mkdir(parents=True)
    settings_path.write_bytes(b'{"editor_font_size": 14,,,')
    loaded = load_settings(settings_path)
    assert loaded.settings == Settings()
    aside = settings_path.with_name("settings.json.broken")
    assert loaded.warning == (
        f"The settings file {settings_path} is damaged; using the defaults. "
        f"The broken file was kept as {aside}."
    )
    assert aside.read_bytes() == b'{"editor_font_size": 14,,,'


def test_bad_values_fall_back_one_by_one(settings_path: Path) -> None:
    settings_path.parent.mkdir(parents=True)
    settings_path.write_text(
        json.dumps(
            {
                "side_by_side": "yes",
                "window_geometry": 5,
                "splitter_sizes": [100, True],
                "log_level": "debug",
                "servers": [{"url": "http://a"}, {"name": "no url"}],
                "last_agent": {"http://a": "a_1"},
                "something_new": 1,
            }
        )
    )
    loaded = load_settings(settings_path)
    s = loaded.settings
    assert (s.side_by_side, s.window_geometry, s.splitter_sizes) == (False, None, [])
    assert s.log_level == "DEBUG" and s.last_agent == {"http://a": "a_1"}
    assert s.servers == []
    assert loaded.warning is not None
    for name in ("side_by_side", "window_geometry", "splitter_sizes", "servers"):
        assert name in loaded.warning
    assert "log_level" not in loaded.warning


def test_a_json_list_is_not_settings(settings_path: Path) -> None:
    settings_path.parent.mkdir(parents=True)
    settings_path.write_text("[1, 2]")
    loaded = load_settings(settings_path)
    assert loaded.settings == Settings() and "(the whole file)" in (loaded.warning or "")


def test_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "config"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(SettingsError, match=r"Can't save the settings to .*settings.json"):
        save_settings(Settings(), blocker / "settings.json")


def test_paths_follow_taskdesk_home(tmp_path: Path) -> None:
    env = {"TASKDESK_HOME": str(tmp_path)}
    assert paths.config_dir(env) == tmp_path / "config"
    assert paths.store_path(env) == tmp_path / "data" / "store.sqlite3"
    assert paths.token_file_path(env) == tmp_path / "config" / "tokens.json"
    assert paths.cache_dir(env) == tmp_path / "cache"
    assert paths.data_dir({}).name == "taskdesk"  # the platform folder otherwise


def test_settings_no_longer_kept_are_read_past_without_a_warning(settings_path: Path) -> None:
    """An older file's preview_debounce_ms and editor_font_size (never read: gone) are ignored."""
    settings_path.parent.mkdir(parents=True)
    settings_path.write_text(json.dumps({"preview_debounce_ms": 300, "editor_font_size": 12}))
    loaded = load_settings(settings_path)
    assert loaded.settings == Settings() and loaded.warning is None
