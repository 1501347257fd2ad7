"""The provenance strip ("Last changed by Ann · 3 min ago · v7") and how times are worded."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from widgets.common.icons import show_icon
from widgets.common.plain_text import plain_label


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

    def set_provenance(
        self,
        by: str | None,
        when: str | datetime | None,
        version: int,
        now: datetime | None = None,
    ) -> None:
        self._by, self._when, self._version = by, when, version
        self.refresh(now)

    def refresh(self, now: datetime | None = None) -> None:
        """Reword the relative time (the window calls this on a slow timer)."""
        if self._version is None:
            self.label.clear()
            return
        parts = [f"Last changed by {self._by}" if self._by else "Last change not attributed"]
        if self._when is not None:
            parts.append(relative_time(self._when, now))
        parts.append(f"v{self._version}")
        text = " · ".join(parts)
        self.label.setText(text)
        self.label.setAccessibleName(text)
        self.setAccessibleName(text)
        tip = exact_time(self._when) if self._when is not None else ""
        self.label.setToolTip(tip)
        self.setToolTip(tip)

    def text(self) -> str:
        return self.label.text()
