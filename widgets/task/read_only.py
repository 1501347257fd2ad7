"""A Task shown read-only to someone who may read it but not change it (a member)."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton, QWidget

from app.core.models import Me
from widgets.editor.task_editor import TaskEditor
from widgets.versions.versions_panel import VersionsPanel
from widgets.window.actions import WindowActions
from widgets.window.banners import Banner


def read_only_reason(me: Me | None) -> str | None:
    """Why ``me`` can't change Tasks, in one line; None when they can (an operator, or a
    server that doesn't say who is signed in: the server still refuses a save it forbids)."""
    if me is None or me.type == "operator":
        return None
    who = "a member" if me.type == "member" else "an agent"
    return (
        f"Read-only: you are signed in as {me.name}, {who}; only operators change Tasks. "
        "Preview, Versions and Compare work as usual."
    )


class ReadOnlyBanner(Banner):
    """One line above the Task saying why it can't be changed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("info", "info", parent)
        self.setObjectName("ReadOnlyBanner")
        self.hide()


class ReadOnlyTask:
    """Keeps the editor and the commands that change a Task off while ``reason`` is set.

    ``apply()`` is called whenever something else may have turned them back on (a Task
    loaded, the session's state changed, the window enabling the Task commands).
    """

    def __init__(
        self,
        editor: TaskEditor,
        versions: VersionsPanel,
        commands: WindowActions,
        banner: ReadOnlyBanner,
    ) -> None:
        self._editor = editor
        self._versions = versions
        self._commands = commands
        self.banner = banner
        self.reason: str | None = None
        # A member may still hand an operator a change: "Propose a change…" (proposals_hub).
        self.propose_button = QPushButton("Propose a change…")
        self.propose_button.setAccessibleName("Propose a change to this Task")
        self.propose_button.clicked.connect(commands.propose.trigger)
        banner.buttons.addWidget(self.propose_button)
        self._me: Me | None = None
        self.proposals_here = True

    def set_proposals_available(self, available: bool) -> None:
        """A server without proposals: the Task stays read-only, with nothing to propose."""
        self.proposals_here = available
        self._show_propose()

    def _show_propose(self) -> None:
        person = self._me is not None and self._me.type == "member"
        self.propose_button.setVisible(self.active and person and self.proposals_here)

    @property
    def active(self) -> bool:
        return self.reason is not None

    def set_person(self, me: Me | None) -> None:
        self._me = me
        self.reason = read_only_reason(me)
        self.banner.set_text(self.reason or "")
        self.banner.setVisible(self.active)
        self._editor.setReadOnly(self.active)
        self._versions.set_can_restore(not self.active)
        self._show_propose()
        self.apply()

    def apply(self) -> None:
        if not self.active:
            return
        c = self._commands
        for action in (c.edit, c.save, c.discard, c.insert_note, c.insert_table):
            action.setEnabled(False)
        self._editor.setReadOnly(True)
