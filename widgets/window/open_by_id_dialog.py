"""Open agent by id…: for a server that doesn't list its agents, the id (and guild) to open."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)


class OpenAgentByIdDialog(QDialog):
    """Asks for an agent's id; ``id_edit`` and ``open_button`` are kept for tests."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open agent by id")
        self.setAccessibleName("Open agent by id")
        hint = QLabel(
            "This server doesn't list its agents. Enter the id of the agent whose Task you "
            "want to open, such as a_scout, and its guild's id if you know it: Taskdesk then "
            "asks the server which embeds the agent can't reach."
        )
        hint.setWordWrap(True)
        self.id_edit = QLineEdit()
        self.id_edit.setAccessibleName("Agent id")
        self.id_edit.setPlaceholderText("a_scout")
        self.guild_edit = QLineEdit()
        self.guild_edit.setAccessibleName("Guild id, optional")
        self.guild_edit.setPlaceholderText("guild_ops (optional)")
        self.guild_edit.setToolTip(
            "The agent's guild: with it, Taskdesk asks the server which embeds the agent "
            "can't reach."
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.open_button = buttons.addButton("Open", QDialogButtonBox.ButtonRole.AcceptRole)
        self.open_button.setDefault(True)
        self.open_button.setEnabled(False)
        self.id_edit.textChanged.connect(
            lambda text: self.open_button.setEnabled(bool(text.strip()))
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Agent id", self.id_edit)
        form.addRow("Guild id", self.guild_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def agent_id(self) -> str:
        return self.id_edit.text().strip()

    def guild_id(self) -> str:
        return self.guild_edit.text().strip()
