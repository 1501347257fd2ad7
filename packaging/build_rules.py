"""What the self-contained build leaves out, and what it must never carry (used by the spec
and by packaging/check_build.py, so the two can't disagree)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import PurePosixPath

EXCLUDED_MODULES = [
    # Test and development tools that reach the analysis through optional imports: never
    # used by the program.
    "tests",
    "pytest",
    "_pytest",
    "pytestqt",
    "hypothesis",
    "mypy",
    "mypyc",
    "ruff",
    "importlinter",
    "PyInstaller",
    "setuptools",
    "pip",
    "tkinter",
    # The server runs on Starlette and builds its OpenAPI document itself: FastAPI and
    # pydantic are no dependency, and stay out should the build environment have them.
    "fastapi",
    "pydantic",
    "pydantic_core",
    # Optional extras of libraries the app uses, never reached by it: pretty printing
    # (rich, pygments, IPython) and Markdown's code highlighting, which the preview does
    # not enable; Python's help() topics. (markdown_it is the preview's own.)
    "rich",
    "pygments",
    "IPython",
    "pydoc_data",
    # rapidfuzz's fuzzy matchers and batch search in C++: the diff uses only
    # rapidfuzz.distance (which keeps its C++); the rest falls back to its Python code.
    "rapidfuzz.fuzz_cpp",
    "rapidfuzz.fuzz_cpp_avx2",
    "rapidfuzz.fuzz_cpp_sse2",
    "rapidfuzz.process_cpp_impl",
    "rapidfuzz.process_cpp_impl_avx2",
    "rapidfuzz.process_cpp_impl_sse2",
    # Qt modules the app never imports (qtpy and PySide6 try them when present).
    "PySide6.QtNetwork",
    "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets",
    "PySide6.QtQml",
    "PySide6.QtQuick",
    "PySide6.QtQuickWidgets",
    "PySide6.QtPrintSupport",
    "PySide6.QtSql",
    "PySide6.QtTest",
    "PySide6.QtXml",
    "PySide6.QtConcurrent",
    "PySide6.QtDesigner",
    "PySide6.QtHelp",
    "PySide6.QtUiTools",
]

FORBIDDEN_MODULES = re.compile(
    r"^(tests|pytest|_pytest|pytestqt|hypothesis|mypy|ruff|PyInstaller)(\.|$)"
    r"|(^|\.)(server_hooks|test_hooks|faultproxy|live_server)(\.|$)"
)
"""Modules that must not be in the build: tests, their fault hooks and development tools."""

_QT = "PySide6/Qt/"
_UNUSED_QT = re.compile(
    r"^PySide6/Qt/(?:"
    r"translations/"  # the app is in English; Qt's own dialogs stay in English too
    r"|qml/"
    r"|plugins/(?:"
    r"egldeviceintegrations|generic|networkinformation|tls|sqldrivers|printsupport"
    r"|qmltooling|qmllint|designer|vectorimageformats"
    r"|wayland-graphics-integration-server"
    r"|platformthemes/libqgtk3"  # GTK 3 and its whole stack (cairo, pango, atk) for a theme
    r"|platforms/libq(?:eglfs|linuxfb|minimal|minimalegl|vkkhrdisplay|vnc)\.so"
    r"|imageformats/libq(?!svg)"  # the app shows only its SVG icon: no photos, no web images
    r"|wayland-shell-integration/lib(?!xdg-shell)"  # desktops speak xdg-shell
    r"|wayland-graphics-integration-client/lib[\w-]+-server\.so"  # for Qt-made compositors
    r"))"
)


def is_unused_qt_file(dest: str) -> bool:
    """A Qt plugin or data file (by its path in the build) that Taskdesk never loads.

    Kept: the xcb, Wayland and offscreen platforms, xcb's GL integrations, input methods
    (compose, ibus), the SVG icon engine and image format, the xdg portal theme.
    """
    return bool(_UNUSED_QT.match(PurePosixPath(dest).as_posix()))


def is_root_binary(dest: str) -> bool:
    """A binary that Python or Qt loads by itself (an extension module, a Qt plugin, Python):
    every other shared library stays only if one of these needs it."""
    path = PurePosixPath(dest).as_posix()
    name = PurePosixPath(dest).name
    return (
        path.startswith(_QT + "plugins/")
        or "/lib-dynload/" in f"/{path}"
        or ".cpython-" in name
        or name.endswith(".abi3.so")
        or name.startswith("libpython")
    )


def needed_closure(
    binaries: Mapping[str, str],
    *,
    roots: Iterable[str],
    imports_of: Callable[[str], Iterable[str]],
) -> set[str]:
    """The build paths of ``binaries`` (build path → source file) that ``roots`` load,
    directly or through each other; libraries are matched by file name."""
    by_name: dict[str, list[str]] = {}
    for dest in binaries:
        by_name.setdefault(PurePosixPath(dest).name, []).append(dest)
    needed: set[str] = set()
    pending = list(roots)
    while pending:
        dest = pending.pop()
        if dest in needed:
            continue
        needed.add(dest)
        for name in imports_of(binaries[dest]):
            pending.extend(by_name.get(PurePosixPath(name).name, []))
    return needed
