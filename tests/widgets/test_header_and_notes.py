"""ProvenanceStrip, AgentHeader, relative times and the note preview dialog."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pytestqt.qtbot import QtBot

from widgets.common.provenance import ProvenanceStrip, exact_time, relative_time
from widgets.preview.note_preview import NotePreviewDialog
from widgets.window.agent_header import UNREACHABLE_MARK, AgentHeader

NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)


def test_relative_time_wording() -> None:
    assert relative_time(NOW - timedelta(seconds=10), NOW) == "just now"
    assert relative_time("2026-03-04T11:57:00Z", NOW) == "3 min ago"
    assert relative_time(NOW - timedelta(hours=5), NOW) == "5 h ago"
    assert relative_time(NOW - timedelta(days=1, hours=2), NOW) == "yesterday"
    assert relative_time(NOW - timedelta(days=4), NOW) == "4 days ago"
    assert relative_time("not a time", NOW) == "unknown time"
    assert relative_time(None, NOW) == "unknown time"


def test_provenance_strip(qtbot: QtBot) -> None:
    strip = ProvenanceStrip()
    qtbot.addWidget(strip)
    strip.set_provenance("Ann", "2026-03-04T11:57:00Z", 7, now=NOW)
    assert strip.text() == "Last changed by Ann · 3 min ago · v7"
    assert strip.toolTip() == exact_time("2026-03-04T11:57:00Z")
    assert "2026" in strip.toolTip()
    assert strip.accessibleName() == strip.text()
    strip.set_provenance(None, None, 1, now=NOW)
    assert strip.text() == "Last change not attributed · v1"


def test_agent_header_marks_unreachable(qtbot: QtBot) -> None:
    header = AgentHeader()
    qtbot.addWidget(header)
    header.set_agent("Scout", "Operations", 7)
    assert header.name_label.text() == "Scout"
    assert header.detail_label.text() == "Operations · Task v7"
    assert not header.is_marked_unreachable()
    header.set_unreachable(True, ["org/o_acme/gone.md"])
    assert header.is_marked_unreachable()
    assert header.unreachable_label.text() == UNREACHABLE_MARK == "Not reachable from the Task"
    assert header.unreachable_label.accessibleName() == UNREACHABLE_MARK
    assert "gone.md" in header.unreachable_label.toolTip()
    header.set_unreachable(False)
    assert not header.is_marked_unreachable()


def test_note_preview_shows_rendered_note(qtbot: QtBot) -> None:
    dialog = NotePreviewDialog(
        "Style guide",
        "org/o_acme/guilds/guild_ops/style-guide.md",
        "guild",
        "<p>Write <b>short</b> sentences.</p>",
        3,
    )
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.windowTitle() == "Style guide"
    assert dialog.browser.toPlainText() == "Write short sentences."
    assert dialog.version_label.text() == "v3"
    assert dialog.level_label.text() == "guild"
    assert dialog.unreachable_label.isHidden()
    with qtbot.waitSignal(dialog.accepted):
        dialog.close_button.click()


def test_note_preview_not_reachable(qtbot: QtBot) -> None:
    dialog = NotePreviewDialog(
        "", "org/o_acme/gone.md", "org", None, None, reason="It was deleted or moved."
    )
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.windowTitle() == "gone.md"
    assert not dialog.unreachable_label.isHidden()
    assert dialog.unreachable_label.text() == "This file is not reachable. It was deleted or moved."
    assert dialog.browser.isHidden()
    assert dialog.close_button.accessibleName() == dialog.close_button.text()
