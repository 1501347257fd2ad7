"""Write PNGs of proposals to docs/: a member proposing, the queue, a review on a moved base
with a change that can't be placed, and the Task as the agent would get it; each in the light
and the dark look (``-dark`` in the file name).

Run from the project root: `.venv/bin/python docs/make_proposal_screenshots.py` (offscreen by
default). Each look runs in a process of its own: the look is chosen when the app starts.
"""

from __future__ import annotations

import os
import sys

from shot_kit import Shots, fresh_home

SIZE = (1280, 800)
AGENT = "a_responder"
SSO = "- For access problems, check the account's plan first: SSO is Enterprise only."
PROPOSED_SSO = SSO.replace("SSO is", "SSO and audit logs are")
LIVE_SSO = SSO.replace("SSO is Enterprise only.", "SSO needs the Enterprise plan.")
GLOSSARY = "- Use the product's words: ![[org/o_acme/glossary.md]]"


def main() -> int:
    if len(sys.argv) == 1:  # both looks, one process each
        import subprocess

        for scheme in ("light", "dark"):
            subprocess.run([sys.executable, __file__, scheme], check=True)
        return 0
    scheme = sys.argv[1]
    suffix = "-dark" if scheme == "dark" else ""
    os.environ["TASKDESK_COLOUR_SCHEME"] = scheme
    home = fresh_home("taskdesk-proposal-shots-")
    from app.client import TaskdeskClient
    from app.connect.embedded import local_workspace_paths
    from app.core.workspace import load_workspace
    from widgets.dialogs.connect import ConnectRequest
    from widgets.window.main_window import MainWindow

    shots = Shots("make_proposal_screenshots", suffix=suffix)
    wait_until, save = shots.wait_until, shots.save
    window = MainWindow(data_dir=home / "data")
    window.resize(*SIZE)
    window.show()
    window.start(None)  # the embedded local workspace, as its first operator
    tab = window.task_tab
    wait_until("the first Task", lambda: tab.agent is not None and not tab.state.loading)
    operator = window.connection
    assert operator is not None
    workspace = load_workspace(local_workspace_paths(home / "data")[0])
    member = next(p for p in workspace.people if p.type == "member")

    # A member opens Responder's Task, read-only, and proposes a change.
    window.connect_to(ConnectRequest(operator.url, member.token, remember=False))
    wait_until(
        "the member's window",
        lambda: window.connection is not operator and tab.read_only.active and tab.agent,
    )
    window.on_agent_chosen(AGENT)
    wait_until(
        "Responder",
        lambda: tab.state.live is not None and tab.state.live.agent_id == AGENT,
    )
    wait_until("Propose a change…", tab.read_only.propose_button.isVisible)
    tab.read_only.propose_button.click()
    propose = window.proposals.propose_window
    assert propose is not None
    propose.resize(*SIZE)
    wait_until("the proposal's draft", lambda: not propose._loading)
    text = propose.editor.toPlainText()
    assert SSO in text, "the demo's Responder Task changed: update this script"
    proposed = text.replace(SSO, PROPOSED_SSO).replace("## Outputs", GLOSSARY + "\n\n## Outputs", 1)
    propose.editor.setPlainText(proposed)
    propose.title_edit.setText("Audit logs are Enterprise only; use the glossary")
    propose.note_edit.setText("Customers on Team keep asking for audit logs.")
    save(propose, "screenshot-proposal-propose.png")
    sent: list[object] = []
    propose.submitted.connect(sent.append)
    propose.submit_button.click()
    wait_until("the proposal sent", lambda: bool(sent))
    propose.close()

    # Meanwhile an operator edits the same line: the proposal's base has moved.
    with TaskdeskClient(operator.url, operator.token) as ann:
        live = ann.get_task(AGENT)
        ann.put_task(AGENT, live.content.replace(SSO, LIVE_SSO), live.version)

    # The operator's queue, and the review.
    window.connect_to(ConnectRequest(operator.url, operator.token, remember=False))
    wait_until("the operator's window", lambda: not tab.read_only.active and tab.agent)
    window.actions_.proposals.trigger()
    queue = window.proposals.queue_window
    assert queue is not None
    wait_until("the queue", lambda: queue.proxy.rowCount() > 0 and window.runner.is_idle())
    queue.table.resizeColumnsToContents()
    queue.table.setCurrentIndex(queue.proxy.index(0, 0))
    save(queue, "screenshot-proposal-queue.png")
    queue.on_activated(queue.proxy.index(0, 0))
    (review,) = window.proposals.reviews.values()
    review.resize(*SIZE)
    wait_until("the review", lambda: review.desk.outcome is not None)
    data = review.desk.data
    assert data is not None
    unplaced = next(h for h in data.basis.hunks if not h.placeable)
    placed = next(h for h in data.basis.hunks if h.placeable)
    from app.core.proposal_review import Decision

    review.desk.decide(placed.key, Decision.ACCEPT)
    review.hunk_list.setCurrentIndex(review.hunks.index(unplaced.index))
    wait_until("the outcome", lambda: review.desk.outcome is not None)
    wait_until("the shape check", lambda: review.desk.shape is not None)
    save(review, "screenshot-proposal-review.png")
    review.tabs.setCurrentIndex(2)
    save(review, "screenshot-proposal-effective.png")

    window._closing_confirmed = True
    window.close()
    window.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
