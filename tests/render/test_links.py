"""What a link clicked in the preview may do: the one decision, in one place."""

from __future__ import annotations

import pytest

from app.render.links import LinkAction, classify_link, embed_url


@pytest.mark.parametrize(
    "path",
    ["org/o_acme/guilds/g/style guide.md", 'org/o/"quoted" & <tags>.md', "org/o/ünï/日本.md"],
)
def test_embed_links_round_trip_to_their_path(path: str) -> None:
    url = embed_url(path)
    assert url.startswith("taskdesk-embed:")
    assert " " not in url and '"' not in url and "<" not in url
    assert classify_link(url) == LinkAction("embed", target=path)


@pytest.mark.parametrize("url", ["https://example.com/a?b=1", "http://example.com"])
def test_web_links_are_shown_before_opening(url: str) -> None:
    assert classify_link(url) == LinkAction("external", target=url)


def test_mail_links_do_not_open_but_show_the_address() -> None:
    action = classify_link("mailto:ops@example.com")
    assert action.kind == "blocked" and "ops@example.com" in action.reason


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("javascript:alert(1)", "javascript: links are never opened"),
        ("JaVaScRiPt:alert(1)", "javascript: links are never opened"),
        ("vbscript:msgbox(1)", "vbscript: links are never opened"),
        ("data:text/html,<b>x</b>", "data: links are never opened"),
        ("file:///etc/passwd", "file: links are never opened"),
        ("notes/local.md", "Relative links would open local files"),
        ("#top", "Relative links would open local files"),
        ("ftp://example.com/x", "ftp: links are not opened"),
        ("", "The link is empty."),
        ("https:///no-host", "The web link has no valid host."),
        ("taskdesk-embed:", "The embed link names no file."),
        ("taskdesk-embed:org/o/a%0Ab.md", "The embed link names no file."),
        ("http://[::1", "The link is not a valid address."),
    ],
)
def test_other_links_are_blocked_with_a_reason(url: str, reason: str) -> None:
    action = classify_link(url)
    assert action.kind == "blocked"
    assert action.target == ""
    assert action.reason.startswith(reason)
