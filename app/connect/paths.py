"""Where Taskdesk keeps its files: the platform's standard folders, or TASKDESK_HOME."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "taskdesk"
HOME_ENV = "TASKDESK_HOME"
"""Set to a folder to keep everything (config, data, cache) under it: tests, portable use."""


def _home(env: Mapping[str, str] | None) -> Path | None:
    value = (os.environ if env is None else env).get(HOME_ENV, "").strip()
    return Path(value).expanduser() if value else None


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """Settings and (only when the operator asks) the token file; ~/.config/taskdesk on Linux."""
    home = _home(env)
    return home / "config" if home else platformdirs.user_config_path(APP_NAME, appauthor=False)


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """Drafts, local history and the local workspace; ~/.local/share/taskdesk on Linux."""
    home = _home(env)
    return home / "data" if home else platformdirs.user_data_path(APP_NAME, appauthor=False)


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Files that can be rebuilt from a server; ~/.cache/taskdesk on Linux."""
    home = _home(env)
    return home / "cache" if home else platformdirs.user_cache_path(APP_NAME, appauthor=False)


def log_dir(env: Mapping[str, str] | None = None) -> Path:
    home = _home(env)
    return home / "logs" if home else platformdirs.user_log_path(APP_NAME, appauthor=False)


def store_path(env: Mapping[str, str] | None = None) -> Path:
    """The local store (drafts, history, offline cache). In the data folder, not the cache
    folder: drafts are the operator's unsaved work and must survive a cache clean-up."""
    return data_dir(env) / "store.sqlite3"


def settings_path(env: Mapping[str, str] | None = None) -> Path:
    return config_dir(env) / "settings.json"


def token_file_path(env: Mapping[str, str] | None = None) -> Path:
    """Tokens the operator chose to keep in a file (only where no keyring is available)."""
    return config_dir(env) / "tokens.json"
