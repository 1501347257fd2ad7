"""The typed settings: defaults, a JSON file in the config folder, written atomically.

A token never goes here: servers are remembered by URL and name only (see credentials).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TypeGuard
from urllib.parse import urlsplit, urlunsplit

from app.connect.private_files import private_folder

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class SettingsError(Exception):
    """The settings could not be written; ``message`` says where and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class RememberedServer:
    url: str
    name: str


@dataclass(slots=True)
class Settings:
    """Everything the app remembers between starts, with its defaults."""

    last_server_url: str | None = None  # None: the embedded local workspace
    servers: list[RememberedServer] = field(default_factory=list)
    window_geometry: str | None = None  # base64 of QWidget.saveGeometry()
    last_agent: dict[str, str] = field(default_factory=dict)  # server key -> agent id
    # server key -> agents opened by id, on servers that don't list their agents. Files
    # written before this field existed simply lack it and load with the default.
    opened_agents: dict[str, list[str]] = field(default_factory=dict)
    # server key -> agent id -> guild id the operator gave when opening it by id, so the
    # server's embed-status can be asked for that guild.
    agent_guilds: dict[str, dict[str, str]] = field(default_factory=dict)
    splitter_sizes: list[int] = field(default_factory=list)
    # Per screen set-up (the screens' names and sizes): where the window was, and its
    # splitter, so a laptop alone and docked each get their own place back.
    window_geometries: dict[str, str] = field(default_factory=dict)
    splitters: dict[str, list[int]] = field(default_factory=dict)
    log_level: str = "INFO"  # the app's own loggers
    # Every other library's loggers (markdown-it, urllib3): INFO unless asked for more.
    library_log_level: str = "INFO"
    side_by_side: bool = False  # View › Side by side: Edit and Preview together
    look: str = "system"  # View › Look: system, light or dark

    def remember_server(self, url: str, name: str = "") -> RememberedServer:
        """Add (or rename) a server; user and password in the URL are dropped, never kept."""
        entry = RememberedServer(url_without_credentials(url), name.strip())
        self.servers = [s for s in self.servers if s.url != entry.url] + [entry]
        return entry

    def forget_server(self, url: str) -> None:
        clean = url_without_credentials(url)
        self.servers = [s for s in self.servers if s.url != clean]


def url_without_credentials(url: str) -> str:
    """``url`` without user:password@, query or fragment, where a token could hide."""
    parts = urlsplit(url.strip())
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


@dataclass(frozen=True, slots=True)
class LoadedSettings:
    settings: Settings
    warning: str | None  # for the operator when the file was broken and defaults were used


# ---------------------------------------------------------------- checking what was read


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _optional_str(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise ValueError


def _servers(value: object) -> list[RememberedServer]:
    if not isinstance(value, list):
        raise ValueError
    out = []
    for item in value:
        url = item.get("url") if isinstance(item, dict) else None
        if not isinstance(url, str):
            raise ValueError
        name = item.get("name", "")
        out.append(
            RememberedServer(url_without_credentials(url), name if isinstance(name, str) else "")
        )
    return out


def _str_map(value: object) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ValueError
    return dict(value)


def _str_lists(value: object) -> dict[str, list[str]]:
    if not isinstance(value, dict):
        raise ValueError
    for ids in value.values():
        if not isinstance(ids, list) or not all(isinstance(i, str) and i for i in ids):
            raise ValueError
    return {key: list(dict.fromkeys(ids)) for key, ids in value.items()}


def _str_maps(value: object) -> dict[str, dict[str, str]]:
    if not isinstance(value, dict):
        raise ValueError
    return {key: _str_map(inner) for key, inner in value.items()}


def _sizes(value: object) -> list[int]:
    if not isinstance(value, list):
        raise ValueError
    sizes = [v for v in value if _is_int(v) and v >= 0]
    if len(sizes) != len(value):
        raise ValueError
    return sizes


def _size_map(value: object) -> dict[str, list[int]]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise ValueError
    return {key: _sizes(sizes) for key, sizes in value.items()}


def _look(value: object) -> str:
    if value not in ("system", "light", "dark"):
        raise ValueError
    return str(value)


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError
    return value


def _log_level(value: object) -> str:
    if not isinstance(value, str) or value.upper() not in LOG_LEVELS:
        raise ValueError
    return value.upper()


_CHECKS: dict[str, Callable[[object], object]] = {
    "last_server_url": _optional_str,
    "servers": _servers,
    "window_geometry": _optional_str,
    "last_agent": _str_map,
    "opened_agents": _str_lists,
    "agent_guilds": _str_maps,
    "splitter_sizes": _sizes,
    "window_geometries": _str_map,
    "splitters": _size_map,
    "log_level": _log_level,
    "library_log_level": _log_level,
    "side_by_side": _bool,
    "look": _look,
}


def settings_from_json(data: object) -> tuple[Settings, list[str]]:
    """Settings from parsed JSON: each bad value falls back to its default, and is named."""
    settings = Settings()
    if not isinstance(data, dict):
        return settings, ["(the whole file)"]
    bad: list[str] = []
    for f in fields(Settings):
        if f.name not in data:
            continue
        try:
            setattr(settings, f.name, _CHECKS[f.name](data[f.name]))
        except ValueError:
            bad.append(f.name)
    return settings, bad


# ---------------------------------------------------------------- the file


def load_settings(path: Path) -> LoadedSettings:
    """Read the settings; a missing file is the defaults, a broken one the defaults + a warning.

    A file that isn't JSON at all is moved aside (``.broken``) so the next save can't
    overwrite what the operator may want to look at.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return LoadedSettings(Settings(), None)
    except OSError as exc:
        return LoadedSettings(
            Settings(),
            f"Couldn't read the settings ({path}: {exc.strerror}); using the defaults.",
        )
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        aside = path.with_name(path.name + ".broken")
        try:
            os.replace(path, aside)
            kept = f" The broken file was kept as {aside}."
        except OSError:
            kept = ""
        return LoadedSettings(
            Settings(), f"The settings file {path} is damaged; using the defaults.{kept}"
        )
    settings, bad = settings_from_json(data)
    warning = None
    if bad:
        warning = (
            f"Some settings in {path} were not understood and are back to their defaults: "
            f"{', '.join(bad)}."
        )
    return LoadedSettings(settings, warning)


def save_settings(settings: Settings, path: Path) -> None:
    """Write atomically: a temp file in the same folder, flushed, then os.replace.

    A crash mid-write leaves the old file, never half a new one. Raises SettingsError.
    """
    data = asdict(settings)
    body = json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")
    tmp_name: str | None = None
    try:
        private_folder(path.parent)  # 0700; mkstemp makes the file 0600
        fd, tmp_name = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(body)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp_name, path)
        tmp_name = None
    except OSError as exc:
        raise SettingsError(
            f"Can't save the settings to {path}: {exc.strerror or exc}. "
            "They stay as they are for this session."
        ) from None
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):  # a stray temp file is harmless
                os.unlink(tmp_name)
