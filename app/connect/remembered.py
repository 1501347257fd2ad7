"""What Taskdesk remembers between starts in its settings file (blocking: reads and writes)."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def forget_last_server() -> None:
    """The next start opens the local workspace (the servers stay listed)."""
    from app.connect.paths import settings_path
    from app.connect.settings import SettingsError, load_settings, save_settings

    settings = load_settings(settings_path()).settings
    if settings.last_server_url is None:
        return
    settings.last_server_url = None
    try:
        save_settings(settings, settings_path())
    except SettingsError as exc:
        log.warning("%s", exc.message)


def remembered_server() -> str | None:
    """The remote server to reopen at start, None for the local workspace."""
    from app.connect.paths import settings_path
    from app.connect.settings import load_settings

    loaded = load_settings(settings_path())  # a broken file reads as the defaults
    return loaded.settings.last_server_url or None


def last_agent(key: str) -> str | None:
    """The agent last open on the server filed under ``key``."""
    from app.connect.paths import settings_path
    from app.connect.settings import load_settings

    return load_settings(settings_path()).settings.last_agent.get(key)


def opened_agents(key: str) -> list[str]:
    """The agents opened by id on a server that lists none."""
    from app.connect.paths import settings_path
    from app.connect.settings import load_settings

    return list(load_settings(settings_path()).settings.opened_agents.get(key, []))


def side_by_side_remembered() -> bool:
    """Whether View › Side by side was on when Taskdesk last closed (blocking: a read)."""
    from app.connect.paths import settings_path
    from app.connect.settings import load_settings

    return load_settings(settings_path()).settings.side_by_side


def remember_side_by_side(on: bool) -> None:
    """Keep View › Side by side for the next start (blocking: a settings write)."""
    from app.connect.paths import settings_path
    from app.connect.settings import SettingsError, load_settings, save_settings

    settings = load_settings(settings_path()).settings
    if settings.side_by_side == on:
        return
    settings.side_by_side = on
    try:
        save_settings(settings, settings_path())
    except SettingsError as exc:
        log.warning("%s", exc.message)


def agent_guilds(key: str) -> dict[str, str]:
    """The guild the operator gave for each agent opened by id (agent id to guild id)."""
    from app.connect.paths import settings_path
    from app.connect.settings import load_settings

    return dict(load_settings(settings_path()).settings.agent_guilds.get(key, {}))


def remember_last_agent(
    key: str, agent_id: str, *, opened_by_id: bool = False, guild_id: str = ""
) -> None:
    """The agent to reopen next time on this server (blocking: a settings write).

    ``opened_by_id``: the server lists no agents, so this one is also kept in the list of
    agents opened by id on it, with ``guild_id`` when the operator gave one. One read and one
    write, so two can't undo each other.
    """
    from app.connect.paths import settings_path
    from app.connect.settings import SettingsError, load_settings, save_settings

    settings = load_settings(settings_path()).settings
    opened = settings.opened_agents.get(key, [])
    new_opened = opened_by_id and agent_id not in opened
    guilds = settings.agent_guilds.get(key, {})
    new_guild = opened_by_id and bool(guild_id) and guilds.get(agent_id) != guild_id
    if settings.last_agent.get(key) == agent_id and not new_opened and not new_guild:
        return
    settings.last_agent[key] = agent_id
    if new_opened:
        settings.opened_agents[key] = [*opened, agent_id]
    if new_guild:
        settings.agent_guilds[key] = {**guilds, agent_id: guild_id}
    try:
        save_settings(settings, settings_path())
    except SettingsError as exc:
        log.warning("%s", exc.message)
