"""LocalStore: the one object the app talks to for drafts, local history and the cache."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path

from app.core.models import AgentEmbedStatus, AgentRow, Guild, Me, OrgFile, TaskDoc
from app.store import cache, cache_codec, drafts, history, proposal_reviews
from app.store.database import StoreDatabase
from app.store.proposal_reviews import ProposalDraft
from app.store.records import Cached, Draft, HistoryEntry, utc_from_seconds

_TEXT_IS_SAFE = "Your text is still in the editor"


class LocalStore:
    """Drafts, local history and the offline cache in one SQLite file.

    Every method is blocking disk work: call it from a worker, never the GUI thread. Any
    thread may call any method (each thread gets its own connection). Every failure is a
    StoreError whose message an operator can act on. ``server`` arguments are store keys
    (see ``server_key``), never URLs with credentials in them.
    """

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        self._db = StoreDatabase(Path(path))
        self._clock = clock

    @property
    def path(self) -> Path:
        return self._db.path

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> LocalStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ drafts

    def save_draft(
        self,
        server: str,
        agent_id: str,
        text: str,
        base_version: int | None,
        *,
        agent_name: str = "",
    ) -> Draft:
        """Keep ``text`` as the agent's draft (replacing any earlier one); durable on return."""
        with self._db.writing("save the draft", still_safe=_TEXT_IS_SAFE) as conn:
            return drafts.put_draft(
                conn, server, agent_id, text, base_version, agent_name, self._clock()
            )

    def get_draft(self, server: str, agent_id: str) -> Draft | None:
        with self._db.reading("read the draft") as conn:
            return drafts.get_draft(conn, server, agent_id)

    def list_drafts(self, server: str | None = None) -> list[Draft]:
        """Drafts to offer back after a crash, newest first; all servers when None."""
        with self._db.reading("read the drafts") as conn:
            return drafts.list_drafts(conn, server)

    def remove_draft(self, server: str, agent_id: str, confirmed_text: str) -> bool:
        """Drop the draft only if it holds exactly the text the server confirmed saving.

        A draft typed while the save was in flight differs and stays. True when removed.
        """
        with self._db.writing("clear the saved draft") as conn:
            return drafts.delete_draft_if_text(conn, server, agent_id, confirmed_text)

    def discard_draft(
        self,
        server: str,
        agent_id: str,
        text: str,
        reason: str,
        base_version: int | None,
        *,
        agent_name: str = "",
    ) -> HistoryEntry:
        """The operator replaced ``text`` by choice: keep it in history and drop the draft,
        in one transaction, so a crash between the two can't lose it."""
        with self._db.writing(
            "keep your text in the local history", still_safe=_TEXT_IS_SAFE
        ) as conn:
            entry = history.add_entry(
                conn, server, agent_id, text, reason, base_version, agent_name, self._clock()
            )
            drafts.delete_draft(conn, server, agent_id)
            return entry

    # ------------------------------------------------------------------ history

    def add_history(
        self,
        server: str,
        agent_id: str,
        text: str,
        reason: str,
        base_version: int | None,
        *,
        agent_name: str = "",
    ) -> HistoryEntry:
        """Keep a text the operator is replacing (reason: a HistoryReason value)."""
        with self._db.writing(
            "keep your text in the local history", still_safe=_TEXT_IS_SAFE
        ) as conn:
            return history.add_entry(
                conn, server, agent_id, text, reason, base_version, agent_name, self._clock()
            )

    def history(
        self, server: str, agent_id: str, *, limit: int | None = None
    ) -> list[HistoryEntry]:
        """The agent's local history, newest first."""
        with self._db.reading("read the local history") as conn:
            return history.list_entries(conn, server, agent_id, limit)

    # ------------------------------------------------------------------ offline cache

    def _put(self, server: str, kind: str, key: str, value: object) -> None:
        body = cache_codec.encode(value)
        with self._db.writing("keep an offline copy") as conn:
            cache.put(conn, server, kind, key, body, self._clock())

    def put_me(self, server: str, me: Me) -> None:
        self._put(server, cache.ME, "", me)

    def get_me(self, server: str) -> Cached[Me] | None:
        with self._db.reading("read the offline copy") as conn:
            return cache.get(conn, server, cache.ME, "", cache_codec.me)

    def put_agents(self, server: str, agents: Iterable[AgentRow]) -> None:
        self._put(server, cache.AGENTS, "", list(agents))

    def get_agents(self, server: str) -> Cached[list[AgentRow]] | None:
        with self._db.reading("read the offline copy") as conn:
            return cache.get(conn, server, cache.AGENTS, "", cache_codec.agents)

    def put_guilds(self, server: str, guilds: Iterable[Guild]) -> None:
        self._put(server, cache.GUILDS, "", list(guilds))

    def get_guilds(self, server: str) -> Cached[list[Guild]] | None:
        with self._db.reading("read the offline copy") as conn:
            return cache.get(conn, server, cache.GUILDS, "", cache_codec.guilds)

    def put_task(self, server: str, doc: TaskDoc) -> None:
        """Cache the agent's live Task with its revisions and ETag."""
        self._put(server, cache.TASK, doc.agent_id, doc)

    def get_task(self, server: str, agent_id: str) -> Cached[TaskDoc] | None:
        with self._db.reading("read the offline copy") as conn:
            return cache.get(conn, server, cache.TASK, agent_id, cache_codec.task_doc)

    def put_notes(self, server: str, notes: Iterable[OrgFile]) -> None:
        """Cache notes (with their access lists), all in one transaction."""
        rows = [(n.display_path, cache_codec.encode(n)) for n in notes]
        with self._db.writing("keep an offline copy") as conn:
            cache.put_many(conn, server, cache.NOTE, rows, self._clock())

    def put_note(self, server: str, note: OrgFile) -> None:
        self.put_notes(server, [note])

    def put_note_absent(self, server: str, display_path: str) -> None:
        """Record that the server said this note doesn't exist (offline, it stays a marker)."""
        with self._db.writing("keep an offline copy") as conn:
            cache.put(conn, server, cache.NOTE, display_path, None, self._clock())

    def get_note(self, server: str, display_path: str) -> Cached[OrgFile] | None:
        with self._db.reading("read the offline copy") as conn:
            return cache.get(conn, server, cache.NOTE, display_path, cache_codec.org_file)

    def note_absent_since(self, server: str, display_path: str) -> datetime | None:
        """When the server last said the note doesn't exist; None if it never did."""
        with self._db.reading("read the offline copy") as conn:
            row = cache.get_row(conn, server, cache.NOTE, display_path)
        if row is None or row[0] is not None:
            return None
        return utc_from_seconds(row[1])

    def put_embed_status(
        self, server: str, guild_id: str, status: Iterable[AgentEmbedStatus]
    ) -> None:
        self._put(server, cache.EMBED_STATUS, guild_id, list(status))

    def get_embed_status(self, server: str, guild_id: str) -> Cached[list[AgentEmbedStatus]] | None:
        with self._db.reading("read the offline copy") as conn:
            return cache.get(conn, server, cache.EMBED_STATUS, guild_id, cache_codec.embed_status)

    def clear_cache(self, server: str) -> None:
        """Forget everything cached for a server (drafts and history stay)."""
        with self._db.writing("clear the offline copy") as conn:
            cache.clear_server(conn, server)

    # ------------------------------------------------------------------ proposals

    def save_hunk_decision(
        self, server: str, proposal_id: str, hunk_key: str, decision: str | None, text: str = ""
    ) -> None:
        """Keep (or with None forget) an operator's decision on one hunk of a proposal."""
        with self._db.writing("keep your decision on the proposal") as conn:
            proposal_reviews.put_decision(
                conn, server, proposal_id, hunk_key, decision, text, self._clock()
            )

    def hunk_decisions(self, server: str, proposal_id: str) -> dict[str, tuple[str, str]]:
        with self._db.reading("read your decisions on the proposal") as conn:
            return proposal_reviews.decisions(conn, server, proposal_id)

    def mark_proposal_seen(self, server: str, proposal_id: str, revision: int) -> None:
        with self._db.writing("remember which revision you looked at") as conn:
            proposal_reviews.put_seen(conn, server, proposal_id, revision)

    def proposal_seen(self, server: str, proposal_id: str) -> int | None:
        """The revision of the proposal the operator last reviewed; None before any."""
        with self._db.reading("read which revision you looked at") as conn:
            return proposal_reviews.seen(conn, server, proposal_id)

    def save_proposal_draft(self, draft: ProposalDraft) -> None:
        """Keep a proposal being written (one per server and agent); durable on return."""
        with self._db.writing("keep the proposal's draft", still_safe=_TEXT_IS_SAFE) as conn:
            proposal_reviews.put_draft(conn, draft, self._clock())

    def proposal_draft(self, server: str, agent_id: str) -> ProposalDraft | None:
        with self._db.reading("read the proposal's draft") as conn:
            return proposal_reviews.get_draft(conn, server, agent_id)

    def proposal_drafts_to_send(self, server: str) -> list[ProposalDraft]:
        """Proposals submitted while the server could not be reached, oldest first."""
        with self._db.reading("read the proposals waiting to be sent") as conn:
            return proposal_reviews.drafts_to_send(conn, server)

    def remove_proposal_draft(self, server: str, agent_id: str, sent_text: str) -> None:
        """Drop the draft once sent, only if it still holds the text that was sent."""
        with self._db.writing("clear the sent proposal's draft") as conn:
            proposal_reviews.delete_draft_if_text(conn, server, agent_id, sent_text)
