"""The fleet for the command line: health rows and search hits from a workspace or a server.

A server with the fleet extension answers them itself (the very rows the app shows); a
workspace file, or a server without the extension, is read agent by agent through the same
expander and the same row builder, so the rows are the same but for what only a server knows
(open proposals, runs).
"""

from __future__ import annotations

import sys
from typing import Any

from app.cli.common import UsageError
from app.cli.org_source import OrgSource
from app.core.expander import expand_embeds, task_display_path
from app.core.fleet_rows import BadPatternError, LineSearch, expansion_facts, health_row
from app.core.models import Reader


def _server_client(source: OrgSource) -> Any | None:
    """The client of a ``--server`` source; None for a workspace."""
    return getattr(source, "client", None)


def _expanded(source: OrgSource, agent_id: str, guild_id: str, text: str) -> Any:
    return expand_embeds(
        text,
        org_id=source.org_id,
        reader=Reader(agent_id, guild_id),
        lookup=source.lookup,
        task_path=task_display_path(source.org_id, agent_id),
    )


def _asked_server(source: OrgSource, ask: Any) -> Any | None:
    """The server's own answer; None when it lacks the fleet (then it is worked out here)."""
    client = _server_client(source)
    if client is None:
        return None
    from app.client.errors import BadPattern, NotFound, TaskdeskError

    try:
        return ask(client)
    except NotFound:
        print(
            f"taskdesk: {source.where} has no fleet endpoints: reading each agent instead",
            file=sys.stderr,
            flush=True,
        )
        return None
    except BadPattern as bad:
        raise UsageError(bad.message) from None
    except TaskdeskError as exc:
        raise UsageError(exc.message) from None


def health_rows(source: OrgSource) -> list[dict[str, Any]]:
    """``GET /api/org/health``'s rows."""
    from dataclasses import asdict

    answered = _asked_server(source, lambda client: client.org_health())
    if answered is not None:
        # ``unknown`` is the app's own mark for a spec-only server's rows, not on the wire.
        return [
            {**{k: v for k, v in asdict(row).items() if k != "unknown"}, "shape": list(row.shape)}
            for row in answered
        ]
    rows = []
    for agent in source.agents():
        text, version = source.task(agent.id)
        expansion = _expanded(source, agent.id, agent.guild_id, text)
        rows.append(
            health_row(
                agent.id, agent.name, agent.guild_id, version, text, **expansion_facts(expansion)
            )
        )
    return rows


def search_hits(
    source: OrgSource, query: str, *, in_prompt: bool, regex: bool, guild_id: str | None
) -> list[dict[str, Any]]:
    """``GET /api/org/search``'s agents."""
    if not query:
        raise UsageError("say what to search for")
    try:
        search = LineSearch(query, regex=regex)
    except BadPatternError:
        raise UsageError(f"the pattern {query!r} is not a Python regular expression") from None
    answered = _asked_server(
        source,
        lambda client: client.search(query, in_prompt=in_prompt, regex=regex, guild_id=guild_id),
    )
    if answered is not None:
        return [
            {
                "id": a.id,
                "name": a.name,
                "matches": [
                    {"line": m.line, "column": m.column, "text": m.text} for m in a.matches
                ],
            }
            for a in answered
        ]
    hits = []
    for agent in source.agents():
        if guild_id is not None and agent.guild_id != guild_id:
            continue
        text, _ = source.task(agent.id)
        if in_prompt:
            text = _expanded(source, agent.id, agent.guild_id, text).text
        matches = search.lines(text)
        if matches:
            hits.append({"id": agent.id, "name": agent.name, "matches": matches})
    return hits
