"""The Task's 256 KB broken down by section (CommonMark headings), bytes adding up exactly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.core.limits import TASK_MAX_BYTES
from app.core.task_outline import task_size
from tests.references.strategies import PROPERTIES, soup


def rows(text: str) -> list[tuple[str, int, int, int]]:
    return [(s.title, s.level, s.line, s.bytes) for s in task_size(text).sections]


def test_sections_run_from_heading_to_heading_with_their_bytes() -> None:
    text = "# Scout\nWatch the queue.\n\n## Inputs\n- Tickets\n\n## Work\n- Flag what needs you\n"
    assert rows(text) == [
        ("Scout", 1, 1, len("# Scout\nWatch the queue.\n\n")),
        ("Inputs", 2, 4, len("## Inputs\n- Tickets\n\n")),
        ("Work", 2, 7, len("## Work\n- Flag what needs you\n")),
    ]
    size = task_size(text)
    assert (size.total, size.limit, size.over_limit) == (len(text), TASK_MAX_BYTES, False)
    assert [s.title for s in size.largest_first()] == ["Work", "Scout", "Inputs"]


def test_text_before_the_first_heading_is_its_own_section() -> None:
    assert rows("Opening line.\n# Rules\nbe kind\n") == [
        ("", 0, 1, len("Opening line.\n")),
        ("Rules", 1, 2, len("# Rules\nbe kind\n")),
    ]


def test_bytes_are_utf8_and_crlf_lines_count_once() -> None:
    text = "# Café\r\nCrème brûlée\r\n# €\r\n€€\r\n"
    assert rows(text) == [
        ("Café", 1, 1, len("# Café\r\nCrème brûlée\r\n".encode())),
        ("€", 1, 3, len("# €\r\n€€\r\n".encode())),
    ]


def test_a_hash_in_a_code_fence_is_no_heading_and_an_underlined_title_is() -> None:
    text = "Title\n=====\n```\n# not a heading\n```\n> # quoted, not top level\n## Real\n"
    assert [(t, level, line) for t, level, line, _ in rows(text)] == [
        ("Title", 1, 1),
        ("Real", 2, 7),
    ]


def test_an_over_limit_task_says_so() -> None:
    size = task_size("# Big\n" + "x" * TASK_MAX_BYTES)
    assert size.over_limit and size.total == TASK_MAX_BYTES + len("# Big\n")


def test_an_empty_task_has_no_sections() -> None:
    assert task_size("").sections == ()


@PROPERTIES
@given(text=st.one_of(st.text(), soup, st.text(alphabet="#=-`~ \n\r\tab>")))
def test_sections_add_up_to_the_task_for_any_text(text: str) -> None:
    size = task_size(text)
    assert size.total == len(text.encode("utf-8", "surrogatepass"))
    assert sum(s.bytes for s in size.sections) == size.total
    assert [s.line for s in size.sections] == sorted({s.line for s in size.sections})
