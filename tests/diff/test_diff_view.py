"""The side-by-side diff widget, offscreen: rows line up, panes move together."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.diff_model import build_diff
from tests.on_screen import shown
from widgets.versions.diff_view import FILLER, NEW_LINE, OLD_LINE, DiffView


def make_view(qtbot: QtBot) -> DiffView:
    return shown(qtbot, DiffView(), (700, 300))


def rows(pane_text: str) -> list[str]:
    return pane_text.split("\n")


def long_pair(lines: int = 400) -> tuple[str, str]:
    old = [f"line {n} of the standing rules" for n in range(lines)]
    new = list(old)
    new[60] = "line 60 of the changed rules"
    del new[200]
    new.insert(350, "a line that is new")
    return "\n".join(old) + "\n", "\n".join(new) + "\n"


def test_rows_line_up_with_fillers(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("a\nb\nc\nd\n", "a\nc\nX\nd\ne\n")
    left, right = rows(view.old_pane.toPlainText()), rows(view.new_pane.toPlainText())
    assert view.old_pane.blockCount() == view.new_pane.blockCount() == view.model.row_count
    assert left == ["a", "b", "c", "", "d", ""]
    assert right == ["a", "", "c", "X", "d", "e"]


def test_line_backgrounds_mark_changes_and_fillers(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("a\nb\nc\n", "a\nB\nc\nd\n")

    def background(pane, row: int):  # type: ignore[no-untyped-def]
        fmt = pane.document().findBlockByNumber(row).blockFormat()
        return fmt.background().color() if fmt.hasProperty(fmt.Property.BackgroundBrush) else None

    assert background(view.old_pane, 0) is None
    assert background(view.old_pane, 1) == OLD_LINE
    assert background(view.new_pane, 1) == NEW_LINE
    assert background(view.old_pane, 3) == FILLER
    assert background(view.new_pane, 3) == NEW_LINE
    assert background(view.new_pane, 2) is None


def test_count_label_and_titles(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("a\n", "a\n", "v3", "Live")
    assert view.count_label.text() == "No changes"
    assert (view.old_title.text(), view.new_title.text()) == ("v3", "Live")
    view.set_texts("a\nb\n", "A\nb\nc\n")
    assert view.count_label.text() == "2 changes"
    view.set_texts("a\n", "b\n")
    assert view.count_label.text() == "1 change"
    view.set_titles("Theirs", "Mine")
    assert (view.old_title.text(), view.new_title.text()) == ("Theirs", "Mine")


def test_buttons_are_named_for_assistive_technology(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    assert view.next_button.accessibleName() == view.next_button.text() == "Next change"
    assert view.previous_button.accessibleName() == "Previous change"
    assert not view.next_button.icon().isNull()


def test_next_and_previous_move_both_panes(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old, new = long_pair()
    view.set_texts(old, new)
    starts = [c.row_start for c in view.model.changes]
    assert len(starts) == 3
    assert view.current_change_index == -1
    assert not view.previous_button.isEnabled()

    seen = []
    for expected in range(3):
        with qtbot.waitSignal(view.current_change_changed) as signal:
            qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
        assert signal.args == [expected]
        seen.append(view.old_pane.verticalScrollBar().value())
        assert view.current_change_index == expected
        assert view.old_pane.textCursor().blockNumber() == starts[expected]
        assert view.new_pane.textCursor().blockNumber() == starts[expected]
        assert view.new_pane.verticalScrollBar().value() == seen[-1]
        first_shown = view.old_pane.firstVisibleBlock().blockNumber()
        assert first_shown <= starts[expected] < first_shown + 15
    assert seen == sorted(seen) and seen[0] < seen[-1]
    assert not view.next_button.isEnabled()

    qtbot.mouseClick(view.previous_button, Qt.MouseButton.LeftButton)
    assert view.current_change_index == 1
    assert view.new_pane.textCursor().blockNumber() == starts[1]
    assert view.old_pane.verticalScrollBar().value() == view.new_pane.verticalScrollBar().value()


def test_scrolling_one_pane_scrolls_the_other(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old, new = long_pair()
    wide = "x" * 400
    view.set_texts(old + wide + "\n", new + wide + "y\n")
    view.new_pane.verticalScrollBar().setValue(120)
    assert view.old_pane.verticalScrollBar().value() == 120
    view.old_pane.verticalScrollBar().setValue(37)
    assert view.new_pane.verticalScrollBar().value() == 37
    view.old_pane.horizontalScrollBar().setValue(50)
    assert view.old_pane.horizontalScrollBar().value() == 50
    assert view.new_pane.horizontalScrollBar().value() == 50


def test_changed_words_are_highlighted_on_screen(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("keep\nthe quick fox\n", "keep\nthe slow fox\n")
    old_marks = [m.cursor.selectedText() for m in view.old_pane.extraSelections()]
    new_marks = [m.cursor.selectedText() for m in view.new_pane.extraSelections()]
    assert old_marks == ["quick"]
    assert new_marks == ["slow"]


def test_word_marks_use_qt_positions_after_emoji(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("🙂🙂 send now\n", "🙂🙂 send later\n")
    assert [m.cursor.selectedText() for m in view.new_pane.extraSelections()] == ["later"]


def test_word_marks_follow_scrolling(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old, new = long_pair()
    view.set_texts(old, new)
    assert view.new_pane.extraSelections() == []  # the replaced line 60 is not on screen
    view.go_to_change(0)
    assert [m.cursor.selectedText() for m in view.new_pane.extraSelections()] == ["changed"]


def test_line_separators_do_not_break_rows(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old = "a\u2028b\nc\rd\n"
    new = "a\u2029b\nc\rd\ne\n"
    view.set_texts(old, new)
    assert view.old_pane.blockCount() == view.new_pane.blockCount() == view.model.row_count


def test_set_model_shows_a_model_built_elsewhere(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old, new = "a\nb\n", "a\nc\n"
    model = build_diff(old, new)
    view.set_model(model, old, new, "v2", "Live")
    assert view.model is model
    assert rows(view.new_pane.toPlainText()) == ["a", "c"]
    assert view.count_label.text() == "1 change"
    assert view.old_title.text() == "v2"


def test_panes_are_read_only(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("a\n", "b\n")
    view.new_pane.setFocus()
    qtbot.keyClicks(view.new_pane, "zz")
    assert view.new_pane.toPlainText() == "b"


def test_five_thousand_lines_line_up(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old_lines = [f"rule {n}: keep replies short" for n in range(5000)]
    new_lines = list(old_lines)
    for n in range(0, 5000, 100):
        new_lines[n] = f"rule {n}: keep replies shorter"
    del new_lines[2550:2560]
    old, new = "\n".join(old_lines), "\n".join(new_lines)
    view.set_texts(old, new)
    assert view.model.change_count == 51  # 50 replaced lines and one deleted run
    assert view.old_pane.blockCount() == view.new_pane.blockCount() == 5000
    view.go_to_change(50)
    row = view.model.changes[50].row_start
    assert view.old_pane.document().findBlockByNumber(row).text() == old_lines[4900]
    assert view.new_pane.document().findBlockByNumber(row).text().endswith("shorter")
