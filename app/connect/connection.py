"""Which server to open, with what token, and signing in to it (blocking: off the GUI thread).

A server that lacks the reference server's EXTENSION endpoints still opens: what it lacks is
recorded in ``Connection.features`` and the app falls back (see ``app.connect.server_features``).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from app.connect.remembered import (
    agent_guilds,
    forget_last_server,
    last_agent,
    opened_agents,
    remembered_server,
)
from app.connect.server_features import (
    ServerFeatures,
    assumed_operator,
    lacks_endpoint,
    not_a_taskdesk_server,
    org_id_from_display_path,
)
from app.core.models import AgentRow, EmbeddableNote, Guild, Me, TaskDoc
from app.core.user_message import UserMessage, warning

if TYPE_CHECKING:  # imported where used: keyring and requests are slow to load at start-up
    from app.client import TaskdeskClient
    from app.connect.credentials import TokenStore
    from app.connect.embedded import EmbeddedLaunch, EmbeddedServer
    from app.store import LocalStore

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
    client: TaskdeskClient
    me: Me
    agents: list[AgentRow]
    guilds: list[Guild]
    store: LocalStore  # drafts, history, offline cache
    token: str = field(default="", repr=False)  # kept so logs can scrub it; never shown
    local: bool = False
    initial_agent_id: str | None = None
    token_note: UserMessage | None = None  # a token asked to be kept that could not be
    features: ServerFeatures = field(default_factory=ServerFeatures)
    offline_as_of: str | None = None  # set when the server was unreachable: the cached copy's time

    @property
    def server_key(self) -> str:
        """What the store files this server's drafts under (the local one has a fixed key:
        its port changes on every start)."""
        from app.store import EMBEDDED_SERVER_KEY, server_key

        return EMBEDDED_SERVER_KEY if self.local else server_key(self.url)

    def close(self) -> None:
        self.client.close()

    def guild_ids(self) -> list[str]:
        """Every guild known (listed, or named by an agent row), to ask embed-status about."""
        known = [g.id for g in self.guilds] + [a.guild_id for a in self.agents if a.guild_id]
        return list(dict.fromkeys(known))

    def learn_from_task(self, doc: TaskDoc) -> bool:
        """What a Task read tells about a server lacking extensions: the org id (from its
        display path) and whether it sends ETags. True when the features changed."""
        if not self.me.org_id:
            org_id = org_id_from_display_path(doc.display_path)
            if org_id:
                self.me = dataclasses.replace(self.me, org_id=org_id)
        # One Task with an ETag proves the server sends them (a copy from the offline cache
        # may predate that); the first without one says it doesn't, until proved otherwise.
        etags = True if doc.etag is not None else self.features.etags is True
        changed = etags != self.features.etags
        self.features.etags = etags
        return changed

    def learn_note_text(self, shared: bool) -> bool:
        """The preview found out whether the server shares note text. True when it changed."""
        if self.features.note_text is shared:
            return False
        self.features.note_text = shared
        return True

    def add_agent(self, agent: AgentRow) -> None:
        """An agent opened by id (the server lists none): known from now on; its guild, when
        given, can now be asked about."""
        self.agents = [a for a in self.agents if a.id != agent.id] + [agent]
        self.features.embed_check = bool(self.guild_ids()) or self.features.agent_list


@dataclass(slots=True)
class StartOutcome:
    """What start-up found: the token store, the plan, and for the local workspace its
    running server and the signed-in connection."""

    tokens: TokenStore | None  # None for the local workspace: it needs no keyring
    plan: StartPlan
    embedded: EmbeddedServer | None = None
    connection: Connection | None = None


def begin(
    server_url: str | None,
    data_dir: Path,
    launch: EmbeddedLaunch | None = None,
    *,
    local: bool = False,
    tokens: TokenStore | None = None,
) -> StartOutcome:
    """All of start-up that can happen before the operator is asked anything, in one go.

    With no server to open, this starts the embedded default and signs in to it, so the
    first Task needs no round trip through the GUI thread. Blocking: run it off the GUI
    thread. ``launch``: the local server the launcher already started (EmbeddedLaunch).
    ``tokens``: this session's token store, when it has one (File › Recent servers): the
    tokens it keeps for the session are found again, not asked for.
    """
    if local:
        forget_last_server()  # the local workspace is where the next start goes too
    elif server_url is not None or remembered_server() is not None:
        if launch is not None:
            launch.cancel()
        found = tokens if tokens is not None else token_store(server_url)
        return StartOutcome(found, plan_start(server_url, found))
    # The local workspace needs no keyring: leaving it unloaded saves a slow import.
    from app.connect.embedded import launch_embedded

    plan = StartPlan(None, None)
    launch = launch if launch is not None else launch_embedded(data_dir)
    # The HTTP client's modules (requests: ~90 ms) load while the server starts, not after.
    import app.client.api  # noqa: F401

    embedded = launch.wait()
    try:
        connection = open_connection(embedded.url, embedded.token, local=True)
    except BaseException:
        embedded.stop()
        raise
    return StartOutcome(None, plan, embedded, connection)


def token_store(server_url: str | None = None) -> TokenStore:
    """The session's token store; ``server_url``: the ``--server`` TASKDESK_TOKEN is for."""
    from app.connect.credentials import TokenStore
    from app.connect.paths import token_file_path

    return TokenStore(token_file_path(), env_server=server_url)


def plan_start(server_url: str | None, tokens: TokenStore) -> StartPlan:
    """The server from the command line, else the remembered one, else the embedded default.

    The token comes from ``tokens`` (TASKDESK_TOKEN for this session, the keyring, the
    operator's token file); None means the window asks. Blocking (settings file, keyring):
    call it off the GUI thread.
    """
    url = server_url or remembered_server()
    if url is None:
        return StartPlan(None, None)
    url = url.rstrip("/")
    found = tokens.token_for(url)
    return StartPlan(url, found.token if found is not None else None)


def open_connection(
    url: str,
    token: str,
    *,
    tokens: TokenStore | None = None,
    store: LocalStore | None = None,
    remember: bool = False,
    in_file: bool = False,
    local: bool = False,
) -> Connection:
    """Sign in and list agents and guilds; raises the client's typed errors on failure.

    A server without ``/api/me``, ``/api/org/agents`` or ``/api/org/guilds`` still opens
    (``Connection.features`` says what it lacks): the token is then checked on the spec's
    ``/api/org/embeddable-notes``, the person is taken to be an operator, and the agents are
    the ones opened by id on this server before. Once the server has accepted the token it
    is kept in ``tokens`` (for the session, and in the keyring when ``remember``), and a
    remote server's URL becomes the one to reopen. A server that can't be reached opens on
    the agents last seen there (``Connection.offline_as_of``), when there are any.
    """
    from app.client import TaskdeskClient
    from app.client.errors import Offline, ServerError
    from app.store import EMBEDDED_SERVER_KEY, server_key

    if store is None:
        from app.connect.paths import store_path
        from app.store import LocalStore

        store = LocalStore(store_path())
    key = EMBEDDED_SERVER_KEY if local else server_key(url)
    client = TaskdeskClient(url, token)
    try:
        features, me, agents, guilds = _sign_in(client, url)
    except (Offline, ServerError):
        # The server is away: open on what was last seen there, if anything was, so the
        # operator can read and edit; the session saves once the server is back.
        seen = _last_seen(store, key)
        if seen is None:
            client.close()
            raise
        me, agents, guilds, as_of = seen
        client.ask_compact_notes()  # only a server with extensions left what is opened here
        connection = Connection(url, client, me, agents, guilds, store, token=token, local=local)
        connection.offline_as_of = as_of
        connection.initial_agent_id = last_agent(connection.server_key)
        return connection
    except BaseException:
        client.close()
        raise
    _remember_seen(store, key, me, agents, guilds, complete=features.me and features.agent_list)
    connection = Connection(
        url, client, me, list(agents), list(guilds), store, token=token, local=local
    )
    connection.features = features
    if not features.agent_list:
        guilds_given = agent_guilds(connection.server_key)
        connection.agents = [
            _row_by_id(i, guild_id=guilds_given.get(i, ""))
            for i in opened_agents(connection.server_key)
        ]
    features.embed_check = bool(connection.guild_ids()) or features.agent_list
    connection.initial_agent_id = last_agent(connection.server_key)
    if not local:
        connection.token_note = _keep(url, token, tokens, remember, in_file)
    return connection


_T = TypeVar("_T")


def _remember_seen(
    store: LocalStore, key: str, me: Me, agents: list[AgentRow], guilds: list[Guild], complete: bool
) -> None:
    """Keep who we are and the agent list for opening offline later (best effort)."""
    if not complete:
        return  # a server lacking the extensions gives nothing worth opening offline
    try:
        store.put_me(key, me)
        store.put_agents(key, agents)
        store.put_guilds(key, guilds)
    except Exception as exc:  # the store reports its own failures where they matter
        log.info("could not keep the agent list for offline use: %s", exc)


def _last_seen(store: LocalStore, key: str) -> tuple[Me, list[AgentRow], list[Guild], str] | None:
    """Who we were and the agents last seen on this server, with when; None if never seen."""
    try:
        me, agents, guilds = store.get_me(key), store.get_agents(key), store.get_guilds(key)
    except Exception as exc:
        log.info("no offline copy of the agent list: %s", exc)
        return None
    if me is None or agents is None:
        return None
    seen_at = min(me.fetched_at, agents.fetched_at)
    as_of = seen_at.isoformat() if hasattr(seen_at, "isoformat") else str(seen_at)
    return me.value, list(agents.value), list(guilds.value) if guilds else [], as_of


def _unless_missing(call: Callable[[], _T]) -> _T | None:
    """The endpoint's answer, or None when the server lacks the endpoint."""
    try:
        return call()
    except Exception as exc:
        if lacks_endpoint(exc):
            log.info("the server lacks an extension endpoint: %s", exc)
            return None
        raise


def _sign_in(
    client: TaskdeskClient, url: str
) -> tuple[ServerFeatures, Me, list[AgentRow], list[Guild]]:
    """Who we are, the agents and the guilds, each from its extension endpoint if any."""
    features = ServerFeatures()
    me = _unless_missing(client.me)
    if me is None:
        # Check the token (and that this is a Taskdesk server) on a spec endpoint instead.
        try:
            listed = client.embeddable_notes()
        except Exception as exc:
            if lacks_endpoint(exc):
                raise not_a_taskdesk_server(url) from None
            raise
        features.me = False
        me = assumed_operator()
    else:
        listed = None
        client.ask_compact_notes()  # a server with extensions: the picker's list, compact
    agents = _unless_missing(client.agents)
    guilds = _unless_missing(client.guilds)
    features.agent_list = agents is not None
    features.guild_names = guilds is not None
    if not features.is_full:
        # Not the reference server: learn now, not at the first embed, whether notes are shared.
        features.note_text = _shares_note_text(client, listed)
    return features, me, list(agents or []), list(guilds or [])


def _shares_note_text(client: TaskdeskClient, listed: list[EmbeddableNote] | None) -> bool | None:
    """Ask for one note the picker lists; None when that can't tell (nothing listed, trouble)."""
    from app.client.errors import TaskdeskError

    try:
        notes = listed if listed is not None else client.embeddable_notes()
        path = next((n.display_path for n in notes if n.kind == "note"), None)
        if path is None:
            return None
        client.note(path)
    except TaskdeskError as exc:
        return False if lacks_endpoint(exc) else None
    return True


def _row_by_id(agent_id: str, version: int = 0, guild_id: str = "") -> AgentRow:
    """An agent the server doesn't list: its id, and its guild when the operator gave it."""
    return AgentRow(agent_id, agent_id, guild_id, version)


def look_up_agent(connection: Connection, agent_id: str, guild_id: str = "") -> AgentRow:
    """The agent with this id, read from its Task (for servers that list no agents).
    Blocking: off the GUI thread. Raises the client's errors; an unknown id is `NotFound`
    with a message that names it. Once it is on screen, ``rememberlast_agent(...,
    opened_by_id=True)`` keeps it for the next start. ``guild_id``: the agent's guild as the
    operator gave it (the spec's Task answer doesn't say), so embed-status can be asked."""
    from app.client.errors import InvalidRequest, NotFound

    agent_id, guild_id = agent_id.strip(), guild_id.strip()
    if not agent_id or "/" in agent_id:
        raise InvalidRequest(f"“{agent_id}” is not an agent id. Agent ids look like a_scout.")
    if "/" in guild_id:
        raise InvalidRequest(f"“{guild_id}” is not a guild id. Guild ids look like guild_ops.")
    try:
        doc = connection.client.get_task(agent_id)
    except NotFound:
        raise NotFound(
            f"This server has no agent with the id “{agent_id}”. Check the id and try again."
        ) from None
    connection.client.hand_over(doc)  # opening it next must not read it again
    return _row_by_id(agent_id, doc.version, guild_id)


def keyring_available() -> bool:
    try:
        from app.connect.credentials import keyring_available as available

        return available()
    except Exception:  # no usable keyring backend is a normal state, not a failure
        return False


def _keep(
    url: str, token: str, tokens: TokenStore | None, remember: bool, in_file: bool = False
) -> UserMessage | None:
    """Keep the token (session, or keyring when asked) and the URL (never the token).

    Returns the warning the window shows when the operator asked to keep the token and it
    could not be (a locked keyring, an unwritable token file): they must not believe it kept.
    """
    from app.connect.credentials import CredentialsError
    from app.connect.remembered import remember_server

    note: UserMessage | None = None
    if tokens is not None and not remember:
        tokens.keep_for_session(url, token)  # "for this session only" keeps it for the session
    if tokens is not None and remember:
        try:
            place = tokens.remember(url, token, in_file=in_file)
        except CredentialsError as exc:
            note = warning(exc.message)
        else:
            note = warning(place.note) if place.fell_back else None
    remember_server(url)
    return note
