"""Seeds a new server database from a workspace file, seeded saves included."""

from __future__ import annotations

from app.core.workspace import Workspace
from app.server import note_uses, task_shapes
from app.server.callers import SEED_AUTHOR
from app.server.database import Transaction, utc_now
from app.server.db_open import Database

SCHEMA_VERSION = "1"


def seed_if_new(db: Database, workspace: Workspace) -> bool:
    """Seed ``db`` from ``workspace`` unless it already holds an org; True when it seeded.

    The check and the seeding are one write, so two servers opening the same new file
    seed it once.
    """
    with db.write() as tx:
        if tx.is_seeded():
            return False
        seed(tx, workspace)
        return True


def seed(tx: Transaction, workspace: Workspace) -> None:
    now = utc_now()
    tx.uses_deferred = True  # one used-by index build at the end, not one per note
    tx.set_meta("org_id", workspace.org_id)
    tx.set_meta("org_name", workspace.org_name)
    tx.set_meta("schema_version", SCHEMA_VERSION)
    tx.set_meta("seeded_at", now)
    for guild in workspace.guilds:
        tx.add_guild(guild.id, guild.name)
    for person in workspace.people:
        tx.add_person(person.id, person.name, person.type, person.token)
    operators = [p.id for p in workspace.people if p.type == "operator"]
    author = (tx.person(operators[0]) if operators else None) or SEED_AUTHOR
    for agent in workspace.agents:
        # Version 1 cannot be newer than the first seeded save that replaced it.
        start_at = agent.saves[0].at if agent.saves else now
        tx.add_agent(
            agent.id, agent.name, agent.guild_id, agent.token, agent.task, at=start_at, by=author
        )
        for save in agent.saves:
            by = tx.person(save.by)
            assert by is not None  # the workspace check guarantees it
            tx.save_task(agent.id, save.task, expected_version=None, by=by, at=save.at)
    for file in workspace.files.values():
        tx.put_file(file, by=author, at=now)
    tx.uses_deferred = False
    note_uses.rebuild(tx)
    task_shapes.fill(tx)  # the fleet's first read after the start answers from them
