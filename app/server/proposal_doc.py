"""The proposals endpoints in the OpenAPI document: their bodies, answers and parameters."""

from __future__ import annotations

from typing import Any

from app.server.api_schemas import (
    CONFLICT,
    ERROR,
    INTEGER,
    JSON,
    STRING,
    TASK_DOC,
    object_schema,
    path_parameter,
)

_STATUS = {"type": "string", "enum": ["open", "published", "declined", "withdrawn"]}
PROPOSAL = object_schema(
    [
        "id",
        "agent_id",
        "status",
        "title",
        "note",
        "author",
        "base_version",
        "revision",
        "created_at",
        "updated_at",
        "live_version",
    ],
    {
        "id": STRING,
        "agent_id": STRING,
        "status": _STATUS,
        "title": STRING,
        "note": STRING,
        "author": object_schema(
            ["id", "name", "type"], {"id": STRING, "name": STRING, "type": STRING}
        ),
        "base_version": INTEGER,
        "revision": INTEGER,
        "content": {"type": "string", "description": "absent from lists"},
        "created_at": STRING,
        "updated_at": STRING,
        "live_version": INTEGER,
        "decided_by_name": STRING,
        "decided_at": STRING,
        "reason": STRING,
        "published_version": INTEGER,
    },
)
PROPOSALS = object_schema(["proposals"], {"proposals": {"type": "array", "items": PROPOSAL}})
PUBLISHED = object_schema(["proposal", "task"], {"proposal": PROPOSAL, "task": TASK_DOC})


def _body(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _error(description: str) -> dict[str, Any]:
    return _body(description, ERROR)


def _request(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {JSON: {"schema": object_schema(required, properties)}}}


_UNAUTHORIZED = _error("`unauthorized`: no token, or not one of the org's")
_MISSING = _error("`no such proposal` (also for an agent's token, which reads none)")
_NOT_OPEN = _error("`proposal is not open`")
_DRAFT_REFUSALS = (
    "`content must be a string`, `write exceeds 256 KB`, `base_version must be an integer`, "
    "`no such base version`, `title must be 1 to 200 characters`, "
    "`note must be at most 2000 characters`, `proposal changes nothing`"
)
_DRAFT = {
    "content": {"type": "string", "description": "the whole Task, at most 262,144 bytes"},
    "base_version": INTEGER,
    "title": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": "\\S",
        "description": "1 to 200 characters after trimming",
    },
    "note": {"type": "string", "maxLength": 2000, "description": "at most 2,000 characters"},
}

AGENT_PROPOSALS = "/api/agents/{agent_id}/proposals"
ONE = "/api/proposals/{proposal_id}"

RESPONSES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", AGENT_PROPOSALS): {
        "201": _body("The proposal, open at revision 1", PROPOSAL),
        "401": _UNAUTHORIZED,
        "404": _error("`no such agent`"),
        "422": _error(
            f"`task is not writable` (an agent's token), {_DRAFT_REFUSALS}, "
            "`too many open proposals`"
        ),
    },
    ("get", AGENT_PROPOSALS): {
        "200": _body("The agent's proposals, newest first, without content", PROPOSALS),
        "401": _UNAUTHORIZED,
        "404": _error("`no such agent`"),
    },
    ("get", "/api/org/proposals"): {
        "200": _body("The org's proposals, oldest first, without content", PROPOSALS),
        "401": _UNAUTHORIZED,
        "422": _error("`operators only`, or an unknown status"),
    },
    ("get", ONE): {
        "200": _body("The proposal with that revision's content, title and note", PROPOSAL),
        "401": _UNAUTHORIZED,
        "404": _error("`no such proposal`, `no such revision`"),
    },
    ("put", ONE): {
        "200": _body("The proposal, at its next revision", PROPOSAL),
        "401": _UNAUTHORIZED,
        "404": _MISSING,
        "409": _NOT_OPEN,
        "422": _error(f"`not your proposal`, {_DRAFT_REFUSALS}"),
    },
    ("post", ONE + "/publish"): {
        "200": _body("The published proposal and the Task as its GET answers", PUBLISHED),
        "401": _UNAUTHORIZED,
        "404": _error("`no such proposal`, `no such agent`"),
        "409": _body(
            "`proposal is not open`, or `version conflict` with the live version", CONFLICT
        ),
        "422": _error(
            "`task is not writable`, `expected_version must be an integer`, "
            "`content must be a string`, `write exceeds 256 KB`, `proposal changes nothing`"
        ),
    },
    ("post", ONE + "/decline"): {
        "200": _body("The declined proposal, with its reason", PROPOSAL),
        "401": _UNAUTHORIZED,
        "404": _MISSING,
        "409": _NOT_OPEN,
        "422": _error("`task is not writable`, `reason must be 1 to 2000 characters`"),
    },
    ("post", ONE + "/withdraw"): {
        "200": _body("The withdrawn proposal", PROPOSAL),
        "401": _UNAUTHORIZED,
        "404": _MISSING,
        "409": _NOT_OPEN,
        "422": _error("`not your proposal`"),
    },
}


def _in_query(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }


_AGENT_ID, _PROPOSAL_ID = path_parameter("agent_id"), path_parameter("proposal_id")
PARAMETERS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("post", AGENT_PROPOSALS): [_AGENT_ID],
    ("get", AGENT_PROPOSALS): [_AGENT_ID],
    ("get", "/api/org/proposals"): [_in_query("status", "only proposals of this status", _STATUS)],
    ("get", ONE): [_PROPOSAL_ID, _in_query("revision", "that revision (from 1)", INTEGER)],
    ("put", ONE): [_PROPOSAL_ID],
    ("post", ONE + "/publish"): [_PROPOSAL_ID],
    ("post", ONE + "/decline"): [_PROPOSAL_ID],
    ("post", ONE + "/withdraw"): [_PROPOSAL_ID],
}

REQUEST_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", AGENT_PROPOSALS): _request(["content", "base_version", "title"], _DRAFT),
    ("put", ONE): _request(["content", "base_version"], _DRAFT),
    ("post", ONE + "/publish"): _request(
        ["content", "expected_version"],
        {
            "content": {"type": "string", "description": "the text the operator accepted"},
            "expected_version": INTEGER,
        },
    ),
    ("post", ONE + "/decline"): _request(
        ["reason"],
        {
            "reason": {
                "type": "string",
                "minLength": 1,
                "maxLength": 2000,
                "pattern": "\\S",
                "description": "1 to 2,000 characters after trimming",
            }
        },
    ),
}
