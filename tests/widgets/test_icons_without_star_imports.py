"""The icons are drawn by qtawesome through name-by-name views of PySide6 (no qtpy star
imports), pixel for pixel as through qtpy itself."""

from __future__ import annotations

import json
import os

from tests.app_process import run_python

_DRAW = """
import hashlib, json, sys
{before}
from PySide6.QtWidgets import QApplication
app = QApplication([])
from widgets.common import icons
from widgets.common.theme import LIGHT
drawn = {{}}
for name in sorted(icons._GLYPHS):
    image = icons.icon(name, LIGHT.warning_mark).pixmap(32, 32).toImage()
    raw = bytes(image.constBits())
    drawn[name] = [hashlib.sha256(raw).hexdigest(), len(set(raw))]
view = sys.modules["qtpy.QtWidgets"].__doc__ or ""
print(json.dumps({{"drawn": drawn, "view": view.startswith("PySide6.QtWidgets, looked up")}}))
"""


def _draw(before: str) -> dict[str, object]:
    result = run_python(_DRAW.format(before=before), dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    assert result.returncode == 0, result.stderr
    out: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return out


def test_every_icon_is_drawn_as_through_qtpy_without_its_star_imports() -> None:
    viewed = _draw(before="")
    through_qtpy = _draw(before="import qtpy.QtCore, qtpy.QtGui, qtpy.QtWidgets")
    assert viewed["view"] is True  # the app's own start: the views were installed
    assert through_qtpy["view"] is False  # qtpy loaded first keeps its modules
    assert viewed["drawn"] == through_qtpy["drawn"]
    drawn = viewed["drawn"]
    assert isinstance(drawn, dict) and len(drawn) >= 25
    assert all(colours > 1 for _digest, colours in drawn.values())  # a glyph, not a blank


def test_the_window_draws_its_icons_without_qtpy_loading_every_qt_class() -> None:
    code = (
        "import sys\n"
        "import widgets.launcher, widgets.window.main_window\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from widgets.common.icons import icon\n"
        "icon('warning').pixmap(16, 16)\n"
        "gui = vars(sys.modules['qtpy.QtGui'])\n"
        "print('PySide6.QtOpenGL' in sys.modules, 'QColor' in gui, 'QOpenGLContext' in gui)\n"
    )
    result = run_python(code, dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    assert result.returncode == 0, result.stderr
    # qtpy's own QtGui star-imports PySide6.QtGui and loads QtOpenGL too.
    assert result.stdout.split() == ["False", "False", "False"]
