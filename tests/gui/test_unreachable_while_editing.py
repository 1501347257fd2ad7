"""The unreachable banner and header mark follow the text being edited, not only the saved one."""

from __future__ import annotations

from tests.window_steps import open_agent, saved, type_at_end
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000
METHODS = "org/o_acme/guilds/guild_research/methods.md"  # Writer is in Operations, not Research


def test_an_unreachable_embed_typed_shows_at_once_marked_unsaved(qtbot, window: MainWindow) -> None:
    open_agent(qtbot, window, "a_writer")
    tab = window.task_tab
    qtbot.waitUntil(lambda: tab.last_preview is not None, timeout=TIMEOUT)
    assert not tab.unreachable_banner.isVisible()  # Writer reaches every saved embed

    type_at_end(qtbot, window, f" See ![[{METHODS}]]")
    qtbot.waitUntil(lambda: tab.unreachable_banner.isVisible(), timeout=TIMEOUT)
    lines = tab.unreachable_banner.lines()
    assert len(lines) == 1 and lines[0].startswith(METHODS)
    assert "unsaved" in lines[0]
    assert "unsaved" in tab.unreachable_banner.text().lower()
    assert tab.header.is_marked_unreachable()

    # Saved: the server says the same, and nothing is labelled unsaved any more.
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    qtbot.waitUntil(
        lambda: (
            tab.unreachable_banner.isVisible()
            and "unsaved" not in " ".join(tab.unreachable_banner.lines())
        ),
        timeout=TIMEOUT,
    )
    assert "unsaved" not in tab.unreachable_banner.text().lower()
    qtbot.waitUntil(lambda: bool(window.agent_model.broken_embeds("a_writer")), timeout=TIMEOUT)


def test_removing_the_unreachable_embeds_clears_the_banner_while_editing(
    qtbot, window: MainWindow
) -> None:
    tab = window.task_tab  # Scout, whose saved Task embeds files it can't reach
    qtbot.waitUntil(lambda: tab.unreachable_banner.isVisible(), timeout=TIMEOUT)
    qtbot.waitUntil(lambda: tab.last_preview is not None, timeout=TIMEOUT)
    window.actions_.edit.trigger()
    tab.editor.selectAll()
    qtbot.keyClicks(tab.editor, "# Scout")
    qtbot.waitUntil(lambda: not tab.unreachable_banner.isVisible(), timeout=TIMEOUT)
    assert not tab.header.is_marked_unreachable()
