"""A two-way toggle's halves: radio buttons drawn as joined segments.

Radio buttons, not checkable tool buttons, so a screen reader says "radio button, 1 of 2,
checked" and the arrow keys move between the halves as in any radio group.
"""

from __future__ import annotations

from PySide6.QtWidgets import QRadioButton, QWidget


class SegmentButton(QRadioButton):
    """One half of a toggle; the stylesheet draws it as a segment (``#segment``)."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setObjectName("segment")
