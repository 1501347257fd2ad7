"""Text from a server, a workspace file or a note, shown so that no markup in it ever acts.

A QLabel or QMessageBox guesses rich text from the text itself (AutoText), and a tooltip
does the same: a name such as ``<a href="file:///etc/passwd">…</a>`` would become a link one
click opens, ``<img src=…>`` would load a local file. Labels that show such text are made
here, plain; tooltips are escaped into inert rich text (escaping alone would make Qt guess
plain text and show the entities).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import Qt  # QtGui's Qt adds mightBeRichText to QtCore's
from PySide6.QtWidgets import QLabel, QWidget

if TYPE_CHECKING:  # loaded with the first message box: its enums are not needed before
    from PySide6.QtWidgets import QMessageBox


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A label that draws ``text`` (and any text set later) exactly as written."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


def plain_message_box(
    icon: QMessageBox.Icon, title: str, text: str, parent: QWidget | None = None
) -> QMessageBox:
    """A message box whose text (a server's error, a path) is drawn as written."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(parent)
    box.setIcon(icon)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    return box


def inert_tooltip(text: str) -> str:
    """``text`` as a tooltip shows it: unchanged when Qt would take it as plain, otherwise
    escaped inside a paragraph that keeps its line breaks."""
    if not Qt.mightBeRichText(text):
        return text
    import html  # with html.entities ~1.4 ms: not on the way to the first paint

    return f'<p style="white-space:pre-wrap">{html.escape(text)}</p>'
