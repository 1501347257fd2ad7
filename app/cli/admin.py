"""``taskdesk admin``: the people and agents of a running team server, and their tokens.

``taskdesk admin [--db URL|FILE] list``
``taskdesk admin add-person ID NAME [--type operator|member]``  prints the new token once
``taskdesk admin add-agent ID NAME --guild GUILD``              prints the new token once
``taskdesk admin rotate ID``                                    a new token; the old one stops
``taskdesk admin revoke ID``                                    the token stops working

The database is the server's own (``--db`` or ``TASKDESK_DB``), changed while it serves:
no restart, and the workspace file (which only seeds an empty database) is left alone. A
revoked or rotated token gets 401 on its next request on every worker, and its open event
streams close. Only the new token's SHA-256 is stored; the token is printed once.
"""

from __future__ import annotations

import argparse
import os
import re

from app.cli.common import EXIT_OK, UsageError

NAME = "admin"
HELP = "add people and agents to a server's database, rotate and revoke their tokens"

_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=os.environ.get("TASKDESK_DB"),
        help="the server's database: a postgresql:// URL or a SQLite file (default: TASKDESK_DB)",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="everyone there, and whether their token works")
    person = actions.add_parser("add-person", help="a new person; prints their token once")
    person.add_argument("id")
    person.add_argument("name")
    person.add_argument("--type", choices=("operator", "member"), default="member")
    agent = actions.add_parser("add-agent", help="a new agent; prints its token once")
    agent.add_argument("id")
    agent.add_argument("name")
    agent.add_argument("--guild", required=True)
    rotate = actions.add_parser("rotate", help="a new token for ID; the old one stops working")
    rotate.add_argument("id")
    revoke = actions.add_parser("revoke", help="ID's token stops working")
    revoke.add_argument("id")


def run(args: argparse.Namespace) -> int:
    from app.server.database import DatabaseError
    from app.server.db_open import database_target, open_server_database

    if not args.db:
        raise UsageError(
            "say which database: --db postgresql://… (or a SQLite file), or TASKDESK_DB"
        )
    target = database_target(args.db)
    try:
        db = open_server_database(target)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    try:
        with db.write() as tx:
            if not tx.is_seeded():
                raise UsageError(f"database {db.where} is empty: start the server on it first")
            lines = _act(tx, args)
    finally:
        db.close()
    for line in lines:
        print(line, flush=True)
    return EXIT_OK


def _act(tx: object, args: argparse.Namespace) -> list[str]:
    from app.core.resource_files import default_task_template
    from app.server.callers import SEED_AUTHOR
    from app.server.database import Transaction, utc_now
    from app.server.tokens import new_token

    assert isinstance(tx, Transaction)
    known = {row[0]: row for row in tx.people()}
    if args.action == "list":
        return ["\t".join(row) for row in known.values()]
    if args.action in ("add-person", "add-agent"):
        if not _ID.match(args.id):
            raise UsageError(f"{args.id!r} is not an id (letters, digits, _ . -; up to 64)")
        if args.id in known:
            raise UsageError(f"{args.id} is there already (rotate gives it a new token)")
        if not args.name.strip():
            raise UsageError("the name must not be empty")
        token = new_token()
        if args.action == "add-person":
            tx.add_person(args.id, args.name.strip(), args.type, token)
        else:
            if not tx.guild_exists(args.guild):
                raise UsageError(f"no guild {args.guild!r} in this org")
            tx.add_agent(
                args.id,
                args.name.strip(),
                args.guild,
                token,
                default_task_template(),
                at=utc_now(),
                by=SEED_AUTHOR,
            )
        return [f"added {args.id}; its token (shown this once): {token}"]
    if args.id not in known:
        raise UsageError(f"no person or agent {args.id!r} in this org")
    if args.action == "rotate":
        token = new_token()
        tx.replace_tokens({args.id: token})
        return [f"rotated {args.id}; its new token (shown this once): {token}"]
    tx.revoke_token(args.id)
    return [f"revoked {args.id}: its token no longer works"]
