"""Scale benchmark: a big org (5,000 agents, 50,000 notes) against a tenth of it, beside plain Qt.

Each figure is printed at both sizes, beside a baseline measured in the same run, with the
ratio. The workspaces come from `bench/scale_workspace.py` (deterministic). Baselines:
- app start: the same app against the small org (the growth column);
- sidebar filter: a C++ QSortFilterProxyModel over a QStringListModel of the same names;
- Insert › Note picker (opened for an agent: readable notes first): a plain dialog (QListView
  over a QSortFilterProxyModel of titles);
- `![[` completer: a QCompleter over a QStringListModel of the paths;
- embed-status merge: the same number of dataChanged signals on a QStringListModel;
- server: a GET of /api/me on the same server (plain HTTP round trip); the picker's list is
  measured in the spec form, the compact form (plain and gzip) and as a 304;
- restart: the same server on the small demo workspace's database, and the floor: a process
  that only imports the server's modules (Python, Starlette, uvicorn) and exits;
- launch: bench_launch's bare window with the same imports.

Run: `.venv/bin/python bench/bench_scale.py [--only demo|big] [--skip-launch]`.
Targets (issue 13): Task visible <= 1 s; longest GUI stall <= 50 ms; requests at start
independent of the guild count; sidebar filter <= 2x the proxy per key; picker open
<= 50 ms, <= 16 ms per key; completer <= 16 ms per key; embeddable-notes <= 50 ms;
restart <= 0.3 s; launch <= 1.3x a bare window.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scale_workspace import BIG, DEMO, OPERATOR_TOKEN, Scale, generate  # noqa: E402

# ------------------------------------------------------------------ the app, in a child process

# Prints one JSON line: seconds from spawn to the Task on screen, requests at start, the GUI
# stalls until idle (no request in flight for 0.5 s after the Task shows), and idle RSS.
APP_PROBE = textwrap.dedent(
    """
    import ctypes, json, sys, threading, time
    T0 = float(sys.argv[1])
    URL = sys.argv[2]
    from widgets.common.pyside_sources import stop_caching_module_sources
    stop_caching_module_sources()  # as run_window does, before the first Qt import
    from app.client import transport
    from PySide6.QtCore import QElapsedTimer, QTimer
    from PySide6.QtWidgets import QApplication
    from widgets.launcher import open_window, prepare_application

    lock = threading.Lock()
    requests_seen = []
    in_flight = [0]
    last_done = [time.time()]
    original = transport.Transport.request

    def counted(self, method, path, **kw):
        with lock:
            requests_seen.append((round(time.time() - T0, 3), method, path))
            in_flight[0] += 1
        try:
            return original(self, method, path, **kw)
        finally:
            with lock:
                in_flight[0] -= 1
                last_done[0] = time.time()

    transport.Transport.request = counted
    app = QApplication(sys.argv[:1])
    prepare_application(app)
    stalls = []
    clock = QElapsedTimer()
    clock.start()
    last = [0]

    painted = [False]

    def tick():
        now = clock.elapsed()
        gap = now - last[0]
        if gap > 16 and painted[0]:
            stalls.append(gap)
        last[0] = now

    beat = QTimer()
    beat.setInterval(2)
    beat.timeout.connect(tick)
    beat.start()
    marks = {}

    def task_shown(_agent_id):
        tab = window.task_tab
        def check():
            if tab.editor.toPlainText().strip():
                marks.setdefault("task", time.time() - T0)
                marks.setdefault("requests_at_task", len(requests_seen))
            else:
                QTimer.singleShot(5, check)
        check()

    def idle_check():
        with lock:
            quiet = in_flight[0] == 0 and time.time() - last_done[0] > 0.5
        if "task" in marks and quiet:
            marks["idle"] = time.time() - T0
            marks["rss"] = rss_now()
            marks["requests"] = len(requests_seen)
            switch_agents()
        else:
            QTimer.singleShot(20, idle_check)

    def rss_now():
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)  # what the allocator keeps is not growth
        except OSError:
            pass
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    # Then 2 x 100 agent switches, each to a Task on screen: the RSS after each hundred.
    # A leak per switch shows as growth over the second hundred too; the first hundred
    # also fills caches (notes of the Tasks seen, the last versions).
    ids = []
    switched = []

    def switch_agents():
        beat.stop()  # stalls are counted from start to idle only
        if not switched and not ids:
            ids.extend(list(window.agent_model.agent_ids())[1:201])
        if not ids:
            finish()
            return
        agent_id = ids.pop(0)
        def shown(shown_id):
            if shown_id == agent_id:
                window.agent_opened.disconnect(shown)
                switched.append(agent_id)
                if len(switched) in (100, 200):
                    marks[f"rss_{len(switched)}"] = rss_now()
                QTimer.singleShot(0, switch_agents)
        window.agent_opened.connect(shown)
        window.open_agent(agent_id)

    def finish():
        beat.stop()
        rss = marks.get("rss") or rss_now()
        print(json.dumps({
            "rss_100": marks.get("rss_100"), "rss_200": marks.get("rss_200"),
            "task": marks.get("task"), "idle": marks.get("idle"),
            "requests": marks.get("requests", len(requests_seen)),
            "requests_at_task": marks.get("requests_at_task"),
            "paths": sorted({p.split("/")[2] if p.count("/") > 2 else p
                             for _, _, p in requests_seen}),
            "stall_total": sum(stalls) / 1000, "stall_max": max(stalls, default=0) / 1000,
            "rss": rss,
        }), flush=True)
        app.quit()

    window = open_window(app, URL)
    window.agent_opened.connect(task_shown)

    # Stalls count from the window's first paint: before it there is no window to freeze
    # (that time is the launch figure, bench_launch).
    from PySide6.QtCore import QEvent, QObject

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and not painted[0]:
                painted[0] = True
                last[0] = clock.elapsed()
            return False

    first_paint = FirstPaint()
    window.installEventFilter(first_paint)
    QTimer.singleShot(50, idle_check)
    QTimer.singleShot(170_000, finish)
    app.exec()
    window._closing_confirmed = True
    window.shutdown()
    """
)


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["TASKDESK_HOME"] = str(home)
    env["TASKDESK_TOKEN"] = OPERATOR_TOKEN
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    env["PYTHONPATH"] = str(ROOT)
    # As on a user's machine: compiled modules are cached (__pycache__), not compiled on
    # every start (a shell with PYTHONDONTWRITEBYTECODE would time the compiler).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _serve(workspace: Path, db: Path) -> tuple[subprocess.Popen[str], str, float]:
    """Start `taskdesk serve`; the process, its URL and the seconds to its first line."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "serve",
            "--workspace",
            str(workspace),
            "--db",
            str(db),
            "--port",
            "0",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    took = time.perf_counter() - start
    if not line.startswith("taskdesk: serving "):
        proc.kill()
        raise SystemExit(f"bench_scale: the server did not start: {line!r}")
    return proc, line.removeprefix("taskdesk: serving "), took


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def _app_run(url: str, home: Path) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", APP_PROBE, str(time.time()), url],
        cwd=ROOT,
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=240,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        raise SystemExit(f"bench_scale: the app run failed:\n{proc.stderr[-3000:]}")
    return dict(json.loads(lines[-1]))


def _median_ms(call: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _notes_figures(url: str, session: Any) -> dict[str, Any]:
    """The picker's list: the first answer (nothing kept yet), the spec form and the compact
    one (plain and gzip) kept, a 304, and the app's client reading it whole and unchanged."""
    from app.client import TaskdeskClient

    notes = f"{url}/api/org/embeddable-notes"
    compact = notes + "?form=compact"
    plain = {"Accept-Encoding": "identity"}
    gzip = {"Accept-Encoding": "gzip"}
    out: dict[str, Any] = {}
    start = time.perf_counter()
    first = session.get(compact, headers=plain)  # the first after a start or a change
    out["notes_first_ms"] = (time.perf_counter() - start) * 1000
    out["compact_bytes"] = len(first.content)
    out["notes_bytes"] = len(session.get(notes, headers=plain).content)
    out["compact_gzip_bytes"] = int(session.get(compact, headers=gzip).headers["Content-Length"])
    out["notes_ms"] = _median_ms(lambda: session.get(notes, headers=plain).raise_for_status())
    out["compact_ms"] = _median_ms(lambda: session.get(compact, headers=plain).raise_for_status())
    out["compact_gzip_ms"] = _median_ms(
        lambda: session.get(compact, headers=gzip).raise_for_status()
    )
    unchanged = {"If-None-Match": first.headers["ETag"]}
    out["notes_304_ms"] = _median_ms(
        lambda: session.get(compact, headers=unchanged).raise_for_status()
    )

    def client_read(compact_form: bool) -> float:
        with TaskdeskClient(url, OPERATOR_TOKEN) as client:
            client.ask_compact_notes(compact_form)
            start = time.perf_counter()
            client.embeddable_notes()
            return (time.perf_counter() - start) * 1000

    out["client_spec_ms"] = statistics.median(client_read(False) for _ in range(3))
    out["client_compact_ms"] = statistics.median(client_read(True) for _ in range(3))
    with TaskdeskClient(url, OPERATOR_TOKEN) as client:
        client.ask_compact_notes()
        client.embeddable_notes()
        out["client_304_ms"] = _median_ms(client.embeddable_notes)
    return out


def server_and_app(scale: Scale, tmp: Path, app_runs: int) -> dict[str, Any]:
    """Figures that need the real server: HTTP, restart, and the app started against it."""
    import requests

    workspace = tmp / f"ws-{scale.agents}.json"
    workspace.write_text(json.dumps(generate(scale)), encoding="utf-8")
    db = tmp / f"db-{scale.agents}.sqlite3"
    proc, url, first = _serve(workspace, db)  # seeds the database
    out: dict[str, Any] = {"seed_s": first}
    try:
        auth = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        session = requests.Session()
        session.headers.update(auth)
        out["me_ms"] = _median_ms(lambda: session.get(f"{url}/api/me").raise_for_status())
        out.update(_notes_figures(url, session))
        out["status_ms"] = _median_ms(
            lambda: session.get(f"{url}/api/guilds/g0001/embed-status").raise_for_status()
        )
        out["task_ms"] = _median_ms(
            lambda: session.get(f"{url}/api/agents/a00001/files/task.md").raise_for_status()
        )
        runs = [_app_run(url, tmp / f"home-{scale.agents}-{i}") for i in range(app_runs)]
        out["app"] = runs
    finally:
        _stop(proc)
    restarts = []
    for _ in range(3):
        proc, _url, took = _serve(workspace, db)
        _stop(proc)
        restarts.append(took)
    out["restart_s"] = statistics.median(restarts)
    floors = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "import uvicorn, app.server.app_factory"],
            cwd=ROOT,
            env=_env(tmp / "floor"),
            check=True,
        )
        floors.append(time.perf_counter() - start)
    out["import_floor_s"] = statistics.median(floors)
    return out


# ------------------------------------------------------------------ widgets, in this process


def _per_key(
    edit_insert: Callable[[str], None], keys: str, settle: Callable[[], None]
) -> list[float]:
    """Milliseconds per key: the insert and every event it queued (filtering, layout, paint)."""
    times = []
    for ch in keys:
        start = time.perf_counter()
        edit_insert(ch)
        settle()
        times.append((time.perf_counter() - start) * 1000)
    return times


def widgets_figures(scale: Scale) -> dict[str, Any]:
    from PySide6.QtCore import QSortFilterProxyModel, QStringListModel, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QCompleter, QLineEdit, QListView

    from app.core.expander import level_of
    from app.core.models import (
        AccessEntry,
        AgentEmbedStatus,
        AgentRow,
        BrokenEmbed,
        EmbeddableNote,
        Guild,
    )
    from widgets.editor.embeddable_model import EmbeddableModel
    from widgets.editor.insert_picker import InsertPickerDialog
    from widgets.editor.task_editor import TaskEditor
    from widgets.window.agent_list_model import AgentListModel
    from widgets.window.sidebar import Sidebar

    app = QApplication.instance() or QApplication(sys.argv[:1])
    settle = app.processEvents
    ws = generate(scale)
    agents = [AgentRow(a["id"], a["name"], a["guild"], 1) for a in ws["agents"]]
    guilds = [Guild(g["id"], g["name"]) for g in ws["guilds"]]

    def access(item: dict[str, Any]) -> tuple[AccessEntry, ...]:
        return tuple(AccessEntry(e["principal"], e["role"]) for e in item["access"])

    # With their access lists, as the reference server sends them: the picker opened for an
    # agent marks what it can read and puts those first, which the operator waits for too.
    notes = [
        EmbeddableNote(n["path"], n["title"], "note", level_of(n["path"]), access(n))
        for n in ws["notes"]
    ] + [
        EmbeddableNote(c["path"], c["name"], "collection", level_of(c["path"]), access(c))
        for c in ws["collections"]
    ]
    out: dict[str, Any] = {}

    # Sidebar filter, and merging one embed-status answer per guild.
    model = AgentListModel()
    sidebar = Sidebar(model)
    sidebar.resize(260, 800)
    sidebar.show()
    model.set_agents(agents, guilds)
    settle()
    keys = "gent 0012"
    times = _per_key(sidebar.filter_edit.insert, keys, settle)
    out["filter_ms"] = statistics.mean(times)
    out["filter_max_ms"] = max(times)
    sidebar.filter_edit.clear()
    settle()
    by_guild: dict[str, list[AgentEmbedStatus]] = {}
    for i, a in enumerate(agents):
        broken = (BrokenEmbed("org/x/missing.md", 1, "task.md"),) if i % 10 == 0 else ()
        by_guild.setdefault(a.guild_id, []).append(AgentEmbedStatus(a.id, broken))
    start = time.perf_counter()
    for answer in by_guild.values():
        model.set_broken_embeds({s.id: s.broken_embeds for s in answer})
        settle()
    out["merge_s"] = time.perf_counter() - start
    sidebar.close()

    base_model = QStringListModel([a.name for a in agents])
    base_proxy = QSortFilterProxyModel()
    base_proxy.setSourceModel(base_model)
    base_proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    base_edit = QLineEdit()
    base_edit.textChanged.connect(base_proxy.setFilterFixedString)
    base_view = QListView()
    base_view.setModel(base_proxy)
    base_view.setUniformItemSizes(True)
    base_view.resize(260, 800)
    base_view.show()
    base_edit.show()
    settle()
    times = _per_key(base_edit.insert, keys, settle)
    out["base_filter_ms"] = statistics.mean(times)
    start = time.perf_counter()
    for _answer in by_guild.values():
        base_model.dataChanged.emit(
            base_model.index(0), base_model.index(base_model.rowCount() - 1)
        )
        settle()
    out["base_merge_s"] = time.perf_counter() - start
    base_view.close()
    base_edit.close()

    # Insert › Note: open, then a search typed key by key.
    shared = EmbeddableModel(notes)
    start = time.perf_counter()
    picker = InsertPickerDialog(shared, "note", agent=agents[12])
    picker.show()
    settle()
    out["picker_open_ms"] = (time.perf_counter() - start) * 1000
    pkeys = "report 12"
    times = _per_key(picker.search_field.insert, pkeys, settle)
    out["picker_key_ms"] = statistics.mean(times)
    out["picker_key_max_ms"] = max(times)
    picker.close()

    start = time.perf_counter()
    titles = QStringListModel([n.title for n in notes if n.kind == "note"])
    plain_proxy = QSortFilterProxyModel()
    plain_proxy.setSourceModel(titles)
    plain_proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    plain_view = QListView()
    plain_view.setUniformItemSizes(True)
    plain_view.setModel(plain_proxy)
    plain_edit = QLineEdit()
    plain_edit.textChanged.connect(plain_proxy.setFilterFixedString)
    plain_view.show()
    plain_edit.show()
    settle()
    out["base_picker_open_ms"] = (time.perf_counter() - start) * 1000
    times = _per_key(plain_edit.insert, pkeys, settle)
    out["base_picker_key_ms"] = statistics.mean(times)
    plain_view.close()
    plain_edit.close()

    # The `![[` completer, typed in the editor.
    editor = TaskEditor(embeddable=shared)
    editor.resize(800, 600)
    editor.show()
    editor.setFocus()
    settle()
    QTest.keyClicks(editor, "See ![[")
    settle()
    ckeys = "guilds/g0012/re"
    times = _per_key(lambda ch: QTest.keyClicks(editor, ch), ckeys, settle)
    out["completer_ms"] = statistics.mean(times)
    out["completer_max_ms"] = max(times)
    editor.completer.list_popup.hide()
    editor.close()

    completer = QCompleter(QStringListModel([n.display_path for n in notes]))
    completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    completer.setFilterMode(Qt.MatchFlag.MatchContains)
    line = QLineEdit()
    line.show()
    completer.setWidget(line)
    typed = [""]

    def complete(ch: str) -> None:
        typed[0] += ch
        completer.setCompletionPrefix(typed[0])
        completer.complete()

    times = _per_key(complete, ckeys, settle)
    out["base_completer_ms"] = statistics.mean(times)
    completer.popup().hide()
    line.close()
    return out


def launch_figures(runs: int) -> tuple[float, float]:
    """bench_launch's bare window and Taskdesk's first paint (medians, seconds)."""
    import bench_launch

    with tempfile.TemporaryDirectory(prefix="taskdesk-bench-") as tmp:
        env = bench_launch._env(Path(tmp))
        bench_launch._run(bench_launch.BASELINE, env)
        bench_launch._run(bench_launch.TASKDESK, env)
        bare: list[float] = []
        ours: list[float] = []
        for _ in range(runs):  # in turn: a slower spell of the machine hits both
            bare.append(bench_launch._run(bench_launch.BASELINE, env)["painted"])
            ours.append(bench_launch._run(bench_launch.TASKDESK, env)["painted"])
    return statistics.median(bare), statistics.median(ours)


# ------------------------------------------------------------------ printing


def _row(name: str, small: str, big: str, note: str = "") -> None:
    print(f"{name:<52} {small:>22} {big:>22}  {note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app-runs", type=int, default=3)
    parser.add_argument("--skip-launch", action="store_true")
    parser.add_argument("--skip-app", action="store_true", help="widgets figures only")
    parser.add_argument("--skip-widgets", action="store_true", help="server and app only")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    scales = (DEMO, BIG)
    results: dict[int, dict[str, Any]] = {}
    if not args.skip_widgets:
        widgets_figures(Scale.of_agents(100))  # untimed: fonts, icons and styles load once
    with tempfile.TemporaryDirectory(prefix="taskdesk-scale-") as tmp:
        for scale in scales:
            figures = {} if args.skip_widgets else widgets_figures(scale)
            if not args.skip_app:
                figures.update(server_and_app(scale, Path(tmp), args.app_runs))
            results[scale.agents] = figures
    small, big = results[DEMO.agents], results[BIG.agents]
    print(f"sizes: {DEMO.label()} | {BIG.label()}   (baseline in brackets, then the ratio)")
    _row("figure", DEMO.label(), BIG.label())

    if not args.skip_widgets:
        _widget_rows(small, big)
    if not args.skip_app:
        _app_rows(small, big)
    if not args.skip_launch:
        bare, ours = launch_figures(9)
        print(
            f"launch to first paint: bare window with the same imports {bare * 1000:.0f} ms, "
            f"Taskdesk {ours * 1000:.0f} ms, ratio {ours / bare:.2f}x (target <= 1.3x)"
        )
    return 0


def _pair(small: dict[str, Any], big: dict[str, Any], key: str, base: str) -> tuple[str, str]:
    def one(r: dict[str, Any]) -> str:
        v, b = r[key], r[base]
        return f"{v:.1f} [{b:.1f}] {v / b:.1f}x" if b else f"{v:.1f}"

    return one(small), one(big)


def _widget_rows(small: dict[str, Any], big: dict[str, Any]) -> None:
    def pair(key: str, base: str) -> tuple[str, str]:
        return _pair(small, big, key, base)

    _row("sidebar filter per key, ms [C++ proxy]", *pair("filter_ms", "base_filter_ms"))
    _row(
        "sidebar filter, longest key ms",
        f"{small['filter_max_ms']:.1f}",
        f"{big['filter_max_ms']:.1f}",
    )
    _row("merging every embed-status answer, s [dataChanged]", *pair("merge_s", "base_merge_s"))
    _row(
        "picker open, ms [plain list]",
        *pair("picker_open_ms", "base_picker_open_ms"),
        "target <= 50 ms",
    )
    _row(
        "picker per search key, ms [plain list]",
        *pair("picker_key_ms", "base_picker_key_ms"),
        "target <= 16 ms",
    )
    _row(
        "completer per key, ms [QCompleter]",
        *pair("completer_ms", "base_completer_ms"),
        "target <= 16 ms",
    )
    _row(
        "completer, longest key ms",
        f"{small['completer_max_ms']:.1f}",
        f"{big['completer_max_ms']:.1f}",
    )


def _app_rows(small: dict[str, Any], big: dict[str, Any]) -> None:
    def pair(key: str, base: str) -> tuple[str, str]:
        return _pair(small, big, key, base)

    _row("server: embeddable-notes ms [GET /api/me]", *pair("notes_ms", "me_ms"))
    _row(
        "server: embeddable-notes compact ms [/api/me]",
        *pair("compact_ms", "me_ms"),
        "target <= 50 ms",
    )
    _row("server: embeddable-notes compact, gzip ms [/api/me]", *pair("compact_gzip_ms", "me_ms"))
    _row(
        "server: embeddable-notes unchanged, 304 ms [/api/me]",
        *pair("notes_304_ms", "me_ms"),
        "what the app pays per agent opened",
    )
    _row(
        "server: embeddable-notes first answer, compact ms",
        f"{small['notes_first_ms']:.0f}",
        f"{big['notes_first_ms']:.0f}",
        "once per change of the notes",
    )
    for key, label in (
        ("notes_bytes", "spec"),
        ("compact_bytes", "compact"),
        ("compact_gzip_bytes", "compact, gzip"),
    ):
        _row(
            f"server: embeddable-notes body, {label}, MB",
            f"{small[key] / 1e6:.2f}",
            f"{big[key] / 1e6:.2f}",
        )
    _row(
        "client: picker list read, compact ms [spec form]",
        *pair("client_compact_ms", "client_spec_ms"),
    )
    _row("client: picker list unchanged (304) ms [/api/me]", *pair("client_304_ms", "me_ms"))
    _row("server: embed-status, one guild, ms [/api/me]", *pair("status_ms", "me_ms"))
    _row("server: Task GET, ms [/api/me]", *pair("task_ms", "me_ms"))
    _row(
        "server: restart on the same --db, s",
        f"{small['restart_s']:.2f}",
        f"{big['restart_s']:.2f}",
        f"[{big['restart_s'] / small['restart_s']:.1f}x the demo; importing the server alone: "
        f"{big['import_floor_s']:.2f} s, so {big['restart_s'] - big['import_floor_s']:.2f} s "
        "of its own]",
    )

    def app(key: str, r: dict[str, Any]) -> float:
        return float(statistics.median(run[key] or 0 for run in r["app"]))

    for key, label, fmt in (
        ("task", "app: Task visible after start, s", "{:.2f}"),
        ("requests_at_task", "app: HTTP requests before the Task shows", "{:.0f}"),
        ("requests", "app: HTTP requests at start (to idle)", "{:.0f}"),
        ("stall_total", "app: GUI stalls > 16 ms at start, total s", "{:.2f}"),
        ("stall_max", "app: longest GUI stall at start, s", "{:.3f}"),
        ("idle", "app: idle after start, s", "{:.2f}"),
    ):
        a, b = app(key, small), app(key, big)
        ratio = f"[{b / a:.1f}x the demo]" if a else ""
        _row(label, fmt.format(a), fmt.format(b), ratio)
    a, b = app("rss", small), app("rss", big)
    _row("app: idle RSS, MB", f"{a / 1e6:.0f}", f"{b / 1e6:.0f}", f"[{b / a:.2f}x the demo]")

    def grown(r: dict[str, Any], after: str, before: str) -> str:
        values = [(run[after] - run[before]) / 1e6 for run in r["app"] if run.get(after)]
        return f"{statistics.median(values):+.1f}" if values else "-"

    _row(
        "app: RSS after 100 agent switches, MB",
        grown(small, "rss_100", "rss"),
        grown(big, "rss_100", "rss"),
        "(fills caches)",
    )
    _row(
        "app: RSS over the next 100 switches, MB",
        grown(small, "rss_200", "rss_100"),
        grown(big, "rss_200", "rss_100"),
        "(growth per hundred; 0 = no leak)",
    )


if __name__ == "__main__":
    raise SystemExit(main())
