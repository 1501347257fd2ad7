"""PySide6's import hook still tells modules that use it from the rest, without keeping
every imported module's source in memory."""

from __future__ import annotations

import importlib
import linecache
import sys
from pathlib import Path

import pytest

from widgets.common.pyside_sources import stop_caching_module_sources


@pytest.fixture
def module_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _import(folder: Path, name: str, source: str) -> None:
    (folder / f"{name}.py").write_text(source, encoding="utf-8")
    importlib.invalidate_caches()
    __import__(name)  # an import statement's way in: the one PySide6 watches


def test_imported_modules_are_told_apart_and_their_source_is_not_kept(
    module_folder: Path,
) -> None:
    stop_caching_module_sources()
    stop_caching_module_sources()  # a second call changes nothing
    feature = sys.modules["shibokensupport.feature"]
    _import(module_folder, "uses_qt_here", "from PySide6 import QtCore\nVALUE = 1\n")
    _import(module_folder, "plain_here", "VALUE = 2\n" + "# filler\n" * 5000)
    # PySide6's own verdicts: 0 for a module that uses it, -1 for one to leave alone.
    assert feature.pyside_feature_dict["uses_qt_here"] == 0
    assert feature.pyside_feature_dict["plain_here"] == -1
    kept = {Path(name).name for name in linecache.cache}
    assert "uses_qt_here.py" not in kept and "plain_here.py" not in kept
