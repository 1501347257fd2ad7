"""The review, queue and propose windows on the real server, offscreen."""

from __future__ import annotations

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from app.client import TaskdeskClient
from app.desk.proposal_drafting import ProposalDrafting
from app.desk.proposal_queue import ProposalQueue
from app.desk.proposal_review_desk import ReviewDesk
from app.desk.runner import Runner
from app.store.local_store import LocalStore
from tests.live_server import LiveServer
from tests.proposals.conftest import SERVER_KEY
from widgets.proposals.hunk_list_model import CANNOT_PLACE
from widgets.proposals.propose_window import ProposeWindow
from widgets.proposals.queue_window import QueueWindow
from widgets.proposals.review_window import ReviewWindow

BASE = (
    "# Writer\n\nDraft replies.\n\n## Work\nKeep it short.\nSign off.\n\n## Outputs\n- One draft.\n"
)
PROPOSED = BASE.replace("Draft replies.", "Draft replies, kindly.") + "- A summary line.\n"


def _proposal(clients: Callable[[str], TaskdeskClient]) -> str:
    ann, mia = clients("ann"), clients("mia")
    ann.put_task("a_writer", BASE, ann.get_task("a_writer").version)
    base = ann.get_task("a_writer")
    return mia.propose("a_writer", PROPOSED, base.version, "Kinder replies", "Asked for").id


def _review(qtbot: QtBot, make_desk: Callable[..., ReviewDesk], proposal_id: str) -> ReviewWindow:
    desk = make_desk()
    window = ReviewWindow(desk, "Writer")
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(desk.outcome_changed, timeout=15_000):
        desk.open(proposal_id)
    return window


def test_publish_stays_off_until_every_change_is_decided(
    qtbot: QtBot, clients: Callable[[str], TaskdeskClient], make_desk: Callable[..., ReviewDesk]
) -> None:
    window = _review(qtbot, make_desk, _proposal(clients))
    assert window.title_label.text() == "Kinder replies"
    assert "By Mia" in window.meta_label.text()
    assert window.hunks.rowCount() == 2
    assert not window.publish_button.isEnabled()
    with qtbot.waitSignal(window.desk.outcome_changed, timeout=15_000):
        window.reject_button.click()  # the first change; the second becomes current
    assert window.hunk_list.currentIndex().row() == 1
    assert not window.publish_button.isEnabled()
    window.edit_button.click()
    dialog = window.edit_dialog
    assert dialog is not None and dialog.text() == "- A summary line.\n"
    dialog.editor.setPlainText("- A short summary.\n")
    with qtbot.waitSignal(window.desk.outcome_changed, timeout=15_000):
        dialog.ok_button.click()
    assert "edited" in window.hunks.data(window.hunks.index(1))
    qtbot.waitUntil(window.publish_button.isEnabled)
    assert "Every change is decided." in window.status_label.text()
    assert "Embedded notes:" in window.effect_label.text()
    qtbot.waitUntil(lambda: "Shape: checking" not in window.effect_label.text())
    assert window.result_view not in window.shown_view_models()  # its tab is not shown yet
    window.tabs.setCurrentIndex(1)
    assert window.result_view.new_text == BASE + "- A short summary.\n"
    with qtbot.waitSignal(window.finished, timeout=15_000) as finished:
        window.publish_button.click()
    assert finished.args[0].startswith("Published as v")
    assert clients("ann").get_task("a_writer").content == BASE + "- A short summary.\n"


def test_the_hunks_are_listed_once_loaded_the_first_one_current(
    qtbot: QtBot, clients: Callable[[str], TaskdeskClient], make_desk: Callable[..., ReviewDesk]
) -> None:
    desk = make_desk()
    window = ReviewWindow(desk, "Writer")
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(desk.loaded, timeout=15_000):
        desk.open(_proposal(clients))
    # Listed on the turn after the basis (or with the outcome, whichever comes first).
    qtbot.waitUntil(lambda: window.hunk_list.currentIndex().row() == 0)
    assert window.hunks.rowCount() == 2
    assert window.raw_view.current_change_index == 0
    assert window.accept_button.isEnabled()


def test_a_moved_base_shows_the_change_that_cannot_be_placed(
    qtbot: QtBot, clients: Callable[[str], TaskdeskClient], make_desk: Callable[..., ReviewDesk]
) -> None:
    proposal_id = _proposal(clients)
    ann = clients("ann")
    live = ann.get_task("a_writer")
    ann.put_task("a_writer", BASE.replace("Draft replies.", "Draft replies fast."), live.version)
    window = _review(qtbot, make_desk, proposal_id)
    assert f"live is v{live.version + 1}" in window.meta_label.text()
    assert "rebased" in window.notice_label.text()
    first = window.hunks.data(window.hunks.index(0))
    assert CANNOT_PLACE in first
    assert window.unplaced_view.isVisibleTo(window)
    shown = window.unplaced_view.toPlainText()
    assert "Draft replies, kindly." in shown and "Draft replies fast." in shown
    window.hunk_list.setCurrentIndex(window.hunks.index(1))
    assert not window.unplaced_view.isVisibleTo(window)


def test_decline_asks_for_a_reason(
    qtbot: QtBot, clients: Callable[[str], TaskdeskClient], make_desk: Callable[..., ReviewDesk]
) -> None:
    proposal_id = _proposal(clients)
    window = _review(qtbot, make_desk, proposal_id)
    window.decline_button.click()
    dialog = window.decline_dialog
    assert dialog is not None and not dialog.decline_button.isEnabled()
    dialog.reason.setPlainText("Replies stay neutral.")
    assert dialog.decline_button.isEnabled()
    with qtbot.waitSignal(window.finished, timeout=15_000):
        dialog.decline_button.click()
    assert clients("mia").proposal(proposal_id).reason == "Replies stay neutral."


def test_the_queue_lists_oldest_first_with_the_base(
    qtbot: QtBot, clients: Callable[[str], TaskdeskClient], runner: Runner
) -> None:
    proposal_id = _proposal(clients)
    ann = clients("ann")
    ann.put_task("a_writer", BASE + "Moved.\n", ann.get_task("a_writer").version)
    queue = ProposalQueue(ann, runner)
    window = QueueWindow(queue, {"a_writer": "Writer"}.get)  # type: ignore[arg-type]
    qtbot.addWidget(window)
    with qtbot.waitSignal(queue.listed, timeout=15_000):
        queue.refresh()
    model = window.proxy
    assert model.rowCount() == 1
    row = [model.index(0, c).data() for c in range(5)]
    assert row[0] == "Writer" and row[1] == "Kinder replies" and row[2] == "Mia"
    live = ann.get_task("a_writer").version
    assert row[4] == f"based on v{live - 1}, live is v{live}"
    with qtbot.waitSignal(window.open_requested) as opened:
        window.table.setCurrentIndex(model.index(0, 0))
        window.open_button.click()
    assert opened.args == [proposal_id]
    member = ProposalQueue(clients("mia"), runner)
    with qtbot.waitSignal(member.unavailable, timeout=15_000) as said:
        member.refresh()
    assert said.args[0] == "Only an operator can see the org's queue of proposals."


def _propose_window(
    qtbot: QtBot,
    clients: Callable[[str], TaskdeskClient],
    store: LocalStore,
    runner: Runner,
    client: TaskdeskClient | None = None,
) -> ProposeWindow:
    mia = client or clients("mia")
    drafting = ProposalDrafting(
        client=mia,
        store=store,
        server_key=SERVER_KEY,
        runner=runner,
        agent_id="a_scout",
        me_id="u_mia",
    )
    live = clients("ann").get_task("a_scout")
    window = ProposeWindow(
        drafting, agent_name="Scout", text=live.content, base_version=live.version
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: not window._loading)
    return window


def test_a_member_proposes_and_sees_the_outcome(
    qtbot: QtBot,
    clients: Callable[[str], TaskdeskClient],
    store: LocalStore,
    runner: Runner,
) -> None:
    window = _propose_window(qtbot, clients, store, runner)
    assert "nothing here changes the Task" in window.band.text()
    assert not window.submit_button.isEnabled()  # no title yet
    window.editor.setPlainText(window.editor.toPlainText() + "\nFlag refunds first.\n")
    qtbot.keyClicks(window.title_edit, "Refunds first")
    with qtbot.waitSignal(window.submitted, timeout=15_000) as sent:
        window.submit_button.click()
    proposal = sent.args[0]
    assert "waits for an operator's review" in window.status_label.text()
    qtbot.waitUntil(lambda: window.mine_list.count() == 1)
    assert "open (revision 1)" in window.mine_list.item(0).text()
    clients("ann").decline_proposal(proposal.id, "Refunds go to billing.")
    with qtbot.waitSignal(window.drafting.mine_listed, timeout=15_000):
        window.drafting.list_mine()
    assert "declined by Ann: Refunds go to billing." in window.mine_list.item(0).text()
    # The same text again, unchanged from the base: one sentence, the text kept.
    live = clients("ann").get_task("a_scout")
    window.editor.setPlainText(live.content)
    window.revising = ""
    with qtbot.waitSignal(window.drafting.refused, timeout=15_000):
        window.submit_button.click()
    assert window.status_label.text() == (
        "This proposal changes nothing: its text is the same as the version it is based on."
    )
    assert window.editor.toPlainText() == live.content


def test_a_draft_survives_and_is_sent_when_the_server_is_back(
    qtbot: QtBot,
    live_server: LiveServer,
    clients: Callable[[str], TaskdeskClient],
    store: LocalStore,
    runner: Runner,
) -> None:
    window = _propose_window(qtbot, clients, store, runner)
    text = window.editor.toPlainText() + "\nA line typed before a crash.\n"
    window.editor.setPlainText(text)
    window.title_edit.setText("Kept")
    qtbot.waitUntil(lambda: store.proposal_draft(SERVER_KEY, "a_scout") is not None)
    qtbot.waitUntil(lambda: store.proposal_draft(SERVER_KEY, "a_scout").text == text)  # type: ignore[union-attr]
    window.close()
    # The next window (after a crash, a restart) has it back.
    again = _propose_window(qtbot, clients, store, runner)
    assert again.editor.toPlainText() == text and again.title_edit.text() == "Kept"
    # Offline: the server is down when Submit is pressed.
    offline_client = TaskdeskClient(live_server.url, live_server.token("mia"), read_timeout=1.0)
    window3 = _propose_window(qtbot, clients, store, runner, client=offline_client)
    live_server.handle.stop()
    with qtbot.waitSignal(window3.drafting.waiting, timeout=15_000):
        window3.submit_button.click()
    assert "will be sent when the server is back" in window3.status_label.text()
    qtbot.waitUntil(lambda: store.proposal_draft(SERVER_KEY, "a_scout").submit)  # type: ignore[union-attr]
    live_server.restart()
    offline_client.close()
    back = TaskdeskClient(live_server.url, live_server.token("mia"))
    window3.drafting._client = back  # the same server, its new port if the old one was taken
    with qtbot.waitSignal(window3.submitted, timeout=15_000) as sent:
        window3.drafting.send_waiting()
    assert sent.args[0].title == "Kept"
    qtbot.waitUntil(lambda: store.proposal_draft(SERVER_KEY, "a_scout") is None)
    back.close()


def test_a_revised_proposal_shows_the_changes_since_last_looked(
    qtbot: QtBot,
    clients: Callable[[str], TaskdeskClient],
    make_desk: Callable[..., ReviewDesk],
    runner: Runner,
) -> None:
    proposal_id = _proposal(clients)
    first = _review(qtbot, make_desk, proposal_id)
    assert not first.tabs.isTabVisible(first.since_index)
    qtbot.waitUntil(runner.is_idle)  # the revision looked at is kept
    mia = clients("mia")
    revised = PROPOSED.replace("- A summary line.", "- A summary line, in bold.")
    mia.revise_proposal(proposal_id, revised, mia.proposal(proposal_id).base_version)
    again = _review(qtbot, make_desk, proposal_id)
    assert "revision 2" in again.meta_label.text()
    assert again.tabs.isTabVisible(again.since_index)
    again.tabs.setCurrentIndex(again.since_index)
    assert again.since_view.old_text == PROPOSED and again.since_view.new_text == revised
    assert again.since_view.model.change_count == 1


def test_a_base_no_longer_kept_is_reviewed_against_live(
    qtbot: QtBot, clients: Callable[[str], TaskdeskClient], make_desk: Callable[..., ReviewDesk]
) -> None:
    proposal_id = _proposal(clients)
    ann = clients("ann")
    for n in range(51):  # the newest 50 earlier versions are kept: the base goes
        ann.put_task("a_writer", BASE + f"Save {n}.\n", ann.get_task("a_writer").version)
    window = _review(qtbot, make_desk, proposal_id)
    assert "no longer kept" in window.notice_label.text()
    data = window.desk.data
    assert data is not None and not data.base_kept
    assert data.basis.base == data.basis.live  # the changes are shown against live
