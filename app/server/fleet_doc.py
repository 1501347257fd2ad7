"""The fleet endpoints in the OpenAPI document: their bodies' shapes and their answers."""

from __future__ import annotations

from typing import Any

from app.server.api_schemas import ERROR, INTEGER, JSON, STRING, object_schema, path_parameter

BOOLEAN = {"type": "boolean"}
STRINGS = {"type": "array", "items": STRING}
VERSION_REF = object_schema(["agent_id", "version"], {"agent_id": STRING, "version": INTEGER})

HEALTH = object_schema(
    ["agents"],
    {
        "agents": {
            "type": "array",
            "items": object_schema(
                [
                    "id",
                    "name",
                    "guild_id",
                    "task_version",
                    "task_bytes",
                    "embedded_bytes",
                    "over_budget",
                    "broken_embeds",
                    "shape",
                    "open_proposals",
                    "last_run_at",
                    "prompt_changed_since_run",
                ],
                {
                    "id": STRING,
                    "name": STRING,
                    "guild_id": STRING,
                    "task_version": INTEGER,
                    "task_bytes": INTEGER,
                    "embedded_bytes": INTEGER,
                    "over_budget": BOOLEAN,
                    "broken_embeds": INTEGER,
                    "shape": STRINGS,
                    "open_proposals": INTEGER,
                    "last_run_at": {"anyOf": [STRING, {"type": "null"}]},
                    "prompt_changed_since_run": {"anyOf": [BOOLEAN, {"type": "null"}]},
                },
            ),
        }
    },
)
SEARCH = object_schema(
    ["agents"],
    {
        "agents": {
            "type": "array",
            "items": object_schema(
                ["id", "name", "matches"],
                {
                    "id": STRING,
                    "name": STRING,
                    "matches": {
                        "type": "array",
                        "items": object_schema(
                            ["line", "column", "text"],
                            {"line": INTEGER, "column": INTEGER, "text": STRING},
                        ),
                    },
                },
            ),
        }
    },
)
CHANGE_SET = object_schema(
    ["id", "title", "author_name", "created_at", "versions"],
    {
        "id": STRING,
        "title": STRING,
        "author_name": STRING,
        "created_at": STRING,
        "versions": {"type": "array", "items": VERSION_REF},
        "reverts": STRING,
        "changes": {
            "type": "array",
            "items": object_schema(
                ["agent_id", "version", "content"],
                {"agent_id": STRING, "version": INTEGER, "content": STRING},
            ),
        },
        "skipped": {
            "type": "array",
            "items": object_schema(["agent_id", "reason"], {"agent_id": STRING, "reason": STRING}),
        },
    },
)
CHANGE_SETS = object_schema(
    ["change_sets"], {"change_sets": {"type": "array", "items": CHANGE_SET}}
)
CHANGE_SET_CONFLICT = object_schema(
    ["error"], {"error": STRING, "conflicts": {"type": "array", "items": VERSION_REF}}
)
AUDIT = object_schema(
    ["events"],
    {
        "events": {
            "type": "array",
            "items": object_schema(
                ["at", "kind", "by_name", "agent_ids"],
                {
                    "at": STRING,
                    "kind": STRING,
                    "by_name": STRING,
                    "agent_ids": STRINGS,
                    "version": INTEGER,
                    "display_path": STRING,
                    "proposal_id": STRING,
                    "change_set_id": STRING,
                    "title": STRING,
                    "versions": {"type": "array", "items": VERSION_REF},
                    "restored_from": INTEGER,
                    "reverted_change_set_id": STRING,
                },
            ),
        }
    },
)


LIVE_TASKS = object_schema(
    ["tasks"],
    {
        "tasks": {
            "type": "array",
            "items": object_schema(
                ["agent_id", "version", "content"],
                {"agent_id": STRING, "version": INTEGER, "content": STRING, "hash": STRING},
            ),
        }
    },
)


def _body(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _error(description: str) -> dict[str, Any]:
    return _body(description, ERROR)


_UNAUTHORIZED = _error("`unauthorized`: no token, or not one of the org's")
_OPERATORS = _error("`operators only`")
CS_PATH = "/api/org/change-sets"
CS_ONE = CS_PATH + "/{change_set_id}"

FLEET_RESPONSES: dict[tuple[str, str], dict[str, Any]] = {
    ("get", "/api/org/tasks"): {
        "200": _body("The live text and version of each agent named", LIVE_TASKS),
        "401": _UNAUTHORIZED,
        "422": _error("`at most 1000 agents at once`"),
    },
    ("get", "/api/org/health"): {
        "200": _body("One row per agent", HEALTH),
        "401": _UNAUTHORIZED,
        "422": _OPERATORS,
    },
    ("get", "/api/org/search"): {
        "200": {
            **_body("Every matching line, by agent", SEARCH),
            # Every answer carries it (server_timing); told here, where the targets use it.
            "headers": {
                "Server-Timing": {
                    "description": "`app;dur=MS`: the server's own time on the request, in"
                    " milliseconds, from its arrival to the answer being ready",
                    "schema": STRING,
                }
            },
        },
        "401": _UNAUTHORIZED,
        "404": _error("`no such guild`"),
        "422": _error(
            "`operators only`, `bad pattern`, `q must not be empty` or `in must be task or prompt`"
        ),
    },
    ("post", CS_PATH): {
        "201": _body("Saved, every Task or none", CHANGE_SET),
        "401": _UNAUTHORIZED,
        "404": _error("`no such agent`"),
        "409": _body(
            "`version conflict`: nothing saved; each Task that moved", CHANGE_SET_CONFLICT
        ),
        "413": _error("`request body too large`"),
        "422": _error(
            "`task is not writable`, `title must be 1 to 200 characters`, "
            "`changes must be a list of at least one change`, `each change needs an agent_id`, "
            "`expected_version must be an integer`, `content must be a string`, "
            "`write exceeds 256 KB` or `a change set changes each Task once`"
        ),
    },
    ("get", CS_PATH): {
        "200": _body("Every change set, newest first, without contents", CHANGE_SETS),
        "401": _UNAUTHORIZED,
        "422": _OPERATORS,
    },
    ("get", CS_ONE): {
        "200": _body("The change set with each change's content", CHANGE_SET),
        "401": _UNAUTHORIZED,
        "404": _error("`no such change set`"),
        "422": _OPERATORS,
    },
    ("post", CS_ONE + "/revert"): {
        "201": _body("The reverting change set, and the Tasks it left alone", CHANGE_SET),
        "401": _UNAUTHORIZED,
        "404": _error("`no such change set`"),
        "422": _error("`task is not writable`"),
    },
    ("get", "/api/org/audit"): {
        "200": _body("The org's changes, newest first", AUDIT),
        "401": _UNAUTHORIZED,
        "422": _error(
            "`operators only`, `since must be an ISO 8601 time` or "
            "`limit must be a number from 1 to 5000`"
        ),
    },
}


def _query(
    name: str, description: str, schema: dict[str, Any] | None = None, *, required: bool = False
) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": required,
        "schema": schema or STRING,
        "description": description,
    }


_CHANGE_SET_ID = path_parameter("change_set_id")

FLEET_PARAMETERS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("get", "/api/org/tasks"): [_query("agent", "an agent's id; repeated for each agent")],
    ("get", "/api/org/search"): [
        _query(
            "q",
            "the text (or pattern) to find, case-insensitive; 422 when empty",
            {"type": "string", "minLength": 1},
            required=True,
        ),
        _query(
            "in",
            "`task` (the default): the live Tasks; `prompt`: as runs get them",
            {"type": "string", "enum": ["task", "prompt"]},
        ),
        _query("regex", "`1`: `q` is a Python regular expression"),
        _query("guild", "only this guild's agents"),
    ],
    ("get", CS_ONE): [_CHANGE_SET_ID],
    ("post", CS_ONE + "/revert"): [_CHANGE_SET_ID],
    ("get", "/api/org/audit"): [
        _query(
            "since",
            "only changes at or after this ISO 8601 time",
            {"type": "string", "format": "date-time"},
        ),
        _query("agent", "only changes touching this agent"),
        _query("guild", "only changes touching this guild's agents"),
        _query(
            "limit",
            "at most this many (1 to 5000; 500 when absent)",
            {"type": "integer", "minimum": 1, "maximum": 5000},
        ),
    ],
}

FLEET_REQUEST_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", CS_PATH): {
        "required": True,
        "content": {
            JSON: {
                "schema": object_schema(
                    ["title", "changes"],
                    {
                        "title": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 200,
                            "pattern": "\\S",
                            "description": "1 to 200 characters (trimmed)",
                        },
                        "changes": {
                            "type": "array",
                            "items": object_schema(
                                ["agent_id", "expected_version", "content"],
                                {
                                    "agent_id": STRING,
                                    "expected_version": INTEGER,
                                    "content": STRING,
                                },
                            ),
                        },
                    },
                )
            }
        },
    }
}
