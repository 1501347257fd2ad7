"""Local history: newest first, per agent, and retention that never drops the last 30 days."""

from __future__ import annotations

from app.store import HISTORY_KEEP, HistoryReason, LocalStore, reason_label

SERVER = "https://tasks.example.com"
DAY = 24 * 3600


def test_history_is_newest_first_per_agent(store: LocalStore, clock) -> None:
    store.add_history(SERVER, "a_scout", "one", HistoryReason.DISCARDED, 1, agent_name="Scout")
    clock.now += 1
    store.add_history(SERVER, "a_other", "other", HistoryReason.DISCARDED, 1)
    clock.now += 1
    store.add_history(SERVER, "a_scout", "two", HistoryReason.USED_THEIRS, 2)
    entries = store.history(SERVER, "a_scout")
    assert [(e.text, e.reason, e.base_version) for e in entries] == [
        ("two", "used_theirs", 2),
        ("one", "discarded", 1),
    ]
    assert entries[0].reason_label == "Replaced by their version"
    assert entries[1].agent_name == "Scout"
    assert [e.text for e in store.history(SERVER, "a_other")] == ["other"]
    assert store.history("http://elsewhere", "a_scout") == []
    assert [e.text for e in store.history(SERVER, "a_scout", limit=1)] == ["two"]


def test_the_same_text_twice_in_a_row_is_kept_once(store: LocalStore, clock) -> None:
    first = store.add_history(SERVER, "a_scout", "same", HistoryReason.DISCARDED, 1)
    clock.now += 10
    again = store.add_history(SERVER, "a_scout", "same", HistoryReason.RESTORED, 2)
    assert again == first
    clock.now += 10
    store.add_history(SERVER, "a_scout", "different", HistoryReason.RESTORED, 2)
    store.add_history(SERVER, "a_scout", "same", HistoryReason.RESTORED, 3)
    assert [e.text for e in store.history(SERVER, "a_scout")] == ["same", "different", "same"]


def test_old_entries_beyond_the_bound_are_pruned(store: LocalStore, clock) -> None:
    for i in range(HISTORY_KEEP + 20):
        store.add_history(SERVER, "a_scout", f"text {i}", HistoryReason.DISCARDED, i)
    clock.now += 31 * DAY
    store.add_history(SERVER, "a_scout", "today", HistoryReason.DISCARDED, 999)
    entries = store.history(SERVER, "a_scout")
    assert len(entries) == HISTORY_KEEP
    assert entries[0].text == "today"
    assert entries[-1].text == "text 21"  # the oldest ones went


def test_nothing_younger_than_30_days_is_dropped(store: LocalStore, clock) -> None:
    for i in range(HISTORY_KEEP + 20):
        clock.now += 60
        store.add_history(SERVER, "a_scout", f"text {i}", HistoryReason.DISCARDED, i)
    clock.now += 29 * DAY
    store.add_history(SERVER, "a_scout", "today", HistoryReason.DISCARDED, 999)
    assert len(store.history(SERVER, "a_scout")) == HISTORY_KEEP + 21


def test_pruning_one_agent_leaves_others_alone(store: LocalStore, clock) -> None:
    store.add_history(SERVER, "a_other", "keep me", HistoryReason.DISCARDED, 1)
    for i in range(HISTORY_KEEP + 1):
        store.add_history(SERVER, "a_scout", f"text {i}", HistoryReason.DISCARDED, i)
    clock.now += 40 * DAY
    store.add_history(SERVER, "a_scout", "later", HistoryReason.DISCARDED, 1)
    assert [e.text for e in store.history(SERVER, "a_other")] == ["keep me"]


def test_unknown_reason_shows_as_written() -> None:
    assert reason_label("merged by hand") == "merged by hand"
    assert reason_label("restored") == "Replaced by a restored version"
