"""Taskdesk's light and dark looks: every colour of the stylesheet, editor and painted views."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal, NamedTuple

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from app.core.resource_files import read_text, resource

ThemeName = Literal["light", "dark"]

LookChoice = Literal["system", "light", "dark"]
LOOK_CHOICES: tuple[LookChoice, ...] = ("system", "light", "dark")
SCHEME_VARIABLE = "TASKDESK_COLOUR_SCHEME"
"""``light`` or ``dark`` overrides the system's colour scheme (screenshots, a desktop that
doesn't tell Qt its scheme)."""


class Theme(NamedTuple):
    """One look. Text colours reach 4.5:1 on the backgrounds they are used on; focus rings,
    marks and graphics 3:1 (tests/widgets/test_contrast.py checks every pair).

    A NamedTuple, not a frozen dataclass: its 75 fields made the dataclass ~3 ms of work
    before the first paint (generated and compiled methods), the tuple ~0.6 ms."""

    name: ThemeName
    # surfaces
    window: str
    base: str
    panel: str
    line: str
    field_border: str
    hover: str
    pressed: str
    selected: str
    selection: str
    disabled: str
    # text
    ink: str
    muted: str
    disabled_ink: str
    accent_ink: str
    warning_ink: str
    danger_ink: str
    tooltip: str
    tooltip_ink: str
    # controls and marks
    accent: str
    accent_hover: str
    on_accent: str
    focus: str
    default_focus: str
    on_tag: str
    tag_plain: str
    tag_org: str
    tag_guild: str
    tag_agent: str
    warning_mark: str
    danger_mark: str
    meter_fill: str
    meter_track: str
    meter_edge: str
    scroll_track: str
    scroll_thumb: str
    scroll_thumb_hover: str
    # banners
    info_tint: str
    info_border: str
    warning_tint: str
    warning_border: str
    danger_tint: str
    danger_border: str
    # editor highlighting (text on the editor's base, or on its own background)
    md_heading: str
    md_code: str
    md_code_bg: str
    md_list: str
    md_link: str
    embed_plain: str
    embed_plain_bg: str
    embed_note: str
    embed_note_bg: str
    embed_table: str
    embed_table_bg: str
    embed_unreachable: str
    embed_unreachable_bg: str
    # the preview
    note_hop1: str
    note_hop2: str
    table_grid: str
    table_head: str
    # comparing versions
    diff_old_line: str
    diff_new_line: str
    diff_old_word: str
    diff_new_word: str
    diff_filler: str
    diff_hatch: str
    diff_old_bar: str
    diff_new_bar: str
    diff_fold: str
    diff_number: str
    diff_replace: str
    diff_delete: str
    diff_insert: str
    diff_link_replace: str
    diff_link_delete: str
    diff_link_insert: str

    @property
    def dark(self) -> bool:
        return self.name == "dark"

    def colour(self, token: str) -> QColor:
        return QColor(getattr(self, token))

    def tokens(self) -> dict[str, str]:
        return {
            name: value for name, value in zip(self._fields, self, strict=True) if name != "name"
        }


LIGHT = Theme(
    name="light",
    window="#f7f8fa",
    base="#ffffff",
    panel="#f3f4f6",
    line="#e2e5ea",
    field_border="#cfd4dc",
    hover="#eef1f5",
    pressed="#e3e8ef",
    selected="#e3edfa",
    selection="#cfe0f5",
    disabled="#f3f4f6",
    ink="#1f2937",
    muted="#4b5563",
    disabled_ink="#8a919c",
    accent_ink="#1d4f91",
    warning_ink="#8a5200",
    danger_ink="#a32020",
    tooltip="#1f2937",
    tooltip_ink="#f9fafb",
    accent="#2f6fb3",
    accent_hover="#285f9a",
    on_accent="#ffffff",
    focus="#1d5fa8",
    default_focus="#111827",
    on_tag="#ffffff",
    tag_plain="#4b5563",
    tag_org="#6b4fa0",
    tag_guild="#2f6fb3",
    tag_agent="#1e6b45",
    warning_mark="#b26a00",
    danger_mark="#c0392b",
    meter_fill="#2f6fb3",
    meter_track="#e5e7eb",
    meter_edge="#7b8494",
    scroll_track="#f1f3f6",
    scroll_thumb="#7b8494",
    scroll_thumb_hover="#5f6877",
    info_tint="#eaf2fb",
    info_border="#c9dcf2",
    warning_tint="#fff6e5",
    warning_border="#f1d9a6",
    danger_tint="#fdecec",
    danger_border="#f3c2c2",
    md_heading="#1f3a5f",
    md_code="#8a3b12",
    md_code_bg="#f4f1ec",
    md_list="#2f6fb3",
    md_link="#2f6fb3",
    embed_plain="#4b5563",
    embed_plain_bg="#eef0f3",
    embed_note="#1d4f91",
    embed_note_bg="#e3edfa",
    embed_table="#1e6b45",
    embed_table_bg="#e2f3ea",
    embed_unreachable="#a32020",
    embed_unreachable_bg="#fbe7e7",
    note_hop1="#eef3fa",
    note_hop2="#f6f2e8",
    table_grid="#b8c0cc",
    table_head="#eef1f5",
    diff_old_line="#fde8e8",
    diff_new_line="#e3f5e3",
    diff_old_word="#f6b1b1",
    diff_new_word="#a9dfa9",
    diff_filler="#f1f2f4",
    diff_hatch="#d9dde3",
    diff_old_bar="#c0392b",
    diff_new_bar="#2e8b57",
    diff_fold="#eef2f7",
    diff_number="#6b7280",
    diff_replace="#dbe3ee",
    diff_delete="#f1dedd",
    diff_insert="#d9ebe1",
    diff_link_replace="#8fb3de",
    diff_link_delete="#e0a19a",
    diff_link_insert="#8fcaa5",
)

DARK = Theme(
    name="dark",
    window="#1b1e23",
    base="#23272e",
    panel="#2a2f37",
    line="#3a4049",
    field_border="#505864",
    hover="#2f353e",
    pressed="#38404b",
    selected="#26415f",
    selection="#2f5580",
    disabled="#2a2e35",
    ink="#e6e9ee",
    muted="#aeb6c2",
    disabled_ink="#7c8490",
    accent_ink="#a8cdfc",
    warning_ink="#f2b65e",
    danger_ink="#ff9b91",
    tooltip="#383e48",  # a dark box in the dark look, not a light one glaring out of it
    tooltip_ink="#e6e9ee",
    accent="#2f6fb3",
    accent_hover="#285f9a",
    on_accent="#ffffff",
    focus="#7db5ff",
    default_focus="#ffffff",
    on_tag="#ffffff",
    tag_plain="#4b5563",
    tag_org="#6b4fa0",
    tag_guild="#2f6fb3",
    tag_agent="#1e6b45",
    warning_mark="#e0a030",
    danger_mark="#ef6f62",
    meter_fill="#5b9be6",
    meter_track="#2f343c",
    meter_edge="#8a93a0",
    scroll_track="#23272e",
    scroll_thumb="#78808d",
    scroll_thumb_hover="#959daa",
    info_tint="#1e2d40",
    info_border="#345277",
    warning_tint="#33291a",
    warning_border="#6e5526",
    danger_tint="#3a2023",
    danger_border="#74363b",
    md_heading="#a8cdfc",
    md_code="#f3a878",
    md_code_bg="#2e2a27",
    md_list="#7db5ff",
    md_link="#7db5ff",
    embed_plain="#c9cfd8",
    embed_plain_bg="#323841",
    embed_note="#a8cdfc",
    embed_note_bg="#233650",
    embed_table="#8fdcae",
    embed_table_bg="#1f3a2d",
    embed_unreachable="#ff9b91",
    embed_unreachable_bg="#412326",
    note_hop1="#1e2a3a",
    note_hop2="#2e2a22",
    table_grid="#59616d",
    table_head="#2f353e",
    diff_old_line="#3d2326",
    diff_new_line="#1f3526",
    diff_old_word="#7a3036",
    diff_new_word="#2e6a3f",
    diff_filler="#2a2e35",
    diff_hatch="#3e4550",
    diff_old_bar="#ef6f62",
    diff_new_bar="#5cc98a",
    diff_fold="#28303b",
    diff_number="#98a1ae",
    diff_replace="#2c3a4d",
    diff_delete="#43292b",
    diff_insert="#24402f",
    diff_link_replace="#4f78a8",
    diff_link_delete="#9a5a55",
    diff_link_insert="#4f9068",
)

THEMES: dict[ThemeName, Theme] = {"light": LIGHT, "dark": DARK}

_TOKEN = re.compile(r"@([a-z_]+)")


def stylesheet(theme: Theme) -> str:
    """resources/style.qss with its colour tokens filled from ``theme``."""
    tokens = theme.tokens()
    # Images by file path (Qt's stylesheet reads files only); forward slashes on every system.
    tokens["check_mark"] = Path(str(resource("check-mark.svg"))).as_posix()

    def fill(match: re.Match[str]) -> str:
        return tokens[match.group(1)]  # an unknown token is a bug: KeyError, loudly

    return _TOKEN.sub(fill, read_text("style.qss"))


def theme_of(palette: QPalette) -> Theme:
    """The theme a palette was made from (a dark window means the dark theme)."""
    return DARK if palette.color(QPalette.ColorRole.Window).lightness() < 128 else LIGHT


def current_theme() -> Theme:
    """The theme the application shows now; light before one is applied (tests)."""
    return theme_of(QGuiApplication.palette())


def scheme_theme(scheme: Qt.ColorScheme, override: str | None = None) -> Theme:
    """The theme for the system's colour scheme, unless ``override`` names one."""
    if override in THEMES:
        return THEMES[override]
    return DARK if scheme == Qt.ColorScheme.Dark else LIGHT


def palette(theme: Theme) -> QPalette:
    """A palette for what the stylesheet doesn't draw (menus, dialogs, message boxes)."""
    pal = QPalette()
    role = QPalette.ColorRole
    for which, token in (
        (role.Window, "window"),
        (role.WindowText, "ink"),
        (role.Base, "base"),
        (role.AlternateBase, "panel"),
        (role.Text, "ink"),
        (role.Button, "base"),
        (role.ButtonText, "ink"),
        (role.ToolTipBase, "tooltip"),
        (role.ToolTipText, "tooltip_ink"),
        (role.PlaceholderText, "muted"),
        (role.Highlight, "selected"),
        (role.HighlightedText, "ink"),
        (role.Link, "md_link"),
        (role.Light, "hover"),
        (role.Midlight, "line"),
        (role.Mid, "field_border"),
        (role.Dark, "meter_edge"),
        (role.Shadow, "default_focus"),
        (role.BrightText, "on_accent"),
    ):
        pal.setColor(which, theme.colour(token))
    disabled = QPalette.ColorGroup.Disabled
    for which in (role.WindowText, role.Text, role.ButtonText):
        pal.setColor(disabled, which, theme.colour("disabled_ink"))
    return pal


def apply_theme(app: QGuiApplication, theme: Theme) -> None:
    """Show ``theme``: the palette first (widgets repaint on its change), then the stylesheet."""
    app.setPalette(palette(theme))
    set_stylesheet = getattr(app, "setStyleSheet", None)
    if set_stylesheet is not None:
        set_stylesheet(stylesheet(theme))


class SchemeFollower(QObject):
    """Keeps the application's theme on the system's colour scheme as it changes (Qt 6.5+).

    ``TASKDESK_COLOUR_SCHEME`` (light or dark) wins over the system's scheme.
    """

    def __init__(self, app: QGuiApplication) -> None:
        super().__init__(app)
        self._app = app
        self.choice: LookChoice = "system"  # View › Look; "system" follows the system
        app.styleHints().colorSchemeChanged.connect(self.on_scheme_changed)
        self.on_scheme_changed(app.styleHints().colorScheme())

    def set_choice(self, choice: str) -> None:
        """View › Look: ``light`` or ``dark`` whatever the system says, or ``system``."""
        self.choice = next((c for c in LOOK_CHOICES if c == choice), "system")
        self.on_scheme_changed(self._app.styleHints().colorScheme())

    def on_scheme_changed(self, scheme: Qt.ColorScheme) -> None:
        override = self.choice if self.choice != "system" else os.environ.get(SCHEME_VARIABLE)
        apply_theme(self._app, scheme_theme(scheme, override))


def scheme_follower(app: QGuiApplication) -> SchemeFollower:
    """The application's follower (made now when start-up made none: a test, a host)."""
    found = app.findChild(SchemeFollower)
    return found if isinstance(found, SchemeFollower) else SchemeFollower(app)
