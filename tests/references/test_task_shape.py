"""The Task shape check: opening line, Inputs, Work, Outputs, Files, about 300 words, rule sets."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.core.task_shape import RULE_SET_SENTENCE, check_task_shape, count_words
from tests.references.strategies import PROPERTIES, soup

FILLER = " ".join(["word"] * 60)


def in_shape(**parts: str) -> str:
    """A Task of about 300 words in the shape, with any part replaced or dropped ("")."""
    body = {
        "Inputs": f"- {FILLER}\n",
        "Work": f"- {FILLER}\n- ![[org/o_acme/style.md]]\n",
        "Outputs": f"- {FILLER}\n",
        "Files": f"- {FILLER}\n",
        **parts,
    }
    sections = "".join(f"## {name}\n{text}\n" for name, text in body.items() if text)
    return f"# Scout\n\nWatch the queue and flag what needs a person.\n\n{sections}"


def test_a_task_in_shape_gets_no_advice() -> None:
    check = check_task_shape(in_shape())
    assert check.advice == ()
    assert check.in_shape and check.opening_line == 3
    assert [(p.name, p.has_bullets) for p in check.parts] == [
        ("Inputs", True),
        ("Work", True),
        ("Outputs", True),
        ("Files", True),
    ]
    assert check.word_verdict == "about"
    assert 200 <= check.words <= 400


def test_missing_parts_are_named() -> None:
    check = check_task_shape(in_shape(Outputs="", Files=""))
    assert check.missing == ("Outputs", "Files")
    assert "Add Outputs and Files: the shape has Inputs, Work, Outputs and Files." in check.advice


def test_parts_out_of_order_say_where_they_belong() -> None:
    text = "Opening line.\n## Work\n- a\n## Inputs\n- b\n## Outputs\n- c\n## Files\n- d\n"
    check = check_task_shape(text)
    assert check.out_of_order == ("Inputs",)
    assert (
        "Move Inputs before Work: the parts read Inputs, Work, Outputs, then Files." in check.advice
    )


def test_part_headings_take_singular_plural_case_and_colon() -> None:
    text = "Opening.\n# input:\n- a\n# WORK\n- b\n# Output\n- c\n\nFiles:\n-----\n- d\n"
    check = check_task_shape(text)
    assert check.missing == () and check.out_of_order == ()
    assert [p.line for p in check.parts] == [2, 4, 6, 9]


def test_no_opening_line_when_a_part_or_a_list_comes_first() -> None:
    assert check_task_shape("## Inputs\n- a\n\nLater prose.\n").opening_line is None
    assert check_task_shape("# Title\n- a list first\n").opening_line is None
    assert "Start with an opening line that says what the agent is for." in (
        check_task_shape("## Inputs\n- a\n").advice
    )


def test_a_part_written_as_prose_is_pointed_at_but_embeds_alone_are_fine() -> None:
    check = check_task_shape(in_shape(Work="We read the queue every hour.\n"))
    assert "Write Work (line 8) as bullets." in check.advice
    embeds_only = check_task_shape(in_shape(Work="![[org/o_acme/a.md]]\n\n![[org/o_acme/b.md]]\n"))
    assert not any(a.startswith("Write Work") for a in embeds_only.advice)


def test_words_are_counted_against_about_300() -> None:
    assert count_words("# Scout\n\n- one two\n- ![[org/o_acme/guilds/x/style-guide.md]] three") == 5
    assert count_words("- — * ** # 42") == 1
    long = check_task_shape(in_shape(Work=f"- {' '.join(['word'] * 400)}\n"))
    assert long.word_verdict == "over"
    assert any(
        a.startswith(f"{long.words} words, where the shape is about 300") for a in long.advice
    )
    assert check_task_shape("Short.").word_verdict == "under"


def test_a_long_rule_set_belongs_in_a_note_in_the_specs_words() -> None:
    rules = "".join(f"- Always check rule {i}.\n" for i in range(9))
    check = check_task_shape(in_shape(Work=rules))
    assert [(r.line, r.end_line, r.items) for r in check.rule_sets] == [(9, 17, 9)]
    assert f"Lines 9–17 hold a long rule set (9 items, 36 words). {RULE_SET_SENTENCE}" in (
        check.advice
    )
    wordy = check_task_shape(in_shape(Work=f"- {' '.join(['rule'] * 130)}\n"))
    assert [r.items for r in wordy.rule_sets] == [1]


def test_headings_in_code_fences_do_not_count() -> None:
    text = "Opening.\n```\n## Inputs\n## Work\n## Outputs\n## Files\n```\n"
    assert check_task_shape(text).missing == ("Inputs", "Work", "Outputs", "Files")


@PROPERTIES
@given(text=st.one_of(st.text(), soup, st.text(alphabet="#-*=`~ \n\r\tInputsWorkFile:1.")))
def test_the_check_never_raises_and_always_explains_itself(text: str) -> None:
    check = check_task_shape(text)
    assert len(check.advice) >= len(check.rule_sets) + bool(check.missing)
    assert check.in_shape == (not check.advice)
