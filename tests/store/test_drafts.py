"""Drafts: kept byte for byte with their base version, removed only on confirmed bytes."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.store import LocalStore

SERVER = "http://127.0.0.1:8000"


def test_draft_comes_back_with_agent_base_version_and_time(store: LocalStore, clock) -> None:
    text = "# Scout\n\nWatch the queue. — ünïcödé 🚀\r\nline\x00end"
    store.save_draft(SERVER, "a_scout", text, 4, agent_name="Scout")
    draft = store.get_draft(SERVER, "a_scout")
    assert draft is not None
    assert draft.text == text
    assert (draft.agent_id, draft.agent_name, draft.base_version) == ("a_scout", "Scout", 4)
    assert draft.saved_at == datetime.fromtimestamp(clock.now, UTC)
    assert store.get_draft(SERVER, "a_other") is None
    assert store.get_draft("http://elsewhere", "a_scout") is None


def test_draft_survives_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    with LocalStore(path) as first:
        first.save_draft(SERVER, "a_scout", "unsaved work", 2, agent_name="Scout")
    with LocalStore(path) as second:
        drafts = second.list_drafts()
    assert [(d.agent_id, d.text, d.base_version) for d in drafts] == [
        ("a_scout", "unsaved work", 2)
    ]


def test_a_later_draft_replaces_the_earlier_one(store: LocalStore, clock) -> None:
    store.save_draft(SERVER, "a_scout", "first", 1)
    clock.now += 5
    store.save_draft(SERVER, "a_scout", "second", 2)
    assert [d.text for d in store.list_drafts(SERVER)] == ["second"]
    assert store.get_draft(SERVER, "a_scout").base_version == 2  # type: ignore[union-attr]


def test_list_drafts_newest_first_and_per_server(store: LocalStore, clock) -> None:
    store.save_draft(SERVER, "a_one", "1", 1)
    clock.now += 1
    store.save_draft("http://other", "a_two", "2", 1)
    clock.now += 1
    store.save_draft(SERVER, "a_three", "3", None)
    assert [d.agent_id for d in store.list_drafts()] == ["a_three", "a_two", "a_one"]
    assert [d.agent_id for d in store.list_drafts(SERVER)] == ["a_three", "a_one"]
    assert store.get_draft(SERVER, "a_three").base_version is None  # type: ignore[union-attr]


def test_remove_draft_only_when_the_confirmed_bytes_match(store: LocalStore) -> None:
    store.save_draft(SERVER, "a_scout", "sent to the server", 3)
    # The operator kept typing while the save was in flight.
    store.save_draft(SERVER, "a_scout", "sent to the server, and more", 3)
    assert store.remove_draft(SERVER, "a_scout", "sent to the server") is False
    assert store.get_draft(SERVER, "a_scout").text == "sent to the server, and more"  # type: ignore[union-attr]
    assert store.remove_draft(SERVER, "a_scout", "sent to the server, and more") is True
    assert store.get_draft(SERVER, "a_scout") is None
    assert store.remove_draft(SERVER, "a_scout", "anything") is False


def test_remove_draft_compares_exact_bytes(store: LocalStore) -> None:
    store.save_draft(SERVER, "a_scout", "line\r\n", 1)
    assert store.remove_draft(SERVER, "a_scout", "line\n") is False
    assert store.remove_draft(SERVER, "a_scout", "line\r\n") is True


def test_discard_moves_the_text_to_history_in_one_step(store: LocalStore) -> None:
    store.save_draft(SERVER, "a_scout", "my edits", 7, agent_name="Scout")
    entry = store.discard_draft(SERVER, "a_scout", "my edits", "discarded", 7, agent_name="Scout")
    assert store.get_draft(SERVER, "a_scout") is None
    assert store.history(SERVER, "a_scout") == [entry]
    assert (entry.text, entry.reason, entry.base_version) == ("my edits", "discarded", 7)


def test_256_kib_draft_round_trips(store: LocalStore) -> None:
    text = ("é" * 1000 + "\n") * 131  # ~256 KiB of two-byte characters
    store.save_draft(SERVER, "a_big", text, 1)
    assert store.get_draft(SERVER, "a_big").text == text  # type: ignore[union-attr]


def test_writer_and_reader_threads_see_whole_drafts(store: LocalStore) -> None:
    texts = [chr(ord("a") + i) * 50_000 for i in range(20)]
    seen: list[str] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def write() -> None:
        try:
            for text in texts:
                store.save_draft(SERVER, "a_scout", text, 1)
        except BaseException as exc:
            errors.append(exc)
        finally:
            done.set()

    def read() -> None:
        try:
            while not done.is_set():
                draft = store.get_draft(SERVER, "a_scout")
                if draft is not None:
                    seen.append(draft.text)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write), threading.Thread(target=read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert all(text in texts for text in seen)  # never half of one and half of another
    assert store.get_draft(SERVER, "a_scout").text == texts[-1]  # type: ignore[union-attr]


def _open_handles(path: Path) -> int:
    fds = Path("/proc/self/fd")
    count = 0
    for fd in fds.iterdir():
        try:
            if fd.resolve() == path.resolve():
                count += 1
        except OSError:
            continue  # closed while listing
    return count


def test_connections_of_finished_threads_are_closed(store: LocalStore) -> None:
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to count open files")
    store.save_draft(SERVER, "a_scout", "x", 1)
    before = _open_handles(store.path)
    for _ in range(30):  # like a worker pool retiring idle threads and starting new ones
        worker = threading.Thread(target=lambda: store.get_draft(SERVER, "a_scout"))
        worker.start()
        worker.join()
    # The last thread's locals may still be on their way out as join() returns.
    assert _open_handles(store.path) <= before + 1
