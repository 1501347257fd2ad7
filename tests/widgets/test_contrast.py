"""Contrast of the light and dark looks, computed from the stylesheet and the editor's colours.

Text needs 4.5:1 against what it is drawn on (WCAG 1.4.3); focus rings, marks and the
meters' outline 3:1 (WCAG 1.4.11, 2.4.13).
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextDocument

from app.core.resource_files import read_text
from widgets.common.theme import DARK, LIGHT, THEMES, Theme, stylesheet
from widgets.editor.highlighter import TaskHighlighter

TEXT = 4.5
GRAPHIC = 3.0

BACKGROUNDS = ("window", "base", "panel", "hover", "selected")
BANNERS = ("info_tint", "warning_tint", "danger_tint")
PREVIEW = ("note_hop1", "note_hop2", "table_head")  # an inlined note's tints, a table's head

# Text colour: the backgrounds it is drawn on.
TEXT_PAIRS: dict[str, tuple[str, ...]] = {
    "ink": (*BACKGROUNDS, *BANNERS, *PREVIEW, "selection", "embed_plain_bg", "md_code_bg"),
    "muted": (*BACKGROUNDS, *BANNERS, *PREVIEW),
    "accent_ink": ("selected", "base"),
    "warning_ink": ("window", "base", "panel", "warning_tint"),
    "danger_ink": ("window", "base", "panel", "danger_tint"),
    "on_accent": ("accent", "accent_hover"),
    "on_tag": ("tag_plain", "tag_org", "tag_guild", "tag_agent"),
    "tooltip_ink": ("tooltip",),
    "md_heading": ("base",),
    "md_list": ("base",),
    "md_link": ("base", *PREVIEW),
    "md_code": ("md_code_bg", "base"),
}

# Focus rings, marks and graphics: what surrounds them.
GRAPHIC_PAIRS: dict[str, tuple[str, ...]] = {
    "focus": (*BACKGROUNDS, *BANNERS, "field_border", "line"),
    "default_focus": ("accent", "window", "base", "panel", *BANNERS),
    "meter_edge": ("window", "base", "panel"),
    "warning_mark": ("meter_track", "base"),
    "danger_mark": ("meter_track", "base"),
    "meter_fill": ("meter_track", "base"),
    "scroll_thumb": ("scroll_track", "base", "window"),
    "diff_old_bar": ("base", "diff_old_line"),
    "diff_new_bar": ("base", "diff_new_line"),
}


def luminance(colour: QColor) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.redF())
        + 0.7152 * channel(colour.greenF())
        + 0.0722 * channel(colour.blueF())
    )


def contrast(a: QColor | str, b: QColor | str) -> float:
    high, low = sorted((luminance(QColor(a)), luminance(QColor(b))), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _failures(theme: Theme, pairs: dict[str, tuple[str, ...]], minimum: float) -> list[str]:
    tokens = theme.tokens()
    return [
        f"{theme.name}: {fg} {tokens[fg]} on {bg} {tokens[bg]} is "
        f"{contrast(tokens[fg], tokens[bg]):.2f}:1"
        for fg, backgrounds in pairs.items()
        for bg in backgrounds
        if contrast(tokens[fg], tokens[bg]) < minimum
    ]


def test_contrast_is_computed_as_wcag_does() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#8fb3de", "#ffffff") == pytest.approx(2.17, abs=0.01)  # the old ring
    assert contrast("#6b7280", "#e3edfa") == pytest.approx(4.09, abs=0.01)  # the old muted


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_text_reaches_4_5_to_1(theme: Theme) -> None:
    assert _failures(theme, TEXT_PAIRS, TEXT) == []


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_focus_rings_and_marks_reach_3_to_1(theme: Theme) -> None:
    assert _failures(theme, GRAPHIC_PAIRS, GRAPHIC) == []


def _rules(qss: str) -> list[tuple[str, dict[str, str]]]:
    qss = re.sub(r"/\*.*?\*/", "", qss, flags=re.S)
    rules = []
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", qss):
        props = {}
        for declaration in body.split(";"):
            if ":" in declaration:
                name, value = declaration.split(":", 1)
                props[name.strip()] = value.strip()
        rules.append((selector.strip(), props))
    return rules


def test_the_stylesheet_writes_no_colour_of_its_own() -> None:
    """Every colour comes from the theme, so the dark look can't miss one."""
    raw = re.sub(r"/\*.*?\*/", "", read_text("style.qss"), flags=re.S)
    assert re.findall(r"#[0-9a-fA-F]{3,8}\b|rgba?\(", raw) == []
    for theme in THEMES.values():
        assert "@" not in stylesheet(theme)


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_each_rule_with_text_and_background_reaches_4_5_to_1(theme: Theme) -> None:
    failures = []
    for selector, props in _rules(stylesheet(theme)):
        fg, bg = props.get("color"), props.get("background")
        drawn = fg and bg and bg.startswith("#") and ":disabled" not in selector
        if drawn and contrast(fg, bg) < TEXT:
            failures.append(f"{selector}: {fg} on {bg} is {contrast(fg, bg):.2f}:1")
    assert failures == []


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_every_focus_rule_draws_a_ring_of_3_to_1(theme: Theme) -> None:
    rules = _rules(stylesheet(theme))
    focus_rules = [(s, p) for s, p in rules if ":focus" in s]
    assert len(focus_rules) >= 6
    for selector, props in focus_rules:
        border = props.get("border", "")
        match = re.search(r"(\d+)px solid (#[0-9a-fA-F]{6})", border)
        assert match, f"{selector} draws no ring"
        assert int(match.group(1)) >= 2, selector
        assert contrast(match.group(2), theme.base) >= GRAPHIC, selector
        assert contrast(match.group(2), theme.window) >= GRAPHIC, selector
    kinds = " ".join(s for s, _ in focus_rules)
    for kind in ("QPushButton", "QToolButton", "QLineEdit", "QPlainTextEdit", "QListView"):
        assert kind in kinds
    assert "QCheckBox" in kinds and ":default:focus" in kinds


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_the_editor_highlighting_reaches_4_5_to_1(theme: Theme) -> None:
    document = QTextDocument()
    highlighter = TaskHighlighter(document)
    highlighter.set_theme(theme)
    formats = {
        "heading": highlighter.heading_format,
        "code": highlighter.code_format,
        "list": highlighter.list_format,
        "quote": highlighter.quote_format,
        "link": highlighter.link_format,
        **{f"embed {k}": v for k, v in highlighter.embed_formats.items()},
    }
    failures = []
    for name, fmt in formats.items():
        fg = fmt.foreground().color()
        painted = fmt.background().style() != Qt.BrushStyle.NoBrush
        bg = fmt.background().color() if painted else QColor(theme.base)
        if contrast(fg, bg) < TEXT:
            failures.append(f"{theme.name} {name}: {fg.name()} on {bg.name()}")
    assert failures == []


def test_the_dark_look_is_dark_and_the_light_light() -> None:
    assert QColor(DARK.window).lightness() < 64 < 200 < QColor(LIGHT.window).lightness()
    assert set(LIGHT.tokens()) == set(DARK.tokens())
