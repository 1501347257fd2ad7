"""The shapes of the API's JSON bodies, as JSON Schema, for the OpenAPI document."""

from __future__ import annotations

from typing import Any

JSON = "application/json"


def object_schema(required: list[str], properties: dict[str, Any], *, closed: bool = False) -> dict:
    schema: dict[str, Any] = {"type": "object", "required": required, "properties": properties}
    if closed:
        schema["additionalProperties"] = False
    return schema


STRING = {"type": "string"}
INTEGER = {"type": "integer"}
ERROR = object_schema(["error"], {"error": STRING}, closed=True)
CONFLICT = object_schema(["error"], {"error": STRING, "version": INTEGER}, closed=True)
LEVEL = {"type": "string", "enum": ["org", "guild", "agent"]}

CHANGE_SET_REF = object_schema(["id", "title"], {"id": STRING, "title": STRING})
REVISION = object_schema(
    ["version", "content", "replaced_at", "replaced_by_name"],
    {
        "version": INTEGER,
        "content": STRING,
        "replaced_at": STRING,
        "replaced_by_name": STRING,
        "replaced_by_type": STRING,
        "replaced_by_id": STRING,
        "change_set": CHANGE_SET_REF,  # extension: the change set that made this version
    },
)
REVISION_SUMMARY = object_schema(
    ["version", "replaced_at", "replaced_by_name", "content_hash"],
    {
        "version": INTEGER,
        "replaced_at": STRING,
        "replaced_by_name": STRING,
        "replaced_by_type": STRING,
        "replaced_by_id": STRING,
        "content_hash": STRING,  # the text's SHA-256 (hex)
    },
)
"""A revision without its text: task.md with ``?revisions=summary`` (extension)."""
TASK_DOC = object_schema(
    ["path", "display_path", "content", "version", "revisions"],
    {
        "path": STRING,
        "display_path": STRING,
        "content": STRING,
        "version": INTEGER,
        # With ?revisions=summary (extension) the revisions come without their text.
        "revisions": {"type": "array", "items": {"anyOf": [REVISION, REVISION_SUMMARY]}},
        "agent_id": STRING,
        "hash": STRING,
        "updated_at": STRING,
        "updated_by_name": STRING,
        "updated_by_type": STRING,
        "updated_by_id": STRING,
        "seeded": {"type": "boolean"},  # extension: version 1, the seeded text
        "change_set": CHANGE_SET_REF,  # extension: the change set that made the live version
    },
)
ME = object_schema(
    ["id", "name", "type", "org_id"],
    {
        "id": STRING,
        "name": STRING,
        "type": {"type": "string", "enum": ["operator", "member", "agent"]},
        "org_id": STRING,
    },
)
AGENTS = object_schema(
    ["agents"],
    {
        "agents": {
            "type": "array",
            "items": object_schema(
                ["id", "name", "guild_id", "task_version"],
                {"id": STRING, "name": STRING, "guild_id": STRING, "task_version": INTEGER},
            ),
        }
    },
)
GUILDS = object_schema(
    ["guilds"],
    {
        "guilds": {
            "type": "array",
            "items": object_schema(["id", "name"], {"id": STRING, "name": STRING}),
        }
    },
)
BROKEN_EMBED = object_schema(
    ["path", "hop", "in"],
    {"path": STRING, "hop": {"type": "integer", "enum": [1, 2]}, "in": STRING},
)
EMBED_STATUS = object_schema(
    ["agents"],
    {
        "agents": {
            "type": "array",
            "items": object_schema(
                ["id", "broken_embeds"],
                {
                    "id": STRING,
                    "broken_embeds": {"type": "array", "items": BROKEN_EMBED},
                    "embedded_bytes": INTEGER,  # extension, for operators
                },
            ),
        }
    },
)
EMBEDDABLE_NOTES = object_schema(
    ["notes"],
    {
        "notes": {
            "type": "array",
            "items": object_schema(
                ["display_path", "title", "kind", "level"],
                {
                    "display_path": STRING,
                    "title": STRING,
                    "kind": {"type": "string", "enum": ["note", "collection"]},
                    "level": LEVEL,
                    # Extension: the access list, so a client can tell which agents read it.
                    "access": {
                        "type": "array",
                        "items": object_schema(
                            ["principal", "role"], {"principal": STRING, "role": STRING}
                        ),
                    },
                },
            ),
        }
    },
)
# Extension: the same list asked with ?form=compact (docs/API-EXTENSIONS.md).
COMPACT_NOTES = object_schema(
    ["form", "kinds", "folders", "access", "entries"],
    {
        "form": {"type": "string", "enum": ["compact"]},
        "kinds": {"type": "array", "items": {"type": "string", "enum": ["note", "collection"]}},
        "folders": {"type": "array", "items": STRING},
        "access": {
            "type": "array",
            "items": {
                "type": "array",
                "items": {"type": "array", "items": STRING, "minItems": 2, "maxItems": 2},
            },
        },
        "entries": {
            "type": "array",
            "items": {
                "type": "array",
                # [folder (index), file name, title ("" = the file name), kind, access (index)]
                "items": {"anyOf": [INTEGER, STRING]},
                "minItems": 5,
            },
        },
    },
)
NOTE = object_schema(
    ["display_path", "title", "kind", "level", "version", "content_hash", "access"],
    {
        "display_path": STRING,
        "title": STRING,
        "kind": {"type": "string", "enum": ["note", "collection", "file"]},
        "level": LEVEL,
        "version": INTEGER,
        "content_hash": STRING,
        "text": STRING,
        "access": {
            "type": "array",
            "items": object_schema(["principal", "role"], {"principal": STRING, "role": STRING}),
        },
    },
)
RUN_NOTE = object_schema(
    ["display_path", "version", "content_hash", "kind"],
    {"display_path": STRING, "version": INTEGER, "content_hash": STRING, "kind": STRING},
)
RUN = object_schema(
    ["id", "system_prompt", "task_source"],
    {
        "id": STRING,
        "system_prompt": STRING,
        "task_source": object_schema(
            ["version", "hash", "display_path", "has_embeds", "embeds", "notes", "collections"],
            {
                "version": INTEGER,
                "hash": STRING,
                "display_path": STRING,
                "has_embeds": {"type": "boolean"},
                "embeds": {"type": "array", "items": STRING},
                "notes": {"type": "array", "items": RUN_NOTE},
                "collections": {"type": "array", "items": STRING},
            },
        ),
        "agent_id": STRING,
        "created_at": STRING,
    },
)

RUN_SUMMARY = object_schema(
    ["id", "agent_id", "created_at", "created_by_id", "created_by_name", "task_source"],
    {
        "id": STRING,
        "agent_id": STRING,
        "created_at": STRING,
        "created_by_id": STRING,
        "created_by_name": STRING,
        "task_source": RUN["properties"]["task_source"],
    },
)
RUNS = object_schema(["runs"], {"runs": {"type": "array", "items": RUN_SUMMARY}})


def path_parameter(name: str) -> dict[str, Any]:
    """A path parameter, as FastAPI described a ``str`` one (its title from its name)."""
    title = name.replace("_", " ").title()
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": {"type": "string", "title": title},
    }
