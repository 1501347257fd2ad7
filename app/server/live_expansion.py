"""Expands an agent's live Task from the server database, as a run gets it."""

from __future__ import annotations

from app.core.expander import Expansion
from app.server.database import AgentRecord, Transaction
from app.server.note_uses import expand_as_run


def expand_live_task(tx: Transaction, agent: AgentRecord, task_text: str) -> Expansion:
    """``task_text`` expanded as ``agent``, with the notes as ``tx`` sees them (the used-by
    index reads its rows off this very expansion: ``note_uses.expand_as_run``)."""
    return expand_as_run(tx, agent, task_text)
