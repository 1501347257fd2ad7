"""The API's description as one HTML page with no script and nothing from elsewhere.

``/docs`` and ``/redoc`` once loaded Swagger UI and ReDoc from a CDN, unpinned, into the
server's own origin: whatever the CDN served could read a token pasted into Authorize. This
page is made on the server from the OpenAPI document, every text escaped; its one style
sheet is inline and named by its digest in the Content-Security-Policy, which allows
nothing else (no script, image, frame, form or connection). The document itself stays at
``/openapi.json`` for any tool that reads OpenAPI.
"""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from typing import Any

STYLE = (
    "body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;"
    "color:#1d1d1f;background:#fff}code,pre{font:13px/1.4 ui-monospace,monospace}"
    "pre{background:#f4f4f6;padding:.6rem;overflow:auto;max-height:24rem}"
    "section{border-top:1px solid #ddd;padding:.4rem 0 1rem}"
    ".method{font-weight:700;text-transform:uppercase;margin-right:.5rem}"
    "td,th{text-align:left;vertical-align:top;padding:.1rem .6rem .1rem 0}"
    "@media (prefers-color-scheme:dark){body{color:#eee;background:#1e1e20}"
    "pre{background:#2a2a2e}section{border-color:#444}}"
)

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; "
    f"style-src 'sha256-{base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()}'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Nothing loads, runs or connects but the page's own inline style."""

PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def docs_html(document: dict[str, Any], title: str, openapi_url: str) -> str:
    """Every operation of ``document``: method, path, summary, parameters, body, answers."""
    info = document.get("info", {})
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(str(info.get('title', title)))}</h1>",
        f"<p>Version {escape(str(info.get('version', '')))}. Every route but this page and "
        f'<a href="{escape(openapi_url)}">the OpenAPI document</a> takes '
        "<code>Authorization: Bearer &lt;token&gt;</code>.</p>",
    ]
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            parts.append(_operation(method, path, operation))
    parts.append("</body></html>")
    return "\n".join(parts)


def _operation(method: str, path: str, operation: dict[str, Any]) -> str:
    lines = [
        "<section>",
        f'<h2><span class="method">{escape(method)}</span><code>{escape(path)}</code></h2>',
    ]
    if operation.get("summary"):
        lines.append(f"<p><strong>{escape(str(operation['summary']))}</strong></p>")
    if operation.get("description"):
        lines.append(f"<p>{escape(str(operation['description']))}</p>")
    parameters = operation.get("parameters", [])
    if parameters:
        lines.append("<h3>Parameters</h3><table>")
        for parameter in parameters:
            required = " (required)" if parameter.get("required") else ""
            lines.append(
                f"<tr><td><code>{escape(str(parameter.get('name', '')))}</code></td>"
                f"<td>{escape(str(parameter.get('in', '')))}{required}</td>"
                f"<td>{escape(str(parameter.get('description', '')))}</td></tr>"
            )
        lines.append("</table>")
    body = operation.get("requestBody")
    if body:
        schema = body.get("content", {}).get("application/json", {}).get("schema", {})
        lines.append("<h3>Request body</h3>")
        lines.append(f"<pre>{escape(json.dumps(schema, indent=2))}</pre>")
    responses = operation.get("responses", {})
    if responses:
        lines.append("<h3>Answers</h3><table>")
        for status, response in responses.items():
            lines.append(
                f"<tr><td><code>{escape(str(status))}</code></td>"
                f"<td>{escape(str(response.get('description', '')))}</td></tr>"
            )
        lines.append("</table>")
    lines.append("</section>")
    return "\n".join(lines)
