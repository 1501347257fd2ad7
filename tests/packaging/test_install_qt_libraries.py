"""packaging/install-qt-libraries.sh: installs only what the loader can't find (apt faked)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "install-qt-libraries.sh"


def _fake_bin(tmp_path: Path, libraries: list[str], *, root: bool) -> Path:
    """ldconfig, id, apt-get and fc-list stand-ins; apt-get writes what it was asked."""
    folder = tmp_path / "bin"
    folder.mkdir()
    listing = "".join(f"\\t{name} (libc6,x86-64) => /usr/lib/{name}\\n" for name in libraries)
    scripts = {
        "ldconfig": f'#!/bin/sh\nprintf "{len(libraries)} libs found\\n{listing}"\n',
        "id": f"#!/bin/sh\necho {0 if root else 1000}\n",
        "apt-get": f'#!/bin/sh\necho "$*" >> {tmp_path}/apt.log\n',
        "fc-list": "#!/bin/sh\necho '/usr/share/fonts/DejaVuSans.ttf: DejaVu Sans'\n",
        "uname": "#!/bin/sh\necho Linux\n",
    }
    for name, text in scripts.items():
        (folder / name).write_text(text, encoding="utf-8")
        (folder / name).chmod(0o755)
    return folder


def _run(tmp_path: Path, libraries: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    folder = _fake_bin(tmp_path, libraries, root=True)
    env = dict(os.environ, PATH=f"{folder}:{os.environ['PATH']}")
    return subprocess.run(
        ["sh", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=60
    )


ALL = [
    line.split()[0]
    for line in SCRIPT.read_text("utf-8").split("LIBRARIES='", 1)[1].split("'", 1)[0].splitlines()
    if line.strip()
]


def test_nothing_missing_installs_nothing(tmp_path: Path) -> None:
    result = _run(tmp_path, ALL)
    assert result.returncode == 0, result.stderr
    assert result.stdout == result.stderr == ""
    assert not (tmp_path / "apt.log").exists()


def test_only_the_missing_packages_are_installed(tmp_path: Path) -> None:
    present = [name for name in ALL if name not in ("libxcb-icccm.so.4", "libxcb-keysyms.so.1")]
    result = _run(tmp_path, present)
    assert result.returncode == 0, result.stderr
    assert "libxcb-icccm4 libxcb-keysyms1" in result.stdout
    calls = (tmp_path / "apt.log").read_text("utf-8").splitlines()
    assert calls[0].startswith("update")
    assert calls[1].endswith("install -y --no-install-recommends libxcb-icccm4 libxcb-keysyms1 -q")


def test_check_only_names_them_and_fails(tmp_path: Path) -> None:
    result = _run(tmp_path, [n for n in ALL if n != "libxcb-cursor.so.0"], "--check")
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "taskdesk: missing system packages for Qt's window: libxcb-cursor0"
    )
    assert not (tmp_path / "apt.log").exists()
