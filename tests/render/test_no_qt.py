"""The preview's rendering and the diff model import and run without Qt."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
import app.core.diff_model, app.render, app.render.embed_html, app.render.links
app.render.render_markdown("# x")
app.core.diff_model.build_diff("a", "b")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {"PySide6", "shiboken6", "qtawesome"})
print(",".join(loaded))
"""


def test_render_and_diff_model_never_load_qt() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
