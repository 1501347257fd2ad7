"""The window's settings are written on the runner's disk lane, never on the GUI thread."""

from __future__ import annotations

import json
import threading

from app.connect.paths import settings_path
from app.connect.remembered import remember_side_by_side, side_by_side_remembered
from app.connect.settings_owner import SettingsOwner, settings_owner, use_settings


def test_the_window_writes_settings_on_the_disk_lane(qtbot, make_window) -> None:
    """Remembering Side by side from the window: the change is in memory at once, and the file
    is written by a runner thread, never the GUI thread."""
    threads: list[str] = []

    class Watched(SettingsOwner):
        def flush(self) -> None:
            threads.append(threading.current_thread().name)
            super().flush()

    window = make_window()  # a fresh home: its settings are the window's
    use_settings(Watched(settings_path(), writer=window._write_settings))
    assert settings_owner().path == settings_path()
    remember_side_by_side(True)
    assert side_by_side_remembered()
    window.runner.wait_idle()
    qtbot.waitUntil(lambda: bool(threads), timeout=5_000)
    assert threading.main_thread().name not in threads
    assert json.loads(settings_path().read_text(encoding="utf-8"))["side_by_side"] is True
