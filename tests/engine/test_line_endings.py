"""A Task's line endings survive the editor: every byte outside an edit is unchanged."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.core.line_endings import LineEndings, editor_form

# Few letters and every kind of break, so lines repeat and breaks mix.
PIECES = ["a", "b", "é", " ", "\x0b", "\r", "\n", "\r\n", "\u2028"]
TEXT = st.lists(st.sampled_from(PIECES)).map("".join)
TYPED = st.text(alphabet=st.sampled_from(["a", "b", "x", "\n", "\x85"]), max_size=8)


def original_index(original: str, form_index: int) -> int:
    """Where ``form_index`` of the editor's form falls in the original text."""
    seen = 0
    for i in range(len(original) + 1):
        if seen == form_index and not (
            i and original[i - 1] == "\r" and original[i : i + 1] == "\n"
        ):
            return i
        if i < len(original) and not (original[i] == "\r" and original[i + 1 : i + 2] == "\n"):
            seen += 1
    return len(original)


def changed_span(before: str, after: str) -> tuple[int, int]:
    """Where ``after`` differs from ``before``: the end of their common start, and the
    start of their common end (in ``before``), never overlapping."""
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = len(before)
    while (
        end > start
        and len(after) - (len(before) - end) > start
        and before[end - 1] == after[len(after) - (len(before) - end) - 1]
    ):
        end -= 1
    return start, end


@given(TEXT, st.data(), TYPED)
def test_any_edit_leaves_every_byte_outside_it_unchanged(original: str, data, typed: str) -> None:
    """Load any text, make any edit, save: every byte outside the edit is unchanged.

    The edit is where the editor's text before and after differ (typing a line break among
    blank lines could be placed at any of them; the first differing place is the one).
    """
    endings = LineEndings(original)
    form = editor_form(original)
    assert endings.form == form
    start = data.draw(st.integers(0, len(form)))
    end = data.draw(st.integers(start, len(form)))
    edited = form[:start] + typed + form[end:]
    saved = endings.restore(edited)
    assert editor_form(saved) == edited  # what the operator sees is what is saved
    first, last = changed_span(form, edited)
    head, tail = original_index(original, first), original_index(original, last)
    assert saved.startswith(original[:head])
    assert saved.endswith(original[tail:])
    assert len(saved) >= head + len(original) - tail


@given(TEXT)
def test_an_unedited_text_saves_byte_for_byte(original: str) -> None:
    endings = LineEndings(original)
    assert endings.restore(endings.form) == original


def test_a_crlf_task_keeps_crlf_on_new_lines_too() -> None:
    endings = LineEndings("# Clerk\r\n\r\nFile the forms.\r\n")
    edited = endings.form + "Edit one.\nAnd two."
    assert endings.restore(edited) == "# Clerk\r\n\r\nFile the forms.\r\nEdit one.\r\nAnd two."


def test_a_mixed_task_keeps_each_line_its_own_break() -> None:
    original = "a\r\nb\nc\r\nd\r\n"
    endings = LineEndings(original)
    assert endings.restore("a\nbX\nc\nd\nnew\n") == "a\r\nbX\nc\r\nd\r\nnew\r\n"
