"""The merge model on small prose examples: clean changes, conflicts and each way out of one."""

from __future__ import annotations

import threading
from itertools import accumulate

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.cancel import CancelledError, CancelToken, NewestRequest
from app.core.diff3 import drop_chance_matches
from app.core.merge import MarkerLabels, RegionKind, Resolution, merge_texts
from app.core.merge_words import tokens

PARAGRAPH = (
    "The agent answers politely. It never shares customer data. "
    "It replies in the language of the question. It signs every reply with its name.\n"
)
BASE = "# Rules\n\n" + PARAGRAPH + "\n## Tone\n\nShort sentences.\n"


def kinds(base: str, theirs: str, mine: str) -> list[RegionKind]:
    return [r.kind for r in merge_texts(base, theirs, mine).regions]


def test_different_sentences_of_one_paragraph_merge_cleanly() -> None:
    mine = BASE.replace("answers politely", "answers kindly")
    theirs = BASE.replace("signs every reply", "signs each reply")
    result = merge_texts(BASE, theirs, mine)
    assert result.is_clean
    assert result.text == BASE.replace("answers politely", "answers kindly").replace(
        "signs every reply", "signs each reply"
    )
    [my_change] = result.mine_changes
    [their_change] = result.theirs_changes
    assert (my_change.base, my_change.mine) == ("politely", "kindly")
    assert (their_change.base, their_change.theirs) == ("every", "each")
    assert BASE[my_change.base_start : my_change.base_end] == "politely"
    assert mine[my_change.mine_start : my_change.mine_end] == "kindly"
    assert theirs[their_change.theirs_start : their_change.theirs_end] == "each"


def test_different_paragraphs_merge_cleanly_by_lines() -> None:
    mine = BASE.replace("Short sentences.", "Short sentences. No jargon.")
    theirs = BASE.replace("# Rules", "# House rules")
    result = merge_texts(BASE, theirs, mine)
    assert result.text == BASE.replace("Short sentences.", "Short sentences. No jargon.").replace(
        "# Rules", "# House rules"
    )
    assert [r.kind for r in result.regions] == [
        RegionKind.THEIRS,
        RegionKind.UNCHANGED,
        RegionKind.MINE,
    ]


def test_the_same_change_on_both_sides_is_taken_once() -> None:
    both = BASE.replace("politely", "kindly")
    result = merge_texts(BASE, both, both)
    assert result.text == both
    assert RegionKind.BOTH in [r.kind for r in result.regions]


def test_two_edits_of_one_word_are_a_conflict() -> None:
    mine = BASE.replace("politely", "kindly")
    theirs = BASE.replace("politely", "briefly")
    result = merge_texts(BASE, theirs, mine)
    assert not result.is_clean and result.unresolved == 1
    assert result.text is None
    [conflict] = result.conflicts
    assert PARAGRAPH.replace("politely", "kindly") == conflict.mine
    assert PARAGRAPH.replace("politely", "briefly") == conflict.theirs
    assert conflict.base == PARAGRAPH


def test_edits_touching_across_a_space_are_a_conflict() -> None:
    # Neighbouring words rewritten by two people are one phrase: theirs to decide together.
    mine = BASE.replace("answers politely", "replies politely")
    theirs = BASE.replace("answers politely", "answers briefly")
    assert RegionKind.CONFLICT in kinds(BASE, theirs, mine)


def test_edits_on_neighbouring_lines_merge_cleanly() -> None:
    base = "- one\n- two\n- three\n"
    assert merge_texts(base, "- one\n- two\n- THREE\n", "- one\n- TWO\n- three\n").text == (
        "- one\n- TWO\n- THREE\n"
    )


def test_two_rewrites_of_one_sentence_do_not_interleave() -> None:
    # Chance matches ("the", spaces) between two rewrites must not splice them together.
    base = "Ask the user for the order number before anything else.\n"
    mine = "Always ask for the order number first, then check the account.\n"
    theirs = "Ask the customer politely for the number on the receipt.\n"
    result = merge_texts(base, theirs, mine)
    assert not result.is_clean
    assert result.take_all(Resolution.MINE).text == mine
    assert result.take_all(Resolution.THEIRS).text == theirs


def test_each_way_out_of_a_conflict_gives_the_text_it_promises() -> None:
    mine = BASE.replace("Short sentences.", "Short sentences, please.")
    theirs = BASE.replace("Short sentences.", "Plain words.")
    result = merge_texts(BASE, theirs, mine)
    head = BASE[: BASE.index("Short")]
    assert result.take(0, Resolution.MINE).text == mine
    assert result.take(0, Resolution.THEIRS).text == theirs
    assert result.take(0, Resolution.MINE_THEN_THEIRS).text == (
        head + "Short sentences, please.\nPlain words.\n"
    )
    assert result.take(0, Resolution.THEIRS_THEN_MINE).text == (
        head + "Plain words.\nShort sentences, please.\n"
    )
    edited = result.edit(0, "Short, plain sentences.\n")
    assert edited.text == head + "Short, plain sentences.\n"
    assert edited.conflicts[0].resolution is None and edited.unresolved == 0
    assert result.unresolved == 1  # resolving returns a new result


def test_taking_both_without_a_final_newline_puts_each_on_its_own_line() -> None:
    result = merge_texts("a\nend", "a\ntheirs", "a\nmine")
    assert result.take(0, Resolution.MINE_THEN_THEIRS).text == "a\nmine\ntheirs"
    assert result.take(0, Resolution.MINE).text == "a\nmine"


def test_markers_are_gits_diff3_style() -> None:
    result = merge_texts("a\nb\nc\n", "a\nB\nc\n", "a\nbb\nc\n")
    assert result.marked().text == (
        "a\n<<<<<<< mine\nbb\n||||||| base\nb\n=======\nB\n>>>>>>> theirs\nc\n"
    )
    labels = MarkerLabels(mine="ours.md", base="base.md", theirs="theirs.md", size=9)
    assert result.marked(labels).text.startswith("a\n<<<<<<<<< ours.md\nbb\n||||||||| base.md\n")


def test_markers_keep_crlf_and_end_a_side_without_newline() -> None:
    result = merge_texts("a\r\nb", "a\r\nB", "a\r\nbb")
    assert result.marked().text == (
        "a\r\n<<<<<<< mine\r\nbb\r\n||||||| base\r\nb\r\n=======\r\nB\r\n>>>>>>> theirs\r\n"
    )
    assert result.take(0, Resolution.THEIRS).text == "a\r\nB"


def test_exact_text_survives_crlf_nul_emoji_and_no_final_newline() -> None:
    base = "line one\r\nzero\x00byte 🙂\r\nlast"
    theirs = "line ONE\r\nzero\x00byte 🙂\r\nlast"
    mine = "line one\r\nzero\x00byte 🙂\r\nlast 👍"
    merged = merge_texts(base, theirs, mine).text
    assert merged is not None
    assert merged.encode("utf-8") == "line ONE\r\nzero\x00byte 🙂\r\nlast 👍".encode()


@given(st.text())
def test_tokens_cover_every_character(text: str) -> None:
    assert "".join(tokens(text)) == text


def starts(text: str) -> list[int]:
    return [0, *accumulate(map(len, tokens(text)))]


def test_chance_matches_between_edits_are_dropped() -> None:
    # Tokens: one|_|big|_|red|_|fox and two|_|big|_|blue|_|cat. " big " (5 characters) is
    # longer than the edit before it and stays; the lone space between the rewritten
    # "red" and "fox" is shorter than the edits on both sides, so it goes.
    old, new = "one big red fox", "two big blue cat"
    blocks = drop_chance_matches(starts(old), starts(new), [(1, 1, 3), (5, 5, 1)])
    assert blocks == [(1, 1, 3)]


class CountingToken(CancelToken):
    """Cancels itself at its ``after``-th check: a newer request arriving mid-way."""

    __slots__ = ("after", "checks")

    def __init__(self, after: int) -> None:
        super().__init__()
        self.after = after
        self.checks = 0

    def check(self) -> None:
        self.checks += 1
        if self.checks >= self.after:
            self.cancel()
        super().check()


def test_a_cancelled_merge_stops_at_its_next_check() -> None:
    base = "".join(f"line {n}\n\n" for n in range(3000))
    theirs = base.replace("line 1", "LINE 1")
    mine = base.replace("line 2", "LINE 2")
    for after in (1, 2, 3):
        token = CountingToken(after)
        with pytest.raises(CancelledError):
            merge_texts(base, theirs, mine, cancel=token)
        assert token.checks == after  # it stopped at once, not at the end
    token = CountingToken(10**9)
    assert merge_texts(base, theirs, mine, cancel=token).is_clean
    assert token.checks > 3  # it checks between steps all the way through


def test_a_newer_request_cancels_the_older_one_on_another_thread() -> None:
    requests = NewestRequest()
    older = requests.start()
    started, outcome = threading.Event(), []

    def work() -> None:
        started.set()
        big = "".join(f"rule {n}\n" for n in range(20000))
        try:
            while True:  # a merge that would take long: each round checks the token
                merge_texts(big, big + "x\n", "y\n" + big, cancel=older)
        except CancelledError:
            outcome.append("cancelled")

    thread = threading.Thread(target=work)
    thread.start()
    started.wait()
    newer = requests.start()
    thread.join(timeout=30)
    assert outcome == ["cancelled"]
    assert older.cancelled and not newer.cancelled
    assert requests.is_current(newer) and not requests.is_current(older)
    requests.cancel()
    assert newer.cancelled


def test_rewrites_split_only_by_blank_lines_are_one_conflict() -> None:
    base = "Intro.\n\nOne.\n\nTwo.\n\nEnd.\n"
    mine = "Intro.\n\nUno.\n\nDos.\n\nEnd.\n"
    theirs = "Intro.\n\nEins.\n\nZwei.\n\nEnd.\n"
    result = merge_texts(base, theirs, mine)
    [conflict] = result.conflicts
    assert (conflict.mine, conflict.theirs) == ("Uno.\n\nDos.\n", "Eins.\n\nZwei.\n")
    assert result.take(0, Resolution.MINE).text == mine
    assert result.take(0, Resolution.THEIRS).text == theirs
