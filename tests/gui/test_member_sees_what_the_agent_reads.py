"""A member opens a Task that embeds a note the agent reads and the member may not: it is
never called missing or unreachable; the marks, References and the note's dialog agree."""

from __future__ import annotations

from app.core.viewer_reach import AGENT_READS_IT
from tests.live_server import LiveServer
from tests.window_steps import WindowFactory, open_agent, sign_in

TIMEOUT = 10_000
RUNBOOK = "org/o_acme/guilds/guild_ops/runbook.md"  # Scout's guild reads it; Mia may not
METHODS = "org/o_acme/guilds/guild_research/methods.md"  # Scout's guild may not: unreachable


def test_a_note_the_agent_reads_is_not_missing_for_a_member(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("mia"))
    open_agent(qtbot, window, "a_scout")
    tab = window.task_tab
    highlighter = tab.editor.highlighter
    qtbot.waitUntil(lambda: highlighter.verdict(RUNBOOK) == "withheld", timeout=TIMEOUT)
    assert highlighter.verdict(METHODS) == "unreachable"
    # The preview draws it as the agent's read, not as the red "not reachable" chip.
    qtbot.waitUntil(
        lambda: tab.last_preview is not None and "embed-withheld" in tab.last_preview.html,
        timeout=TIMEOUT,
    )
    html = tab.last_preview.html
    # The size of what the member can see does not pass for the run's.
    meter = tab.size_meters.embeds_meter
    qtbot.waitUntil(lambda: "notes you can't see" in meter.figures(), timeout=TIMEOUT)
    assert f"{RUNBOOK} — not reachable" not in html and f"{METHODS} — not reachable" in html

    # The banner (the server's list, the agent's) and References count the same unreachable.
    qtbot.waitUntil(lambda: tab.unreachable_banner.isVisible(), timeout=TIMEOUT)
    banner_paths = {line.split(" ")[0] for line in tab.unreachable_banner.lines()}
    assert RUNBOOK not in banner_paths and METHODS in banner_paths
    tab.insight.commands.panel_actions["references"].setChecked(True)
    view = tab.insight.panel.references
    qtbot.waitUntil(lambda: "you can't see" in view.summary_label.text(), timeout=TIMEOUT)
    refs = view.references
    assert refs is not None
    unreachable = [
        r for r in refs.markers if r.reason is None or r.reason.detail != "hidden_from_you"
    ]
    assert f"{len(unreachable)} unreachable" in view.summary_label.text()
    server = {b.path for b in window.agent_model.broken_embeds("a_scout") if b.hop == 1}
    assert {r.path for r in unreachable if r.hop == 1} == server  # the agent's, both of them
    [runbook] = [r for r in refs.items if r.path == RUNBOOK]
    assert runbook.reason is not None and runbook.reason.message == AGENT_READS_IT

    # Clicking it says what it is, not "no such item… deleted".
    tab.links.on_embed_clicked(RUNBOOK)
    qtbot.waitUntil(lambda: tab.links.note_dialog is not None, timeout=TIMEOUT)
    text = tab.links.note_dialog.unreachable_label.text()
    assert text == AGENT_READS_IT and "deleted" not in text
    tab.links.note_dialog.close()
