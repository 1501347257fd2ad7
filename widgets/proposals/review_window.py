"""An operator's review of a proposal, beside the live Task: hunk by hunk, then publish or decline.

The window observes a ``ReviewDesk`` and sends it intents; it holds no rules of its own. The
compare views get models built off the GUI thread (the desk's), so a 256 KB proposal never
holds the window.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.diff_model import SideBySide
from app.core.proposal_review import Decision, Hunk
from app.core.user_message import UserMessage
from app.desk.proposal_review_desk import ReviewData, ReviewDesk, ReviewOutcome
from widgets.common.plain_text import plain_label
from widgets.proposals.hunk_list_model import HunkListModel
from widgets.proposals.review_dialogs import DeclineDialog, HunkEditDialog
from widgets.versions.diff_view import DiffView

HUNK_BATCH = 24  # hunks measured per event-loop turn (a screenful and more)


def _changes(count: int) -> str:
    return "1 change" if count == 1 else f"{count} changes"


def base_line(data: ReviewData) -> str:
    """ "By Mia · revision 2 · based on v12, live is v13"."""
    p = data.proposal
    where = (
        f"based on v{p.base_version}, live is v{data.task.version}"
        if p.base_version != data.task.version
        else f"based on v{p.base_version}, the live version"
    )
    return f"By {p.author_name} · revision {p.revision} · {where}"


def effect_lines(outcome: ReviewOutcome, shape: tuple[str, ...] | None = None) -> str:
    """The budget and References deltas and the shape check on the result, a line each."""
    effect = outcome.effect
    lines = [effect.budget_line]
    if effect.over_budget_after and not effect.over_budget_before:
        lines.append("Publishing this puts the agent over the embed budget: its runs would fail.")
    if effect.newly_unreachable:
        lines.append("New unreachable embeds: " + ", ".join(effect.newly_unreachable))
    if effect.no_longer_unreachable:
        lines.append(
            "Embeds that reach their files now: " + ", ".join(effect.no_longer_unreachable)
        )
    if shape is None:
        lines.append("Shape: checking…")
    elif shape:
        lines.append("Shape: " + " ".join(shape))
    else:
        lines.append("Shape: in shape.")
    return "\n".join(lines)


class ReviewWindow(QWidget):
    """One proposal's review; built around a desk that has been (or will be) opened."""

    finished = Signal(str)  # what happened, in one sentence (published, declined, closed)

    def __init__(self, desk: ReviewDesk, agent_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("ProposalReview")
        self.setWindowTitle(f"Review a proposal for {agent_name}")
        self.desk = desk
        self.title_label = plain_label("Loading the proposal…")
        self.title_label.setObjectName("ProposalTitle")
        title_font = self.title_label.font()
        title_font.setBold(True)
        self.title_label.setFont(title_font)
        self.meta_label = plain_label("")
        self.note_label = plain_label("")
        self.note_label.setWordWrap(True)
        self.notice_label = plain_label("")
        self.notice_label.setWordWrap(True)
        self.notice_label.setObjectName("ProposalNotice")

        self.hunks = HunkListModel()
        self.hunk_list = QListView()
        self.hunk_list.setAccessibleName("Changes to decide")
        self.hunk_list.setModel(self.hunks)
        self.hunk_list.setWordWrap(True)
        # Wrapped rows are measured a batch per event-loop turn, not all 256 KB's hunks in one.
        self.hunk_list.setLayoutMode(QListView.LayoutMode.Batched)
        self.hunk_list.setBatchSize(HUNK_BATCH)
        self.hunk_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.hunk_list.selectionModel().currentChanged.connect(self._on_hunk_changed)
        self.accept_button = QPushButton("&Accept")
        self.reject_button = QPushButton("&Reject")
        self.edit_button = QPushButton("&Edit…")
        self.undecide_button = QPushButton("&Undecide")
        decide = QHBoxLayout()
        for button in (self.accept_button, self.reject_button, self.edit_button):
            decide.addWidget(button)
        decide.addWidget(self.undecide_button)
        self.unplaced_view = QPlainTextEdit()
        self.unplaced_view.setReadOnly(True)
        self.unplaced_view.setAccessibleName("The change that couldn't be placed")
        self.unplaced_view.hide()
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(plain_label("Changes (base → proposal), each to decide:"))
        left_layout.addWidget(self.hunk_list, 2)
        left_layout.addLayout(decide)
        left_layout.addWidget(self.unplaced_view, 1)

        self.raw_view = DiffView()
        self.result_view = DiffView()
        self.effect_view = DiffView()
        self.since_view = DiffView()
        self.effect_label = plain_label("")
        self.effect_label.setWordWrap(True)
        effect_page = QWidget()
        effect_layout = QVBoxLayout(effect_page)
        effect_layout.addWidget(self.effect_label)
        effect_layout.addWidget(self.effect_view, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.raw_view, "Proposal")
        self.tabs.addTab(self.result_view, "Result on the live Task")
        self.tabs.addTab(effect_page, "As the agent gets it")
        self.since_index = self.tabs.addTab(self.since_view, "Changes since you last looked")
        self.tabs.setTabVisible(self.since_index, False)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(1, 3)

        self.publish_button = QPushButton("&Publish")
        self.publish_button.setToolTip("Save the accepted result as the Task, as a normal save")
        self.decline_button = QPushButton("&Decline…")
        self.status_label = plain_label("")
        self.status_label.setWordWrap(True)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status_label, 1)
        bottom.addWidget(self.decline_button)
        bottom.addWidget(self.publish_button)

        layout = QVBoxLayout(self)
        for label in (self.title_label, self.meta_label, self.note_label, self.notice_label):
            layout.addWidget(label)
        layout.addWidget(splitter, 1)
        layout.addLayout(bottom)
        self.resize(1200, 760)

        # A view not on screen takes its model when its tab is shown: one 256 KB model laid
        # out per event-loop turn, not three.
        self._pending: dict[DiffView, tuple[SideBySide, str, str, str, str]] = {}
        self.tabs.currentChanged.connect(self._show_pending)
        self._listing: ReviewData | None = None  # loaded, its hunks not listed yet
        self._listing_timer = QTimer(self)
        self._listing_timer.setSingleShot(True)
        self._listing_timer.setInterval(0)
        self._listing_timer.timeout.connect(self._on_list_hunks)
        self.edit_dialog: HunkEditDialog | None = None
        self.decline_dialog: DeclineDialog | None = None
        # Connected to the desk, a child of this window: it goes when the window goes.
        desk.setParent(self)
        desk.loaded.connect(self.on_loaded)
        desk.outcome_changed.connect(self.on_outcome)
        desk.shape_checked.connect(self.on_shape_checked)
        desk.message.connect(self.on_message)
        desk.busy_changed.connect(self._update_buttons)
        desk.published.connect(self.on_published)
        desk.declined.connect(self.on_declined)
        desk.closed_elsewhere.connect(self.on_closed_elsewhere)
        self.accept_button.clicked.connect(lambda: self._decide(Decision.ACCEPT))
        self.reject_button.clicked.connect(lambda: self._decide(Decision.REJECT))
        self.undecide_button.clicked.connect(lambda: self._decide(None))
        self.edit_button.clicked.connect(self.on_edit_clicked)
        self.publish_button.clicked.connect(self.on_publish_clicked)
        self.decline_button.clicked.connect(self.on_decline_clicked)
        self.raw_view.current_change_changed.connect(self._select_hunk)
        self._update_buttons()

    # ---------------------------------------------------------------- the desk's outcomes

    def on_loaded(self, data: ReviewData) -> None:
        p = data.proposal
        self.title_label.setText(p.title)
        self.meta_label.setText(base_line(data))
        self.note_label.setText(p.note)
        self.note_label.setVisible(bool(p.note))
        notices = []
        if not data.base_kept:
            notices.append(
                f"v{p.base_version}, the version this proposal is based on, is no longer kept: "
                "its changes are shown against the live Task."
            )
        unplaced = data.basis.unplaced()
        if data.basis.moved:
            notices.append(
                f"The Task moved since v{p.base_version}: the proposal is rebased onto "
                f"v{data.task.version}. "
                + (
                    f"{_changes(len(unplaced))} couldn't be placed: the live Task changed the "
                    "same lines. Accepting one puts the proposal's text there over live's; "
                    "rejecting it keeps live's."
                    if unplaced
                    else "Every change placed cleanly."
                )
            )
        self.notice_label.setText(" ".join(notices))
        self.notice_label.setVisible(bool(notices))
        self._set_model(
            self.raw_view,
            data.basis.raw,
            data.basis.base,
            data.basis.proposal,
            f"v{data.basis.base_version} (base)",
            f"{p.author_name}'s proposal",
        )
        if data.since is not None and data.since_diff is not None:
            revision, text = data.since
            self._set_model(
                self.since_view,
                data.since_diff,
                text,
                p.content,
                f"revision {revision}",
                f"revision {p.revision}",
            )
        self.tabs.setTabVisible(self.since_index, data.since is not None)
        # The hunks are listed, the first made current, on the next turn: painting the list
        # and moving the compare to that hunk would double this turn's work and its paint.
        self._listing = data
        self._listing_timer.start()

    def _on_list_hunks(self) -> None:
        data, self._listing = self._listing, None
        if data is None:
            return
        self.hunks.set_hunks(data.basis.hunks, data.decisions)
        if data.basis.hunks:
            self.hunk_list.setCurrentIndex(self.hunks.index(0))
        self._show_unplaced()
        self._update_buttons()

    def on_outcome(self, outcome: ReviewOutcome) -> None:
        data = self.desk.data
        assert data is not None
        self._on_list_hunks()  # listed before the outcome, however the turns fell
        self.hunks.decisions_changed(data.decisions)
        self._set_model(
            self.result_view,
            outcome.result_diff,
            data.basis.live,
            outcome.result.text,
            f"live v{data.basis.live_version}",
            "what Publish saves",
        )
        self._set_model(
            self.effect_view,
            outcome.effect_diff,
            outcome.effect.before,
            outcome.effect.after,
            "the agent gets now",
            "after publishing",
        )
        self.effect_label.setText(effect_lines(outcome, self.desk.shape))
        left = outcome.result.undecided
        self.status_label.setText(
            f"{_changes(left)} still to decide before publishing."
            if left
            else "Every change is decided."
        )
        self._update_buttons()

    def on_shape_checked(self, advice: tuple[str, ...]) -> None:
        if self.desk.outcome is not None:
            self.effect_label.setText(effect_lines(self.desk.outcome, advice))

    def on_message(self, message: UserMessage) -> None:
        self.status_label.setText(message.text)

    def on_published(self, version: int) -> None:
        self._close_with(f"Published as v{version}.")

    def on_declined(self) -> None:
        self._close_with("Declined; the author sees your reason.")

    def on_closed_elsewhere(self, why: str) -> None:
        self.status_label.setText(why)
        self.publish_button.setEnabled(False)
        self.decline_button.setEnabled(False)
        self.finished.emit(why)

    def _close_with(self, said: str) -> None:
        self.status_label.setText(said)
        self.finished.emit(said)
        self.close()

    # ---------------------------------------------------------------- intents

    def current_hunk(self) -> Hunk | None:
        row = self.hunk_list.currentIndex().row()
        return self.hunks.hunks[row] if 0 <= row < len(self.hunks.hunks) else None

    def _decide(self, decision: Decision | None, text: str = "") -> None:
        hunk = self.current_hunk()
        if hunk is not None:
            self.desk.decide(hunk.key, decision, text)
            self._update_buttons()
            self._next_undecided(hunk)

    def _next_undecided(self, after: Hunk) -> None:
        data = self.desk.data
        if data is None:
            return
        later = [h for h in data.basis.undecided(data.decisions) if h.index > after.index]
        if later:
            self.hunk_list.setCurrentIndex(self.hunks.index(later[0].index))

    def on_edit_clicked(self) -> None:
        hunk = self.current_hunk()
        data = self.desk.data
        if hunk is None or data is None:
            return
        earlier = data.decisions.get(hunk.key)
        text = earlier.text if earlier and earlier.decision is Decision.EDIT else hunk.new
        self.edit_dialog = HunkEditDialog(hunk.index + 1, text, self)
        self.edit_dialog.accepted.connect(
            lambda: self._decide(Decision.EDIT, self.edit_dialog.text() if self.edit_dialog else "")
        )
        self.edit_dialog.open()

    def on_publish_clicked(self) -> None:
        self.desk.publish()
        self._update_buttons()

    def on_decline_clicked(self) -> None:
        data = self.desk.data
        if data is None:
            return
        self.decline_dialog = DeclineDialog(data.proposal.title, self)
        self.decline_dialog.accepted.connect(
            lambda: self.desk.decline(
                self.decline_dialog.reason_text() if self.decline_dialog else ""
            )
        )
        self.decline_dialog.open()

    # ---------------------------------------------------------------- showing

    def _set_model(
        self, view: DiffView, model: SideBySide, old: str, new: str, left: str, right: str
    ) -> None:
        self._pending[view] = (model, old, new, left, right)
        self._show_pending()

    def _show_pending(self, *_: object) -> None:
        page = self.tabs.currentWidget()
        for view in [v for v in self._pending if v is page or v.parent() is page]:
            view.set_model(*self._pending.pop(view))

    def shown_view_models(self) -> list[DiffView]:
        """The compare views whose newest model is set (the others wait for their tab)."""
        return [v for v in (self.raw_view, self.result_view, self.effect_view, self.since_view)
                if v not in self._pending]  # fmt: skip

    def _select_hunk(self, index: int) -> None:
        if 0 <= index < len(self.hunks.hunks):
            self.hunk_list.selectionModel().setCurrentIndex(
                self.hunks.index(index), QItemSelectionModel.SelectionFlag.ClearAndSelect
            )

    def _on_hunk_changed(self) -> None:
        hunk = self.current_hunk()
        if hunk is not None and hunk.index != self.raw_view.current_change_index:
            self.raw_view.go_to_change(hunk.index)
        self._show_unplaced()
        self._update_buttons()

    def _show_unplaced(self) -> None:
        hunk = self.current_hunk()
        if hunk is None or hunk.placeable:
            self.unplaced_view.hide()
            return
        self.unplaced_view.setPlainText(
            f"Couldn't place this change: the live Task changed these lines too.\n\n"
            f"The proposal has:\n{hunk.new or '(these lines removed)'}\n\n"
            f"The live Task has:\n{hunk.live_text or '(nothing here)'}"
        )
        self.unplaced_view.show()

    def _update_buttons(self, *_: object) -> None:
        loaded = self.desk.data is not None and not self.desk.busy
        has_hunk = loaded and self.current_hunk() is not None
        for button in (self.accept_button, self.reject_button, self.edit_button):
            button.setEnabled(has_hunk)
        self.undecide_button.setEnabled(has_hunk)
        self.publish_button.setEnabled(self.desk.can_publish())
        self.decline_button.setEnabled(loaded)
