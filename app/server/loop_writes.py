"""Small writes made on the event loop, a turn's worth together: one transaction, one commit.

Under load, many saves arrive in the same turn of the loop (one per connection that was
answered in the last). Made one by one, each paid its own BEGIN and COMMIT, and each commit
wrote every page it touched to the WAL, although the next save touched most of the same
pages. Gathered, they share one transaction: each runs in a savepoint of its own, so one
that fails (a 409, a 404) is undone alone and the others stand, and every answer waits for
the one commit that makes its write durable. A lone write waits one turn of the loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from app.server.database import Transaction
from app.server.db_open import Database

T = TypeVar("T")

TRIES, STEP_SECONDS = 50, 0.001
"""Writes finding the write held (a big save in a thread, another process) try again each ms
for 50 ms; then each is handed back (None), for its caller to make in a thread. Handed to a
thread at once, a save would hold the lock there, the saves behind it would find it held and
go to threads too, and under load none came back."""


GATHERED_AT_MOST = 32
"""Writes in one transaction, at most: a save is ~0.1-0.2 ms, so one turn of the loop holds
the others (a GET, a stream's events) for a few ms at most; the rest go in the next turn."""


@dataclass(slots=True)
class Batch:
    """What the writes of one transaction may leave for the ones after them in it: each
    write's answer is read inside the transaction, and the next write of the same Task
    re-uses what the last one read instead of reading it again."""

    shared: dict[Any, Any] = field(default_factory=dict)


Work = Callable[[Transaction, Batch], T]
"""One write: made in ``tx`` (inside its savepoint), its result handed to its caller once
the transaction is committed; what it raises is its caller's alone."""


@dataclass(slots=True)
class _Asked(Generic[T]):
    work: Work[T]
    done: asyncio.Future[T | None]


class LoopWrites:
    """The event loop's writes, gathered per turn of the loop: on a database that writes on
    the loop (SQLite, ``Database.on_loop``)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._asked: list[_Asked[Any]] = []
        self._flush_due = False  # a flush is scheduled, or waits for the write to be free

    def write(self, work: Work[T]) -> asyncio.Future[T | None]:
        """``work``'s result once committed; None when the write stayed held for TRIES steps
        (write in a thread then). Only the event loop's thread may call it."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T | None] = loop.create_future()
        self._asked.append(_Asked(work, done))
        if not self._flush_due:
            self._flush_due = True
            # After the callbacks already due in this turn: every request that arrived with
            # this one has asked its write by then.
            loop.call_soon(self._flush, loop, 0)
        return done

    def _flush(self, loop: asyncio.AbstractEventLoop, tries: int) -> None:
        count = min(len(self._asked), GATHERED_AT_MOST)
        writing = self._db.write_now(writes=count)
        if writing is None and tries < TRIES:
            loop.call_later(STEP_SECONDS, self._flush, loop, tries + 1)
            return
        if writing is None:  # held all along: every write waiting goes to a thread
            asked, self._asked = self._asked, []
            self._flush_due = False
            for each in asked:
                _settle(each.done, None)
            return
        asked, self._asked = self._asked[:count], self._asked[count:]
        if self._asked:
            loop.call_soon(self._flush, loop, 0)  # the rest, after what is due meanwhile
        else:
            self._flush_due = False
        made: list[tuple[asyncio.Future[Any], Any]] = []
        try:
            with writing as tx:
                batch = Batch()
                for each in asked:
                    result = _in_savepoint(tx, batch, each)
                    if each.done.done():
                        continue  # it failed, undone alone
                    made.append((each.done, result))
        except Exception as exc:  # the commit refused (a full disk): none of them was made
            for each in asked:
                _fail(each.done, exc)
            return
        for done, result in made:
            _settle(done, result)


def _in_savepoint(tx: Transaction, batch: Batch, asked: _Asked[Any]) -> Any:
    """``asked``'s work in a savepoint: its result, or its failure set on its future and its
    writes undone (the transaction goes on for the others)."""
    tx.conn.execute("SAVEPOINT loop_write")
    try:
        result = asked.work(tx, batch)
    except Exception as exc:
        tx.conn.execute("ROLLBACK TO loop_write")
        tx.conn.execute("RELEASE loop_write")
        _fail(asked.done, exc)
        return None
    tx.conn.execute("RELEASE loop_write")
    return result


def _settle(done: asyncio.Future[Any], result: Any) -> None:
    if not done.done():
        done.set_result(result)


def _fail(done: asyncio.Future[Any], exc: BaseException) -> None:
    if not done.done():
        done.set_exception(exc)
