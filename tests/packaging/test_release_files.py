"""The release files agree: one version, one app id, icons of the sizes their names say."""

from __future__ import annotations

import configparser
import re
import struct
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

from widgets.launcher import DESKTOP_ID, ICON_FILES

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"


def _project() -> dict[str, object]:
    project: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))[
        "project"
    ]
    return project


def _metainfo() -> ET.Element:
    return ET.parse(LINUX / f"{DESKTOP_ID}.metainfo.xml").getroot()


def _desktop() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(LINUX / f"{DESKTOP_ID}.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def test_the_newest_release_everywhere_is_pyprojects_version() -> None:
    version = _project()["version"]
    releases = _metainfo().findall("./releases/release")
    assert releases and releases[0].get("version") == version
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    released = re.findall(r"^## \[(\d[^\]]*)\] - (\d{4}-\d\d-\d\d)$", changelog, re.M)
    assert released and released[0][0] == version
    assert releases[0].get("date") == released[0][1]  # the same day in both
    assert "## [Unreleased]" in changelog


def test_one_app_id_ties_the_window_desktop_entry_metadata_and_icon() -> None:
    root = _metainfo()
    assert root.findtext("id") == DESKTOP_ID
    assert root.findtext("launchable") == f"{DESKTOP_ID}.desktop"
    entry = _desktop()
    assert entry["Icon"] == DESKTOP_ID
    scripts = _project()["scripts"]
    assert isinstance(scripts, dict)
    assert entry["Exec"].split()[0] in scripts  # the command pip and pipx install
    assert root.findtext("./provides/binary") in scripts


def test_screenshots_named_in_the_metadata_are_in_docs() -> None:
    images = [el.text or "" for el in _metainfo().findall("./screenshots/screenshot/image")]
    assert images
    for url in images:
        assert (ROOT / "docs" / url.rsplit("/", 1)[1]).is_file(), url


def test_icons_have_the_sizes_their_names_say() -> None:
    for name in ICON_FILES:
        path = ROOT / "resources" / name
        assert path.is_file(), name
        size = re.search(r"-(\d+)\.png$", name)
        if size is None:
            assert path.read_text("utf-8").lstrip().startswith("<svg")
            continue
        header = path.read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", header[16:24])
        assert width == height == int(size[1])
