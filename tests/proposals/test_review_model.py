"""The review's pure model on tiny texts: hunks, decisions, the rebase and what can't be placed."""

from __future__ import annotations

from app.core.proposal_review import (
    Decision,
    HunkDecision,
    accepted_draft,
    review_basis,
    review_result,
)

BASE = "# Scout\n\nOne.\nTwo.\nThree.\nFour.\nFive.\n"
PROPOSAL = "# Scout\n\nOne!\nTwo.\nThree.\nFour.\nFive!\nSix.\n"
ACCEPT, REJECT = HunkDecision(Decision.ACCEPT), HunkDecision(Decision.REJECT)


def test_each_hunk_is_decided_on_its_own() -> None:
    basis = review_basis(BASE, BASE, PROPOSAL, base_version=3, live_version=3)
    assert [(h.old, h.new) for h in basis.hunks] == [
        ("One.\n", "One!\n"),
        ("Five.\n", "Five!\nSix.\n"),
    ]
    first, second = basis.hunks
    assert review_result(basis, {}).undecided == 2
    assert not review_result(basis, {first.key: ACCEPT}).can_publish
    result = review_result(basis, {first.key: ACCEPT, second.key: REJECT})
    assert result.can_publish and result.text == BASE.replace("One.", "One!")
    edited = {first.key: REJECT, second.key: HunkDecision(Decision.EDIT, "Five, edited.")}
    assert accepted_draft(basis, edited) == BASE.replace("Five.\n", "Five, edited.")
    everything = {h.key: ACCEPT for h in basis.hunks}
    assert review_result(basis, everything).text == PROPOSAL


def test_a_moved_base_rebases_and_shows_what_cannot_be_placed() -> None:
    live = BASE.replace("Five.", "Five, said live.").replace("Three.", "Three, live.")
    basis = review_basis(BASE, live, PROPOSAL, base_version=3, live_version=4)
    first, second = basis.hunks
    assert first.placeable and not second.placeable
    assert "Five, said live." in second.live_text
    assert [h.index for h in basis.unplaced()] == [1]
    kept_live = review_result(basis, {first.key: ACCEPT, second.key: REJECT})
    assert kept_live.text == live.replace("One.", "One!")  # live's own change stays
    over_live = review_result(basis, {first.key: ACCEPT, second.key: ACCEPT})
    assert "Five!\nSix.\n" in over_live.text and "Three, live." in over_live.text
    assert "Five, said live." not in over_live.text  # only because it was accepted explicitly


def test_keys_are_stable_and_name_the_change() -> None:
    one = review_basis(BASE, BASE, PROPOSAL, base_version=3, live_version=3)
    again = review_basis(BASE, BASE, PROPOSAL + "Seven.\n", base_version=3, live_version=3)
    assert one.hunks[0].key == again.hunks[0].key
    assert one.hunks[1].key != again.hunks[1].key
    assert one.hunks[0].summary == "Change: One!"
