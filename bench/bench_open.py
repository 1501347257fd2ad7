"""Opening a 256 KB Task: from process start until its text is settled on screen, beside
ReText opening the same Markdown file.

Each figure is the median of several fresh processes, measured from spawning them:
- Taskdesk: the real launcher (``open_window``, the embedded default) on a local workspace
  whose first agent's Task is 256 KB of Markdown. The Task opens in Preview: settled is the
  preview holding the whole rendered Task, laid out, and painted after that. The steps on
  the way are printed too (window painted, Task in the tab, its text first on screen,
  whole or its first screenful, the whole preview drawn), and whether that first screen
  is, pixel for pixel, what the settled preview shows there (the text on screen as it stays).
- ReText's editor: ``retext FILE``, settled once its editor holds the text and has painted.
- ReText's preview: ``retext --preview FILE``, settled once its preview holds the rendered
  file and has painted.

ReText is no dependency of Taskdesk: give ``--retext-python`` the Python of an environment
that has it (``python -m venv /tmp/retext && /tmp/retext/bin/pip install retext``). Without it
the figure recorded on this machine's kind (issue 30, 462 ms editor) is printed, and said so.
The processes are started in turn, so a slower spell of the machine hits each alike.

Run: ``.venv/bin/python bench/bench_open.py [--runs N] [--retext-python PATH]``.
Target: Taskdesk settled within 1.0x of ReText's editor.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_editor import task_text  # bench/ is on the path when a script runs

ROOT = Path(__file__).resolve().parents[1]

RETEXT_EDITOR_RECORDED_MS = 462.0
RETEXT_PREVIEW_RECORDED_MS = 1252.0

# Prints "<mark>" lines as it goes; "settled" once the Task's preview is whole on screen.
TASKDESK = textwrap.dedent(
    """
    from widgets.common.pyside_sources import stop_caching_module_sources
    stop_caching_module_sources()

    import sys
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication
    from widgets.launcher import open_window, prepare_application
    from widgets.window.main_window import MainWindow

    WANTED = int(sys.argv[1])  # characters of the Task

    class Marks(QObject):
        def __init__(self):
            super().__init__()
            self.seen = set()
            self.watching = None

        def mark(self, name):
            if name not in self.seen:
                self.seen.add(name)
                print(name, flush=True)

        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                if obj.isWidgetType() and obj.isWindow():
                    QTimer.singleShot(0, lambda: self.mark("painted"))
                if obj is self.watching:
                    self.watching = None
                    QTimer.singleShot(0, self.settled)
            return False

        def settled(self):
            self.mark("settled")
            # The first screen as it stays? Its pixels, against the settled preview's.
            if first_screen.shot is not None:
                now = window.task_tab.preview.pane.viewport().grab().toImage()
                self.mark("first screen stayed" if now == first_screen.shot else "screen changed")
            app.quit()

    app = QApplication(sys.argv[:1])
    prepare_application(app)
    marks = Marks()
    made = MainWindow.__init__

    def watched(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.installEventFilter(marks)

    MainWindow.__init__ = watched
    window = open_window(app, None)

    # Signals, not polling: a poll reading a 256 KB document would slow what it measures.
    def on_opened(_agent_id):
        # The tab is built after the first paint: watch its preview once it is there.
        tab = window.task_tab
        if len(tab.editor.toPlainText()) >= WANTED:
            marks.mark("task")
        tab.preview.pane.html_shown.connect(on_shown)
        on_shown()

    class FirstScreen(QObject):
        shot = None

        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                obj.removeEventFilter(self)
                QTimer.singleShot(0, self.seen)
            return False

        def seen(self):
            marks.mark("first screen")  # then its pixels, kept for the settled preview's
            self.shot = window.task_tab.preview.pane.viewport().grab().toImage()

    first_screen = FirstScreen()

    def on_shown():
        tab = window.task_tab
        pane = tab.preview.pane
        if pane.is_placeholder():
            return
        shown = len(pane.document().toPlainText())
        if shown > 1000 and "first screen" not in marks.seen and not hasattr(first_screen, "on"):
            first_screen.on = True  # the Task's text on screen, whole or its first screenful
            pane.viewport().installEventFilter(first_screen)
            pane.viewport().update()
        if shown < WANTED // 2:
            return
        marks.mark("preview drawn")
        pipeline = tab.live_preview.pipeline
        if pipeline is not None and pipeline.busy:
            return  # another preview follows
        if pane.is_laying_out() or pane._building:
            return
        # Settled: the next paint of the preview shows it whole.
        viewport = pane.viewport()
        marks.watching = viewport
        viewport.installEventFilter(marks)
        viewport.update()

    window.agent_opened.connect(on_opened)
    QTimer.singleShot(30_000, app.quit)
    app.exec()
    window._closing_confirmed = True
    window.shutdown()
    """
)

# ReText's own main(), watched: "settled" once the editor (or, with --preview, the preview)
# holds the file and has painted.
RETEXT = textwrap.dedent(
    """
    import sys, time
    from PyQt6.QtCore import QEvent, QObject, QTimer
    from PyQt6.QtWidgets import QApplication
    import ReText.__main__ as retext_main
    from ReText.window import ReTextWindow

    WANTED = int(sys.argv.pop(1))
    PREVIEW = "--preview" in sys.argv

    class Settle(QObject):
        def __init__(self):
            super().__init__()
            self.box = None

        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and obj is self.box:
                self.box = None
                QTimer.singleShot(0, self.done)
            return False

        def done(self):
            print("settled", flush=True)
            QApplication.instance().quit()

    settle = Settle()

    def check():
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, ReTextWindow)]
        tab = windows[0].currentTab if windows else None
        if tab is not None:
            box = tab.previewBox if PREVIEW else tab.editBox
            text = box.toPlainText() if hasattr(box, "toPlainText") else ""
            if len(text) >= (WANTED // 2 if PREVIEW else WANTED):
                viewport = box.viewport()
                settle.box = viewport
                viewport.installEventFilter(settle)
                viewport.update()
                return
        QTimer.singleShot(2, check)

    QTimer.singleShot(0, check)
    QTimer.singleShot(30_000, QApplication.quit)
    try:
        retext_main.main()
    except SystemExit:
        pass
    """
)


def _run(command: list[str], env: dict[str, str], root: Path = ROOT) -> dict[str, float]:
    """Seconds from spawning the process to each line it prints."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    marks: dict[str, float] = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        marks[line.strip()] = time.perf_counter() - start
    _, err = proc.communicate(timeout=60)
    if "settled" not in marks:
        raise SystemExit(
            f"bench_open: a run failed ({proc.returncode}, saw {sorted(marks)}):\n{err}"
        )
    return marks


def _taskdesk_home(home: Path, text: str) -> None:
    """A local workspace (the demo's) whose agents have ``text`` as their Task (so the one
    the window opens first has it)."""
    from app.core.resource_files import demo_workspace_text

    workspace = json.loads(demo_workspace_text())
    for agent in workspace["agents"]:
        agent["task"] = text
        agent.pop("saves", None)
    data = home / "data"  # app.connect.paths.data_dir under TASKDESK_HOME
    data.mkdir(parents=True)
    (data / "local_workspace.json").write_text(json.dumps(workspace), encoding="utf-8")


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["TASKDESK_HOME"] = str(home)
    env["HOME"] = str(home)  # ReText keeps its settings there: fresh ones
    env["XDG_CONFIG_HOME"] = str(home / "config")
    env["XDG_CACHE_HOME"] = str(home / "cache")
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    env.pop("TASKDESK_TOKEN", None)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled modules cached, as for a user
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--retext-python", default=os.environ.get("RETEXT_PYTHON", ""))
    parser.add_argument(
        "--before", type=Path, help="a checkout of an earlier Taskdesk, timed in turn too"
    )
    args = parser.parse_args()
    text = task_text()
    # Embeds of notes the workspace lacks would be drawn as markers: a plain 256 KB Task.
    text = text.replace("![[", "[[")
    wanted = len(text.rstrip("\n"))
    retext = args.retext_python
    with tempfile.TemporaryDirectory(prefix="taskdesk-bench-open-") as tmp:
        base = Path(tmp)
        home = base / "home"
        _taskdesk_home(home, text)
        env = _env(home)
        task_file = base / "task.md"
        task_file.write_text(text, encoding="utf-8")
        ours = [sys.executable, "-c", TASKDESK, str(wanted)]
        editor = [retext, "-c", RETEXT, str(wanted), str(task_file)]
        preview = [*editor, "--preview"]
        before_env = {**env, "PYTHONPATH": str(args.before)} if args.before else env
        # One untimed run each (and the workspace seeded): the file cache decides nothing.
        _run(ours, env)
        if args.before:
            _run(ours, before_env, args.before)
        if retext:
            _run(editor, env)
            _run(preview, env)
        taskdesk: list[dict[str, float]] = []
        before: list[dict[str, float]] = []
        retext_editor: list[float] = []
        retext_preview: list[float] = []
        for _ in range(args.runs):
            taskdesk.append(_run(ours, env))
            if args.before:
                before.append(_run(ours, before_env, args.before))
            if retext:
                retext_editor.append(_run(editor, env)["settled"])
                retext_preview.append(_run(preview, env)["settled"])

    def ms(values: list[float]) -> float:
        return statistics.median(values) * 1000

    print(
        f"256 KB Task ({len(text.encode())} bytes), runs per figure: {args.runs} (median), "
        f"load {os.getloadavg()[0]:.2f}, "
        f"QT_QPA_PLATFORM={os.environ.get('QT_QPA_PLATFORM', 'offscreen')}"
    )
    series = [("Taskdesk", taskdesk)] + ([("before", before)] if before else [])
    for step in ("painted", "task", "first screen", "preview drawn", "settled"):
        figures = "  ".join(
            f"{name} {ms([m[step] for m in runs if step in m]):6.0f} ms" for name, runs in series
        )
        print(f"  {step + ':':<16} {figures}")
    settled = ms([m["settled"] for m in taskdesk])
    stayed = sum("first screen stayed" in m for m in taskdesk)
    first = ms([m["first screen"] for m in taskdesk])
    print(
        f"Taskdesk's first screen, pixel for pixel the settled preview's: {stayed} of "
        f"{len(taskdesk)} runs"
    )
    print(f"Taskdesk, text on screen as it stays:  {first:7.0f} ms")
    print(f"Taskdesk, opens in Preview, settled:   {settled:7.0f} ms")
    if retext:
        editor_ms, preview_ms, said = ms(retext_editor), ms(retext_preview), "same run"
    else:
        editor_ms, preview_ms = RETEXT_EDITOR_RECORDED_MS, RETEXT_PREVIEW_RECORDED_MS
        said = "recorded figure (ReText not installed here: give --retext-python)"
    print(f"ReText's editor, settled:              {editor_ms:7.0f} ms   ({said})")
    print(f"ReText's preview, settled:             {preview_ms:7.0f} ms")
    print(
        f"ratio {settled / editor_ms:.2f}x ReText's editor (target <= 1.0x); the text on "
        f"screen as it stays {first / editor_ms:.2f}x"
    )
    if before:
        earlier = ms([m["settled"] for m in before])
        print(f"before: {earlier:7.0f} ms settled, {earlier / editor_ms:.2f}x ReText's editor")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
