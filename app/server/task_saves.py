"""PUT task.md: the body checked, then the save, made on the event loop when it is small and
the write is free (SQLite; with the others of the same turn, ``loop_writes``), else in a
thread; answered with the new version's Task.

Only operators write a Task. ``expected_version`` makes the save conditional (409 with the
live version, an EXTENSION, when it is not); ``restored_from`` (EXTENSION) records a restore.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.server.auth import database
from app.server.callers import Caller
from app.server.database import Transaction, VersionConflictError
from app.server.loop_writes import Batch, LoopWrites
from app.server.responses import ApiError
from app.server.routing import ApiRoutes
from app.server.task_answers import TaskAnswers, TaskView
from app.server.task_routes import (
    TASK_PATH,
    TaskAnswerParts,
    agent_known,
    answer_response,
    extensions_on,
    task_answer_parts,
    task_answers,
    task_view,
)

router = ApiRoutes()

SAVE_AT_ONCE_BYTES = 32 * 1024
"""A save of a Task up to this size is made on the event loop when the write lock is free:
a few hundred µs, of which the thread hop would be a third."""


@dataclass(frozen=True, slots=True)
class TaskSave:
    """A PUT's body, checked: the text, the version it must replace, the version it restores."""

    content: str
    size: int  # UTF-8 bytes
    expected: int | None
    restored: int | None


@dataclass(frozen=True, slots=True)
class AskedSave:
    """One save to make and answer: whose, of which Task, in which view, on which server."""

    agent_id: str
    caller: Caller
    save: TaskSave
    view: TaskView
    answers: TaskAnswers  # the server's kept answers (``task_answers``)
    extensions: bool  # the server's EXTENSION parts are on (``extensions_on``)


def asked_of(request: Request, agent_id: str, caller: Caller, save: TaskSave) -> AskedSave:
    return AskedSave(
        agent_id, caller, save, task_view(request), task_answers(request), extensions_on(request)
    )


def asked_save(caller: Caller, body: dict[str, Any], *, extensions: bool) -> TaskSave:
    """The save a PUT asks for, or its 422; ``extensions``: the server's (``extensions_on``)."""
    expected = body.get("expected_version")
    # JSON has one kind of number: 2.0 is the integer 2, as the API document's JSON Schema
    # has it, and integers past 64 bits reach us in that form. bool is an int to Python but
    # not to the API; null, 1.5 and "1" are not integers either.
    if isinstance(expected, float) and expected.is_integer():
        expected = int(expected)
    if "expected_version" in body and type(expected) is not int:
        raise ApiError(422, "expected_version must be an integer")
    if not caller.is_operator:
        raise ApiError(422, "task is not writable")
    content = body.get("content")
    if not isinstance(content, str):
        raise ApiError(422, "content must be a string")
    size = utf8_len(content)
    if size > TASK_MAX_BYTES:
        raise ApiError(422, "write exceeds 256 KB")
    restored = _restored_from(body) if extensions else None
    return TaskSave(content, size, expected, restored)


def save_answer(
    tx: Transaction,
    asked: AskedSave,
    earlier: TaskAnswerParts | None = None,
) -> TaskAnswerParts:
    """Make ``asked`` in ``tx`` and read the new version's answer; encoded once ``tx`` ends.
    ``earlier``: the parts of the same Task's answer read in ``tx`` right after the save of it
    before this one (``loop_writes``)."""
    agent_id, caller, save = asked.agent_id, asked.caller, asked.save
    try:
        if save.restored is None:
            tx.save_task(agent_id, save.content, expected_version=save.expected, by=caller)
        else:
            tx.save_task(
                agent_id,
                save.content,
                expected_version=save.expected,
                by=caller,
                event="task_restored",
                restored_from=save.restored,
            )
    except VersionConflictError as conflict:
        live = {"version": conflict.live_version} if asked.extensions else None
        raise ApiError(409, "version conflict", extra=live) from None
    except KeyError:
        raise ApiError(404, "no such agent") from None
    return task_answer_parts(tx, asked.answers, agent_id, asked.view, earlier)


def put_task_at_once(
    agent_id: str, request: Request, caller: Caller, body: dict[str, Any]
) -> Awaitable[Response | None] | None:
    """On the event loop: the 422s (and a 404 before them), then a small save gathered with
    the others of this turn of the loop into one transaction (``loop_writes``); else None, and
    ``put_task`` makes the save in a thread, checking the body again."""
    if not database(request).on_loop:
        return None  # the 404 and the save are the thread's (``put_task``)
    try:
        save = asked_save(caller, body, extensions=extensions_on(request))
    except ApiError:
        agent_known(agent_id, request)  # an unknown agent is a 404 before any 422
        raise
    if save.size > SAVE_AT_ONCE_BYTES:
        return None
    return _answered_on_loop(
        request.app.state.loop_writes, asked_of(request, agent_id, caller, save)
    )


async def _answered_on_loop(writes: LoopWrites, asked: AskedSave) -> Response | None:
    parts = await saved_on_loop(writes, asked)
    if parts is None:
        return None
    return answer_response(parts.encode(asked.answers), parts.view)


def saved_on_loop(writes: LoopWrites, asked: AskedSave) -> Awaitable[TaskAnswerParts | None]:
    """The parts of the answer to ``asked``, made in the loop's next gathered write (an
    unknown agent is its 404, a stale ``expected_version`` its 409); None when the write stayed
    held, for a thread to make it."""
    # Per Task, whatever the view: the next save of it in the batch follows from this one.
    key = ("task answer", asked.agent_id)

    def work(tx: Transaction, batch: Batch) -> TaskAnswerParts:
        parts = save_answer(tx, asked, batch.shared.get(key))
        batch.shared[key] = parts
        return parts

    return writes.write(work)


@router.put(TASK_PATH, reads_body=True, at_once=put_task_at_once)
def put_task(
    agent_id: str,
    request: Request,
    caller: Caller,
    body: dict[str, Any],
) -> Response:
    agent_known(agent_id, request)  # again when the loop checked it: a save it handed over
    save = asked_save(caller, body, extensions=extensions_on(request))
    asked = asked_of(request, agent_id, caller, save)
    with database(request).write() as tx:
        parts = save_answer(tx, asked)
    return answer_response(parts.encode(asked.answers), parts.view)


def _restored_from(body: dict[str, Any]) -> int | None:
    """EXTENSION: the version a save puts back (the app's Restore sends it), so the change log
    records a restore rather than an edit; absent for an ordinary save."""
    if "restored_from" not in body:
        return None
    value = body["restored_from"]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if type(value) is not int or value < 1:
        raise ApiError(422, "restored_from must be a version number")
    return value
