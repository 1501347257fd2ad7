"""Clicking a collection's chip says what it is; the note preview is laid out compactly."""

from __future__ import annotations

from widgets.window.main_window import MainWindow

TIMEOUT = 10_000
CUSTOMERS = "org/o_acme/guilds/guild_ops/customers"  # a table every agent of the org reads
DATASETS = "org/o_acme/guilds/guild_research/datasets"  # Scout is not in Research
STYLE_GUIDE = "org/o_acme/guilds/guild_ops/style-guide.md"


def _open(qtbot, window: MainWindow, path: str):  # -> NotePreviewDialog
    links = window.task_tab.links
    links.on_embed_clicked(path)
    qtbot.waitUntil(lambda: links.note_dialog is not None, timeout=TIMEOUT)
    dialog = links.note_dialog
    qtbot.waitExposed(dialog)
    return dialog


def test_a_collection_the_agent_reads_says_what_it_is(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(window.task_tab.header.is_marked_unreachable, timeout=TIMEOUT)
    dialog = _open(qtbot, window, CUSTOMERS)
    assert dialog.reachable
    assert not dialog.unreachable_label.isVisible()
    said = dialog.about_label.text()
    assert dialog.about_label.isVisible()
    assert "table" in said and "Customers" in said
    assert "name" in said and "records" in said  # runs get its name, not its records
    assert dialog.title_label.text() == "Customers"
    assert dialog.level_label.text() == "guild"
    assert dialog.path_label.text() == CUSTOMERS
    assert "not reachable" not in said


def test_a_collection_the_agent_cant_read_says_so(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(window.task_tab.header.is_marked_unreachable, timeout=TIMEOUT)
    dialog = _open(qtbot, window, DATASETS)
    assert not dialog.reachable
    assert dialog.unreachable_label.isVisible()
    assert "table" in dialog.unreachable_label.text()


def test_the_level_tag_is_one_line_and_nothing_floats_apart(qtbot, window: MainWindow) -> None:
    for path in (CUSTOMERS, STYLE_GUIDE, DATASETS):
        dialog = _open(qtbot, window, path)
        line = dialog.fontMetrics().height()
        assert dialog.level_label.height() <= 2 * line, path
        # Title, path and what the note says sit together at the top.
        body = dialog.about_label if dialog.about_label.isVisible() else dialog.browser
        if not dialog.reachable:
            body = dialog.unreachable_label
        assert body.mapTo(dialog, body.rect().topLeft()).y() < 8 * line, path
        dialog.close()
        qtbot.waitUntil(lambda: window.task_tab.links.note_dialog is None, timeout=TIMEOUT)
