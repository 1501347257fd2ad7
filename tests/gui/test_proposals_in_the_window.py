"""Proposals in the real window: a member proposes from the read-only Task, an operator sees
the mark, the queue and the review; a spec-only server says there are none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.desk.proposal_queue import NOT_ON_THIS_SERVER
from app.server import start_server
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.window_steps import WindowFactory, said, sign_in, type_at_end
from widgets.window.agent_list_model import PROPOSALS_MARK

TIMEOUT = 10_000


def test_a_member_proposes_and_an_operator_finds_it_in_the_queue(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    member = make_window()
    sign_in(qtbot, member, live_server.url, live_server.token("mia"))
    tab = member.task_tab
    qtbot.waitUntil(lambda: tab.session is not None and tab.state.base_version is not None)
    button = tab.read_only.propose_button
    qtbot.waitUntil(button.isVisible, timeout=TIMEOUT)
    assert tab.editor.isReadOnly()
    button.click()
    propose = member.proposals.propose_window
    assert propose is not None and propose.isVisible()
    qtbot.waitUntil(lambda: not propose._loading, timeout=TIMEOUT)
    assert propose.editor.toPlainText() == tab.editor.text()
    propose.editor.setPlainText(propose.editor.toPlainText() + "\nFlag refunds first.\n")
    propose.title_edit.setText("Refunds first")
    with qtbot.waitSignal(propose.submitted, timeout=TIMEOUT):
        propose.submit_button.click()
    assert tab.editor.isReadOnly()  # proposing changed nothing of the Task
    propose.close()

    operator = make_window()
    sign_in(qtbot, operator, live_server.url, live_server.token("ann"))
    row = operator.agent_model.row_of("a_scout")
    qtbot.waitUntil(
        lambda: f"{PROPOSALS_MARK}1" in str(operator.agent_model.index(row).data()),
        timeout=TIMEOUT,
    )
    operator.actions_.proposals.trigger()
    queue = operator.proposals.queue_window
    assert queue is not None
    qtbot.waitUntil(lambda: queue.proxy.rowCount() == 1, timeout=TIMEOUT)
    queue.table.setCurrentIndex(queue.proxy.index(0, 0))
    queue.open_button.click()
    (review,) = operator.proposals.reviews.values()
    qtbot.waitUntil(lambda: review.desk.outcome is not None, timeout=TIMEOUT)
    assert review.title_label.text() == "Refunds first"
    assert review.hunks.rowCount() == 1


@pytest.fixture
def spec_only(tmp_path: Path) -> Iterator[LiveServer]:
    db = tmp_path / "spec-only.sqlite3"
    handle = start_server(WORKSPACE_BASIC, db, extensions=False)
    try:
        yield LiveServer(handle, WORKSPACE_BASIC, db, False, {"ann": "ann-secret"})
    finally:
        handle.stop()


def test_a_spec_only_server_says_it_has_no_proposals(
    qtbot, make_window: WindowFactory, spec_only: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, spec_only.url, "ann-secret", first_agent=False)
    qtbot.waitUntil(lambda: not window.proposals.available, timeout=TIMEOUT)
    window.actions_.proposals.trigger()
    assert window.proposals.queue_window is None
    assert NOT_ON_THIS_SERVER in said(window)


def test_an_operator_saves_an_edit_as_a_proposal_instead_of_publishing(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    tab = window.task_tab
    qtbot.waitUntil(lambda: tab.state.base_version is not None, timeout=TIMEOUT)
    typed = type_at_end(qtbot, window, "A change for review.")
    window.actions_.propose.trigger()
    propose = window.proposals.propose_window
    assert propose is not None
    qtbot.waitUntil(lambda: not propose._loading, timeout=TIMEOUT)
    assert propose.editor.toPlainText() == typed
    propose.title_edit.setText("For Bob to look at")
    with qtbot.waitSignal(propose.submitted, timeout=TIMEOUT) as sent:
        propose.submit_button.click()
    assert sent.args[0].author_name == "Ann"
    assert tab.has_unsaved()  # the Task itself is untouched: nothing was published
