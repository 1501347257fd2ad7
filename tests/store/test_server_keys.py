"""Server keys: one per server, and never a credential."""

from __future__ import annotations

import pytest

from app.store import server_key


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000"),
        ("HTTPS://Tasks.Example.COM:443/", "https://tasks.example.com"),
        ("http://example.com:80/base/", "http://example.com/base"),
        ("https://ann:secret-token@example.com/?token=x#frag", "https://example.com"),
        ("http://[::1]:9000/", "http://[::1]:9000"),
        ("  https://example.com  ", "https://example.com"),
    ],
)
def test_server_key(url: str, key: str) -> None:
    assert server_key(url) == key


def test_a_token_in_the_url_never_reaches_the_key() -> None:
    assert "s3cret" not in server_key("https://user:s3cret@host.example/api?token=s3cret")
