"""Render the app icon (resources/taskdesk-icon.svg) to the PNG sizes desktops look for.

Run after changing the SVG: `.venv/bin/python packaging/make_icons.py`. The PNGs are kept in
the repository so neither a build nor an install needs an SVG renderer.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "resources" / "taskdesk-icon.svg"
SIZES = (48, 128, 256)


def png_path(size: int) -> Path:
    return ROOT / "resources" / f"taskdesk-icon-{size}.png"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"make_icons: {SVG} is not a valid SVG", file=sys.stderr)
        return 1
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        if not image.save(str(png_path(size)), "PNG"):
            print(f"make_icons: could not write {png_path(size)}", file=sys.stderr)
            return 1
        print(f"make_icons: {png_path(size).relative_to(ROOT)}")
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
