"""What a session transition asks of the world, as data: the shell performs it, in order.

Each effect is made once and performed once. They are plain (not frozen) dataclasses: a
frozen one costs three times as much to define, and these are defined as the editor opens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from app.core.models import TaskDoc
from app.core.user_message import UserMessage
from app.desk.save_intents import AfterSave
from app.desk.session_model import PutRecord, SessionModel
from app.store.records import HistoryReason


class EditorView(Protocol):
    """What a transition may read of the editor: its text (O(n): only when needed) and how
    many edits it has seen (its own replacements by the session count one each)."""

    def text(self) -> str: ...

    @property
    def edits(self) -> int: ...


@dataclass(slots=True)
class Publish:
    """Tell the window the current state (``state_changed``), if it changed."""


@dataclass(slots=True)
class Say:
    message: UserMessage


@dataclass(slots=True)
class LoadEditor:
    """The editor text becomes ``doc.content`` (``task_loaded``); not an edit."""

    doc: TaskDoc


@dataclass(slots=True)
class RestoreEditor:
    """The editor text becomes ``text`` (``text_restored``): the operator's own words back."""

    text: str


@dataclass(slots=True)
class StartRetry:
    seconds: float


@dataclass(slots=True)
class StopRetry:
    pass


@dataclass(slots=True)
class StopDraftTimers:
    pass


@dataclass(slots=True)
class ReadLocal:
    """Read the cached Task and the draft of ``agent_id``; the answer goes to ``local_read``."""

    gen: int
    agent_id: str


@dataclass(slots=True)
class Fetch:
    """GET the live Task (conditional); the answer goes to ``fetched`` / ``fetch_failed``."""

    gen: int
    agent_id: str


@dataclass(slots=True)
class SendPut:
    """PUT ``put.text``; the answer goes to ``put_done`` / ``put_failed``."""

    put: PutRecord


@dataclass(slots=True)
class CacheTask:
    """Keep ``doc`` as the offline copy."""

    doc: TaskDoc


@dataclass(slots=True)
class WriteDraft:
    agent_id: str
    text: str
    base_version: int | None
    agent_name: str


@dataclass(slots=True)
class RemoveDraft:
    """Drop the draft only if it holds exactly ``confirmed_text`` (the store checks)."""

    agent_id: str
    confirmed_text: str


@dataclass(slots=True)
class Replacement:
    """What the editor shows once its text is safe in local history."""

    doc: TaskDoc
    discarding: bool  # Discard (Undo can bring the text back), else Use theirs


@dataclass(slots=True)
class KeepInHistory:
    """Keep ``text`` in local history and drop the draft, in one store transaction.

    With a ``replacement`` the answer goes to ``kept_in_history``: the editor is replaced
    only once the history holds its text. ``action`` names the write in a failure message.
    """

    gen: int
    agent_id: str
    text: str
    reason: HistoryReason
    base_version: int | None
    agent_name: str
    action: str
    replacement: Replacement | None = None


@dataclass(slots=True)
class Saved:
    """The server confirmed the editor text as ``version`` (``saved``)."""

    version: int


@dataclass(slots=True)
class Refused:
    """The save was refused, by the server or before it went (``save_refused``)."""

    message: UserMessage


@dataclass(slots=True)
class Proceed:
    """The save ``intent`` waited for is confirmed: do what the operator asked."""

    intent: AfterSave


@dataclass(slots=True)
class Then:
    """Run ``transition`` on the model as it is by then (after the effects before this one)."""

    transition: Transition


Effect = (
    Publish
    | Say
    | LoadEditor
    | RestoreEditor
    | StartRetry
    | StopRetry
    | StopDraftTimers
    | ReadLocal
    | Fetch
    | SendPut
    | CacheTask
    | WriteDraft
    | RemoveDraft
    | KeepInHistory
    | Saved
    | Refused
    | Proceed
    | Then
)


@dataclass(slots=True)
class Step:
    """One transition being built: the next model and the effects, in the order they happen.

    A transition owns its Step alone and returns it; nothing outside sees it change.
    """

    model: SessionModel
    effects: list[Effect] = field(default_factory=list)

    def do(self, *effects: Effect) -> None:
        self.effects.extend(effects)

    def say(self, message: UserMessage) -> None:
        self.effects.append(Say(message))

    def publish(self) -> None:
        self.effects.append(Publish())

    def then(self, transition: Transition) -> None:
        self.effects.append(Then(transition))

    def refuse(self, message: UserMessage) -> None:
        """The save does not happen: say why, and tell whoever waits on the save."""
        self.effects.append(Say(message))
        self.effects.append(Refused(message))


Transition = Callable[[SessionModel, EditorView], Step]
"""A pure function from the model (and a look at the editor) to the next Step."""
