"""Expands an agent's live Task from the server database, as a run gets it."""

from __future__ import annotations

from app.core.expander import Expansion, expand_embeds, task_display_path
from app.core.models import Reader
from app.server.database import AgentRecord, Transaction


def expand_live_task(tx: Transaction, agent: AgentRecord, task_text: str) -> Expansion:
    """``task_text`` expanded as ``agent``, with the notes as ``tx`` sees them."""
    org_id = tx.meta("org_id")
    return expand_embeds(
        task_text,
        org_id=org_id,
        reader=Reader(agent.id, agent.guild_id),
        lookup=tx.file,
        task_path=task_display_path(org_id, agent.id),
    )
