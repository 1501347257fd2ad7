"""Keeps the Qt binding that aborts on Python < 3.12 (PySide6 6.12.0, none_dealloc) out."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.metadata import version

import pytest


def test_pyside6_below_612_on_python_before_312() -> None:
    if sys.version_info >= (3, 12):
        pytest.skip("the none_dealloc abort only hits Python < 3.12")
    major, minor = (int(x) for x in version("PySide6-Essentials").split(".")[:2])
    assert (major, minor) < (6, 12), "PySide6 6.12 aborts with none_dealloc on Python 3.11"


def test_many_void_qt_calls_do_not_abort() -> None:
    """The bad binding aborts within a few thousand void calls; a good one runs them all."""
    code = textwrap.dedent(
        """
        import os
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication, QPlainTextEdit
        app = QApplication([])
        edit = QPlainTextEdit()
        for i in range(200_000):
            edit.setReadOnly(i % 2 == 0)
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"
