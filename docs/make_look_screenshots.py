"""Write PNGs of Taskdesk's light and dark looks, and of the focus ring on each kind of control.

Run from the project root: `.venv/bin/python docs/make_look_screenshots.py` (offscreen by
default). Writes docs/look-light.png, docs/look-dark.png, docs/look-dark-edit.png and
docs/focus-rings-light.png, docs/focus-rings-dark.png.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SIZE = (1280, 800)


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = Path(tempfile.mkdtemp(prefix="taskdesk-look-"))
    os.environ["TASKDESK_HOME"] = str(home)
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    os.environ.pop("TASKDESK_TOKEN", None)
    os.environ.pop("TASKDESK_COLOUR_SCHEME", None)
    sys.path.insert(0, str(ROOT))

    from PySide6.QtCore import QDeadlineTimer
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QApplication

    from widgets.common.theme import DARK, LIGHT, apply_theme
    from widgets.launcher import prepare_application
    from widgets.window.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    prepare_application(app)

    def wait_until(what: str, done: Callable[[], bool], timeout_ms: int = 20_000) -> None:
        deadline = QDeadlineTimer(timeout_ms)
        while not done():
            if deadline.hasExpired():
                raise SystemExit(f"make_look_screenshots: timed out waiting for {what}")
            app.processEvents()

    def settle() -> None:
        for _ in range(30):
            app.processEvents()

    for theme in (LIGHT, DARK):
        apply_theme(app, theme)
        settle()
        focus_rings(app, theme.name, settle)

    apply_theme(app, LIGHT)
    window = MainWindow(data_dir=home / "data")
    window.resize(*SIZE)
    window.show()
    window.start(None)
    wait_until(
        "the first Task",
        lambda: window.task_tab.agent is not None and not window.task_tab.state.loading,
    )
    tab = window.task_tab
    wait_until("the preview", lambda: bool(tab.preview.pane.toPlainText().strip()))
    _scroll_to_a_table(tab)
    _save(window, "look-light.png", settle)
    apply_theme(app, DARK)  # switched while open, as when the system's scheme changes
    wait_until("the dark preview", lambda: not tab.preview.pane.is_laying_out())
    _scroll_to_a_table(tab)
    _save(window, "look-dark.png", settle)
    tab.set_mode_edit(True)
    tab.editor.moveCursor(QTextCursor.MoveOperation.Start)
    _save(window, "look-dark-edit.png", settle)

    window._closing_confirmed = True
    window.close()
    window.shutdown()
    return 0


def _scroll_to_a_table(tab: object) -> None:
    """Bring the first Markdown table of the preview into view (tables have a grid now)."""
    from PySide6.QtGui import QTextCursor

    pane = tab.preview.pane  # type: ignore[attr-defined]
    found = pane.document().find("Level")
    if not found.isNull():
        cursor = QTextCursor(found)
        pane.setTextCursor(cursor)
        pane.ensureCursorVisible()
        bar = pane.verticalScrollBar()
        bar.setValue(max(0, bar.value() + pane.viewport().height() // 3))


def _save(widget: object, name: str, settle: Callable[[], None]) -> None:
    settle()
    shot = widget.grab()  # type: ignore[attr-defined]
    path = DOCS / name
    shot.save(str(path))
    print(f"wrote {path.relative_to(ROOT)} ({shot.width()}x{shot.height()})")


def focus_rings(app: object, theme_name: str, settle: Callable[[], None]) -> None:
    """One row per kind of control: unfocused on the left, focused on the right. Focus is
    given by code (as a dialog does when it opens), so the ring shows however focus arrives."""
    from PySide6.QtCore import QPoint, QStringListModel, Qt
    from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
    from PySide6.QtWidgets import (
        QCheckBox,
        QHBoxLayout,
        QLineEdit,
        QListView,
        QPlainTextEdit,
        QPushButton,
        QWidget,
    )

    from widgets.common.segments import SegmentButton
    from widgets.common.theme import current_theme
    from widgets.window.banners import MessageBar

    def message_bar_close() -> tuple[QWidget, QWidget]:
        bar = MessageBar()
        bar.show_message("Saved as v2.")
        return bar, bar.close_button

    def segment() -> tuple[QWidget, QWidget]:
        host = QWidget()
        row = QHBoxLayout(host)
        row.setSpacing(0)
        rendered, agent = SegmentButton("Rendered"), SegmentButton("As the agent gets it")
        rendered.setChecked(True)
        row.addWidget(rendered)
        row.addWidget(agent)
        return host, rendered

    def one(make: Callable[[], QWidget]) -> Callable[[], tuple[QWidget, QWidget]]:
        def made() -> tuple[QWidget, QWidget]:
            widget = make()
            return widget, widget

        return made

    def editor() -> QWidget:
        text = QPlainTextEdit("# Inputs\n- New tickets, oldest first.")
        text.setFixedHeight(80)
        return text

    def items() -> tuple[QWidget, QWidget]:
        view = QListView()
        view.setModel(QStringListModel(["Dispatch", "Responder", "Scout"], view))
        view.setCurrentIndex(view.model().index(1, 0))
        view.setFixedHeight(110)
        return view, view

    def compare() -> tuple[QWidget, QWidget]:
        from widgets.versions.diff_view import DiffView

        view = DiffView()
        view.set_texts("# Inputs\n- Tickets.\n", "# Inputs\n- New tickets, oldest first.\n")
        view.setFixedHeight(150)
        return view, view.canvas

    def changed_lines() -> tuple[QWidget, QWidget]:
        from app.core.diff_model import build_diff
        from widgets.versions.diff_reader import DiffReader

        old, new = "# Inputs\n- Tickets.\n", "# Inputs\n- New tickets, oldest first.\n"
        reader = DiffReader()
        reader.set_compare(build_diff(old, new), old, new)
        reader.setFixedHeight(90)
        return reader, reader

    def tree() -> tuple[QWidget, QWidget]:
        from PySide6.QtGui import QStandardItem, QStandardItemModel
        from PySide6.QtWidgets import QTreeView

        view = QTreeView()
        model = QStandardItemModel(view)
        hop = QStandardItem("Hop 1")
        hop.appendRow(QStandardItem("org/o_acme/handbook.md · inlined, 1.2 KB"))
        model.appendRow(hop)
        view.setModel(model)
        view.setHeaderHidden(True)
        view.expandAll()
        view.setCurrentIndex(model.index(0, 0))
        view.setFixedHeight(80)
        return view, view

    def tabs() -> tuple[QWidget, QWidget]:
        from PySide6.QtWidgets import QTabBar

        bar = QTabBar()
        for name in ("References", "Runs", "Shape"):
            bar.addTab(name)
        return bar, bar

    def chart() -> tuple[QWidget, QWidget]:
        from widgets.insight.bar_chart import Bar, BarChart

        bars = BarChart()
        bars.setAccessibleName("Task sections by size")
        bars.set_bars((Bar("# Inputs", 900, 0.6, "line 3"), Bar("# Output", 600, 0.4, "line 12")))
        return bars, bars

    kinds: list[tuple[str, Callable[[], tuple[QWidget, QWidget]]]] = [
        ("Button", one(lambda: QPushButton("Compare"))),
        ("Default button", one(lambda: QPushButton("Connect", default=True))),
        ("Tool button (×)", message_bar_close),
        ("Toggle", segment),
        ("Text field", one(lambda: QLineEdit("Dispatch"))),
        ("Check box", one(lambda: QCheckBox("Match case"))),
        ("List", items),
        ("Editor", one(editor)),
        ("Compare view", compare),
        ("Changed lines (F7)", changed_lines),
        ("References tree", tree),
        ("Side panel tabs", tabs),
        ("Budget breakdown", chart),
    ]
    shots: list[tuple[str, QPixmap, QPixmap]] = []
    for label, make in kinds:
        pair = []
        for focused in (False, True):
            host = QWidget()
            host.setObjectName("shotHost")
            layout = QHBoxLayout(host)
            layout.setContentsMargins(12, 10, 12, 10)
            shown, target = make()
            layout.addWidget(shown)
            host.resize(360, max(host.sizeHint().height(), shown.minimumHeight() + 20))
            host.show()
            host.activateWindow()
            settle()
            for view in host.findChildren(QListView):
                view.doItemsLayout()  # rows measured with the stylesheet applied
            if focused:
                target.setFocus(Qt.FocusReason.OtherFocusReason)
            elif host.focusWidget() is not None:
                host.focusWidget().clearFocus()
            settle()
            pair.append(host.grab())
            host.close()
            host.deleteLater()
        shots.append((label, pair[0], pair[1]))

    theme = current_theme()
    label_width, cell = 170, 380
    height = sum(max(a.height(), b.height()) for _, a, b in shots) + 40
    image = QPixmap(label_width + 2 * cell, height)
    image.fill(QColor(theme.window))
    painter = QPainter(image)
    painter.setPen(QColor(theme.ink))
    bold = QFont(painter.font())
    bold.setBold(True)
    painter.setFont(bold)
    painter.drawText(QPoint(label_width + 12, 24), "Without focus")
    painter.drawText(QPoint(label_width + cell + 12, 24), "With focus")
    y = 36
    for label, unfocused, focused in shots:
        row = max(unfocused.height(), focused.height())
        painter.drawText(QPoint(12, y + row // 2 + 5), label)
        painter.drawPixmap(QPoint(label_width, y), unfocused)
        painter.drawPixmap(QPoint(label_width + cell, y), focused)
        y += row
    painter.end()
    path = DOCS / f"focus-rings-{theme_name}.png"
    image.save(str(path))
    print(f"wrote {path.relative_to(ROOT)} ({image.width()}x{image.height()})")
    del app


if __name__ == "__main__":
    raise SystemExit(main())
