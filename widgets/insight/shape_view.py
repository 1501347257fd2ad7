"""The Task shape check: a quiet list of advice; it never blocks a save."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget

from app.core.task_shape import PARTS, WORD_TARGET, ShapeCheck


def shape_headline(check: ShapeCheck) -> str:
    parts = [p.name for p in check.parts if p.line is not None]
    have = ", ".join(parts) if parts else "none of the parts"
    verdict = {"under": "under", "about": "about", "over": "over"}[check.word_verdict]
    words = f"{check.words} words, {verdict} the shape's {WORD_TARGET}"
    if check.in_shape:
        return f"In shape: an opening line, then {', '.join(PARTS)}; {words}."
    return f"Has {have}; {words}."


class ShapeView(QWidget):
    """The shape Prompt Studio writes (an opening line, then Inputs, Work, Outputs and Files,
    in headings and bullets, about 300 words) against this Task: one line of advice each."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ShapeView")
        self.headline = QLabel("The shape check shows once the Task is previewed.")
        self.headline.setTextFormat(Qt.TextFormat.PlainText)
        self.headline.setWordWrap(True)
        self.advice = QListWidget()
        self.advice.setAccessibleName("Shape advice")
        self.advice.setWordWrap(True)
        self.advice.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.advice.setResizeMode(QListWidget.ResizeMode.Adjust)
        hint = QLabel("Advice only: saving is never held back by it.")
        hint.setObjectName("hint")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.headline)
        layout.addWidget(self.advice, 1)
        layout.addWidget(hint)
        self.check: ShapeCheck | None = None

    def set_check(self, check: ShapeCheck) -> None:
        self.check = check
        self.headline.setText(shape_headline(check))
        self.advice.clear()
        self.advice.addItems(list(check.advice) or ["Nothing to change."])
