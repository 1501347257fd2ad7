"""The versions list draws each version in two lines that elide to the list's width."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.core.models import Revision
from tests.factories import task_doc
from tests.on_screen import shown
from widgets.versions.revision_model import DETAIL_ROLE, TITLE_ROLE
from widgets.versions.versions_panel import VersionsPanel

NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
LONG_NAME = "Maximiliane Featherstonehaugh-Wolfeschlegelsteinhausen"
DOC = task_doc(
    "a_dispatch",
    "live\n",
    4,
    Revision(3, "three\n", "2026-02-16T09:30:00Z", "Chen"),
    Revision(2, "two\n", "2026-02-09T09:30:00Z", LONG_NAME),
)


@pytest.fixture
def panel(qtbot: QtBot) -> VersionsPanel:
    widget = VersionsPanel(clock=lambda: NOW)
    widget.set_task(DOC)
    return shown(qtbot, widget, (900, 500))


def _painted_lines(panel: VersionsPanel, row: int) -> tuple[str, str]:
    view = panel.list_view
    index = panel.model.index(row, 0)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualRect(index)
    return panel.delegate.elided_lines(option, index)


def test_rows_have_a_bold_version_line_and_a_detail_line(panel: VersionsPanel) -> None:
    model = panel.model
    assert [model.index(r, 0).data(TITLE_ROLE) for r in range(3)] == ["v4 (live)", "v3", "v2"]
    assert model.index(0, 0).data(DETAIL_ROLE) == "changed 16 Feb 2026 by Chen"
    assert model.index(1, 0).data(DETAIL_ROLE) == "replaced 16 Feb 2026 by Chen"
    assert model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole).startswith("Replaced ")
    title_font = panel.delegate.title_font(panel.list_view.font())
    detail_font = panel.delegate.detail_font(panel.list_view.font())
    assert title_font.bold() or title_font.weight() > panel.list_view.font().weight()
    assert detail_font.pointSizeF() < panel.list_view.font().pointSizeF()
    height = panel.list_view.visualRect(model.index(0, 0)).height()
    assert height >= QFontMetrics(title_font).height() + QFontMetrics(detail_font).height()


def test_the_list_never_scrolls_sideways_and_fits_a_typical_row(
    panel: VersionsPanel, qtbot: QtBot
) -> None:
    view = panel.list_view
    assert view.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    assert view.minimumWidth() >= 180
    panel.splitter.setSizes([view.minimumWidth(), 10_000])
    qtbot.waitUntil(lambda: view.width() == view.minimumWidth())
    assert _painted_lines(panel, 0) == ("v4 (live)", "changed 16 Feb 2026 by Chen")
    assert _painted_lines(panel, 1) == ("v3", "replaced 16 Feb 2026 by Chen")


def test_a_long_row_is_elided_not_clipped(panel: VersionsPanel, qtbot: QtBot) -> None:
    view = panel.list_view
    panel.splitter.setSizes([view.minimumWidth(), 10_000])
    qtbot.waitUntil(lambda: view.width() == view.minimumWidth())
    title, detail = _painted_lines(panel, 2)
    assert title == "v2"
    assert detail.endswith("…") and detail.startswith("replaced 9 Feb 2026 by Maxim")
    metrics = QFontMetrics(panel.delegate.detail_font(view.font()))
    room = view.visualRect(panel.model.index(2, 0)).width()
    assert metrics.horizontalAdvance(detail) < room


def test_a_version_with_an_older_versions_text_says_restored_from() -> None:
    from widgets.versions.revision_model import restored_versions

    texts = {1: "a", 2: "b", 3: "c", 4: "a", 5: "b"}
    assert restored_versions(texts) == {4: 1, 5: 2}
    assert restored_versions({1: "a", 2: "b"}) == {}
