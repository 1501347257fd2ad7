"""Comparing an earlier version with the live Task, and restoring one after confirming."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from app.core.diff_model import SideBySide, build_diff
from app.core.models import TaskDoc
from app.desk.failures import describe_failure
from app.desk.runner import Runner
from widgets.versions.versions_panel import VersionsPanel
from widgets.window.messages import Messages

if TYPE_CHECKING:  # loaded when a restore first asks (the tab preloads it)
    from widgets.versions.restore_dialog import RestoreCompareDialog

COMPARE_FAILED = "The versions could not be compared"


class VersionFlow(QObject):
    """Diffs for the versions panel (on the runner: 256 KB texts take a while) and the
    restore confirmation, kept as ``restore_dialog`` while it is open."""

    def __init__(
        self, runner: Runner, messages: Messages, versions: VersionsPanel, owner: QWidget
    ) -> None:
        super().__init__(owner)
        self._runner = runner
        self._messages = messages
        self._versions = versions
        self._owner = owner  # the dialogs' parent
        self.restore_dialog: RestoreCompareDialog | None = None
        versions.pair_requested.connect(self.compare_pair)

    def compare(self, version: int, old: str, live: str) -> None:
        """Show ``old`` (version ``version``) beside the live text in the versions panel."""
        self._runner.submit(
            lambda: build_diff(old, live),
            on_done=lambda model: self._versions.show_compare_model(version, model),
            on_error=self._compare_failed,
        )

    def compare_pair(self, old: str, new: str, old_title: str, new_title: str) -> None:
        """Any two texts in the versions panel (two versions, a version and my text)."""
        self._runner.submit(
            lambda: build_diff(old, new),
            on_done=lambda model: self._versions.show_pair_model(
                model, old, new, old_title, new_title
            ),
            on_error=self._compare_failed,
        )

    def confirm_restore(self, version: int, live: TaskDoc, restore: Callable[[int], None]) -> None:
        """Ask before ``restore(version)``, saying how many lines it adds and removes."""
        model = self._versions.model
        row = model.row_of_version(version)
        revision = model.row_at(row) if row is not None else None
        if revision is None:
            return
        old = revision.content

        def ask(diff: SideBySide) -> None:
            # The diff runs from the live text to the old version, as restoring goes: the
            # lines it removes are the live text's, the lines it adds the old version's.
            from widgets.dialogs.confirm import diff_summary
            from widgets.versions.restore_dialog import RestoreCompareDialog

            summary = diff_summary(diff.line_counts)
            dialog = RestoreCompareDialog(
                version, live.version, summary, (diff, live.content, old), self._owner
            )
            self.restore_dialog = dialog
            dialog.accepted.connect(lambda: restore(version))
            dialog.finished.connect(lambda _: setattr(self, "restore_dialog", None))
            dialog.open()

        self._runner.submit(
            lambda: build_diff(live.content, old), on_done=ask, on_error=self._compare_failed
        )

    def take_change(
        self, version: int, change: int, text: Callable[[], str], put: Callable[[str], None]
    ) -> None:
        """Restore by change: change ``change`` of the compare of ``version`` with live, back
        into the editor text (read by ``text()``), which ``put`` replaces as an unsaved edit.
        Unsaved edits elsewhere stay; unsaved edits of the same lines keep it out, said why."""
        view = self._versions.diff_view
        model, old, live = view.model, view.old_text, view.new_text
        if not 0 <= change < model.change_count:
            return
        chunk, before = model.changes[change], text()

        def taken(result: str | None) -> None:
            if text() != before:
                self.take_change(version, change, text, put)  # typed meanwhile: again
            elif result is None:
                self._messages.warning(
                    f"Your unsaved text changes these lines too, so the change from v{version} "
                    "was not taken. Save or discard your edits first, or copy it by hand."
                )
            else:
                put(result)
                self._messages.info(f"Took a change from v{version} into the editor (unsaved).")

        def take() -> str | None:
            from app.core.take_change import take_change  # with the merge, on the runner

            return take_change(old, live, chunk, before)

        self._runner.submit(
            take,
            on_done=taken,
            on_error=self._compare_failed,
        )

    def _compare_failed(self, exc: BaseException) -> None:
        self._messages.show(describe_failure(exc, doing=COMPARE_FAILED))
