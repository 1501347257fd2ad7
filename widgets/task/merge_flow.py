"""Merge on conflict: base, theirs and mine merged off the GUI thread, shown marked in the
editor as an unsaved edit on their version, with a choice for each true conflict."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QTextCursor

from app.core.cancel import CancelledError, CancelToken, NewestRequest
from app.core.models import TaskDoc
from app.core.user_message import MessageKey
from app.desk.failures import describe_failure
from app.desk.runner import Runner
from app.desk.session_state import SessionState
from widgets.editor.merge_marks import MergeMarks
from widgets.task.merge_banner import MergeBanner, merge_summary
from widgets.task.work_area import TaskWorkArea
from widgets.window.messages import Messages

if TYPE_CHECKING:  # the merge's modules load on the runner, with the first merge
    from app.core.merge import MergeResult, Resolution
    from app.core.merge_layout import MergeLayout
    from app.desk.session import TaskSession

MERGE_FAILED = "The texts could not be merged"


def base_text_of(state: SessionState) -> str | None:
    """The text the operator's edits started from: the session's, or the conflict's history."""
    if state.base_text is not None:
        return state.base_text
    if state.conflict is not None and state.base_version is not None:
        for revision in state.conflict.revisions:
            if revision.version == state.base_version:
                return revision.content
    return None


def lf(text: str) -> str:
    """``text`` with LF line ends: the editor holds no carriage returns."""
    return text.replace("\r\n", "\n")


class MergeFlow(QObject):
    """Owns one merge at a time: ``merge()`` starts it, ``take()`` resolves the current
    conflict, tells the session how many are open (it holds saves back), and the session's
    states (``on_state``) end it (saved, discarded, another agent) or start it by themselves
    when a save held while offline meets someone else's version.
    """

    def __init__(
        self,
        runner: Runner,
        messages: Messages,
        work_area: TaskWorkArea,
        banner: MergeBanner,
        session: Callable[[], TaskSession | None],
    ) -> None:
        super().__init__(work_area)
        self._runner = runner
        self._messages = messages
        self._work_area = work_area
        self._editor = editor = work_area.editor
        self.banner = banner
        self._session = session
        self._requests = NewestRequest()
        self.marks = MergeMarks(editor, on_gone=self.finish)
        self.result: MergeResult | None = None  # the merge in the editor, while one is
        self._theirs: TaskDoc | None = None
        self._before: tuple[str, int | None, str | None] = ("", None, None)  # text, its base
        self._state = SessionState()
        self._agent: str | None = None
        self._held_offline = False  # a save waits for the server: its conflict merges at once
        self.banner.hide()
        self.banner.next_button.clicked.connect(self.on_next_conflict)
        self.banner.cancel_button.clicked.connect(self.on_cancel)
        for resolution, button in self.banner.take_buttons.items():
            button.clicked.connect(lambda _=False, r=resolution: self.take(r))
        editor.textChanged.connect(self._on_text_changed)

    @property
    def active(self) -> bool:
        return self.result is not None

    # ---------------------------------------------------------------- starting

    def merge(self) -> None:
        """Merge the editor text with the conflict's version, on the runner; the newest wins."""
        state = self._state
        theirs = state.conflict
        if theirs is None:
            return
        base = base_text_of(state)
        if base is None:
            self._messages.warning(
                f"The version your edits started from (v{state.base_version}) is not known "
                "here, so the texts can't be merged. Compare them instead."
            )
            return
        mine = self._editor.text()
        before = (mine, state.base_version, state.base_text)
        token = self._requests.start()
        base, their_text = lf(base), lf(theirs.content)

        def work() -> tuple[MergeResult, MergeLayout]:
            from app.core.merge import merge_texts
            from app.core.merge_layout import lay_out

            result = merge_texts(base, their_text, mine, cancel=token)
            return result, lay_out(result)

        self._runner.submit(
            work,
            on_done=lambda done: self._merged(token, theirs, before, *done),
            on_error=lambda exc: self._failed(token, exc),
        )

    def _merged(
        self,
        token: CancelToken,
        theirs: TaskDoc,
        before: tuple[str, int | None, str | None],
        result: MergeResult,
        layout: MergeLayout,
    ) -> None:
        if not self._requests.is_current(token):
            return
        session = self._session()
        if session is None:
            return
        conflict = self._state.conflict
        if (
            self._editor.text() != before[0]
            or conflict is None
            or conflict.version != theirs.version
        ):
            self.merge()  # typed meanwhile, or someone saved again: merge what is there now
            return
        session.merged(theirs.version, layout.text)
        if self._editor.text() != layout.text:
            return  # the session did not take it (its conflict moved on)
        self.result, self._theirs, self._agent = result, theirs, self._state.agent_id
        self._before = before
        self.marks.show(layout.text, layout.marks)
        self._work_area.set_mode_edit(True)
        self._update_banner()
        first = self.marks.open_conflicts()
        if first:
            self.go_to_conflict(first[0])
        else:
            self._editor.moveCursor(QTextCursor.MoveOperation.Start)

    def _failed(self, token: CancelToken, exc: BaseException) -> None:
        if isinstance(exc, CancelledError) or not self._requests.is_current(token):
            return
        self._messages.show(describe_failure(exc, doing=MERGE_FAILED))

    # ---------------------------------------------------------------- conflicts

    def current_conflict(self) -> int | None:
        """The open conflict at the editor's cursor, else the first open one."""
        open_ = self.marks.open_conflicts()
        at = self.marks.conflict_at(self._editor.textCursor().position())
        if at is not None and at in open_:
            return at
        return open_[0] if open_ else None

    def go_to_conflict(self, conflict: int) -> None:
        cursor = self.marks.conflict_cursor(conflict)
        if cursor is None:
            return
        cursor.setPosition(cursor.selectionStart())
        self._editor.setTextCursor(cursor)
        self._editor.centerCursor()

    def on_next_conflict(self) -> None:
        open_ = self.marks.open_conflicts()
        if not open_:
            return
        at = self.marks.conflict_at(self._editor.textCursor().position())
        later = [c for c in open_ if at is None or c > at]
        self.go_to_conflict(later[0] if later else open_[0])
        self._editor.setFocus()

    def take(self, resolution: Resolution) -> None:
        """Resolve the current conflict one of the set ways, as one undoable edit."""
        conflict = self.current_conflict()
        if self.result is None or conflict is None:
            return
        text = self.result.take(conflict, resolution).conflicts[conflict].resolved
        self.marks.replace_conflict(conflict, text or "")
        self._update_banner()
        rest = self.marks.open_conflicts()
        if rest:
            self.go_to_conflict(rest[0])
        self._editor.setFocus()

    # ---------------------------------------------------------------- saving and ending

    def on_save_refused(self, _why: str) -> None:
        """The session refused a save (it holds saves while conflicts of the merge are open,
        ``TaskSession.mark_merge``): the caret goes to the first open one."""
        open_ = self.marks.open_conflicts() if self.active else []
        if open_:
            self.go_to_conflict(open_[0])

    def on_state(self, state: SessionState) -> None:
        before, self._state = self._state, state
        if state.agent_id != before.agent_id:
            self._held_offline = False
            self._requests.cancel()
        if self.active and (
            state.agent_id != self._agent
            or state.conflict is not None
            or not (state.dirty or state.saving or state.pending_save)
        ):
            self.finish()
        if state.pending_save and state.offline:
            self._held_offline = True
        elif state.saved_text_confirmed and not state.dirty:
            self._held_offline = False
        news = state.conflict is not None and (
            before.conflict is None or before.conflict.version != state.conflict.version
        )
        if news and self._held_offline:
            self._held_offline = False
            self.merge()  # the operator was away: show the merge, not only the question

    def on_cancel(self) -> None:
        """Back to the conflict with the text as it was before the merge."""
        session, theirs = self._session(), self._theirs
        if session is not None and theirs is not None:
            session.unmerged(theirs, *self._before)
        self._editor.setFocus()

    def finish(self) -> None:
        """The merge is saved, dropped or replaced: its marks and banner go."""
        self._requests.cancel()
        self.result = self._theirs = None
        self._before = ("", None, None)
        self.marks.clear()
        self.banner.hide()
        session = self._session()
        if session is not None:
            session.mark_merge(None)
        self._messages.withdraw(MessageKey.MERGE)

    def _on_text_changed(self) -> None:
        if self.active:
            self.marks.repaint()
            self._update_banner()

    def _update_banner(self) -> None:
        result, theirs = self.result, self._theirs
        if result is None or theirs is None:
            return
        open_ = len(self.marks.open_conflicts())
        if not open_:
            self._messages.withdraw(MessageKey.MERGE)  # "1 conflict … not resolved" is untrue
        self.banner.set_text(
            merge_summary(
                theirs.version,
                theirs.updated_by_name or "",
                len(result.mine_changes),
                len(result.theirs_changes),
                open_,
            )
        )
        self.banner.set_open_conflicts(open_)
        self.banner.show()
        session = self._session()
        if session is not None:
            session.mark_merge(open_)
