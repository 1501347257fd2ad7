"""Shared test set-up: offscreen Qt, a home of the run's own, the shared fixture plugins."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Before any Qt import: tests never need a display.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

pytest_plugins = ["tests.live_server", "tests.figures", "tests.qt_shutdown", "tests.gui_thread_gc"]


@pytest.fixture(autouse=True, scope="session")
def _home_of_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Nothing a test runs reads or writes the operator's own settings, store or keyring.

    Window tests get a fresh home each (``fresh_home``); everything else shares this one,
    which is the run's own (each xdist worker has a temporary folder of its own).
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TASKDESK_HOME", str(tmp_path_factory.mktemp("home")))
        patch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
        patch.delenv("TASKDESK_TOKEN", raising=False)
        yield


@pytest.fixture(autouse=True)
def _fresh_settings() -> Iterator[None]:
    """Each test starts from the settings file as it finds it, never another test's memory
    of it (the settings' one owner is made again on first use)."""
    from app.connect.settings_owner import use_settings

    use_settings(None)
    yield
    use_settings(None)


@pytest.fixture
def app_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fresh settings for the app's connection code; never the operator's own."""
    home = tmp_path / "home"
    monkeypatch.setenv("TASKDESK_HOME", str(home))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    return home
