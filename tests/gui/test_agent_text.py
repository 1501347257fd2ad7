""" "As the agent gets it" in the window equals `taskdesk expand` for the same agent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.live_server import WORKSPACE_BASIC, LiveServer
from widgets.window.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 10_000


def taskdesk_expand(agent_id: str, db_path: Path) -> str:
    """The `taskdesk` command, as installed, in its own process."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from widgets.launcher import main; sys.exit(main(sys.argv[1:]))",
            "expand",
            "--workspace",
            str(WORKSPACE_BASIC),
            "--agent",
            agent_id,
            "--db",
            str(db_path),
        ],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode("utf-8")


@pytest.mark.parametrize("agent_id", ["a_scout", "a_writer"])
def test_agent_text_equals_taskdesk_expand(
    qtbot, window: MainWindow, live_server: LiveServer, agent_id: str
) -> None:
    if window.task_tab.agent is None or window.task_tab.agent.id != agent_id:
        with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
            window.on_agent_chosen(agent_id)
    tab = window.task_tab
    tab.preview.show_agent_text(True)
    view = tab.preview.agent_text_view
    expected = taskdesk_expand(agent_id, live_server.db_path)
    assert "<task>" not in expected and expected.strip()
    qtbot.waitUntil(lambda: view.toPlainText() == expected, timeout=TIMEOUT)
    assert tab.last_preview is not None
    assert tab.last_preview.expansion.text == expected  # byte for byte, not just as shown


def test_editor_marks_each_embed_by_what_the_run_makes_of_it(qtbot, window: MainWindow) -> None:
    from app.core.embed_verdicts import embed_verdicts

    tab = window.task_tab
    qtbot.waitUntil(lambda: tab.last_preview is not None, timeout=TIMEOUT)
    verdicts = embed_verdicts(tab.last_preview.expansion.pieces)
    assert verdicts["org/o_acme/guilds/guild_ops/style-guide.md"] == "inlined"
    assert verdicts["org/o_acme/guilds/guild_ops/customers"] == "collection"
    assert verdicts["guild/style-guide.md"] == "unreachable"
    assert verdicts["org/o_acme/agents/a_scout/memory.md"] == "unreachable"


def test_marking_embeds_is_not_an_edit(qtbot, window: MainWindow) -> None:
    """The preview re-highlights the editor; that must never count as unsaved edits."""
    tab = window.task_tab
    # The first preview of an agent re-highlights every embed line of the editor.
    qtbot.waitUntil(lambda: tab.last_preview is not None, timeout=TIMEOUT)
    assert "![[" in tab.editor.text()
    assert not tab.has_unsaved()
