"""Proposing a change of a Task: its whole text, editable as a proposal, never as a save.

The window says what it is in its title and in a band above the text, and its one button is
Submit (with a title and an optional note), so a proposal is never taken for a save. The
text is kept as a draft a moment after each edit and survives a crash; a submit while the
server can't be reached is sent when it is back. Beside it, the author's proposals for this
agent with each outcome; an open one can be revised or withdrawn.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.core.proposal_models import Proposal
from app.core.user_message import UserMessage
from app.desk.proposal_drafting import ProposalDrafting
from app.store.proposal_reviews import ProposalDraft
from widgets.common.plain_text import plain_label

TITLE_MAX = 200
NOTE_MAX = 2000


class ProposeWindow(QWidget):
    """One agent's proposal being written, beside its author's proposals."""

    submitted = Signal(object)  # Proposal

    def __init__(
        self,
        drafting: ProposalDrafting,
        *,
        agent_name: str,
        text: str,
        base_version: int,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("ProposeWindow")
        self.setWindowTitle(f"Propose a change to {agent_name}'s Task")
        self.drafting = drafting
        self.base_version = base_version
        self.revising = ""  # the open proposal being revised, if any
        self.band = plain_label(
            f"A proposal for {agent_name}, based on v{base_version}: nothing here changes the "
            "Task. An operator reviews it change by change and publishes it, or declines it."
        )
        self.band.setObjectName("ProposalBand")
        self.band.setWordWrap(True)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("ProposalEditor")
        self.editor.setAccessibleName("The proposed Task")
        self.editor.setPlainText(text)
        self.title_edit = QLineEdit()
        self.title_edit.setAccessibleName("Title")
        self.title_edit.setPlaceholderText("One line: what the change is")
        self.title_edit.setMaxLength(TITLE_MAX)
        self.note_edit = QLineEdit()
        self.note_edit.setAccessibleName("Note for the operator")
        self.note_edit.setPlaceholderText("Optional: why, for the operator")
        self.note_edit.setMaxLength(NOTE_MAX)
        self.submit_button = QPushButton("&Submit proposal")
        self.status_label = plain_label("")
        self.status_label.setWordWrap(True)
        self.status_label.setObjectName("ProposalStatus")
        form = QFormLayout()
        form.addRow("&Title", self.title_edit)
        form.addRow("&Note", self.note_edit)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.band)
        left_layout.addWidget(self.editor, 1)
        left_layout.addLayout(form)
        row = QHBoxLayout()
        row.addWidget(self.status_label, 1)
        row.addWidget(self.submit_button)
        left_layout.addLayout(row)

        self.mine_list = QListWidget()
        self.mine_list.setAccessibleName("Your proposals")
        self.revise_button = QPushButton("&Revise")
        self.withdraw_button = QPushButton("&Withdraw")
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(plain_label("Your proposals for this agent"))
        right_layout.addWidget(self.mine_list, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.revise_button)
        buttons.addWidget(self.withdraw_button)
        right_layout.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        self.resize(1100, 700)
        self.mine: list[Proposal] = []

        drafting.setParent(self)  # it goes with the window
        drafting.draft_found.connect(self.on_draft_found)
        drafting.submitted.connect(self.on_submitted)
        drafting.waiting.connect(self.status_label.setText)
        drafting.refused.connect(self.on_refused)
        drafting.mine_listed.connect(self.on_mine_listed)
        drafting.withdrawn.connect(self.on_withdrawn)
        drafting.message.connect(self.on_message)
        self.editor.textChanged.connect(self.on_edited)
        self.title_edit.textChanged.connect(self.on_edited)
        self.note_edit.textChanged.connect(self.on_edited)
        self.submit_button.clicked.connect(self.on_submit_clicked)
        self.withdraw_button.clicked.connect(self.on_withdraw_clicked)
        self.revise_button.clicked.connect(self.on_revise_clicked)
        self.mine_list.currentRowChanged.connect(self._update_buttons)
        self._loading = True  # the draft is being looked up: edits are not kept yet
        self._update_buttons()
        drafting.load()
        drafting.list_mine()
        drafting.send_waiting()

    # ---------------------------------------------------------------- the draft

    def on_withdrawn(self, _proposal: object) -> None:
        self.drafting.list_mine()

    def on_draft_found(self, draft: ProposalDraft | None) -> None:
        if draft is not None:
            self.editor.setPlainText(draft.text)
            self.title_edit.setText(draft.title)
            self.note_edit.setText(draft.note)
            self.base_version = draft.base_version
            self.revising = draft.proposal_id
            self.status_label.setText(
                "Your proposal waiting to be sent is back: it is sent when the server is."
                if draft.submit
                else "Your unsent proposal is back as you left it."
            )
        self._loading = False
        self._update_buttons()

    def on_edited(self) -> None:
        self._update_buttons()
        if self._loading:
            return
        self.drafting.edited(
            self.editor.toPlainText(),
            self.base_version,
            self.title_edit.text(),
            self.note_edit.text(),
            self.revising,
        )

    def on_submit_clicked(self) -> None:
        title = self.title_edit.text().strip()
        if not title:
            self.status_label.setText("Give the proposal a title of 1 to 200 characters.")
            self.title_edit.setFocus()
            return
        self.status_label.setText("Sending the proposal…")
        self.submit_button.setEnabled(False)
        self.drafting.submit(
            self.editor.toPlainText(),
            self.base_version,
            title,
            self.note_edit.text(),
            self.revising,
        )

    # ---------------------------------------------------------------- outcomes

    def on_submitted(self, proposal: Proposal) -> None:
        verb = "revised" if proposal.revision > 1 else "sent"
        self.status_label.setText(
            f"Proposal {verb}: “{proposal.title}” (revision {proposal.revision}) waits for an "
            "operator's review."
        )
        self.revising = proposal.id
        self._update_buttons()
        self.drafting.list_mine()
        self.submitted.emit(proposal)

    def on_refused(self, why: str) -> None:
        self.status_label.setText(why)
        self._update_buttons()

    def on_message(self, message: UserMessage) -> None:
        self.status_label.setText(message.text)

    def on_mine_listed(self, proposals: list[Proposal]) -> None:
        self.mine = proposals
        self.mine_list.clear()
        for p in proposals:
            item = QListWidgetItem(f"{p.title} — {p.outcome}")
            item.setToolTip(f"Based on v{p.base_version}; revision {p.revision}")
            self.mine_list.addItem(item)
        self._update_buttons()

    def selected(self) -> Proposal | None:
        row = self.mine_list.currentRow()
        return self.mine[row] if 0 <= row < len(self.mine) else None

    def on_withdraw_clicked(self) -> None:
        chosen = self.selected()
        if chosen is not None and chosen.status == "open":
            self.drafting.withdraw(chosen.id)

    def on_revise_clicked(self) -> None:
        """Revise the chosen open proposal: the text in the editor becomes its next revision."""
        chosen = self.selected()
        if chosen is None or chosen.status != "open":
            return
        self.revising = chosen.id
        self.title_edit.setText(chosen.title)
        self.note_edit.setText(chosen.note)
        self.status_label.setText(
            f"Revising “{chosen.title}”: Submit sends the text above as its next revision."
        )
        self.on_edited()

    def _update_buttons(self, *_: object) -> None:
        self.submit_button.setEnabled(not self._loading and bool(self.title_edit.text().strip()))
        self.submit_button.setText("&Submit revision" if self.revising else "&Submit proposal")
        chosen = self.selected()
        is_open = chosen is not None and chosen.status == "open"
        self.withdraw_button.setEnabled(is_open)
        self.revise_button.setEnabled(is_open)
