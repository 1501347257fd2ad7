"""Banners above the editor: unreachable embeds, conflict, offline, budget, draft, messages."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Literal

from PySide6.QtCore import QEvent, QModelIndex, QObject, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QAccessible, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.limits import EMBED_BUDGET_BYTES
from app.core.models import BrokenEmbed
from widgets.common.accessible_roles import announce, set_accessible_role
from widgets.common.icons import IconName, icon, show_icon
from widgets.common.provenance import exact_time, parse_time, relative_time
from widgets.preview.size_meters import format_kb

BannerKind = Literal["info", "warning", "danger"]


def _button(text: str) -> QPushButton:
    """A button with a mnemonic (``&``): Alt+letter presses it from anywhere in the window.
    The menus hold F, E, I, V and H, so banner buttons use other letters."""
    button = QPushButton(text)
    button.setAccessibleName(text.replace("&", ""))
    return button


class Banner(QFrame):
    """An icon, a line of text and buttons; its ``kind`` property picks the stylesheet colours.

    Screen readers meet it as an alert, announced when it appears and when its text changes
    while shown (``announced`` fires with each announcement).
    """

    announced = Signal(str)

    def __init__(
        self,
        icon_name: IconName,
        kind: BannerKind,
        parent: QWidget | None = None,
        *,
        buttons_below: bool = False,
    ) -> None:
        """``buttons_below``: the buttons in a row under the text, for a banner with a long
        text and many buttons (beside them the text was squeezed into four lines)."""
        super().__init__(parent)
        self.setObjectName("Banner")
        self.setProperty("kind", kind)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        set_accessible_role(self, QAccessible.Role.AlertMessage)
        self.icon_label = QLabel()
        show_icon(self.icon_label, icon_name, 18)
        self.icon_label.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.text_label = QLabel("")
        self.text_label.setWordWrap(True)
        self.text_label.setTextFormat(Qt.TextFormat.PlainText)
        self.text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body = QVBoxLayout()
        self.body.setSpacing(4)
        self.body.addWidget(self.text_label)
        self.buttons = QHBoxLayout()
        self.buttons.setSpacing(6)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 10, 6)
        row.addWidget(self.icon_label)
        row.addLayout(self.body, 1)
        self._buttons_below = buttons_below
        if buttons_below:
            self.buttons.addStretch(1)  # left-aligned under the text they act on
            self.body.addLayout(self.buttons)
        else:
            row.addLayout(self.buttons)

    def set_text(self, text: str) -> None:
        changed = text != self.text_label.text()
        self.text_label.setText(text)
        self.setAccessibleName(text)
        if changed and self.isVisible():
            self._announce()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not event.spontaneous():
            self._announce()

    def _announce(self) -> None:
        announce(self)
        self.announced.emit(self.text())

    def text(self) -> str:
        return self.text_label.text()

    def _add_button(self, text: str) -> QPushButton:
        button = _button(text)
        if self._buttons_below:
            self.buttons.insertWidget(self.buttons.count() - 1, button)  # before the stretch
        else:
            self.buttons.addWidget(button)
        return button


class UnreachableBanner(Banner):
    """Names each embed the agent can't reach: its path, its hop and the file holding it."""

    TITLE = "The Task embeds files this agent can't reach"
    EDITED_TITLE = "The Task as edited (unsaved) embeds files this agent can't reach"
    embed_activated = Signal(str)  # a display path the operator wants to find
    embed_located = Signal(object)  # the same, as its BrokenEmbed: where it is embedded

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("unreachable", "danger", parent)
        self.set_text(self.TITLE)
        self.list_model = QStringListModel(self)
        self.list_view = QListView()
        self.list_view.setModel(self.list_model)
        self.list_view.setAccessibleName("Unreachable embeds")
        self.list_view.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.list_view.setMaximumHeight(110)
        self.list_view.setObjectName("BannerList")
        self.body.addWidget(self.list_view)
        self._broken: tuple[BrokenEmbed, ...] = ()
        self.list_view.activated.connect(self._on_activated)
        self.list_view.doubleClicked.connect(self._on_activated)

    def set_broken(
        self,
        broken: Sequence[BrokenEmbed],
        task_path: str = "",
        unsaved: Collection[str] = frozenset(),
    ) -> None:
        """``unsaved``: the paths unreachable only in the edited text, labelled as such."""
        self._broken = tuple(broken)
        self.set_text(self.EDITED_TITLE if unsaved else self.TITLE)
        self.list_model.setStringList(
            [
                describe_broken(b, task_path) + (" — unsaved" if b.path in unsaved else "")
                for b in self._broken
            ]
        )
        rows = max(1, min(len(self._broken), 4))
        # The rows' own height (padding and focus ring included), so four show in full.
        row = max(self.list_view.sizeHintForRow(0), self.list_view.fontMetrics().height() + 6)
        self.list_view.setFixedHeight(rows * row + 2 * self.list_view.frameWidth() + 2)

    def lines(self) -> list[str]:
        return self.list_model.stringList()

    def _on_activated(self, index: QModelIndex) -> None:
        if index.isValid() and index.row() < len(self._broken):
            broken = self._broken[index.row()]
            self.embed_located.emit(broken)
            self.embed_activated.emit(broken.path)


def describe_broken(broken: BrokenEmbed, task_path: str = "") -> str:
    holder = "the Task" if not broken.in_path or broken.in_path == task_path else broken.in_path
    return f"{broken.path} — hop {broken.hop}, in {holder}"


class ConflictBanner(Banner):
    """Another save landed while the operator edited; their text is kept."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("conflict", "warning", parent)
        # Merge first and default: it keeps both people's work; the others pick a side.
        self.merge_button = self._add_button("Mer&ge")
        self.merge_button.setDefault(True)
        self.compare_button = self._add_button("C&ompare")
        self.keep_mine_button = self._add_button("&Keep mine")
        self.use_theirs_button = self._add_button("&Use theirs")

    def set_conflict(self, name: str, version: int, base_version: int | None = None) -> None:
        who = name or "Someone"
        based = f"; your edits are based on v{base_version}" if base_version else ""
        self.set_text(f"{who} saved v{version} while you were editing{based}. Your text is kept.")


class OfflineBanner(Banner):
    """The server can't be reached: the cached Task is shown and edits wait to be saved."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("offline", "info", parent)
        self.retry_button = self._add_button("&Retry")
        self.set_as_of(None)

    def set_as_of(self, when: str | datetime | None) -> None:
        moment = parse_time(when)
        shown = moment.astimezone().strftime("%-d %b %H:%M") if moment else "the last visit"
        self.set_text(
            f"Offline — showing the Task as of {shown}. "
            "Edits are kept and saved when the server is back."
        )
        self.setToolTip(exact_time(moment) if moment else "")


class BudgetBanner(Banner):
    """The embeds hold more note text than a run may carry."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("budget", "danger", parent)
        self.set_embedded_bytes(EMBED_BUDGET_BYTES + 1)

    def set_embedded_bytes(self, size: int, budget: int = EMBED_BUDGET_BYTES) -> None:
        self.set_text(
            f"This agent can't start a run: its embeds hold {format_kb(size)} of note text, "
            f"over the {format_kb(budget)} limit. Embed fewer or shorter notes."
        )


class DraftRecoveryBanner(Banner):
    """An unsaved draft survived; the operator recovers it or lets it go."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("draft", "info", parent)
        self.compare_button = self._add_button("C&ompare…")  # what Recover brings back
        self.compare_button.setToolTip("The draft beside the live Task, before you choose")
        self.recover_button = self._add_button("Re&cover")
        self.discard_button = self._add_button("&Discard")

    def set_draft(
        self,
        agent_name: str,
        base_version: int,
        saved_at: str | datetime | None,
        now: datetime | None = None,
    ) -> None:
        self.set_text(
            f"Unsaved edits to {agent_name}'s Task were kept "
            f"({relative_time(saved_at, now)}, based on v{base_version})."
        )
        self.setToolTip(exact_time(saved_at))


class MessageBar(Banner):
    """Transient information (fades after a while) or an error (stays until closed).
    Esc closes it while focus is in it or on the text it sits over (see ``close_on_escape``)."""

    closed = Signal()

    def __init__(self, parent: QWidget | None = None, *, info_timeout_ms: int = 6000) -> None:
        super().__init__("info", "info", parent)
        self.info_timeout_ms = info_timeout_ms
        self.close_button = QToolButton()
        self.close_button.setIcon(icon("close"))
        self.close_button.setToolTip("Close")
        self.close_button.setAccessibleName("Close")
        self.close_button.setMinimumSize(24, 24)  # WCAG 2.5.8: a target of 24 × 24 px
        self.buttons.addWidget(self.close_button)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.dismiss)
        self.close_button.clicked.connect(self.dismiss)
        self.hide()

    def show_message(self, text: str, kind: Literal["info", "error"] = "info") -> None:
        self.setProperty("kind", "danger" if kind == "error" else "info")
        show_icon(self.icon_label, "error" if kind == "error" else "info", 18)
        self.style().unpolish(self)
        self.style().polish(self)
        self.set_text(text)
        self.show()
        self._timer.stop()
        if kind == "info" and self.info_timeout_ms > 0:
            self._timer.start(self.info_timeout_ms)

    def dismiss(self) -> None:
        self._timer.stop()
        self.hide()
        self.closed.emit()

    def close_on_escape(self, host: QWidget) -> None:
        """Esc in ``host`` (the area the bar sits in) closes the bar while it shows.

        An event filter, not a shortcut: it sees Esc only when the focused widget left it
        unused (a find bar, a completer or a dialog keep theirs), and never makes another
        Esc shortcut ambiguous.
        """
        host.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            self.isVisible()
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
        ):
            self.dismiss()
            return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.dismiss()  # focus on the bar's own close button
            return
        super().keyPressEvent(event)
