"""The token never lands on disk, in logs or in messages; pastes are plain; links ask first.

The secrecy test runs a whole session at debug log level through the real window, the real
proxy and a real server, then scans every file the app wrote under TASKDESK_HOME (settings,
the store's SQLite files, logs) and every captured log line and console output for the token,
raw and in the encodings a header or URL would give it.
"""

from __future__ import annotations

import base64
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from PySide6.QtCore import QMimeData, QObject, Qt, QTimer, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QTextCursor

from app.client import TaskdeskClient
from app.connect.paths import settings_path
from tests.faultproxy import Fault
from tests.faults.conftest import TIMEOUT_MS, Desk, connect, type_at_end, unclear_parts
from tests.window_steps import keep_mine
from widgets.launcher import setup_logging
from widgets.window.messages import install_excepthook

pytestmark = pytest.mark.timeout(90, method="thread")

# A token with the characters that change under percent- and base64-encoding.
TOKEN = "Ann+Tok/3n=9f2c71e4d0b8"
TASK_PATH = r"/api/agents/a_scout/files/task\.md"
SAFE_URL = "https://docs.example.com/guide?topic=refunds&lang=en"


def token_forms(token: str) -> dict[str, bytes]:
    """The token as it could appear in a file: raw, percent-encoded, base64 at any offset."""
    forms = {
        "raw": token.encode(),
        "percent": quote(token, safe="").encode(),
        "percent-plus": quote(token, safe="/").encode(),
        "json-escaped": json.dumps(token)[1:-1].encode(),
    }
    for shift in range(3):
        for prefix in ("", "Bearer ", "ann:"):
            encoded = base64.b64encode(b"\0" * shift + (prefix + token).encode())
            # Drop the first and last four characters: they depend on the bytes around it.
            forms[f"base64-{prefix.strip() or 'bare'}-{shift}"] = encoded[4:-4]
    return forms


def leaks_in(data: bytes, token: str) -> list[str]:
    return [name for name, form in token_forms(token).items() if form in data]


def test_token_forms_find_what_they_look_for() -> None:
    """The scan itself can fail: each form is found where the token was written that way."""
    assert "raw" in leaks_in(b"x" + TOKEN.encode() + b"y", TOKEN)
    assert "percent" in leaks_in(f"t={quote(TOKEN, safe='')}".encode(), TOKEN)
    header = base64.b64encode(f"ann:{TOKEN}".encode())
    assert any(f.startswith("base64-ann") for f in leaks_in(b"Basic " + header, TOKEN))
    blob = base64.b64encode(b"{'h': 'Bearer " + TOKEN.encode() + b"'}")
    assert any(f.startswith("base64") for f in leaks_in(blob, TOKEN))
    assert leaks_in(b"nothing to see", TOKEN) == []


@pytest.fixture
def debug_logging(fresh_home: Path) -> Iterator[Path]:
    """The operator's log file at debug level, as the launcher sets it up."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"log_level": "DEBUG"}), encoding="utf-8")
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    log_file = setup_logging()
    # Libraries too (their own level is INFO unless asked): a token must leak nowhere.
    root.setLevel(logging.DEBUG)
    yield Path(log_file)
    for handler in root.handlers:
        if handler not in handlers:
            handler.close()
            root.removeHandler(handler)
    root.setLevel(level)
    for name in ("app", "widgets", "taskdesk"):
        logging.getLogger(name).setLevel(logging.NOTSET)


def test_the_settings_log_level_is_the_log_level(fresh_home: Path) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"log_level": "DEBUG"}), encoding="utf-8")
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        setup_logging()
        assert logging.getLogger("app").level == logging.DEBUG
    finally:
        for handler in root.handlers:
            if handler not in handlers:
                handler.close()
                root.removeHandler(handler)
        root.setLevel(level)
        for name in ("app", "widgets", "taskdesk"):
            logging.getLogger(name).setLevel(logging.NOTSET)


def _saved(desk: Desk) -> bool:
    state = desk.tab.state
    return state.saved_text_confirmed and not state.dirty and not state.saving


def _close_error_box(qtbot, desk: Desk) -> None:
    box = desk.window.messages.error_box
    if box is not None:
        with qtbot.waitSignal(box.finished, timeout=TIMEOUT_MS):
            box.accept()


def _raise_with_token() -> None:
    raise RuntimeError(f"request refused: Authorization: Bearer {TOKEN}")


def test_token_never_lands_in_files_logs_or_messages(
    qtbot,
    make_desk,
    server_factory,
    workspace_basic,
    debug_logging: Path,
    fresh_home: Path,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    caplog.set_level(logging.DEBUG)
    workspace_basic["people"][0]["token"] = TOKEN
    server = server_factory(workspace_basic)
    desk: Desk = make_desk(server=server)
    previous_hook = install_excepthook(desk.window.messages, desk.window.secrets)
    try:
        _full_session(qtbot, desk, server)
    finally:
        sys.excepthook = previous_hook
    desk.proxy.stop()
    desk.close()
    for handler in logging.getLogger().handlers:
        handler.flush()

    log_text = debug_logging.read_text(encoding="utf-8")
    assert " DEBUG " in log_text  # the scan covers a real debug log…
    assert "unexpected error" in log_text and "[token]" in log_text  # …with the crash in it
    written = [p for p in fresh_home.rglob("*") if p.is_file()]
    names = {p.name for p in written}
    assert {"settings.json", "store.sqlite3", "taskdesk.log"} <= names, names
    for path in written:
        assert not leaks_in(path.read_bytes(), TOKEN), f"the token is in {path}"
    assert not leaks_in(caplog.text.encode(), TOKEN), "the token is in the captured log"
    out, err = capfd.readouterr()
    assert not leaks_in((out + err).encode(), TOKEN), "the token is on the console"
    for text, _ in desk.window.messages.history:
        assert not leaks_in(text.encode(), TOKEN), text
        assert not unclear_parts(text) or "inside Taskdesk" in text, text


def _full_session(qtbot, desk: Desk, server) -> None:
    """Connect, open, edit, save, a conflict, faults, another agent, an unexpected error."""
    tab = desk.tab
    connect(qtbot, desk)
    type_at_end(qtbot, desk, " Answer within a day.")
    desk.window.actions_.save.trigger()
    qtbot.waitUntil(lambda: _saved(desk), timeout=TIMEOUT_MS)

    # A conflict: Bob saves while Ann edits; Ann keeps hers.
    with TaskdeskClient(server.url, server.token("bob")) as bob:
        live = bob.get_task("a_scout")
        bob.put_task("a_scout", live.content + "\nBob was here.\n", live.version)
    type_at_end(qtbot, desk, " Ann again.")
    desk.window.actions_.save.trigger()
    qtbot.waitUntil(tab.conflict_banner.isVisible, timeout=TIMEOUT_MS)
    keep_mine(qtbot, tab)
    qtbot.waitUntil(lambda: _saved(desk), timeout=TIMEOUT_MS)

    # Faults, some of them echoing the token back in their error text.
    faults: list[tuple[Fault, str, dict[str, Any]]] = [
        (Fault.STATUS, "PUT", {"status": 401}),
        (Fault.STATUS, "PUT", {"status": 422, "error": f"token {TOKEN} may not write"}),
        (Fault.STATUS, "GET", {"status": 404, "error": f"no agent for Bearer {TOKEN}"}),
        (Fault.HTML_200, "GET", {}),
        (Fault.RESET, "PUT", {}),
        (Fault.REDIRECT, "PUT", {"location": f"http://127.0.0.1:9/login?token={TOKEN}"}),
        (Fault.STATUS, "GET", {"status": 503, "retry_after": "1"}),
    ]
    for n, (fault, method, params) in enumerate(faults):
        shown = len(desk.window.messages.history)
        desk.proxy.fault(fault, path=TASK_PATH, method=method, times=1, **params)
        if method == "PUT":
            type_at_end(qtbot, desk, f" Edit {n}.")
            desk.window.actions_.save.trigger()
        else:
            desk.session.check_remote()
        qtbot.waitUntil(lambda s=shown: len(desk.window.messages.history) > s, timeout=TIMEOUT_MS)
        qtbot.waitUntil(desk.window.runner.is_idle, timeout=TIMEOUT_MS)
        _close_error_box(qtbot, desk)
    desk.proxy.clear()
    tab.offline_banner.retry_button.click()
    qtbot.waitUntil(lambda: not tab.state.offline, timeout=TIMEOUT_MS)
    desk.window.actions_.save.trigger()
    qtbot.waitUntil(lambda: _saved(desk), timeout=TIMEOUT_MS)

    # Another agent, and its preview's notes.
    with qtbot.waitSignal(desk.window.agent_opened, timeout=TIMEOUT_MS):
        desk.window.sidebar.agent_chosen.emit("a_writer")
    qtbot.waitUntil(lambda: tab.last_preview is not None, timeout=TIMEOUT_MS)

    # An unexpected error in a slot reaches the operator through the excepthook.
    shown = len(desk.window.messages.history)
    QTimer.singleShot(0, _raise_with_token)
    qtbot.waitUntil(lambda: len(desk.window.messages.history) > shown, timeout=TIMEOUT_MS)
    box = desk.window.messages.error_box
    assert box is not None and "inside Taskdesk" in box.text()
    assert TOKEN not in box.text()
    _close_error_box(qtbot, desk)
    type_at_end(qtbot, desk, " Left unsaved: a draft.")
    qtbot.waitUntil(lambda: desk.draft_text("a_writer") is not None, timeout=TIMEOUT_MS)


# ---------------------------------------------------------------------- paste and links


def test_pasted_html_becomes_plain_text(qtbot, desk: Desk, clipboard) -> None:
    editor = desk.tab.editor
    before = type_at_end(qtbot, desk, " ")
    mime = QMimeData()
    mime.setHtml('<b>Bold</b> <a href="javascript:alert(1)">link</a><script>x()</script>')
    mime.setText("Bold link")
    clipboard.setMimeData(mime)
    editor.paste()
    assert editor.text() == before + "Bold link"
    assert "<" not in editor.text()[len(before) :]

    only_html = QMimeData()
    only_html.setHtml("<img src='file:///etc/passwd'>")
    clipboard.setMimeData(only_html)
    editor.paste()
    assert editor.text() == before + "Bold link"  # nothing that is not text lands


class OpenRequests(QObject):
    """Catches the URLs Qt is asked to open, as the desktop's URL handler would get them."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[str] = []

    @Slot(QUrl)
    def open_url(self, url: QUrl) -> None:
        self.opened.append(url.toString())


@pytest.fixture
def open_requests() -> Iterator[OpenRequests]:
    catcher = OpenRequests()
    schemes = ("http", "https", "file", "javascript", "data", "ftp")
    for scheme in schemes:
        # The stubs say bytes; the binding accepts only the slot's name as a str.
        QDesktopServices.setUrlHandler(scheme, catcher, "open_url")  # type: ignore[arg-type]
    yield catcher
    for scheme in schemes:
        QDesktopServices.unsetUrlHandler(scheme)


def _anchors(pane) -> list[tuple[str, int]]:
    """Each link in the preview document: its address and a position inside it."""
    found = []
    block = pane.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isAnchor() and fmt.anchorHref():
                found.append((fmt.anchorHref(), fragment.position() + 1))
            it += 1
        block = block.next()
    return found


def _click_at(qtbot, pane, position: int) -> None:
    cursor = QTextCursor(pane.document())
    cursor.setPosition(position)
    point = pane.cursorRect(cursor).center()
    qtbot.mouseClick(pane.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_preview_links_open_only_web_addresses_after_the_dialog(
    qtbot, desk: Desk, open_requests: OpenRequests
) -> None:
    tab = desk.tab
    type_at_end(
        qtbot,
        desk,
        f" See [the guide]({SAFE_URL}), [run](javascript:alert(1)) and "
        "[passwords](file:///etc/passwd).",
    )
    desk.window.actions_.preview.trigger()
    qtbot.waitUntil(
        lambda: tab.last_preview is not None and "docs.example.com" in tab.last_preview.html,
        timeout=TIMEOUT_MS,
    )
    pane = tab.preview.pane
    qtbot.waitUntil(lambda: any(h == SAFE_URL for h, _ in _anchors(pane)), timeout=TIMEOUT_MS)
    hrefs = [h for h, _ in _anchors(pane)]
    assert not any(h.lower().startswith(("javascript:", "file:")) for h in hrefs), hrefs

    # A web link: the dialog shows the whole address; nothing opens before the operator says.
    position = next(p for h, p in _anchors(pane) if h == SAFE_URL)
    _click_at(qtbot, pane, position)
    qtbot.waitUntil(lambda: tab.links.link_dialog is not None, timeout=TIMEOUT_MS)
    dialog = tab.links.link_dialog
    assert dialog is not None
    assert dialog.address_label.text() == SAFE_URL
    assert open_requests.opened == []
    dialog.open_button.click()
    assert open_requests.opened == [SAFE_URL]

    # Cancel opens nothing.
    _click_at(qtbot, pane, position)
    qtbot.waitUntil(lambda: tab.links.link_dialog is not None, timeout=TIMEOUT_MS)
    cancelled = tab.links.link_dialog
    assert cancelled is not None
    cancelled.cancel_button.click()
    assert open_requests.opened == [SAFE_URL]

    # Links to scripts and local files do nothing but say why, however they reach the pane.
    for url in ("javascript:alert(1)", "file:///etc/passwd", "JavaScript:alert(2)"):
        shown = len(desk.window.messages.history)
        pane.anchorClicked.emit(QUrl(url))
        assert tab.links.link_dialog is None
        said = [t for t, _ in desk.window.messages.history[shown:]]
        assert any("never opened" in t for t in said), said
    assert open_requests.opened == [SAFE_URL]
