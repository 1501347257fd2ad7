"""Check a self-contained build folder: nothing test-only inside, the X11 libraries Qt needs
carried, and the size within budget. Prints the size; exits 1 with the reasons otherwise.

    python packaging/check_build.py dist/taskdesk-0.1.0-linux-x86_64 [--budget-mb 150]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_rules import FORBIDDEN_MODULES  # beside this script

MB = 1_000_000
REQUIRED_MODULES = ("app.server", "app.cli.serve", "app.cli.expand", "widgets.launcher")

CARRIED_LIBRARIES = (
    # What Qt's xcb platform plugin needs beyond libxcb itself: a desktop may lack them
    # (Debian's and Ubuntu's minimal installs do), so the build brings its own.
    "libxcb-cursor.so.0",
    "libxcb-icccm.so.4",
    "libxcb-image.so.0",
    "libxcb-keysyms.so.1",
    "libxcb-randr.so.0",
    "libxcb-render-util.so.0",
    "libxcb-shape.so.0",
    "libxcb-xkb.so.1",
    "libxkbcommon-x11.so.0",
    "libxkbcommon.so.0",
    "libX11-xcb.so.1",
)

SYSTEM_LIBRARY = re.compile(
    # What every Linux desktop has and a build must not carry: the C library, the X
    # connection and the graphics drivers' OpenGL/EGL, which must match the machine.
    r"^(?:linux-vdso|ld-linux.*|libc|libm|libdl|libpthread|librt"
    r"|libxcb|libGL|libEGL|libGLX|libGLdispatch|libOpenGL)\.so"
)


def folder_size(folder: Path) -> tuple[int, int]:
    """Bytes and files, counting each file once (a symlink as the link, not its target)."""
    total = files = 0
    for path in folder.rglob("*"):
        info = path.lstat()
        total += info.st_size
        files += 1
    return total, files


def built_modules(program: Path) -> list[str]:
    from PyInstaller.archive.readers import pkg_archive_contents

    return [str(name) for name in pkg_archive_contents(str(program))]


def forbidden_in(modules: list[str], folder: Path) -> list[str]:
    found = [name for name in modules if FORBIDDEN_MODULES.search(name)]
    for path in folder.rglob("*"):
        dotted = ".".join(path.relative_to(folder).with_suffix("").parts)
        if FORBIDDEN_MODULES.search(dotted.replace("_internal.", "", 1)):
            found.append(str(path.relative_to(folder)))
    return sorted(set(found))


def libraries_from_outside(plugin: Path, internal: Path) -> list[str]:
    """The libraries the xcb plugin would take from the system when run from the build."""
    env = dict(os.environ, LD_LIBRARY_PATH=str(internal))  # what the program's loader sets
    result = subprocess.run(
        ["ldd", str(plugin)], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    outside: list[str] = []
    for line in result.stdout.splitlines():
        name, arrow, where = line.strip().partition(" => ")
        name = Path(name.split(" (")[0]).name  # the loader's own line is a path, no arrow
        resolved = where.split(" (")[0].strip() if arrow else ""
        if not name or SYSTEM_LIBRARY.match(name):
            continue
        if resolved == "not found" or not resolved.startswith(str(internal)):
            outside.append(f"{name} ({resolved or 'system'})")
    return outside


def glibc_needed(folder: Path) -> str:
    """The newest glibc symbol version any file of the build asks for: the oldest glibc the
    build runs on (it is the build machine's; every other library comes along)."""
    newest = (0, 0)
    for path in folder.rglob("*"):
        if not path.is_file() or path.is_symlink() or not _is_elf(path):
            continue
        symbols = subprocess.run(
            ["objdump", "-T", str(path)], capture_output=True, text=True, timeout=60, check=False
        ).stdout
        for major, minor in re.findall(r"GLIBC_(\d+)\.(\d+)", symbols):
            newest = max(newest, (int(major), int(minor)))
    return f"{newest[0]}.{newest[1]}"


def _is_elf(path: Path) -> bool:
    with path.open("rb") as file:
        return file.read(4) == b"\x7fELF"


def check(folder: Path, budget_mb: float) -> list[str]:
    problems: list[str] = []
    program = folder / "taskdesk"
    internal = folder / "_internal"
    if not (program.is_file() and os.access(program, os.X_OK)):
        return [f"{program} is not an executable program"]
    modules = built_modules(program)
    for name in REQUIRED_MODULES:
        if name not in modules:
            problems.append(f"module {name} is missing from the build")
    forbidden = forbidden_in(modules, folder)
    if forbidden:
        problems.append("test or development modules in the build: " + ", ".join(forbidden))
    carried = {path.name for path in internal.rglob("*.so*")}
    for name in CARRIED_LIBRARIES:
        if name not in carried:
            problems.append(f"{name} is not carried (install it where you build: see README)")
    plugins = list(internal.rglob("platforms/libqxcb.so"))
    if len(plugins) != 1:
        problems.append("Qt's xcb platform plugin is missing from the build")
    else:
        outside = libraries_from_outside(plugins[0], internal)
        if outside:
            problems.append("the xcb plugin would load from the system: " + ", ".join(outside))
    size, files = folder_size(folder)
    print(
        f"taskdesk build: {size / MB:.1f} MB unpacked in {files} files "
        f"(budget {budget_mb:.0f} MB), {len(modules)} archived modules, "
        f"{len(CARRIED_LIBRARIES)} X11 libraries carried, no test modules, "
        f"needs glibc {glibc_needed(folder)} or newer"
        if not forbidden
        else f"taskdesk build: {size / MB:.1f} MB unpacked in {files} files",
        flush=True,
    )
    if size > budget_mb * MB:
        problems.append(f"{size / MB:.1f} MB is over the {budget_mb:.0f} MB budget")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--budget-mb", type=float, default=150.0)
    args = parser.parse_args(argv)
    problems = check(args.folder, args.budget_mb)
    for problem in problems:
        print(f"check_build: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
