"""Every sentence the Task session says to the operator, each with its subject (MessageKey)."""

from __future__ import annotations

import logging
import math

from app.client.errors import SaveUncertain
from app.core.limits import TASK_MAX_BYTES
from app.core.models import TaskDoc
from app.core.user_message import MessageKey, UserMessage, error, info, warning
from app.desk.failures import failure_text
from app.store.errors import StoreError

log = logging.getLogger("app.desk.session")

KEPT_WHEN_BACK = "Your edits are kept and saved when the server is back."


def _kb(n_bytes: int) -> str:
    return f"{n_bytes / 1024:,.1f} KB"


# ---------------------------------------------------------------------- loading and offline


def draft_found(agent_name: str, base_version: int | None, saved_at: str) -> UserMessage:
    based = f"v{base_version}" if base_version is not None else "no version"
    return warning(
        f"A draft of {agent_name} based on {based} from {saved_at} was never saved. Recover it?",
        MessageKey.DRAFT,
    )


def load_failed(exc: BaseException) -> UserMessage:
    return error(failure_text(exc), MessageKey.LOAD)


def loaded_newer(doc: TaskDoc) -> UserMessage:
    who = f" by {doc.updated_by_name}" if doc.updated_by_name else ""
    return info(f"Loaded v{doc.version}, saved{who}.", MessageKey.LOAD)


def offline_without_copy(reason: str) -> UserMessage:
    return error(
        f"{reason} No copy of this Task is kept on this computer yet; Taskdesk keeps trying.",
        MessageKey.OFFLINE,
    )


def offline_showing_copy(last_contact: str | None) -> UserMessage:
    return warning(
        f"Offline: showing the copy from {last_contact or 'earlier'}. {KEPT_WHEN_BACK}",
        MessageKey.OFFLINE,
    )


def offline_edits_kept(reason: str) -> UserMessage:
    return warning(f"{reason} {KEPT_WHEN_BACK}", MessageKey.OFFLINE)


def server_back() -> UserMessage:
    return info("The server is back.", MessageKey.OFFLINE)


# ---------------------------------------------------------------------- saving


def still_loading() -> UserMessage:
    return info("Nothing to save yet: the Task is still loading.")


def choose_first() -> UserMessage:
    return warning(
        "Someone else saved a newer version. Merge, or choose Keep mine or Use theirs "
        "before saving.",
        MessageKey.CONFLICT,
    )


def merge_unresolved(open_conflicts: int) -> UserMessage:
    n = open_conflicts
    return warning(
        f"{n} conflict{'s' if n != 1 else ''} of the merge "
        f"{'are' if n != 1 else 'is'} not resolved yet: take mine, theirs or both, or "
        "edit by hand and delete the marker lines, then save.",
        MessageKey.MERGE,  # withdrawn once none is open, or the merge is over (merge_flow)
    )


def no_changes() -> UserMessage:
    return info("No changes to save.", MessageKey.SAVE)


def saving_while_offline() -> UserMessage:
    return warning(
        "The server can't be reached, so the Task is not saved yet. Your edits are kept and "
        "saved when the server is back.",
        MessageKey.OFFLINE,
    )


def too_large(size: int) -> UserMessage:
    over = size - TASK_MAX_BYTES
    # Near the edge KB rounds to the limit itself ("256.0 KB … cut 0.0 KB"): count bytes there.
    if over < 1024:
        is_, limit = f"{size:,} bytes", f"{TASK_MAX_BYTES:,} bytes (256 KB, UTF-8)"
        cut = "1 byte" if over == 1 else f"{over:,} bytes"
    else:
        is_, limit = _kb(size), "256 KB (UTF-8 bytes)"
        cut = f"{math.ceil(over / 102.4) / 10:,.1f} KB"  # rounded up: cutting less won't do
    return error(
        f"The Task is {is_}; the limit is {limit}. Cut at least {cut} or move long rules "
        "into an embedded note, then save. Your text is kept as a draft.",
        MessageKey.SAVE,
    )


def saved(version: int) -> UserMessage:
    return info(f"Saved as v{version}.", MessageKey.SAVE)


def stored_other_text(version: int) -> UserMessage:
    return error(
        f"The server stored v{version} with a different text than was sent. Your text is "
        "kept; compare it with the live Task, then save again.",
        MessageKey.SAVE,
    )


def save_failed(exc: BaseException) -> UserMessage:
    return error(failure_text(exc), MessageKey.SAVE)


def saving_offline(exc: BaseException) -> UserMessage:
    return warning(
        f"{failure_text(exc)} Your edits are kept and will be saved when the server is back.",
        MessageKey.OFFLINE,
    )


def save_uncertain(exc: SaveUncertain, key: MessageKey) -> UserMessage:
    return warning(exc.message, key)


def refused_yet_unchanged(version: int) -> UserMessage:
    return error(
        "The server refused the save as a conflict, but its Task is still "
        f"v{version}, the version you edited. Your text is kept; save again.",
        MessageKey.SAVE,
    )


def someone_saved(theirs: TaskDoc) -> UserMessage:
    who = theirs.updated_by_name or "someone else"
    return warning(
        f"{who} saved v{theirs.version} while you were editing. Your text is kept: "
        "Compare, then Keep mine or Use theirs.",
        MessageKey.CONFLICT,
    )


# ---------------------------------------------------------------------- restoring


def restored(version: int, as_version: int) -> UserMessage:
    return info(f"Restored v{version} as v{as_version}.", MessageKey.SAVE)


def restore_needs_no_edits() -> UserMessage:
    return warning(
        "Save or discard your edits before restoring an earlier version.", MessageKey.SAVE
    )


def already_live(version: int) -> UserMessage:
    return info(f"v{version} is already the live version.", MessageKey.SAVE)


def unknown_version(version: int) -> UserMessage:
    return error(f"v{version} is not among the versions the server keeps.", MessageKey.SAVE)


def restore_overtaken(version: int | None) -> UserMessage:
    return warning(
        f"Someone saved meanwhile, so v{version} was not restored. Look at the versions again.",
        MessageKey.SAVE,
    )


def restore_failed(version: int | None, exc: BaseException) -> UserMessage:
    return error(f"v{version} could not be restored: {failure_text(exc)}", MessageKey.SAVE)


# ---------------------------------------------------------------------- the operator's choices


def nothing_to_discard() -> UserMessage:
    return info("No edits to discard.", MessageKey.DISCARD)


def discarded() -> UserMessage:
    return info(
        "Edits discarded; they are kept in local history. Undo brings them back.",
        MessageKey.DISCARD,
    )


def merged(version: int) -> UserMessage:
    return info(
        f"Merged with v{version}: check the marked changes, then save. Your text as it was "
        "is kept in local history.",
        MessageKey.CONFLICT,
    )


def used_theirs(version: int) -> UserMessage:
    return info(f"Loaded v{version}; your text is kept in local history.", MessageKey.CONFLICT)


# ---------------------------------------------------------------------- this computer


def store_failed(exc: BaseException, action: str) -> UserMessage:
    """A local store failure while doing ``action`` ("save the draft"); unknown ones logged."""
    if isinstance(exc, StoreError):
        return error(exc.message, MessageKey.STORE)
    log.error("local store failed to %s", action, exc_info=exc)
    return error(
        f"Taskdesk could not {action} on this computer. The text in the editor is untouched; "
        "save it to the server to keep it.",
        MessageKey.STORE,
    )
