"""TaskEditor: highlighting verdicts, plain paste, embed completion, insert_embed, find bar."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QColor, QImage, QTextCharFormat, QTextCursor
from pytestqt.qtbot import QtBot

from app.core.models import EmbeddableNote
from tests.on_screen import shown
from widgets.editor.find_bar import FindBar
from widgets.editor.task_editor import TaskEditor

STYLE = "org/o_acme/guilds/guild_ops/style-guide.md"
CUSTOMERS = "org/o_acme/guilds/guild_ops/customers"
NOTES = [
    EmbeddableNote(STYLE, "Style guide", "note", "guild"),
    EmbeddableNote("org/o_acme/policies/escalation.md", "Escalation rules", "note", "org"),
    EmbeddableNote(CUSTOMERS, "Customers", "collection", "guild"),
]


@pytest.fixture
def editor(qtbot: QtBot) -> TaskEditor:
    widget = TaskEditor()
    widget.set_embeddable_notes(NOTES)
    return shown(qtbot, widget, (600, 400))


def _format_at(editor: TaskEditor, line: int, column: int) -> QTextCharFormat:
    """The highlighter's format at a position (a copy: the layout's list is temporary)."""
    block = editor.document().findBlockByNumber(line)
    ranges = block.layout().formats()
    for fmt_range in ranges:
        if fmt_range.start <= column < fmt_range.start + fmt_range.length:
            return QTextCharFormat(fmt_range.format)
    return QTextCharFormat()


def test_editor_is_monospace_wrapped_and_named(editor: TaskEditor) -> None:
    # Equal advances, not QFontInfo.fixedPitch(): Qt reports False for some monospace
    # families fontconfig picks (Noto Sans Mono), though every glyph is as wide as the next.
    metrics = editor.fontMetrics()
    assert metrics.horizontalAdvance("iiii") == metrics.horizontalAdvance("WWWW")
    assert editor.lineWrapMode() == TaskEditor.LineWrapMode.WidgetWidth
    assert editor.accessibleName() == "Task text"


def test_embeds_are_neutral_until_a_verdict_arrives(editor: TaskEditor) -> None:
    editor.set_text(f"# Role\nUse ![[{STYLE}]] always.\nAnd ![[org/o_acme/gone.md]].\n")
    neutral = editor.highlighter.embed_formats[None].background().color()
    assert _format_at(editor, 1, 6).background().color() == neutral
    assert _format_at(editor, 2, 5).background().color() == neutral

    editor.set_verdicts({STYLE: "inlined", "org/o_acme/gone.md": "unreachable"})

    inlined = editor.highlighter.embed_formats["inlined"].background().color()
    unreachable = editor.highlighter.embed_formats["unreachable"]
    assert _format_at(editor, 1, 6).background().color() == inlined
    assert _format_at(editor, 2, 5).background().color() == unreachable.background().color()
    assert _format_at(editor, 2, 5).underlineStyle() == unreachable.underlineStyle()
    assert inlined != neutral


def test_set_verdicts_rehighlights_only_blocks_holding_changed_paths(
    editor: TaskEditor, qtbot: QtBot
) -> None:
    lines = [f"plain line {i}" for i in range(200)]
    lines[150] = f"- see ![[{CUSTOMERS}]]"
    editor.set_text("\n".join(lines))
    seen: list[str] = []
    original = editor.highlighter.highlightBlock

    def spy(text: str) -> None:
        seen.append(text)
        original(text)

    editor.highlighter.highlightBlock = spy  # type: ignore[method-assign]
    editor.set_verdicts({CUSTOMERS: "collection"})
    assert seen == [lines[150]]
    green = editor.highlighter.embed_formats["collection"].background().color()
    assert _format_at(editor, 150, 8).background().color() == green


def test_markdown_headings_and_code_fences(editor: TaskEditor) -> None:
    editor.set_text("# Title\n```\n# not a heading\n```\n**bold** text")
    heading = editor.highlighter.heading_format.foreground().color()
    assert _format_at(editor, 0, 2).foreground().color() == heading
    fence = editor.highlighter.fence_format.background().color()
    assert _format_at(editor, 2, 2).background().color() == fence
    assert _format_at(editor, 4, 2).fontWeight() == editor.highlighter.strong_format.fontWeight()


def test_a_text_loaded_while_hidden_is_highlighted_once_shown(editor: TaskEditor) -> None:
    """A Task opens in Preview: the hidden editor's text is highlighted when Edit shows it,
    not on the way to the preview's first screen, and a verdict meanwhile is kept."""
    editor.hide()
    editor.set_text(f"# Title\n![[{STYLE}]]\n**bold** text")
    assert editor.highlighter.document() is None
    assert _format_at(editor, 0, 2).foreground().color() != (
        editor.highlighter.heading_format.foreground().color()
    )
    editor.set_verdicts({STYLE: "inlined"})
    editor.show()
    heading = editor.highlighter.heading_format.foreground().color()
    assert _format_at(editor, 0, 2).foreground().color() == heading
    inlined = editor.highlighter.embed_formats["inlined"].background().color()
    assert _format_at(editor, 1, 4).background().color() == inlined
    editor.set_text("# Again")  # shown: highlighted at once
    assert _format_at(editor, 0, 2).foreground().color() == heading


def test_paste_keeps_only_plain_text(editor: TaskEditor) -> None:
    mime = QMimeData()
    mime.setHtml("<b>bold</b><img src='file:///etc/passwd'>")
    mime.setText("bold")
    editor.insertFromMimeData(mime)
    assert editor.toPlainText() == "bold"
    html = editor.document().toHtml()
    assert "<img" not in html and "font-weight:700" not in html.replace(" ", "")


def test_paste_of_an_image_only_is_refused(editor: TaskEditor) -> None:
    mime = QMimeData()
    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    mime.setImageData(image)
    assert not editor.canInsertFromMimeData(mime)
    editor.insertFromMimeData(mime)
    assert editor.toPlainText() == ""


def test_paste_through_the_clipboard_drops_html(editor: TaskEditor) -> None:
    from PySide6.QtWidgets import QApplication

    mime = QMimeData()
    mime.setHtml("<h1>Big</h1>")
    mime.setText("Big")
    QApplication.clipboard().setMimeData(mime)
    editor.paste()
    assert editor.toPlainText() == "Big"
    assert editor.document().firstBlock().charFormat().fontPointSize() in (
        0,
        editor.font().pointSizeF(),
    )


def test_typing_embed_opener_offers_notes_and_choosing_inserts_path(
    editor: TaskEditor, qtbot: QtBot
) -> None:
    editor.setFocus()
    qtbot.keyClicks(editor, "Use ![[styl")
    popup = editor.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    assert editor.completer.completionModel().rowCount() == 1
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert editor.toPlainText() == f"Use ![[{STYLE}]]"
    assert not popup.isVisible()


def test_completion_filters_by_path_too(editor: TaskEditor, qtbot: QtBot) -> None:
    qtbot.keyClicks(editor, "![[policies")
    qtbot.waitUntil(editor.completer.popup().isVisible)
    model = editor.completer.completionModel()
    assert model.rowCount() == 1
    assert model.index(0, 0).data() == "Escalation rules"


def test_backspace_back_into_a_match_offers_again(editor: TaskEditor, qtbot: QtBot) -> None:
    qtbot.keyClicks(editor, "![[stylx")
    assert not editor.completer.popup().isVisible()
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    qtbot.waitUntil(editor.completer.popup().isVisible)
    assert editor.completer.completionModel().rowCount() == 1


def test_completion_over_thousands_of_notes_offers_the_best_first(qtbot: QtBot) -> None:
    many = [
        EmbeddableNote(
            f"org/o_acme/guilds/g{n % 40:02d}/page-{n:05d}.md", f"Page {n}", "note", "guild"
        )
        for n in range(3_000)
    ]
    widget = shown(qtbot, TaskEditor(), (600, 400))
    widget.set_embeddable_notes([*many, EmbeddableNote(STYLE, "Style guide", "note", "guild")])
    qtbot.keyClicks(widget, "![[g07/page-0")
    qtbot.waitUntil(widget.completer.popup().isVisible)
    expected = [n.display_path for n in many if "g07/page-0" in n.display_path]
    assert widget.completer.proxy.match_count() == len(expected) == 75
    widget.clear()
    qtbot.keyClicks(widget, "![[12 page")  # every word, any order; the closest title first
    model = widget.completer.completionModel()
    assert model.index(0, 0).data() == "Page 12"
    assert model.index(1, 0).data() == "Page 120"  # words at word starts, before "Page 112"
    assert widget.completer.proxy.match_count() > model.rowCount() > 8  # the best ones shown
    qtbot.keyClick(widget.completer.popup(), Qt.Key.Key_Return)
    assert widget.toPlainText() == "![[org/o_acme/guilds/g12/page-00012.md]]"


def test_no_popup_outside_an_embed(editor: TaskEditor, qtbot: QtBot) -> None:
    qtbot.keyClicks(editor, "[[styl")
    assert editor.completion_prefix() is None
    assert not editor.completer.popup().isVisible()


def test_insert_embed_is_one_undo_step(editor: TaskEditor) -> None:
    editor.set_text("Intro. ")
    editor.moveCursor(QTextCursor.MoveOperation.End)
    editor.insert_embed(CUSTOMERS)
    assert editor.toPlainText() == f"Intro. ![[{CUSTOMERS}]]"
    editor.undo()
    assert editor.toPlainText() == "Intro. "
    editor.redo()
    assert editor.toPlainText() == f"Intro. ![[{CUSTOMERS}]]"


def test_ctrl_f_and_ctrl_h_open_the_find_bar(editor: TaskEditor, qtbot: QtBot) -> None:
    bar = FindBar(editor)
    qtbot.addWidget(bar)
    qtbot.keyClick(editor, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert bar.isVisibleTo(bar.parentWidget()) or not bar.isHidden()
    assert bar.replace_field.isHidden()
    qtbot.keyClick(editor, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    assert not bar.replace_field.isHidden()
    assert editor.toPlainText() == ""


def test_find_next_previous_and_match_case(editor: TaskEditor, qtbot: QtBot) -> None:
    bar = FindBar(editor)
    qtbot.addWidget(bar)
    editor.set_text("Alpha beta alpha ALPHA")
    bar.show_find()
    bar.find_field.setText("alpha")
    qtbot.keyClick(bar.find_field, Qt.Key.Key_Return)
    assert editor.textCursor().selectionStart() == 0
    bar.find_next_button.click()
    assert editor.textCursor().selectionStart() == 11
    bar.match_case_box.setChecked(True)
    bar.find_next_button.click()
    assert editor.textCursor().selectionStart() == 11  # wraps to the only exact match
    bar.match_case_box.setChecked(False)
    bar.find_previous_button.click()
    assert editor.textCursor().selectionStart() == 0
    bar.find_field.setText("gamma")
    bar.find_next_button.click()
    assert bar.status_label.text() == "No matches"


def test_replace_and_replace_all(editor: TaskEditor, qtbot: QtBot) -> None:
    bar = FindBar(editor)
    qtbot.addWidget(bar)
    editor.set_text("cat cat Cat")
    bar.show_replace()
    bar.find_field.setText("cat")
    bar.replace_field.setText("dog")
    bar.replace_button.click()
    assert editor.toPlainText() == "dog cat Cat"
    assert bar.replace_all() == 2
    assert editor.toPlainText() == "dog dog dog"
    assert bar.status_label.text() == "Replaced 2"
    editor.undo()  # replace all is one step
    assert editor.toPlainText() == "dog cat Cat"


def test_escape_closes_find_bar(editor: TaskEditor, qtbot: QtBot) -> None:
    bar = FindBar(editor)
    qtbot.addWidget(bar)
    bar.show_find()
    with qtbot.waitSignal(bar.closed):
        qtbot.keyClick(bar.find_field, Qt.Key.Key_Escape)
    assert bar.isHidden()


def test_find_bar_accessible_names_match_labels(editor: TaskEditor) -> None:
    bar = FindBar(editor)
    for button in (
        bar.find_next_button,
        bar.find_previous_button,
        bar.replace_button,
        bar.replace_all_button,
        bar.match_case_box,
    ):
        assert button.accessibleName() == button.text().replace("&", "")
        assert "&" in button.text()  # a mnemonic: Alt+letter from the keyboard
    assert bar.find_field.accessibleName() == bar.find_label.text().replace("&", "")
    assert bar.replace_field.accessibleName() == bar.replace_label.text().replace("&", "")
    bar.deleteLater()
