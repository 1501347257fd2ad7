"""A Task nobody has edited since the workspace seeded it is not attributed to anyone."""

from __future__ import annotations

from tests.window_steps import open_agent, saved, type_at_end
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def test_a_seeded_task_says_it_comes_from_the_workspace_file(qtbot, window: MainWindow) -> None:
    open_agent(qtbot, window, "a_writer")  # seeded as v1, never saved since
    strip = window.task_tab.provenance
    assert "From the workspace file" in strip.text()
    assert "Ann" not in strip.text() and "Last changed" not in strip.text()
    assert "seeded" in strip.text() and "v1" in strip.text()

    type_at_end(qtbot, window, " Sign every draft.")
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    assert strip.text().startswith("Last changed by Ann")
    assert "v2" in strip.text()


def test_seeded_saves_keep_their_authors(qtbot, window: MainWindow) -> None:
    # Scout's workspace entry lists saves, each with its author and time.
    assert window.task_tab.provenance.text().startswith("Last changed by Bob")
