"""Every server fault against every request the window makes, driven through the real window.

Each cell builds Ann's window on a real reference server with a real fault proxy in between,
injects one fault on the requests of one operation, triggers the operation the way the
operator does, and checks: the operator reads a clear message (or, where the fault only slows
the answer, the operation completes), the GUI thread keeps running while a slow answer
arrives, the editor text is byte for byte what the operator left there, and the typed text is
kept (in the draft, or confirmed by the server). The longest GUI stall of each cell is printed
at the end of the run as a figure, not checked: it measures the machine's load as much as ours.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from app.client import TaskdeskClient
from tests.faultproxy import Exchange, Fault
from tests.faults.conftest import (
    TIMEOUT_MS,
    Desk,
    connect,
    type_at_end,
    unclear_parts,
)
from tests.figures import Figure
from widgets.dialogs.connect import ConnectRequest
from widgets.window.messages import Severity

# A hung cell dumps every thread's stack and ends the run, rather than hanging it.
pytestmark = pytest.mark.timeout(90, method="thread")

MIB = 1024 * 1024
TYPED = " Flag refunds over 500 EUR."
NEW_NOTE = "org/o_acme/refund-policy.md"
NEW_NOTE_TEXT = "Refunds over 500 EUR need a second operator."
RESTORED = 2  # Scout's v2, restored as a new version

# The slow server drips every byte of its answer (head included) this far apart: slow enough
# that every answer takes hundreds of reads, quick enough to finish well inside the deadline.
SLOW_DELAY_S = 0.0005


@dataclass(frozen=True)
class FaultCase:
    fault: Fault
    params: dict[str, Any] = field(default_factory=dict)


FAULTS: dict[str, FaultCase] = {
    "500": FaultCase(Fault.STATUS, {"status": 500}),
    "502": FaultCase(Fault.STATUS, {"status": 502}),
    "503-retry-after": FaultCase(Fault.STATUS, {"status": 503, "retry_after": "7"}),
    "401": FaultCase(Fault.STATUS, {"status": 401}),
    "404": FaultCase(Fault.STATUS, {"status": 404}),
    "413": FaultCase(Fault.STATUS, {"status": 413}),
    "429": FaultCase(Fault.STATUS, {"status": 429, "retry_after": "3"}),
    "409-no-body": FaultCase(Fault.CONFLICT_NO_BODY),
    "malformed-json": FaultCase(Fault.MALFORMED_JSON),
    "html-200": FaultCase(Fault.HTML_200),
    "truncated": FaultCase(Fault.TRUNCATED),
    "reset": FaultCase(Fault.RESET),
    "slow-bytes": FaultCase(Fault.SLOW, {"delay": SLOW_DELAY_S}),
    "huge-declared": FaultCase(Fault.HUGE, {"size": 96 * MIB}),
    "huge-streamed": FaultCase(Fault.HUGE, {"size": 72 * MIB, "declare_length": False}),
}


class Operation:
    """One thing the window asks the server for, as the operator triggers it.

    ``prepare`` brings the window to where the operator starts (nothing faulty yet),
    ``trigger`` does what the operator does, ``done`` says the operation completed normally.
    ``expected_text`` is what the editor must hold afterwards; ``typed_for`` the agent whose
    typed text must be kept (None when nothing was typed).
    """

    path: str
    method: str | None = None
    typed_for: str | None = None

    def __init__(self) -> None:
        self.expected_text = ""

    def prepare(self, qtbot, desk: Desk) -> None:
        connect(qtbot, desk)
        self.expected_text = desk.tab.editor.text()

    def trigger(self, qtbot, desk: Desk) -> None:
        raise NotImplementedError

    def done(self, desk: Desk) -> bool:
        raise NotImplementedError

    def after(self, desk: Desk, completed: bool) -> None:
        """What the editor now rightly holds, once the operation ended (or failed)."""


class OpenAgent(Operation):
    """Choose Writer in the sidebar: its Task is loaded."""

    path = r"/api/agents/a_writer/files/task\.md"

    def trigger(self, qtbot, desk: Desk) -> None:
        desk.window.sidebar.agent_chosen.emit("a_writer")

    def done(self, desk: Desk) -> bool:
        state = desk.tab.state
        return state.agent_id == "a_writer" and state.live is not None and not state.loading

    def after(self, desk: Desk, completed: bool) -> None:
        if completed:
            self.expected_text = desk.live.content
        elif desk.tab.editor.text() == "":
            # Writer's Task is missing and Scout's was cleared away: right too (see
            # test_a_failed_open_never_shows_another_agents_task_as_this_ones). What may
            # never appear is the fault itself: half a Task, a web page.
            self.expected_text = ""


class EmbeddableNotes(Operation):
    """Sign in: the notes Insert › Note offers are listed."""

    path = r"/api/org/embeddable-notes"

    def prepare(self, qtbot, desk: Desk) -> None:
        desk.window.task_tab  # noqa: B018 - built before the clock starts, as at start-up

    def trigger(self, qtbot, desk: Desk) -> None:
        request = ConnectRequest(desk.proxy.url, desk.server.token("ann"), remember=False)
        desk.window.connect_to(request)

    def done(self, desk: Desk) -> bool:
        return desk.tab.editor.embeddable_model.rowCount() > 0

    def after(self, desk: Desk, completed: bool) -> None:
        self.expected_text = desk.live.content  # no edits yet: the server's text


class WhileEditing(Operation):
    """Operations met while the operator has typed into Scout's Task (the draft is written)."""

    typed_for = "a_scout"

    def prepare(self, qtbot, desk: Desk) -> None:
        super().prepare(qtbot, desk)
        self.expected_text = type_at_end(qtbot, desk, TYPED)
        qtbot.waitUntil(
            lambda: desk.draft_text("a_scout") == self.expected_text, timeout=TIMEOUT_MS
        )


class EmbedStatus(WhileEditing):
    """The sidebar asks which agents' Tasks embed files they can't reach (after a save)."""

    path = r"/embed-status"

    def trigger(self, qtbot, desk: Desk) -> None:
        desk.window.agent_model.set_broken_embeds({})  # so that a fresh answer shows
        desk.window.refresh_embed_status()

    def done(self, desk: Desk) -> bool:
        return bool(desk.window.agent_model.broken_embeds("a_scout"))


class RestoreVersion(Operation):
    """Versions › Restore v2, confirmed in its dialog: a PUT of the old text."""

    path = r"/api/agents/a_scout/files/task\.md"
    method = "PUT"

    def prepare(self, qtbot, desk: Desk) -> None:
        super().prepare(qtbot, desk)
        desk.window.actions_.versions.setChecked(True)
        self.old = desk.live
        desk.tab.versions.restore_requested.emit(RESTORED)
        qtbot.waitUntil(
            lambda: desk.tab.version_flow.restore_dialog is not None, timeout=TIMEOUT_MS
        )

    def trigger(self, qtbot, desk: Desk) -> None:
        dialog = desk.tab.version_flow.restore_dialog
        assert dialog is not None
        dialog.restore_button.click()

    def done(self, desk: Desk) -> bool:
        live = desk.tab.state.live
        return live is not None and live.version == self.old.version + 1

    def after(self, desk: Desk, completed: bool) -> None:
        if completed:
            self.expected_text = desk.live.content


class PeriodicCheck(WhileEditing):
    """The timer's conditional GET of the live Task while the operator edits."""

    path = r"/api/agents/a_scout/files/task\.md"
    method = "GET"

    def trigger(self, qtbot, desk: Desk) -> None:
        desk.session.check_remote()

    def done(self, desk: Desk) -> bool:
        # An unchanged Task changes nothing on screen: done is "still in touch, still mine".
        state = desk.tab.state
        return (
            not state.offline
            and state.conflict is None
            and state.live is not None
            and state.base_version == state.live.version
        )


class Save(WhileEditing):
    """Ctrl+S on the typed text."""

    path = r"/api/agents/a_scout/files/task\.md"
    method = "PUT"

    def trigger(self, qtbot, desk: Desk) -> None:
        desk.window.actions_.save.trigger()

    def done(self, desk: Desk) -> bool:
        state = desk.tab.state
        return state.saved_text_confirmed and not state.dirty and not state.saving


class PreviewNotes(WhileEditing):
    """The operator embeds a note the preview has not fetched yet: the preview fetches it."""

    path = r"/api/notes/"
    method = "GET"
    typed_for = "a_scout"

    def prepare(self, qtbot, desk: Desk) -> None:
        desk.server.put_note(
            NEW_NOTE,
            title="Refund policy",
            text=NEW_NOTE_TEXT,
            access=[{"principal": "org", "role": "read"}],
        )
        super().prepare(qtbot, desk)
        qtbot.waitUntil(lambda: desk.tab.last_preview is not None, timeout=TIMEOUT_MS)
        pipeline = desk.tab.live_preview.pipeline
        assert pipeline is not None
        qtbot.waitUntil(lambda: not pipeline.busy, timeout=TIMEOUT_MS)

    def trigger(self, qtbot, desk: Desk) -> None:
        qtbot.keyClicks(desk.tab.editor, f" ![[{NEW_NOTE}]]")
        self.expected_text = desk.tab.editor.text()

    def done(self, desk: Desk) -> bool:
        preview = desk.tab.last_preview
        return preview is not None and NEW_NOTE_TEXT in preview.expansion.text


OPERATIONS: dict[str, type[Operation]] = {
    "open-agent": OpenAgent,
    "embeddable-notes": EmbeddableNotes,
    "embed-status": EmbedStatus,
    "restore-version": RestoreVersion,
    "periodic-check": PeriodicCheck,
    "save": Save,
    "preview-notes": PreviewNotes,
}

# What each cell must end in. Everything not listed here must tell the operator (MESSAGE).
MESSAGE, DONE, MARKER = "message", "done", "marker"
OUTCOMES: dict[tuple[str, str], str] = {
    **{("slow-bytes", op): DONE for op in OPERATIONS},  # slow is not broken: it completes
    # The save reached the server and only its answer was cut: the client reads the live
    # Task, finds exactly the text sent, and the save counts as done.
    ("truncated", "save"): DONE,
    ("truncated", "restore-version"): DONE,
    # A 404 for a note is the server saying there is no such note: the preview marks the
    # embed as a file the agent can't reach, which is what a run would get.
    ("404", "preview-notes"): MARKER,
}


def _cell(fault: str, op: str) -> Any:
    return pytest.param(fault, op, id=f"{fault}-x-{op}")


CELLS = [_cell(f, o) for f in FAULTS for o in OPERATIONS]


@pytest.mark.parametrize(("fault_id", "op_id"), CELLS)
def test_fault_matrix(qtbot, make_desk, figure: Figure, fault_id: str, op_id: str) -> None:
    case = FAULTS[fault_id]
    op = OPERATIONS[op_id]()
    expect = OUTCOMES.get((fault_id, op_id), MESSAGE)
    desk: Desk = make_desk()
    op.prepare(qtbot, desk)
    shown_before = len(desk.window.messages.history)
    seen_before = len(desk.proxy.exchanges)
    desk.proxy.fault(case.fault, path=op.path, method=op.method, **case.params)

    def faulty() -> list[Exchange]:
        return [e for e in desk.proxy.exchanges[seen_before:] if e.fault is case.fault]

    def in_flight() -> bool:
        return any(not e.done.is_set() for e in faulty())

    desk.meter.start(in_flight)
    op.trigger(qtbot, desk)
    qtbot.waitUntil(lambda: bool(faulty()), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: all(e.done.is_set() for e in faulty()), timeout=TIMEOUT_MS)
    qtbot.waitUntil(desk.window.runner.is_idle, timeout=TIMEOUT_MS)
    figure("GUI stall in a window fault matrix cell", desk.meter.stop(), "ms")
    desk.proxy.clear()

    shown = desk.messages_since(shown_before)
    for text, _ in shown:
        assert not unclear_parts(text), f"unclear message {text!r}: {unclear_parts(text)}"
    alarms = [text for text, severity in shown if severity is not Severity.INFO]
    if expect == MESSAGE:
        assert alarms, f"the operator was told nothing; shown: {shown}"
    elif expect == DONE:
        assert op.done(desk), f"the slowed operation did not complete; shown: {shown}"
        assert not alarms, f"a slow answer is not a failure; shown: {alarms}"
    else:
        preview = desk.tab.last_preview
        assert preview is not None
        assert f'<unreachable path="{NEW_NOTE}"' in preview.expansion.text
    if case.fault is Fault.SLOW:
        # The answer drips for a second or more: a GUI thread waiting on it could not beat.
        assert desk.meter.ticks_in_flight > 0, "the GUI thread stopped while the answer came"

    op.after(desk, expect == DONE)
    assert desk.tab.editor.text().encode() == op.expected_text.encode()
    if op.typed_for is not None:
        _assert_typed_text_kept(qtbot, desk, op)


def _assert_typed_text_kept(qtbot, desk: Desk, op: Operation) -> None:
    """In the draft, or (a save that completed) on the server, byte for byte."""
    assert op.typed_for is not None
    with TaskdeskClient(desk.server.url, desk.server.token("ann")) as client:
        live = client.get_task(op.typed_for)
    if live.content == op.expected_text:
        assert not desk.tab.has_unsaved()
        return
    qtbot.waitUntil(lambda: desk.draft_text(op.typed_for) == op.expected_text, timeout=TIMEOUT_MS)
    assert desk.tab.has_unsaved()


def test_a_failed_open_never_shows_another_agents_task_as_this_ones(qtbot, desk: Desk) -> None:
    scout = desk.tab.editor.text()
    desk.proxy.fault(Fault.STATUS, path=OpenAgent.path, status=500)
    shown = len(desk.window.messages.history)
    desk.window.sidebar.agent_chosen.emit("a_writer")
    qtbot.waitUntil(lambda: len(desk.window.messages.history) > shown, timeout=TIMEOUT_MS)
    qtbot.waitUntil(desk.window.runner.is_idle, timeout=TIMEOUT_MS)
    assert desk.tab.state.agent_id == "a_writer" and desk.tab.state.live is None
    shows_scout = desk.tab.editor.text() == scout and desk.tab.modes.isEnabled()
    assert not shows_scout, "Writer's tab shows Scout's Task, ready to edit"
    assert desk.window.windowTitle().startswith("Writer"), desk.window.windowTitle()
