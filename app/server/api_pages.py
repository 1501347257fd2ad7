# ruff: noqa: E501  (the pages are FastAPI's, byte for byte, long lines and all)
"""The API's description at /openapi.json, and the Swagger UI and ReDoc pages that read it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from app.server.openapi_doc import build_document

OPENAPI_URL = "/openapi.json"
DOCS_URL = "/docs"
OAUTH2_REDIRECT_URL = "/docs/oauth2-redirect"
REDOC_URL = "/redoc"

# The pages FastAPI served, kept exactly (fastapi.openapi.docs), CDN assets included.
FAVICON = "https://fastapi.tiangolo.com/img/favicon.png"
SWAGGER_JS = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui-bundle.js"
SWAGGER_CSS = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui.css"
REDOC_JS = "https://cdn.jsdelivr.net/npm/redoc@2/bundles/redoc.standalone.js"


def swagger_ui_html(openapi_url: str, title: str, oauth2_redirect_url: str) -> str:
    """FastAPI's ``get_swagger_ui_html`` with its default parameters."""
    return f"""
    <!DOCTYPE html>
    <html>
    <head>
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <link type="text/css" rel="stylesheet" href="{SWAGGER_CSS}">
    <link rel="shortcut icon" href="{FAVICON}">
    <title>{title}</title>
    </head>
    <body>
    <div id="swagger-ui">
    </div>
    <script src="{SWAGGER_JS}"></script>
    <!-- `SwaggerUIBundle` is now available on the page -->
    <script>
    const ui = SwaggerUIBundle({{
        url: '{openapi_url}',
    "dom_id": "#swagger-ui",
"layout": "BaseLayout",
"deepLinking": true,
"showExtensions": true,
"showCommonExtensions": true,
oauth2RedirectUrl: window.location.origin + '{oauth2_redirect_url}',
    presets: [
        SwaggerUIBundle.presets.apis,
        SwaggerUIBundle.SwaggerUIStandalonePreset
        ],
    }})
    </script>
    </body>
    </html>
    """


def redoc_html(openapi_url: str, title: str) -> str:
    """FastAPI's ``get_redoc_html`` with its default parameters (Google Fonts on); joined from
    three parts as FastAPI joins them, so the lines between keep its indentation."""
    return (
        f"""
    <!DOCTYPE html>
    <html>
    <head>
    <title>{title}</title>
    <!-- needed for adaptive design -->
    <meta charset="utf-8"/>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    """
        + """
    <link href="https://fonts.googleapis.com/css?family=Montserrat:300,400,700|Roboto:300,400,700" rel="stylesheet">
    """
        + f"""
    <link rel="shortcut icon" href="{FAVICON}">
    <!--
    ReDoc doesn't change outer page styles
    -->
    <style>
      body {{
        margin: 0;
        padding: 0;
      }}
    </style>
    </head>
    <body>
    <noscript>
        ReDoc requires Javascript to function. Please enable it to browse the documentation.
    </noscript>
    <redoc spec-url="{openapi_url}"></redoc>
    <script src="{REDOC_JS}"> </script>
    </body>
    </html>
    """
    )


_OAUTH2_REDIRECT = """
    <!doctype html>
    <html lang="en-US">
    <head>
        <title>Swagger UI: OAuth2 Redirect</title>
    </head>
    <body>
    <script>
        'use strict';
        function run () {
            var oauth2 = window.opener.swaggerUIRedirectOauth2;
            var sentState = oauth2.state;
            var redirectUrl = oauth2.redirectUrl;
            var isValid, qp, arr;

            if (/code|token|error/.test(window.location.hash)) {
                qp = window.location.hash.substring(1).replace('?', '&');
            } else {
                qp = location.search.substring(1);
            }

            arr = qp.split("&");
            arr.forEach(function (v,i,_arr) { _arr[i] = '"' + v.replace('=', '":"') + '"';});
            qp = qp ? JSON.parse('{' + arr.join() + '}',
                    function (key, value) {
                        return key === "" ? value : decodeURIComponent(value);
                    }
            ) : {};

            isValid = qp.state === sentState;

            if ((
              oauth2.auth.schema.get("flow") === "accessCode" ||
              oauth2.auth.schema.get("flow") === "authorizationCode" ||
              oauth2.auth.schema.get("flow") === "authorization_code"
            ) && !oauth2.auth.code) {
                if (!isValid) {
                    oauth2.errCb({
                        authId: oauth2.auth.name,
                        source: "auth",
                        level: "warning",
                        message: "Authorization may be unsafe, passed state was changed in server. The passed state wasn't returned from auth server."
                    });
                }

                if (qp.code) {
                    delete oauth2.state;
                    oauth2.auth.code = qp.code;
                    oauth2.callback({auth: oauth2.auth, redirectUrl: redirectUrl});
                } else {
                    let oauthErrorMsg;
                    if (qp.error) {
                        oauthErrorMsg = "["+qp.error+"]: " +
                            (qp.error_description ? qp.error_description+ ". " : "no accessCode received from the server. ") +
                            (qp.error_uri ? "More info: "+qp.error_uri : "");
                    }

                    oauth2.errCb({
                        authId: oauth2.auth.name,
                        source: "auth",
                        level: "error",
                        message: oauthErrorMsg || "[Authorization failed]: no accessCode received from the server."
                    });
                }
            } else {
                oauth2.callback({auth: oauth2.auth, token: qp, isValid: isValid, redirectUrl: redirectUrl});
            }
            window.close();
        }

        if (document.readyState !== 'loading') {
            run();
        } else {
            document.addEventListener('DOMContentLoaded', function () {
                run();
            });
        }
    </script>
    </body>
    </html>
        """
"""FastAPI's ``get_swagger_ui_oauth2_redirect_html``: Swagger UI's page for OAuth2 sign-in."""


def description_routes(title: str, version: Callable[[], str]) -> list[Route]:
    """``/openapi.json``, ``/docs``, ``/docs/oauth2-redirect`` and ``/redoc``, no token needed.

    Plain Starlette routes, as FastAPI's were: they answer HEAD too. The document is built on
    the first request for it and kept, so building it costs nothing at start, nor does
    ``version`` (the package metadata), read then too."""
    document: dict[str, Any] | None = None

    async def openapi(request: Request) -> Response:
        nonlocal document
        if document is None:
            document = build_document(request.app.routes, title, version())
        served = document
        root_path = _root_path(request)
        if root_path and root_path not in {s.get("url") for s in served.get("servers", [])}:
            served = {**served, "servers": [{"url": root_path}, *served.get("servers", [])]}
        return JSONResponse(served)

    async def swagger_ui(request: Request) -> Response:
        root_path = _root_path(request)
        html = swagger_ui_html(
            root_path + OPENAPI_URL, f"{title} - Swagger UI", root_path + OAUTH2_REDIRECT_URL
        )
        return HTMLResponse(html)

    async def oauth2_redirect(_request: Request) -> Response:
        return HTMLResponse(_OAUTH2_REDIRECT)

    async def redoc(request: Request) -> Response:
        return HTMLResponse(redoc_html(_root_path(request) + OPENAPI_URL, f"{title} - ReDoc"))

    return [
        Route(OPENAPI_URL, openapi, include_in_schema=False),
        Route(DOCS_URL, swagger_ui, include_in_schema=False),
        Route(OAUTH2_REDIRECT_URL, oauth2_redirect, include_in_schema=False),
        Route(REDOC_URL, redoc, include_in_schema=False),
    ]


def _root_path(request: Request) -> str:
    """Where the app is mounted behind a proxy (``""`` when served directly)."""
    root_path: str = request.scope.get("root_path", "")
    return root_path.rstrip("/")
