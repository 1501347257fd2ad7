"""Which EXTENSION endpoints a server lacks, and what the app does instead (said plainly).

The spec (shared/spec/API.md) guarantees four endpoints; the reference server adds more.
Against a server without them the app still works, with less:

- no ``/api/me``: the person signed in is taken to be an operator (the server still refuses
  a save that isn't theirs to make, and the operator reads that refusal as a message); the
  org id is read from the first Task's ``display_path`` (``org/<org_id>/agents/<id>/task.md``).
- no ``/api/org/agents``: the sidebar offers "Open agent by id…"; the agents opened that way
  are remembered per server in the settings and listed by id. The fleet and Search every
  Task read those agents' Tasks themselves, paced and bounded (app.desk.spec_fleet).
- no ``/api/org/guilds``: guilds show by id.
- no ``/api/notes/…``: the preview can't inline notes and says so; a clicked embed says the
  server doesn't share note text. Unreachable embeds still come from the spec's
  ``embed-status``, asked per known guild: the operator may give an agent's guild when
  opening it by id (remembered per server); with no guild known it is skipped, and said.
- no ETag on task.md: the client simply reads the whole Task again.
- no ``/api/me``, so no extensions: the picker's notes are asked in the spec's form, not the
  compact one (``?form=compact``), and read whole each time unless the answer has an ETag.
- no live version in a 409: the conflict works the same, the session reads the live Task.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.client.errors import InvalidRequest, NotFound, TaskdeskError

if TYPE_CHECKING:  # the records load with the first connection, not before the first paint
    from app.core.models import Me

UNCHECKED_EMBEDS = "Embeds not checked: no guild known."
UNCHECKED_EMBEDS_DETAIL = (
    "Embeds not checked: this server doesn't say which guild an agent is in, so Taskdesk "
    "can't ask which embeds it can't reach. Give the agent's guild in “Open agent by id…”."
)

OPENED_BY_ID = "Opened by id"
"""Where agents opened by id are listed: their guild is not known."""


@dataclass(slots=True)
class ServerFeatures:
    """What one server offers beyond the spec. None: not known yet (learnt on first use)."""

    me: bool = True  # GET /api/me
    agent_list: bool = True  # GET /api/org/agents
    guild_names: bool = True  # GET /api/org/guilds
    note_text: bool | None = None  # GET /api/notes/<display_path>
    etags: bool | None = None  # ETag on task.md, so an unchanged Task costs no body
    embed_check: bool = True  # some guild is known, so embed-status can be asked
    org_embed_status: bool | None = None  # GET /api/org/embed-status: every guild at once

    @property
    def is_full(self) -> bool:
        return not self._missing() and self.embed_check

    def _missing(self) -> list[tuple[str, str]]:
        """(what is missing, what the app does instead), in the order an operator meets them."""
        missing: list[tuple[str, str]] = []
        if not self.me:
            missing.append(
                (
                    "who-am-I",
                    "you are taken to be an operator; the server still refuses saves that "
                    "aren't yours to make",
                )
            )
        if not self.agent_list:
            missing.append(("agent list", "open an agent with “Open agent by id…”"))
        if not self.guild_names:
            missing.append(("guild names", "guilds show by id"))
        if self.note_text is False:
            missing.append(("note text", "the preview can't inline notes"))
        if self.etags is False:
            missing.append(("change tags", "every check reads the whole Task again"))
        return missing

    def status_line(self) -> str:
        """One short line for the status bar; empty when the server lacks nothing known."""
        missing = self._missing()
        parts = (
            ["This server lacks: " + ", ".join(what for what, _ in missing) + "."]
            if missing
            else []
        )
        if not self.embed_check:
            # Not a lack of the server (embed-status is a spec endpoint): no guild to ask about.
            parts.append(UNCHECKED_EMBEDS)
        return " ".join(parts)

    def details(self) -> str:
        """Each missing feature and what the app does instead, one per line (a tooltip)."""
        lines = [f"No {what}: {instead}." for what, instead in self._missing()]
        if not self.embed_check:
            lines.append(UNCHECKED_EMBEDS_DETAIL)
        return "\n".join(lines)


def lacks_endpoint(exc: BaseException) -> bool:
    """The answer of a server without the endpoint: 404, or a refusal such as 405."""
    return isinstance(exc, NotFound | InvalidRequest)


def assumed_operator(org_id: str = "") -> Me:
    """Who is signed in when the server won't say: an operator of an org not known yet."""
    from app.core.models import Me

    return Me(id="", name="", type="operator", org_id=org_id)


def org_id_from_display_path(display_path: str) -> str | None:
    """``o_acme`` from ``org/o_acme/agents/a_scout/task.md``; None for any other shape."""
    parts = display_path.split("/")
    if len(parts) == 5 and parts[0] == "org" and parts[1] and parts[2] == "agents":
        return parts[1]
    return None


def not_a_taskdesk_server(url: str) -> TaskdeskError:
    """The error when even a spec endpoint is missing: the address is not a Taskdesk server's."""
    return TaskdeskError(
        f"{url} doesn't answer like a Taskdesk server: it has none of the Taskdesk "
        "endpoints (not even /api/org/embeddable-notes). Check the address: it should be "
        "the server's base address, without /api."
    )
