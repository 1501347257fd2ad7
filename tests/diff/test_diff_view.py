"""The compare view, offscreen: rows level on both sides, wrapping, folds, navigation, laziness."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from app.core.diff_model import build_diff
from widgets.versions import compare_canvas
from widgets.versions.compare_paint import GUTTER, NEW_BAR, OLD_BAR, fold_text
from widgets.versions.diff_view import FILLER, NEW_LINE, OLD_LINE, DiffView, change_count_text


def make_view(qtbot: QtBot, width: int = 900, height: int = 400) -> DiffView:
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    return view


def settle(qtbot: QtBot, view: DiffView) -> None:
    """Wait for the slices of layout and estimating that follow a change to finish."""
    qtbot.waitUntil(view.canvas.is_settled)


def long_pair(lines: int = 400) -> tuple[str, str]:
    old = [f"line {n} of the standing rules" for n in range(lines)]
    new = list(old)
    new[60] = "line 60 of the changed rules"
    del new[200]
    new.insert(350, "a line that is new")
    return "\n".join(old) + "\n", "\n".join(new) + "\n"


def rows(view: DiffView) -> list[tuple[str, int | None, int | None]]:
    plan = view.canvas.plan
    return [(r.kind, r.old_line, r.new_line) for r in map(plan.row, range(plan.row_count))]


def snapshot(view: DiffView) -> QImage:
    return view.canvas.viewport().grab().toImage()


def colour_at(image: QImage, x: int, y: int) -> QColor:
    return image.pixelColor(x, y)


def test_rows_line_up_with_fillers(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("a\nb\nc\nd\n", "a\nc\nX\nd\ne\n")
    settle(qtbot, view)
    assert rows(view) == [
        ("same", 0, 0),
        ("change", 1, None),
        ("same", 2, 1),
        ("change", None, 2),
        ("same", 3, 3),
        ("change", None, 4),
    ]
    assert view.old_text == "a\nb\nc\nd\n" and view.new_text == "a\nc\nX\nd\ne\n"


def test_long_lines_wrap_and_the_row_takes_the_taller_side(qtbot: QtBot) -> None:
    view = make_view(qtbot, width=700)
    sentence = "The agent answers every customer politely and in their own language. "
    old = "Title\n" + sentence * 6 + "\nEnd\n"
    new = "Title\n" + (sentence * 6).replace("politely", "kindly") + "extra words\nEnd\n"
    view.set_texts(old, new)
    settle(qtbot, view)
    heights = view.canvas.row_heights
    assert heights[0] == 1 and heights[2] == 1
    assert heights[1] >= 4  # the paragraph wraps, on both sides, into one row
    rect_old = view.canvas.row_rect(2)
    assert rect_old.top() == heights[0] * view.canvas.fontMetrics().lineSpacing() + (
        heights[1] * view.canvas.fontMetrics().lineSpacing()
    )  # "End" starts below the whole wrapped paragraph, level on both sides
    narrower = heights[1]
    view.resize(1300, 400)
    qtbot.waitUntil(lambda: view.canvas.row_heights[1] < narrower)


def test_changed_rows_are_tinted_and_fillers_hatched(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("a\nb\nc\n", "a\nB\nc\nd\n")
    settle(qtbot, view)
    image = snapshot(view)
    side = view.canvas._cols.side_width
    right_x = side + GUTTER
    changed, filler, same = (view.canvas.row_rect(r) for r in (1, 3, 0))
    # Sample near each side's right edge, where no text is drawn.
    assert colour_at(image, side - 3, changed.center().y()) == OLD_LINE
    assert colour_at(image, right_x + side - 3, changed.center().y()) == NEW_LINE
    assert colour_at(image, right_x + side - 3, filler.center().y()) == NEW_LINE
    filler_pixels = {
        colour_at(image, x, filler.top() + dy).name()
        for x in range(side - 20, side)
        for dy in range(4)
    }
    assert FILLER.name() in filler_pixels and len(filler_pixels) > 1  # tint and hatch
    assert colour_at(image, side - 3, same.center().y()) == QColor("#ffffff")
    # A change bar beside each changed line, so colour is not the only sign of a change.
    cols = view.canvas._cols
    bar_x = cols.number_width + cols.marker_width + 1
    assert colour_at(image, bar_x, changed.center().y()) == OLD_BAR
    assert colour_at(image, right_x + bar_x, changed.center().y()) == NEW_BAR
    assert colour_at(image, bar_x, same.center().y()) != OLD_BAR


def test_connectors_link_each_change_across_the_gutter(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("a\nb\nc\n", "a\nB\nc\n")
    settle(qtbot, view)
    image = snapshot(view)
    middle = view.canvas._cols.gutter_x + GUTTER // 2
    plain = colour_at(image, middle, view.canvas.row_rect(0).center().y())
    linked = colour_at(image, middle, view.canvas.row_rect(1).center().y())
    assert linked != plain


def test_unchanged_runs_fold_and_open_on_click(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old, new = long_pair()
    view.set_texts(old, new)
    settle(qtbot, view)
    canvas = view.canvas
    first = canvas.plan.row(0)
    assert first.kind == "fold" and first.hidden == 57
    before = canvas.plan.row_count
    with qtbot.waitSignal(canvas.rows_changed):
        qtbot.mouseClick(
            canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.row_rect(0).center()
        )
    assert canvas.plan.row_count == before + 56
    assert rows(view)[:2] == [("same", 0, 0), ("same", 1, 1)]
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.row_rect(1).center())
    assert canvas.plan.row_count == before + 56  # a line row is no fold: nothing opens


def test_a_fold_row_says_how_many_lines_it_hides() -> None:
    assert fold_text(1) == "⋯  1 unchanged line  (click to show)"
    assert fold_text(1234) == "⋯  1,234 unchanged lines  (click to show)"


def test_show_unchanged_opens_every_fold_and_folds_again(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old, new = long_pair()
    view.set_texts(old, new)
    settle(qtbot, view)
    assert view.canvas.plan.fold_count == 4
    view.fold_button.click()
    assert view.canvas.plan.fold_count == 0
    assert view.canvas.plan.row_count == 401  # 400 lines, one of them new on the right only...
    view.fold_button.click()
    assert view.canvas.plan.fold_count == 4


def test_count_label_and_titles(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("a\n", "a\n", "v3", "Live")
    settle(qtbot, view)
    assert view.count_label.text() == "No changes"
    assert (view.old_title.text(), view.new_title.text()) == ("v3", "Live")
    view.set_texts("a\nb\n", "A\nb\nc\n")
    settle(qtbot, view)
    assert view.count_label.text() == "2 changes"
    view.go_to_change(1)
    assert view.count_label.text() == "2 of 2 changes"
    view.set_texts("a\n", "b\n")
    settle(qtbot, view)
    assert view.count_label.text() == "1 change"
    assert change_count_text(1, 0) == "1 of 1 change"
    view.set_titles("Theirs", "Mine")
    assert (view.old_title.text(), view.new_title.text()) == ("Theirs", "Mine")


def test_buttons_are_named_for_assistive_technology(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    assert view.next_button.accessibleName() == view.next_button.text() == "Next change"
    assert view.previous_button.accessibleName() == "Previous change"
    assert "Alt+Down" in view.next_button.toolTip()
    assert not view.next_button.icon().isNull()
    assert view.old_title.textFormat() == Qt.TextFormat.PlainText


def test_next_and_previous_bring_each_change_into_view(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.fold_button.click()  # every line open: changes are far apart
    old, new = long_pair()
    view.set_texts(old, new)
    settle(qtbot, view)
    canvas = view.canvas
    assert view.current_change_index == -1
    assert not view.previous_button.isEnabled()
    tops = []
    for expected in range(3):
        with qtbot.waitSignal(view.current_change_changed) as signal:
            qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
        assert signal.args == [expected]
        start = canvas.plan.change_rows(expected).start
        assert start in canvas.visible_rows()
        tops.append(canvas.verticalScrollBar().value())
    assert tops == sorted(tops) and tops[0] < tops[-1]
    assert not view.next_button.isEnabled()
    qtbot.mouseClick(view.previous_button, Qt.MouseButton.LeftButton)
    assert view.current_change_index == 1


def test_alt_down_and_alt_up_move_between_changes(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old, new = long_pair()
    view.set_texts(old, new)
    settle(qtbot, view)
    qtbot.keyClick(view.canvas, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    qtbot.keyClick(view.canvas, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert view.current_change_index == 1
    assert view.canvas.plan.change_rows(1).start in view.canvas.visible_rows()
    qtbot.keyClick(view.canvas, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert view.current_change_index == 0
    top = view.canvas.verticalScrollBar().value()
    qtbot.keyClick(view.canvas, Qt.Key.Key_PageDown)  # plain keys scroll
    assert view.canvas.verticalScrollBar().value() > top
    assert view.current_change_index == 0
    qtbot.keyClick(view.next_button, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert view.current_change_index == 1  # from the buttons too


def test_one_scroll_position_moves_both_sides(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.fold_button.click()
    old, new = long_pair()
    view.set_texts(old, new)
    settle(qtbot, view)
    view.canvas.verticalScrollBar().setValue(120)
    top = view.canvas.top_row
    row = view.canvas.plan.row(top)
    assert row.old_line is not None and row.new_line is not None
    assert abs(row.old_line - 120) <= 1 and abs(row.new_line - 120) <= 1


def test_changed_words_are_marked(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("keep\nthe quick fox\n", "keep\nthe slow fox\n")
    settle(qtbot, view)
    old_spans, new_spans = view.canvas.words.changed(view.canvas.plan.row(1))
    assert ["the quick fox"[a:b] for a, b in old_spans] == ["quick"]
    assert ["the slow fox"[a:b] for a, b in new_spans] == ["slow"]
    assert view.canvas.words.changed(view.canvas.plan.row(0)) == ((), ())


def test_lines_rewritten_through_and_through_get_no_word_marks(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("keep\nthe quick brown fox jumps\n", "keep\nany other words at all\n")
    settle(qtbot, view)
    row = view.canvas.plan.row(1)
    assert view.canvas.words.changed(row) != ((), ())  # the words do differ...
    assert view.canvas.words.shown(row) == ((), ())  # ...but the line's tint says it all
    view.set_texts("keep\nthe quick fox\n", "keep\nthe slow fox\n")
    row = view.canvas.plan.row(1)
    assert view.canvas.words.shown(row) == view.canvas.words.changed(row)


def test_word_marks_use_qt_positions_after_emoji(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("🙂🙂 send now\n", "🙂🙂 send later\n")
    settle(qtbot, view)
    _old, [(start, end)] = view.canvas.words.changed(view.canvas.plan.row(0))
    assert (start, end) == (10, 15)  # two emoji are four UTF-16 units


def test_line_separators_do_not_break_rows(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_texts("a\u2028b\nc\rd\n", "a\u2029b\nc\rd\ne\n")
    settle(qtbot, view)
    assert view.canvas.plan.row_count == view.model.row_count == 3
    assert view.canvas.row_heights == [1, 1, 1]


def test_set_model_shows_a_model_built_elsewhere(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    old, new = "a\nb\n", "a\nc\n"
    model = build_diff(old, new)
    view.set_model(model, old, new, "v2", "Live")
    assert view.model is model
    assert view.count_label.text() == "1 change"
    assert view.old_title.text() == "v2"


def test_only_rows_on_screen_are_laid_out(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.fold_button.click()
    old_lines = [f"rule {n}: keep replies short" for n in range(5000)]
    new_lines = list(old_lines)
    for n in range(0, 5000, 100):
        new_lines[n] = f"rule {n}: keep replies shorter"
    del new_lines[2550:2560]
    view.set_texts("\n".join(old_lines), "\n".join(new_lines))
    settle(qtbot, view)
    canvas = view.canvas
    assert view.model.change_count == 51
    assert canvas.plan.row_count == 5000
    on_screen = len(canvas.visible_rows())
    assert 0 < canvas.laid_out_lines <= 2 * (on_screen + 2)
    view.go_to_change(50)
    row = canvas.plan.row(canvas.plan.change_rows(50).start)
    assert row.old_line == 4900 and row.new_line == 4890
    assert canvas.laid_out_lines <= 4 * (on_screen + 2)


def test_every_slice_makes_progress_however_slow_the_machine(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No time at all per slice (a machine too busy to give any): each slice still lays out
    # a row, so the view fills instead of asking for slices forever.
    monkeypatch.setattr(compare_canvas, "SLICE", 0.0)
    view = make_view(qtbot)
    view.set_texts("".join(f"line {n}\n" for n in range(30)), "changed\n")
    settle(qtbot, view)
    assert view.canvas.laid_out_lines >= len(view.canvas.visible_rows())


def test_the_compare_pane_is_named_after_the_titles_shown(qtbot) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.set_texts("a\n", "b\n", "v4 by Bob", "Mine (unsaved)")
    assert view.canvas.accessibleName() == "Compare v4 by Bob with Mine (unsaved)"
    assert (
        "v4 by Bob on the left, Mine (unsaved) on the right" in view.canvas.accessibleDescription()
    )
    view.set_titles("v3", "v5 (live)")
    assert view.canvas.accessibleName() == "Compare v3 with v5 (live)"
