"""The app's log: 0600 in a 0700 folder (even under a permissive umask), rotated so only a
few MB are kept, and libraries' loggers at INFO unless the settings ask for more."""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.connect.app_log import LOG_BACKUPS, LOG_FILE_BYTES, EarlyRecords
from app.connect.paths import log_dir, settings_path
from app.connect.settings import load_settings, save_settings
from widgets.launcher import hold_logging_until_painted, setup_logging


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def logging_set_up(app_home: Path) -> Iterator[None]:
    """The launcher's own set-up; the root logger and our loggers put back afterwards."""
    root = logging.getLogger()
    levels = {n: logging.getLogger(n).level for n in ("", "app", "widgets", "taskdesk")}
    handlers = list(root.handlers)
    old_umask = os.umask(0o022)  # the usual umask: files 0644, folders 0755 by default
    try:
        yield
    finally:
        os.umask(old_umask)
        for handler in root.handlers:
            if handler not in handlers:
                handler.close()
                root.removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def test_the_log_is_0600_in_a_0700_folder(logging_set_up: None) -> None:
    path = Path(setup_logging())
    logging.getLogger("app.somewhere").warning("a line")
    assert path.parent == log_dir()
    assert _mode(path.parent) == 0o700
    assert _mode(path) == 0o600


def test_a_log_left_world_readable_by_an_earlier_version_is_narrowed(
    logging_set_up: None,
) -> None:
    folder = log_dir()
    folder.mkdir(parents=True)
    os.chmod(folder, 0o755)
    (folder / "taskdesk.log").write_text("old lines\n", encoding="utf-8")
    os.chmod(folder / "taskdesk.log", 0o644)
    path = Path(setup_logging())
    assert _mode(folder) == 0o700
    assert _mode(path) == 0o600


def test_the_log_is_rotated_keeping_a_few_mb_all_private(logging_set_up: None) -> None:
    path = Path(setup_logging())
    line = "x" * 1000
    for _ in range(6 * LOG_FILE_BYTES // 1000):
        logging.getLogger("app.busy").warning(line)
    files = sorted(path.parent.iterdir())
    assert [f.name for f in files] == ["taskdesk.log"] + [
        f"taskdesk.log.{n}" for n in range(1, LOG_BACKUPS + 1)
    ]
    assert sum(f.stat().st_size for f in files) <= (LOG_BACKUPS + 1) * LOG_FILE_BYTES
    assert all(_mode(f) == 0o600 for f in files)


def test_at_debug_the_app_logs_debug_and_libraries_stay_at_info(logging_set_up: None) -> None:
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps({"log_level": "DEBUG"}), encoding="utf-8")
    path = Path(setup_logging())
    logging.getLogger("app.render.commonmark").debug("our own detail")
    logging.getLogger("markdown_it.rules_block").debug("a rule traced")
    logging.getLogger("urllib3.connectionpool").debug("a request")
    logging.getLogger("markdown_it").info("said at info")
    written = path.read_text(encoding="utf-8")
    assert "our own detail" in written
    assert "a rule traced" not in written and "a request" not in written
    assert "said at info" in written


def test_libraries_log_debug_when_the_settings_ask(logging_set_up: None) -> None:
    settings = load_settings(settings_path()).settings
    settings.library_log_level = "DEBUG"
    save_settings(settings, settings_path())
    path = Path(setup_logging())
    logging.getLogger("markdown_it.rules_block").debug("a rule traced")
    assert "a rule traced" in path.read_text(encoding="utf-8")


def test_the_settings_file_is_0600_in_a_0700_folder(logging_set_up: None) -> None:
    save_settings(load_settings(settings_path()).settings, settings_path())
    assert _mode(settings_path()) == 0o600
    assert _mode(settings_path().parent) == 0o700


def test_a_second_launchs_raise_request_is_0600(logging_set_up: None, app_home: Path) -> None:
    from app.connect.single_instance import instance_folder, request_raise

    data = app_home / "data"
    instance_folder(data).mkdir(mode=0o700, parents=True)
    request_raise(data)
    assert [_mode(f) for f in instance_folder(data).iterdir()] == [0o600]


def test_what_is_logged_before_the_file_opens_is_written_to_it_first(
    logging_set_up: None,
) -> None:
    """The window holds its log until it has painted; nothing logged meanwhile is lost, and
    the levels asked for hold from the start (DEBUG here)."""
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps({"log_level": "DEBUG"}), encoding="utf-8")
    hold_logging_until_painted()
    logging.getLogger("widgets.window").debug("before the first paint")
    logging.getLogger("app.connect").warning("a warning before it")
    path = Path(setup_logging())
    logging.getLogger("app.connect").info("after it")
    lines = path.read_text(encoding="utf-8").splitlines()
    said = [line.split(": ", 1)[1] for line in lines]
    assert said == ["before the first paint", "a warning before it", "after it"]
    assert not any(isinstance(h, EarlyRecords) for h in logging.getLogger().handlers)
