"""The one place that names Taskdesk's icons (qtawesome icon fonts, crisp at any scale)."""

from __future__ import annotations

from typing import Literal

import qtawesome as qta
from PySide6.QtGui import QIcon

IconName = Literal[
    "warning",
    "info",
    "error",
    "offline",
    "budget",
    "draft",
    "conflict",
    "compare",
    "restore",
    "retry",
    "find",
    "previous",
    "next",
    "close",
    "note",
    "collection",
    "history",
    "unreachable",
    "agent",
    "person",
    "edit",
    "preview",
    "side_by_side",
    "more",
]

_GLYPHS: dict[str, str] = {
    "warning": "fa6s.triangle-exclamation",
    "info": "fa6s.circle-info",
    "error": "fa6s.circle-xmark",
    "offline": "fa6s.plug-circle-xmark",
    "budget": "fa6s.scale-unbalanced",
    "draft": "fa6s.life-ring",
    "conflict": "fa6s.code-compare",
    "compare": "fa6s.code-compare",
    "restore": "fa6s.rotate-left",
    "retry": "fa6s.arrow-rotate-right",
    "find": "fa6s.magnifying-glass",
    "previous": "fa6s.chevron-up",
    "next": "fa6s.chevron-down",
    "close": "fa6s.xmark",
    "note": "fa6s.file-lines",
    "collection": "fa6s.table",
    "history": "fa6s.clock-rotate-left",
    "unreachable": "fa6s.link-slash",
    "agent": "fa6s.robot",
    "person": "fa6s.user",
    "edit": "fa6s.pen",
    "preview": "fa6s.eye",
    "side_by_side": "fa6s.table-columns",
    "more": "fa6s.angles-right",
}

# Calm colours that read on the light stylesheet; warnings and errors stand out, the rest don't.
_COLOURS: dict[str, str] = {
    "warning": "#b26a00",
    "budget": "#b26a00",
    "conflict": "#b26a00",
    "draft": "#2f6fb3",
    "offline": "#6b7280",
    "error": "#c0392b",
    "unreachable": "#c0392b",
    "info": "#2f6fb3",
}
_DEFAULT_COLOUR = "#4b5563"


def icon(name: IconName, colour: str | None = None) -> QIcon:
    """The icon for ``name``, tinted with its usual colour unless ``colour`` is given."""
    return qta.icon(_GLYPHS[name], color=colour or _COLOURS.get(name, _DEFAULT_COLOUR))
