"""On a server that names nobody for the live version, the revisions say who made it."""

from __future__ import annotations

from app.core.last_change import LastChange, last_change
from app.core.models import Revision, TaskDoc
from tests.factories import task_doc
from tests.interop.steps import connect, open_by_id
from tests.spec_server import SpecServer
from tests.window_steps import LOAD_TIMEOUT_MS, saved, type_at_end
from widgets.window.main_window import MainWindow

BOB_REPLACED_V3 = Revision(3, "v3", "2026-01-07T09:00:00Z", "Bob")


def doc(version: int, *revisions: Revision, by: str | None = None) -> TaskDoc:
    when = "2026-01-08T09:00:00Z" if by else None
    return task_doc("a", "live", version, *revisions, updated_at=when, updated_by_name=by)


def test_the_newest_revision_names_who_made_the_live_version() -> None:
    assert last_change(doc(4, BOB_REPLACED_V3)) == LastChange(
        "Bob", BOB_REPLACED_V3.replaced_at, True
    )


def test_the_server_s_own_author_wins() -> None:
    assert last_change(doc(4, BOB_REPLACED_V3, by="Ann")) == LastChange(
        "Ann", "2026-01-08T09:00:00Z"
    )


def test_a_gap_before_the_live_version_attributes_nobody() -> None:
    # v3 was empty, so never archived: who made v4 is not known.
    assert last_change(doc(4, Revision(2, "v2", "t", "Bob"))) == LastChange(None, None)
    assert last_change(doc(1)) == LastChange(None, None)


def test_the_window_attributes_the_live_version_from_the_revisions(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    open_by_id(qtbot, window, "a_scout")
    strip = window.task_tab.provenance
    # v3 is live; Bob replaced v2, so Bob made v3.
    assert strip.text().startswith("Last changed by Bob (from the versions) · "), strip.text()
    assert strip.text().endswith("· v3")
    assert "newest earlier version" in strip.toolTip()
    type_at_end(qtbot, window, "Ann's rule.")
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=LOAD_TIMEOUT_MS)
    qtbot.waitUntil(lambda: strip.text().endswith("· v4"), timeout=LOAD_TIMEOUT_MS)
    assert strip.text().startswith("Last changed by Ann (from the versions) · ")
