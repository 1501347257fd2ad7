"""The ICU data trim: a package that reads back, and Qt's ICU features unchanged by it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import PySide6

from tests.packaging.conftest import load_packaging_module

trim_icu = load_packaging_module("trim_icu")

# Everything Qt asks ICU for: collation, locale case mapping, converters, time-zone names.
PROBE = """
import functools
from PySide6.QtCore import QCollator, QLocale, QStringDecoder, QTimeZone
loaded = {line.split()[-1] for line in open('/proc/self/maps') if 'libicudata' in line}
print(sorted(loaded))
words = ['zebra', 'Äpfel', 'apfel', 'Zoo', 'ähnlich', 'Öl', 'oben']
for name in ('de_DE', 'sv_SE', 'ja_JP'):
    print(sorted(words, key=functools.cmp_to_key(QCollator(QLocale(name)).compare)))
print(QLocale('tr_TR').toUpper('istanbul'), QLocale('de_DE').toUpper('straße'))
print([QStringDecoder(n).isValid() for n in ('Shift_JIS', 'windows-1251', 'GB18030', 'EUC-KR')])
print(len(QStringDecoder.availableCodecs()))
zone = QTimeZone(b'Europe/Berlin')
for name in ('fr_FR', 'ja_JP'):
    print(zone.displayName(QTimeZone.TimeType.StandardTime, QTimeZone.NameType.LongName,
                           QLocale(name)))
"""


def _probe(library_dir: Path | None) -> list[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    if library_dir is not None:
        env["LD_LIBRARY_PATH"] = str(library_dir)  # searched before Qt's own RUNPATH
    result = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_package_reads_back_as_built() -> None:
    header = bytes([32, 0, 0xDA, 0x27]) + bytes(8) + b"CmnD" + bytes(16)
    # Items in an ICU package end on a 16-byte boundary (padding is part of the item).
    items = [
        trim_icu.DataItem("icudt73l/a.res", b"abc".ljust(16, b"\0")),
        trim_icu.DataItem("icudt73l/brkitr/x.brk", b"x" * 48),
        trim_icu.DataItem("icudt73l/coll/de.res", b"collation".ljust(32, b"\0")),
    ]
    package = trim_icu.build_package(header, items)
    assert trim_icu.parse_package(package) == (header, items)
    kept = [item for item in items if not trim_icu.is_unused(item.name)]
    assert [item.name for item in kept] == ["icudt73l/a.res", "icudt73l/coll/de.res"]


def test_qt_sees_the_same_icu_after_the_trim(tmp_path: Path) -> None:
    qt_lib = Path(PySide6.__file__).parent / "Qt" / "lib"
    original = next(qt_lib.glob("libicudata.so.*"))
    copy = tmp_path / original.name
    shutil.copy2(original, copy)
    before, after = trim_icu.trim(copy)
    assert after < before * 0.6  # most of ICU's data is what Qt never asks for
    untrimmed, trimmed = _probe(None), _probe(tmp_path)
    assert trimmed[0] == str([str(copy)])  # the trimmed library was the one loaded
    assert untrimmed[0] != trimmed[0]
    assert trimmed[1:] == untrimmed[1:]
    assert "İSTANBUL STRASSE" in trimmed
    assert "[True, True, True, True]" in trimmed
