"""What the window says about a server: the sign-in message, and the line naming what it lacks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel

if TYPE_CHECKING:
    from app.connect.connection import Connection
    from app.connect.server_features import ServerFeatures
    from widgets.window.messages import Messages


class ServerFeaturesLabel(QLabel):
    """The status bar's line naming what the server lacks beyond the spec (hidden when
    it lacks nothing), always in view while connected to it."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("serverFeatures")
        self.hide()

    def show_features(self, features: ServerFeatures | None) -> None:
        line = features.status_line() if features is not None else ""
        self.setText(line)
        self.setToolTip(features.details() if features is not None else "")
        self.setAccessibleName(line)
        self.setVisible(bool(line))


def announce_connection(messages: Messages, connection: Connection) -> None:
    """Say where the window is signed in and as whom, or that it shows an offline copy."""
    where = "the local workspace" if connection.local else connection.url
    if connection.offline_as_of is not None:
        messages.warning(
            f"Can't reach {where}: showing what was last seen there. Edits you make are "
            "kept and saved when the server is back."
        )
    elif connection.features.me:
        messages.info(f"Signed in to {where} as {connection.me.name}.")
    else:
        messages.info(
            f"Signed in to {where} as an operator (assumed: the server doesn't say who you are)."
        )
    if connection.token_note is not None and not connection.agents:
        tell_token_note(messages, connection)  # else once the first Task is on screen


def tell_token_note(messages: Messages, connection: Connection) -> None:
    """The operator asked to keep the token and it could not be kept: say so once, where it
    stays in view (opening an agent clears the bar, so the window calls this after it)."""
    note, connection.token_note = connection.token_note, None
    if note is not None:
        messages.show(note)
