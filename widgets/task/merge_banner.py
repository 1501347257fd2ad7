"""The banner over a merge in the editor: what was combined, and the ways out of a conflict."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton, QWidget

from app.core.merge_resolution import Resolution
from widgets.window.banners import Banner


def merge_summary(version: int, who: str, mine: int, theirs: int, open_conflicts: int) -> str:
    """ "Merged with v5 by Bob: 2 of your changes (blue), 1 of theirs (amber), 1 conflict left
    (red)…" — the colours are named so the marks need no legend."""

    def count(n: int, what: str) -> str:
        return f"{n} {what}{'' if n == 1 else 's'}"

    parts = [
        f"{count(mine, 'change')} of yours (blue)" if mine else "",
        f"{count(theirs, 'change')} of theirs (amber)" if theirs else "",
    ]
    combined = ", ".join(p for p in parts if p) or "no changes to combine"
    head = f"Merged with v{version} by {who or 'someone'}: {combined}."
    if open_conflicts:
        return (
            f"{head} {count(open_conflicts, 'conflict')} left (red): take mine, theirs or both, "
            "or edit it by hand and delete its marker lines. Then save."
        )
    return f"{head} Check the text, then save: nothing is published until you do."


class MergeBanner(Banner):
    """Shown while a merge waits in the editor; its buttons act on the current conflict."""

    def __init__(self, parent: QWidget | None = None) -> None:
        # The buttons under the text: beside six buttons the text took four lines.
        super().__init__("conflict", "info", parent, buttons_below=True)
        self.next_button = self._add_button("Next conflict")
        self.take_buttons: dict[Resolution, QPushButton] = {
            Resolution.MINE: self._add_button("Take mine"),
            Resolution.THEIRS: self._add_button("Take theirs"),
            Resolution.MINE_THEN_THEIRS: self._add_button("Both, mine first"),
            Resolution.THEIRS_THEN_MINE: self._add_button("Both, theirs first"),
        }
        # Back to the question, with my text as it was: nothing is decided until a save.
        self.cancel_button = self._add_button("Cancel merge")

    def set_open_conflicts(self, count: int) -> None:
        for button in (self.next_button, *self.take_buttons.values()):
            button.setEnabled(count > 0)
