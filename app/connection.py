"""Which server to open, with what token, and signing in to it (blocking: off the GUI thread)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.models import AgentRow, Guild, Me

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StartPlan:
    """Where the window starts: ``url`` None is the embedded default; ``token`` None: ask."""

    url: str | None
    token: str | None


@dataclass(slots=True)
class Connection:
    """A signed-in server: its client, who we are, and its agents and guilds."""

    url: str
    client: Any  # app.client.TaskdeskClient
    me: Me
    agents: list[AgentRow]
    guilds: list[Guild]
    store: Any = None  # app.store.LocalStore: drafts, history, offline cache
    token: str = field(default="", repr=False)  # kept so logs can scrub it; never shown
    local: bool = False
    initial_agent_id: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def server_key(self) -> str:
        """What the store files this server's drafts under (the local one has a fixed key:
        its port changes on every start)."""
        from app.store import EMBEDDED_SERVER_KEY, server_key

        return EMBEDDED_SERVER_KEY if self.local else server_key(self.url)

    def close(self) -> None:
        self.client.close()


@dataclass(slots=True)
class StartOutcome:
    """What start-up found: the token store, the plan, and for the local workspace its
    running server and the signed-in connection."""

    tokens: Any
    plan: StartPlan
    embedded: Any = None  # app.embedded.EmbeddedServer
    connection: Connection | None = None


def begin(server_url: str | None, data_dir: Path, launch: Any = None) -> StartOutcome:
    """All of start-up that can happen before the operator is asked anything, in one go.

    With no server to open, this starts the embedded default and signs in to it, so the
    first Task needs no round trip through the GUI thread. Blocking: run it off the GUI
    thread. ``launch``: the local server the launcher already started (EmbeddedLaunch).
    """
    if server_url is not None or _remembered_server() is not None:
        if launch is not None:
            launch.cancel()
        tokens = token_store(server_url)
        return StartOutcome(tokens, plan_start(server_url, tokens))
    # The local workspace needs no keyring: leaving it unloaded saves a slow import.
    from app.embedded import launch_embedded

    plan = StartPlan(None, None)
    tokens = None
    embedded = (launch if launch is not None else launch_embedded(data_dir)).wait()
    try:
        connection = open_connection(embedded.url, embedded.token, local=True)
    except BaseException:
        embedded.stop()
        raise
    return StartOutcome(tokens, plan, embedded, connection)


def token_store(server_url: str | None = None) -> Any:
    """The session's token store; ``server_url``: the ``--server`` TASKDESK_TOKEN is for."""
    from app.credentials import TokenStore
    from app.paths import token_file_path

    return TokenStore(token_file_path(), env_server=server_url)


def plan_start(server_url: str | None, tokens: Any) -> StartPlan:
    """The server from the command line, else the remembered one, else the embedded default.

    The token comes from ``tokens`` (TASKDESK_TOKEN for this session, the keyring, the
    operator's token file); None means the window asks. Blocking (settings file, keyring):
    call it off the GUI thread.
    """
    url = server_url or _remembered_server()
    if url is None:
        return StartPlan(None, None)
    url = url.rstrip("/")
    found = tokens.token_for(url)
    return StartPlan(url, found.token if found is not None else None)


def open_connection(
    url: str,
    token: str,
    *,
    tokens: Any = None,
    store: Any = None,
    remember: bool = False,
    local: bool = False,
) -> Connection:
    """Sign in and list agents and guilds; raises the client's typed errors on failure.

    Once the server has accepted the token it is kept in ``tokens`` (for the session, and in
    the keyring when ``remember``), and a remote server's URL becomes the one to reopen.
    """
    from app.client import TaskdeskClient

    client = TaskdeskClient(url, token)
    try:
        me = client.me()
        agents = client.agents()
        guilds = client.guilds()
    except BaseException:
        client.close()
        raise
    if store is None:
        from app.paths import store_path
        from app.store import LocalStore

        store = LocalStore(store_path())
    connection = Connection(
        url, client, me, list(agents), list(guilds), store, token=token, local=local
    )
    connection.initial_agent_id = _last_agent(connection.server_key)
    if not local:
        connection.extras["token_note"] = _keep(url, token, tokens, remember)
    return connection


def keyring_available() -> bool:
    try:
        from app.credentials import keyring_available as available

        return available()
    except Exception:  # no usable keyring backend is a normal state, not a failure
        return False


def _remembered_server() -> str | None:
    from app.paths import settings_path
    from app.settings import load_settings

    loaded = load_settings(settings_path())  # a broken file reads as the defaults
    return loaded.settings.last_server_url or None


def _last_agent(key: str) -> str | None:
    from app.paths import settings_path
    from app.settings import load_settings

    return load_settings(settings_path()).settings.last_agent.get(key)


def remember_last_agent(key: str, agent_id: str) -> None:
    """The agent to reopen next time on this server (blocking: a settings write)."""
    from app.paths import settings_path
    from app.settings import SettingsError, load_settings, save_settings

    settings = load_settings(settings_path()).settings
    if settings.last_agent.get(key) == agent_id:
        return
    settings.last_agent[key] = agent_id
    try:
        save_settings(settings, settings_path())
    except SettingsError as exc:
        log.warning("%s", exc.message)


def _keep(url: str, token: str, tokens: Any, remember: bool) -> str:
    """Keep the token (session, or keyring when asked) and the URL (never the token)."""
    from app.credentials import CredentialsError
    from app.paths import settings_path
    from app.settings import SettingsError, load_settings, save_settings

    note = ""
    if tokens is not None and remember:
        try:
            note = tokens.remember(url, token).note
        except CredentialsError as exc:
            note = exc.message
    settings = load_settings(settings_path()).settings
    settings.remember_server(url)
    settings.last_server_url = url
    try:
        save_settings(settings, settings_path())
    except SettingsError as exc:
        log.warning("%s", exc.message)
    return note
