"""The agent inspector's header: name, guild, live version and the unreachable-embed mark."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from widgets.common.icons import show_icon
from widgets.common.plain_text import plain_label
from widgets.window.agent_list_model import UNSAVED_MARK

UNREACHABLE_MARK = "Not reachable from the Task"


class AgentHeader(QWidget):
    """Shows what it is given; whether embeds are broken is decided elsewhere."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("AgentHeader")
        self.icon_label = QLabel()
        show_icon(self.icon_label, "agent", 28)
        self.name_label = plain_label()  # names come from a server
        self.name_label.setObjectName("title")
        self.detail_label = plain_label()
        self.detail_label.setObjectName("hint")
        self.presence_label = plain_label()  # people's names come from a server
        self.presence_label.setObjectName("presence")
        self.presence_label.hide()
        self.unsaved_label = QLabel(f"{UNSAVED_MARK} Unsaved changes")
        self.unsaved_label.setObjectName("unsavedMark")
        self.unsaved_label.setAccessibleName("Unsaved changes")
        self.unsaved_label.hide()
        self.unreachable_icon = QLabel()
        show_icon(self.unreachable_icon, "unreachable", 14)
        self.unreachable_label = QLabel(UNREACHABLE_MARK)
        self.unreachable_label.setObjectName("danger")
        self.unreachable_label.setAccessibleName(UNREACHABLE_MARK)

        texts = QVBoxLayout()
        texts.setSpacing(0)
        texts.addWidget(self.name_label)
        texts.addWidget(self.detail_label)
        texts.addWidget(self.presence_label)
        mark = QHBoxLayout()
        mark.addWidget(self.unsaved_label)
        mark.addWidget(self.unreachable_icon)
        mark.addWidget(self.unreachable_label)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.icon_label)
        layout.addLayout(texts, 1)
        layout.addLayout(mark)
        self.set_unreachable(False)

    def set_agent(self, name: str, guild: str, version: int | None) -> None:
        self.name_label.setText(name)
        self.name_label.setAccessibleName(name)
        detail = guild if version is None else f"{guild} · Task v{version}"
        self.detail_label.setText(detail)
        self.detail_label.setAccessibleName(detail)
        self.setAccessibleName(f"{name}, {detail}")

    def set_presence(self, text: str) -> None:
        """Who else has this Task open ("Bo is editing this Task (since 2 min)"); "" hides it."""
        self.presence_label.setText(text)
        self.presence_label.setAccessibleName(text)
        self.presence_label.setVisible(bool(text))

    def set_unsaved(self, unsaved: bool) -> None:
        """The • mark beside the name while the Task has edits the server doesn't have."""
        self.unsaved_label.setVisible(unsaved)

    def set_unreachable(self, broken: bool, names: list[str] | None = None) -> None:
        """Show the mark when the agent's Task has embeds it can't reach (``names`` in the tip)."""
        self.unreachable_icon.setVisible(broken)
        self.unreachable_label.setVisible(broken)
        tip = "\n".join(names or []) if broken else ""
        self.unreachable_label.setToolTip(tip)

    def is_marked_unreachable(self) -> bool:
        return not self.unreachable_label.isHidden()
