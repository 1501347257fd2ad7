"""The OpenAPI description of the notes' write, used-by and impact routes (note_routes)."""

from __future__ import annotations

from typing import Any

from app.server.api_schemas import (
    BROKEN_EMBED,
    CONFLICT,
    ERROR,
    INTEGER,
    JSON,
    NOTE,
    STRING,
    object_schema,
)

BOOLEAN = {"type": "boolean"}
NOTE_PATH = "/api/notes/{display_path}"
NOTE_REVISION = object_schema(
    ["version", "text", "replaced_at", "replaced_by_name"],
    {"version": INTEGER, "text": STRING, "replaced_at": STRING, "replaced_by_name": STRING},
)
NOTE_WITH_REVISIONS = object_schema(
    NOTE["required"],
    {**NOTE["properties"], "revisions": {"type": "array", "items": NOTE_REVISION}},
)
USED_BY = object_schema(
    ["display_path", "agents"],
    {
        "display_path": STRING,
        "agents": {
            "type": "array",
            "items": object_schema(
                ["id", "name", "guild_id", "hop", "via", "reaches"],
                {
                    "id": STRING,
                    "name": STRING,
                    "guild_id": STRING,
                    "hop": {"type": "integer", "enum": [1, 2]},
                    "via": STRING,
                    "reaches": BOOLEAN,
                },
            ),
        },
    },
)
BROKEN_LIST = {"type": "array", "items": BROKEN_EMBED}
IMPACT = object_schema(
    ["display_path", "agents"],
    {
        "display_path": STRING,
        "agents": {
            "type": "array",
            "items": object_schema(
                [
                    "id",
                    "name",
                    "hop",
                    "embedded_bytes_before",
                    "embedded_bytes_after",
                    "over_budget_before",
                    "over_budget_after",
                    "broken_before",
                    "broken_after",
                    "prompt_changes",
                ],
                {
                    "id": STRING,
                    "name": STRING,
                    "hop": {"type": "integer", "enum": [1, 2]},
                    "embedded_bytes_before": INTEGER,
                    "embedded_bytes_after": INTEGER,
                    "over_budget_before": BOOLEAN,
                    "over_budget_after": BOOLEAN,
                    "broken_before": BROKEN_LIST,
                    "broken_after": BROKEN_LIST,
                    "prompt_changes": BOOLEAN,
                },
            ),
        },
    },
)
ACCESS = {
    "type": "array",
    "items": object_schema(["principal", "role"], {"principal": STRING, "role": STRING}),
}


def _body(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _json_body(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {JSON: {"schema": object_schema(required, properties)}}}


UNAUTHORIZED = _body("`unauthorized`: no token, or not one of the org's", ERROR)
NOT_FOUND = _body("`not found`: missing, or the caller is not an operator", ERROR)
TEXT = {"type": "string", "description": "at most 262,144 bytes"}

RESPONSES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/notes"): {
        "201": _body("The note made, version 1", NOTE_WITH_REVISIONS),
        "401": UNAUTHORIZED,
        "409": _body("`file exists`", ERROR),
        "422": _body(
            "`operators only`, `not a display path`, `title must be a string`, "
            "`text must be a string`, `write exceeds 256 KB` or `bad access list`",
            ERROR,
        ),
    },
    ("put", NOTE_PATH): {
        "200": _body("Saved (or the same text and title: nothing changed)", NOTE_WITH_REVISIONS),
        "401": UNAUTHORIZED,
        "404": _body("`not found`: missing, or not readable by the caller", ERROR),
        "409": _body("`version conflict`, with the live version", CONFLICT),
        "422": _body(
            "`note is not writable`, `not a note`, `expected_version must be an integer`, "
            "`text must be a string`, `title must be a string` or `write exceeds 256 KB`",
            ERROR,
        ),
    },
    ("get", NOTE_PATH + "/used-by"): {
        "200": _body("Every agent whose run embeds the path, by hop and file", USED_BY),
        "401": UNAUTHORIZED,
        "404": NOT_FOUND,
    },
    ("post", NOTE_PATH + "/impact"): {
        "200": _body("What each run that reaches the note would get with this text", IMPACT),
        "401": UNAUTHORIZED,
        "404": NOT_FOUND,
        "422": _body("`not a note`, `text must be a string` or `write exceeds 256 KB`", ERROR),
    },
}

REQUEST_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/notes"): _json_body(
        ["display_path", "title", "text", "access"],
        {"display_path": STRING, "title": STRING, "text": TEXT, "access": ACCESS},
    ),
    ("put", NOTE_PATH): _json_body(
        ["text", "expected_version"], {"text": TEXT, "expected_version": INTEGER, "title": STRING}
    ),
    ("post", NOTE_PATH + "/impact"): _json_body(["text"], {"text": TEXT}),
}
"""What each of the routes takes; their path parameter is ``display_path`` (openapi_doc)."""
