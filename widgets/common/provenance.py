"""The provenance strip ("Last changed by Ann · 3 min ago · v7") and how times are worded."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from app.core.last_change import last_change
from app.core.models import TaskDoc
from widgets.common.icons import show_icon
from widgets.common.plain_text import plain_label

FROM_REVISIONS_TIP = (
    "This server doesn't say who changed the Task last: the newest earlier version names "
    "who replaced it, which is who made this one."
)


def parse_time(value: str | datetime | None) -> datetime | None:
    """An ISO 8601 time from the server (``Z`` or an offset); None when absent or unreadable."""
    if value is None or isinstance(value, datetime):
        return value if value is None or value.tzinfo else value.replace(tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def relative_time(value: str | datetime | None, now: datetime | None = None) -> str:
    """``just now``, ``3 min ago``, ``2 h ago``, ``yesterday``, ``4 days ago`` or a date."""
    when = parse_time(value)
    if when is None:
        return "unknown time"
    seconds = ((now or datetime.now(UTC)) - when).total_seconds()
    if seconds < 45:
        return "just now"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min ago"
    hours = round(seconds / 3600)
    if hours < 24:
        return f"{hours} h ago"
    days = int(seconds // 86400)
    if days == 1:
        return "yesterday"
    if days < 14:
        return f"{days} days ago"
    return when.astimezone().strftime("%-d %b %Y")


def exact_time(value: str | datetime | None) -> str:
    """The full local time, for tooltips."""
    when = parse_time(value)
    if when is None:
        return "Time not recorded"
    return when.astimezone().strftime("%A %-d %B %Y, %H:%M:%S %Z")


class ProvenanceStrip(QWidget):
    """Who changed the Task last, when, and its live version; the exact time in the tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ProvenanceStrip")
        self.icon_label = QLabel()
        show_icon(self.icon_label, "history", 14)
        self.label = plain_label()  # who changed it: a name from a server
        self.label.setObjectName("hint")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.icon_label)
        layout.addWidget(self.label, 1)
        self._when: str | datetime | None = None
        self._by: str | None = None
        self._version: int | None = None
        self._seeded = False
        self._from_revisions = False
        self._proposal_author: str | None = None  # the live version came from a proposal
        self.refresh()  # nothing yet: no icon beside an empty line

    def show_task(self, doc: TaskDoc, now: datetime | None = None) -> None:
        """The live version's author and time, read from the revisions when the server
        gives no other source (and said so)."""
        change = last_change(doc)
        self._proposal_author = doc.proposal_author
        self.set_provenance(
            change.by, change.when, doc.version, now, change.from_revisions, seeded=doc.seeded
        )

    def set_provenance(
        self,
        by: str | None,
        when: str | datetime | None,
        version: int,
        now: datetime | None = None,
        from_revisions: bool = False,
        *,
        seeded: bool = False,
    ) -> None:
        """``seeded``: the text the workspace file seeded, which nobody has edited since."""
        self._by, self._when, self._version, self._seeded = by, when, version, seeded
        self._from_revisions = from_revisions
        self.refresh(now)

    def clear(self) -> None:
        """Another agent's Task is loading: nothing to say until it is in."""
        self._by = self._when = self._version = None
        self._seeded = self._from_revisions = False
        self._proposal_author = None
        self.refresh()

    def refresh(self, now: datetime | None = None) -> None:
        """Reword the relative time (the window calls this on a slow timer)."""
        self.icon_label.setVisible(self._version is not None)
        if self._version is None:
            self.label.clear()
            self.label.setToolTip("")
            self.setToolTip("")
            self.setAccessibleName("")
            return
        if self._seeded:  # seeding is no edit: nobody to name
            parts = ["From the workspace file"]
            if self._when is not None:
                parts.append(f"seeded {relative_time(self._when, now)}")
        else:
            parts = [f"Last changed by {self._by}" if self._by else "Last change not attributed"]
            if self._by and self._from_revisions:
                parts[0] += " (from the versions)"
            if self._when is not None:
                parts.append(relative_time(self._when, now))
            if self._proposal_author:
                parts.append(f"published from a proposal by {self._proposal_author}")
        parts.append(f"v{self._version}")
        text = " · ".join(parts)
        self.label.setText(text)
        self.label.setAccessibleName(text)
        self.setAccessibleName(text)
        tip = exact_time(self._when) if self._when is not None else ""
        if self._by and self._from_revisions:
            tip = f"{tip}\n{FROM_REVISIONS_TIP}" if tip else FROM_REVISIONS_TIP
        self.label.setToolTip(tip)
        self.setToolTip(tip)

    def text(self) -> str:
        return self.label.text()
