"""The description pages run no script and load nothing from elsewhere, under a strict CSP."""

from __future__ import annotations

import re

import pytest
import requests

from tests.live_server import LiveServer
from tests.server.http_calls import TIMEOUT


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_pages_load_nothing_from_elsewhere_and_run_no_script(
    live_server: LiveServer, path: str
) -> None:
    answer = requests.get(live_server.url + path, timeout=TIMEOUT)
    assert answer.status_code == 200
    page = answer.text
    assert "<script" not in page.lower()
    # No URL of another origin anywhere: links, styles, fonts, icons.
    assert re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", page, flags=re.IGNORECASE) == []
    policy = answer.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy
    assert "script-src" not in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_the_page_names_every_operation_of_the_document(live_server: LiveServer) -> None:
    document = requests.get(live_server.url + "/openapi.json", timeout=TIMEOUT).json()
    page = requests.get(live_server.url + "/docs", timeout=TIMEOUT).text
    for path in document["paths"]:
        assert f"<code>{path}</code>" in page


def test_the_oauth2_redirect_page_is_gone(live_server: LiveServer) -> None:
    answer = requests.get(live_server.url + "/docs/oauth2-redirect", timeout=TIMEOUT)
    assert (answer.status_code, answer.json()) == (404, {"error": "not found"})
