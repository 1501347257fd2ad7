"""What the self-contained build leaves out, and what it must never carry."""

from __future__ import annotations

import pytest

from tests.packaging.conftest import load_packaging_module

rules = load_packaging_module("build_rules")


@pytest.mark.parametrize(
    "dest",
    [
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqwayland.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so",
        "PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
        "PySide6/Qt/plugins/iconengines/libqsvgicon.so",
        "PySide6/Qt/plugins/imageformats/libqsvg.so",
        "PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so",
        "PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so",
        "PySide6/Qt/plugins/wayland-graphics-integration-client/libqt-plugin-wayland-egl.so",
        "PySide6/Qt/lib/libQt6Core.so.6",
    ],
)
def test_what_the_window_needs_stays(dest: str) -> None:
    assert not rules.is_unused_qt_file(dest)


@pytest.mark.parametrize(
    "dest",
    [
        "PySide6/Qt/translations/qtbase_de.qm",
        "PySide6/Qt/plugins/platforms/libqeglfs.so",
        "PySide6/Qt/plugins/platforms/libqvnc.so",
        "PySide6/Qt/plugins/platforms/libqminimal.so",
        "PySide6/Qt/plugins/platformthemes/libqgtk3.so",
        "PySide6/Qt/plugins/imageformats/libqtiff.so",
        "PySide6/Qt/plugins/egldeviceintegrations/libqeglfs-kms-integration.so",
        "PySide6/Qt/plugins/tls/libqopensslbackend.so",
        "PySide6/Qt/plugins/wayland-shell-integration/libivi-shell.so",
        "PySide6/Qt/plugins/wayland-graphics-integration-client/libdrm-egl-server.so",
    ],
)
def test_what_it_never_loads_goes(dest: str) -> None:
    assert rules.is_unused_qt_file(dest)


def test_roots_are_what_python_and_qt_load_by_themselves() -> None:
    assert rules.is_root_binary("PySide6/QtCore.abi3.so")
    assert rules.is_root_binary("python3.11/lib-dynload/_ssl.cpython-311-x86_64-linux-gnu.so")
    assert rules.is_root_binary("PySide6/Qt/plugins/platforms/libqxcb.so")
    assert rules.is_root_binary("libpython3.11.so.1.0")
    assert not rules.is_root_binary("libgtk-3.so.0")
    assert not rules.is_root_binary("PySide6/Qt/lib/libQt6Core.so.6")


def test_a_library_only_a_dropped_plugin_needed_goes_too() -> None:
    needs = {
        "/src/QtCore.abi3.so": ["libQt6Core.so.6"],
        "/src/libQt6Core.so.6": ["libicuuc.so.73", "libc.so.6"],
        "/src/libicuuc.so.73": ["libicudata.so.73"],
        "/src/libicudata.so.73": [],
        "/src/libgtk-3.so.0": ["libcairo.so.2"],
        "/src/libcairo.so.2": [],
    }
    binaries = {
        "PySide6/QtCore.abi3.so": "/src/QtCore.abi3.so",
        "PySide6/Qt/lib/libQt6Core.so.6": "/src/libQt6Core.so.6",
        "libQt6Core.so.6": "/src/libQt6Core.so.6",  # the link beside it goes with it
        "PySide6/Qt/lib/libicuuc.so.73": "/src/libicuuc.so.73",
        "PySide6/Qt/lib/libicudata.so.73": "/src/libicudata.so.73",
        "libgtk-3.so.0": "/src/libgtk-3.so.0",
        "libcairo.so.2": "/src/libcairo.so.2",
    }
    kept = rules.needed_closure(
        binaries, roots=["PySide6/QtCore.abi3.so"], imports_of=lambda path: needs[path]
    )
    assert kept == set(binaries) - {"libgtk-3.so.0", "libcairo.so.2"}


@pytest.mark.parametrize(
    ("module", "forbidden"),
    [
        ("tests.server_hooks", True),
        ("server_hooks", True),
        ("tests", True),
        ("hypothesis.strategies", True),
        ("_pytest.main", True),
        ("mypy.build", True),
        ("app.server.app_factory", False),
        ("app.server", False),
        ("widgets.launcher", False),
        ("pytest_something_else_named", False),
    ],
)
def test_test_modules_are_caught(module: str, forbidden: bool) -> None:
    assert bool(rules.FORBIDDEN_MODULES.search(module)) is forbidden
