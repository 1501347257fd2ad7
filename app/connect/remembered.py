"""What Taskdesk remembers between starts, through the settings' one owner (``settings_owner``).

Reads are of the settings in memory (the file is read once); a change is in memory at once and
written by the owner's writer (the disk lane, once the window has installed it).
"""

from __future__ import annotations

from app.connect.settings import Settings
from app.connect.settings_owner import change_settings, settings


def forget_last_server() -> None:
    """The next start opens the local workspace (the servers stay listed)."""

    def edit(s: Settings) -> bool:
        if s.last_server_url is None:
            return False
        s.last_server_url = None
        return True

    change_settings(edit)


def remembered_server() -> str | None:
    """The remote server to reopen at start, None for the local workspace."""
    return settings().last_server_url or None


def last_agent(key: str) -> str | None:
    """The agent last open on the server filed under ``key``."""
    return settings().last_agent.get(key)


def opened_agents(key: str) -> list[str]:
    """The agents opened by id on a server that lists none."""
    return list(settings().opened_agents.get(key, []))


def side_by_side_remembered() -> bool:
    """Whether View › Side by side was on when Taskdesk last closed."""
    return settings().side_by_side


def remember_side_by_side(on: bool) -> None:
    """Keep View › Side by side for the next start."""

    def edit(s: Settings) -> bool:
        if s.side_by_side == on:
            return False
        s.side_by_side = on
        return True

    change_settings(edit)


def agent_guilds(key: str) -> dict[str, str]:
    """The guild the operator gave for each agent opened by id (agent id to guild id)."""
    return dict(settings().agent_guilds.get(key, {}))


def remember_last_agent(
    key: str, agent_id: str, *, opened_by_id: bool = False, guild_id: str = ""
) -> None:
    """The agent to reopen next time on this server.

    ``opened_by_id``: the server lists no agents, so this one is also kept in the list of
    agents opened by id on it, with ``guild_id`` when the operator gave one. One change under
    the owner's lock, so two can't undo each other.
    """

    def edit(s: Settings) -> bool:
        opened = s.opened_agents.get(key, [])
        new_opened = opened_by_id and agent_id not in opened
        guilds = s.agent_guilds.get(key, {})
        new_guild = opened_by_id and bool(guild_id) and guilds.get(agent_id) != guild_id
        if s.last_agent.get(key) == agent_id and not new_opened and not new_guild:
            return False
        s.last_agent[key] = agent_id
        if new_opened:
            s.opened_agents[key] = [*opened, agent_id]
        if new_guild:
            s.agent_guilds[key] = {**guilds, agent_id: guild_id}
        return True

    change_settings(edit)


def remember_server(url: str) -> None:
    """``url`` is the server to reopen, first among the recent ones (never its token)."""

    def edit(s: Settings) -> bool:
        s.remember_server(url)
        s.last_server_url = url
        return True

    change_settings(edit)
