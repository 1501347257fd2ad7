"""What the screenshot scripts share: a fresh home, the application, waiting without a test
runner, and saving a window with a dialog drawn where it would sit over it."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Collection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def fresh_home(prefix: str) -> Path:
    """A new TASKDESK_HOME (local workspace, settings, store); offscreen unless told
    otherwise; never the operator's keyring or token. Call before the app's modules load."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["TASKDESK_HOME"] = str(home)
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    os.environ.pop("TASKDESK_TOKEN", None)
    sys.path.insert(0, str(ROOT))
    return home


class Shots:
    """The application prepared as the launcher prepares it, and the script's way to wait
    and save. ``wanted``: only these file names are written (all when empty); ``suffix``
    goes before ``.png`` (a look's variant)."""

    def __init__(self, script: str, *, wanted: Collection[str] = (), suffix: str = "") -> None:
        from PySide6.QtWidgets import QApplication

        from widgets.launcher import prepare_application

        app = QApplication.instance() or QApplication(sys.argv[:1])
        assert isinstance(app, QApplication)
        prepare_application(app)
        self.app = app
        self._script = script
        self._wanted = set(wanted)
        self._suffix = suffix

    def wait_until(self, what: str, done: Callable[[], object], timeout_ms: int = 20_000) -> None:
        from PySide6.QtCore import QDeadlineTimer

        deadline = QDeadlineTimer(timeout_ms)
        while not done():
            if deadline.hasExpired():
                raise SystemExit(f"{self._script}: timed out waiting for {what}")
            self.app.processEvents()

    def settle(self, rounds: int = 20) -> None:
        for _ in range(rounds):
            self.app.processEvents()

    def save(
        self, widget: object, name: str, overlay: object = None, left: int | None = None
    ) -> None:
        """Write ``widget`` to docs/``name``; a dialog (``overlay``) is its own window, so it
        is drawn where it would sit over the main window (``left``: its x, else centred)."""
        from PySide6.QtCore import QPoint
        from PySide6.QtGui import QColor, QPainter
        from PySide6.QtWidgets import QWidget

        if self._wanted and name not in self._wanted:
            return
        assert isinstance(widget, QWidget)
        self.settle(30)
        shot = widget.grab()
        if isinstance(overlay, QWidget):
            top = overlay.grab()
            painter = QPainter(shot)
            painter.fillRect(shot.rect(), QColor(0, 0, 0, 60))
            x = (shot.width() - top.width()) // 2 if left is None else left
            painter.drawPixmap(QPoint(x, (shot.height() - top.height()) // 3), top)
            painter.end()
        path = DOCS / name.replace(".png", f"{self._suffix}.png")
        shot.save(str(path))
        print(f"wrote {path.relative_to(ROOT)} ({shot.width()}x{shot.height()})")
