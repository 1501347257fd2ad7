"""An operator's review against the real server: hunk decisions, rebase, publish, decline."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.client import TaskdeskClient
from app.core.proposal_review import Decision
from app.desk.proposal_review_desk import ReviewDesk, ReviewOutcome
from app.desk.runner import Runner
from app.store.local_store import LocalStore

BASE = (
    "# Writer\n\nDraft replies.\n\n## Work\nKeep it short.\nSign off.\n\n## Outputs\n- One draft.\n"
)
PROPOSED = (
    "# Writer\n\nDraft replies, kindly.\n\n## Work\nKeep it short.\nSign off.\n\n"
    "## Outputs\n- One draft.\n- A summary line.\n"
)


def _start(clients: Callable[[str], TaskdeskClient], proposed: str = PROPOSED) -> str:
    ann, mia = clients("ann"), clients("mia")
    live = ann.get_task("a_writer")
    ann.put_task("a_writer", BASE, live.version)
    base = ann.get_task("a_writer")
    return mia.propose("a_writer", proposed, base.version, "Kinder replies", "Customers asked").id


def _open(qtbot: QtBot, desk: ReviewDesk, proposal_id: str) -> ReviewOutcome:
    with qtbot.waitSignal(desk.outcome_changed, timeout=15_000) as outcome:
        desk.open(proposal_id)
    assert isinstance(outcome.args[0], ReviewOutcome)
    return outcome.args[0]


def _decide(qtbot: QtBot, desk: ReviewDesk, key: str, decision: Decision, text: str = "") -> None:
    with qtbot.waitSignal(desk.outcome_changed, timeout=15_000):
        desk.decide(key, decision, text)


def test_publish_with_one_hunk_rejected_and_one_edited(
    qtbot: QtBot, clients: Callable[[str], TaskdeskClient], make_desk: Callable[..., ReviewDesk]
) -> None:
    proposal_id = _start(clients)
    desk = make_desk()
    outcome = _open(qtbot, desk, proposal_id)
    assert desk.data is not None
    first, second = desk.data.basis.hunks
    assert not outcome.result.can_publish and not desk.can_publish()
    _decide(qtbot, desk, first.key, Decision.REJECT)
    assert not desk.can_publish()  # one hunk still undecided
    assert second.new == "- A summary line.\n"
    _decide(qtbot, desk, second.key, Decision.EDIT, "- A one-line summary.\n")
    assert desk.can_publish()
    with qtbot.waitSignal(desk.published, timeout=15_000) as published:
        desk.publish()
    task = clients("mia").get_task("a_writer")
    assert task.content == BASE + "- A one-line summary.\n"  # exactly: one rejected, one edited
    assert published.args == [task.version]
    assert clients("mia").proposal(proposal_id).outcome == f"published as v{task.version}"


def test_decisions_survive_a_restart(
    qtbot: QtBot,
    clients: Callable[[str], TaskdeskClient],
    make_desk: Callable[..., ReviewDesk],
    tmp_path: Path,
) -> None:
    proposal_id = _start(clients)
    path = tmp_path / "restart.sqlite3"
    with LocalStore(path) as first_store:
        desk = make_desk(the_store=first_store)
        _open(qtbot, desk, proposal_id)
        assert desk.data is not None
        key = desk.data.basis.hunks[0].key
        _decide(qtbot, desk, key, Decision.ACCEPT)
        qtbot.waitUntil(lambda: bool(first_store.hunk_decisions("test-server", proposal_id)))
    with LocalStore(path) as second_store:
        again = make_desk(the_store=second_store)
        _open(qtbot, again, proposal_id)
        assert again.data is not None
        assert again.data.decisions[key].decision is Decision.ACCEPT
        assert len(again.data.decisions) == 1


def test_a_moved_base_rebases_with_the_unplaceable_hunk_shown(
    qtbot: QtBot, clients: Callable[[str], TaskdeskClient], make_desk: Callable[..., ReviewDesk]
) -> None:
    proposal_id = _start(clients)
    ann = clients("ann")
    live = ann.get_task("a_writer")
    moved = BASE.replace("Draft replies.", "Draft replies, said live.").replace(
        "Sign off.", "Sign off with a name."
    )
    ann.put_task("a_writer", moved, live.version)
    desk = make_desk()
    _open(qtbot, desk, proposal_id)
    assert desk.data is not None and desk.data.basis.moved
    first, second = desk.data.basis.hunks
    assert not first.placeable and "said live" in first.live_text
    assert second.placeable
    _decide(qtbot, desk, first.key, Decision.REJECT)
    _decide(qtbot, desk, second.key, Decision.ACCEPT)
    assert desk.outcome is not None
    assert desk.outcome.result.text == moved + "- A summary line.\n"
    # Meanwhile someone saves again: the publish meets the merge, decisions kept.
    newest = ann.get_task("a_writer")
    ann.put_task("a_writer", newest.content.replace("## Work", "## Work now"), newest.version)
    with qtbot.waitSignal(desk.message, timeout=15_000) as said:
        desk.publish()
    assert "rebased onto it again" in said.args[0].text
    qtbot.waitUntil(
        lambda: desk.data is not None and desk.data.basis.live_version == newest.version + 1
    )
    qtbot.waitUntil(desk.can_publish, timeout=15_000)
    with qtbot.waitSignal(desk.published, timeout=15_000):
        desk.publish()
    assert "## Work now" in ann.get_task("a_writer").content
    assert ann.get_task("a_writer").content.endswith("- A summary line.\n")


def test_decline_with_a_reason_the_author_sees(
    qtbot: QtBot, clients: Callable[[str], TaskdeskClient], make_desk: Callable[..., ReviewDesk]
) -> None:
    proposal_id = _start(clients)
    desk = make_desk()
    _open(qtbot, desk, proposal_id)
    with qtbot.waitSignal(desk.declined, timeout=15_000):
        desk.decline("We keep replies neutral.")
    seen = clients("mia").proposal(proposal_id)
    assert seen.outcome == "declined by Ann: We keep replies neutral."
    # Another operator's publish of it now: one clear sentence, nothing published.
    other = make_desk("bob")
    _open(qtbot, other, proposal_id)
    assert other.data is not None
    for hunk in other.data.basis.hunks:
        _decide(qtbot, other, hunk.key, Decision.ACCEPT)
    with qtbot.waitSignal(other.closed_elsewhere, timeout=15_000) as closed:
        other.publish()
    assert "no longer open" in closed.args[0]
    assert clients("ann").get_task("a_writer").content == BASE


def test_a_revision_shows_the_changes_since_last_looked(
    qtbot: QtBot,
    clients: Callable[[str], TaskdeskClient],
    make_desk: Callable[..., ReviewDesk],
    runner: Runner,
) -> None:
    proposal_id = _start(clients)
    desk = make_desk()
    _open(qtbot, desk, proposal_id)
    assert desk.data is not None and desk.data.since is None
    first_key = desk.data.basis.hunks[0].key
    _decide(qtbot, desk, first_key, Decision.ACCEPT)
    mia = clients("mia")
    proposal = mia.proposal(proposal_id)
    revised = PROPOSED.replace("- A summary line.", "- A summary line, bolded.")
    qtbot.waitUntil(runner.is_idle)  # the revision seen is kept
    mia.revise_proposal(proposal_id, revised, proposal.base_version)
    again = make_desk()
    _open(qtbot, again, proposal_id)
    assert again.data is not None and again.data.since is not None
    revision, text = again.data.since
    assert revision == 1 and text == PROPOSED
    assert again.data.proposal.content == revised
    assert first_key in again.data.decisions  # the unchanged hunk keeps its decision
    assert len(again.data.decisions) == 1  # the changed one is to decide again
