"""Writes gathered on the event loop: one commit for a turn's writes, each undone alone when it
fails, all refused together when the commit is, handed to threads while the write is held;
and Task saves gathered so answer exactly what saves made one at a time answer."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette

from app.server.app_factory import create_app
from app.server.database import Transaction
from app.server.loop_writes import GATHERED_AT_MOST, Batch, LoopWrites
from app.server.sqlite_database import ServerDatabase
from tests.live_server import WORKSPACE_BASIC
from tests.server.asgi_calls import asgi_call

TASK = "/api/agents/a_scout/files/task.md"
TIMEOUT = 30.0


def _put_meta(key: str) -> Callable[[Transaction, Batch], str]:
    def work(tx: Transaction, batch: Batch) -> str:
        tx.conn.execute("INSERT INTO meta (key, value) VALUES (?, 'yes')", (key,))
        return key

    return work


def _meta_keys(db: ServerDatabase) -> set[str]:
    with db.read() as tx:
        return {row[0] for row in tx.conn.execute("SELECT key FROM meta WHERE value = 'yes'")}


def test_writes_asked_in_one_turn_of_the_loop_share_one_commit(tmp_path: Path) -> None:
    db = ServerDatabase(tmp_path / "org.sqlite3")
    commits: list[int] = []
    db.on_change(lambda: commits.append(1))
    writes = LoopWrites(db)

    async def main() -> list[str | None]:
        return await asyncio.gather(*(writes.write(_put_meta(f"k{n}")) for n in range(5)))

    assert asyncio.run(main()) == ["k0", "k1", "k2", "k3", "k4"]
    assert len(commits) == 1
    assert _meta_keys(db) == {"k0", "k1", "k2", "k3", "k4"}
    db.close()


def test_a_transaction_gathers_at_most_so_many_writes(tmp_path: Path) -> None:
    """More writes than GATHERED_AT_MOST in one turn: the rest are made in the next turn, so
    the loop serves what else is due in between."""
    db = ServerDatabase(tmp_path / "org.sqlite3")
    commits: list[int] = []
    db.on_change(lambda: commits.append(1))
    writes = LoopWrites(db)
    keys = [f"k{n}" for n in range(GATHERED_AT_MOST + 3)]

    async def main() -> list[str | None]:
        return await asyncio.gather(*(writes.write(_put_meta(key)) for key in keys))

    assert asyncio.run(main()) == keys
    assert len(commits) == 2
    assert _meta_keys(db) == set(keys)
    db.close()


def test_a_write_that_fails_is_undone_alone_and_the_others_stand(tmp_path: Path) -> None:
    db = ServerDatabase(tmp_path / "org.sqlite3")
    writes = LoopWrites(db)

    def half_then_fail(tx: Transaction, batch: Batch) -> str:
        tx.conn.execute("INSERT INTO meta (key, value) VALUES ('lost', 'yes')")
        raise ValueError("refused")

    async def main() -> list[Any]:
        asked = [writes.write(_put_meta("a")), writes.write(half_then_fail)]
        asked.append(writes.write(_put_meta("b")))
        return await asyncio.gather(*asked, return_exceptions=True)

    first, failed, last = asyncio.run(main())
    assert (first, last) == ("a", "b")
    assert isinstance(failed, ValueError) and str(failed) == "refused"
    assert _meta_keys(db) == {"a", "b"}
    db.close()


def test_a_refused_commit_fails_every_write_it_held_and_frees_the_write(tmp_path: Path) -> None:
    """A commit SQLite refuses (here a foreign key checked at the commit; on a full disk, the
    disk): none of the writes is made and each caller is told."""
    db = ServerDatabase(tmp_path / "org.sqlite3")
    writes = LoopWrites(db)

    def orphan(tx: Transaction, batch: Batch) -> str:
        tx.conn.execute("PRAGMA defer_foreign_keys = ON")
        tx.conn.execute(
            "INSERT INTO task_revisions VALUES ('a_nobody', 1, 'text', 'now', 'person', 'p', 'P')"
        )
        return "orphan"

    async def main(*work: Callable[[Transaction, Batch], str]) -> list[Any]:
        return await asyncio.gather(*(writes.write(w) for w in work), return_exceptions=True)

    outcomes = asyncio.run(main(_put_meta("a"), orphan))
    assert all(isinstance(o, sqlite3.IntegrityError) for o in outcomes), outcomes
    assert _meta_keys(db) == set()
    assert asyncio.run(main(_put_meta("after"))) == ["after"]  # the write was given back
    db.close()


def test_writes_wait_while_the_write_is_held_then_go_to_a_thread(tmp_path: Path) -> None:
    """Another write holds the lock: the gathered writes ask again each ms; let go in time,
    they are made on the loop; held past ``TRIES`` steps, each caller is told to use a thread."""
    db = ServerDatabase(tmp_path / "org.sqlite3")
    writes = LoopWrites(db)
    holding, leave = threading.Event(), threading.Event()

    def hold() -> None:
        with db.write():
            holding.set()
            leave.wait(TIMEOUT)

    async def let_go_after(seconds: float | None, *keys: str) -> list[str | None]:
        """The writes of ``keys``, the lock let go ``seconds`` after they are asked, or once
        they are answered (None)."""
        asked = [writes.write(_put_meta(key)) for key in keys]
        if seconds is not None:
            asyncio.get_running_loop().call_later(seconds, leave.set)
        try:
            return await asyncio.gather(*asked)
        finally:
            leave.set()

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(TIMEOUT)
    assert asyncio.run(let_go_after(0.0, "soon", "also")) == ["soon", "also"]
    holder.join(TIMEOUT)
    assert _meta_keys(db) == {"soon", "also"}

    leave.clear()
    holding.clear()
    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(TIMEOUT)
    assert asyncio.run(let_go_after(None, "late")) == [None]  # after TRIES ms
    holder.join(TIMEOUT)
    assert "late" not in _meta_keys(db)
    db.close()


async def _asgi(
    app: Starlette, method: str, content: dict[str, Any] | None = None, query: bytes = b""
) -> tuple[int, bytes]:
    """One request to the Task through the whole app, on the running loop: (status, body)."""
    body = json.dumps(content).encode() if content is not None else b""
    head = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    status, _, answer = await asgi_call(
        app, TASK, method=method, query=query, headers=head, body=body
    )
    return status, answer


def _put(app: Starlette, text: str, expected: int | None = None, query: bytes = b"") -> Any:
    content: dict[str, Any] = {"content": text}
    if expected is not None:
        content["expected_version"] = expected
    return _asgi(app, "PUT", content, query)


def _without_times(answer: bytes) -> Any:
    task = json.loads(answer)
    if "error" in task:
        return task
    task.pop("updated_at")
    for revision in task["revisions"]:
        revision.pop("replaced_at", None)
    return task


def test_random_gathered_saves_answer_what_the_same_saves_one_at_a_time_answer(
    tmp_path: Path,
) -> None:
    """Random turns of saves: the same text again, a stale expected version, either view of
    the answer, past the 50 kept revisions. Each turn's saves gathered answer what the same
    saves one at a time answer (but for the times), status and body."""
    rng = random.Random(20261204)
    alone = create_app(tmp_path / "alone.sqlite3", WORKSPACE_BASIC)
    gathered = create_app(tmp_path / "gathered.sqlite3", WORKSPACE_BASIC)
    texts = [f"# Scout\n\nText {n}.\n" for n in range(6)]

    async def main() -> tuple[list[Any], list[Any]]:
        status, body = await _asgi(alone, "GET")
        assert status == 200
        live = json.loads(body)["version"]
        one_by_one: list[Any] = []
        together: list[Any] = []
        for _ in range(30):
            turn = []
            for _ in range(rng.randint(1, 6)):
                expected = rng.choice([None, None, live, live - 1, live + 1])
                query = rng.choice([b"", b"revisions=summary"])
                turn.append((rng.choice(texts), expected, query))
            for text, expected, query in turn:
                one_by_one.append(await _put(alone, text, expected, query))
            together += await asyncio.gather(*(_put(gathered, *save) for save in turn))
            status, body = await _asgi(alone, "GET")
            live = json.loads(body)["version"]
        return one_by_one, together

    one_by_one, together = asyncio.run(main())
    assert live_after(together) > 50  # past the kept revisions
    assert {status for status, _ in together} == {200, 409}
    assert [(status, _without_times(body)) for status, body in together] == [
        (status, _without_times(body)) for status, body in one_by_one
    ]
    gathered.state.db.close()
    alone.state.db.close()


def live_after(answers: list[Any]) -> int:
    return max(json.loads(body)["version"] for status, body in answers if status == 200)


def test_saves_gathered_in_one_transaction_answer_what_saves_one_by_one_answer(
    tmp_path: Path,
) -> None:
    """Each gathered save's answer re-uses the revisions the save before it in the same
    transaction read: what a save made alone answers (but for the times), and the newest
    byte for byte what a server that has kept nothing builds from the database."""
    texts = [f"# Scout\n\nSave number {n}.\n" for n in range(8)]
    alone = create_app(tmp_path / "alone.sqlite3", WORKSPACE_BASIC)
    gathered = create_app(tmp_path / "gathered.sqlite3", WORKSPACE_BASIC)
    commits: list[int] = []
    gathered.state.db.on_change(lambda: commits.append(1))

    async def main() -> tuple[list[Any], list[Any]]:
        one_by_one = [await _put(alone, text) for text in texts]
        together = [await _put(gathered, text) for text in texts[:3]]
        together += await asyncio.gather(*(_put(gathered, text) for text in texts[3:]))
        return one_by_one, together

    one_by_one, together = asyncio.run(main())
    assert len(commits) == 4  # three alone, then five in one
    assert [status for status, _ in together] == [200] * len(texts)
    assert [_without_times(body) for _, body in together] == [
        _without_times(body) for _, body in one_by_one
    ]
    first = json.loads(together[0][1])["version"]
    assert [json.loads(body)["version"] for _, body in together] == list(range(first, first + 8))
    gathered.state.db.close()
    alone.state.db.close()
    fresh = create_app(tmp_path / "gathered.sqlite3", WORKSPACE_BASIC)  # nothing kept yet
    assert asyncio.run(_asgi(fresh, "GET")) == (200, together[-1][1])
    fresh.state.db.close()


def test_a_conflicting_save_among_gathered_ones_is_refused_alone(tmp_path: Path) -> None:
    """Three saves of one turn, each expecting the version it read: the first is made, the
    second conflicts with the version the first made (409 with it), the third, expecting
    that one, is made on top: as they would be one at a time, in the order they came."""
    app = create_app(tmp_path / "org.sqlite3", WORKSPACE_BASIC)
    status, body = asyncio.run(_asgi(app, "GET"))
    assert status == 200
    live = json.loads(body)["version"]

    async def main() -> list[Any]:
        return await asyncio.gather(
            _put(app, "First.\n", expected=live),
            _put(app, "Second, on a stale version.\n", expected=live),
            _put(app, "Third.\n", expected=live + 1),
        )

    (first, made), (second, refused), (third, on_top) = asyncio.run(main())
    assert (first, second, third) == (200, 409, 200)
    assert json.loads(made)["version"] == live + 1
    assert json.loads(refused)["version"] == live + 1  # the live version, an EXTENSION
    task = json.loads(on_top)
    assert task["version"] == live + 2 and task["content"] == "Third.\n"
    assert [r["content"] for r in task["revisions"][:1]] == ["First.\n"]
    app.state.db.close()


def test_an_unknown_agent_is_a_404_before_a_bad_body(tmp_path: Path) -> None:
    """The loop checks the body first and looks the agent up only when the body is refused,
    so an unknown agent still answers 404 whatever its body, and a known one the 422."""
    app = create_app(tmp_path / "org.sqlite3", WORKSPACE_BASIC)

    async def put(path: str, content: object) -> tuple[int, bytes]:
        body = json.dumps({"content": content}).encode()
        status, _, answer = await asgi_call(app, path, method="PUT", body=body)
        return status, answer

    assert asyncio.run(put("/api/agents/a_nobody/files/task.md", 1))[0] == 404
    assert asyncio.run(put("/api/agents/a_nobody/files/task.md", "Fine.\n"))[0] == 404
    status, body = asyncio.run(put(TASK, 1))
    assert status == 422 and json.loads(body)["error"] == "content must be a string"
    app.state.db.close()
