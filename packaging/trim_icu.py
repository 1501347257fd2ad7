"""Rebuild the build's ICU data library without the data Qt never asks ICU for (15 of 32 MB).

Qt Core uses ICU for text converters, collation, locale-aware case mapping and time-zone
names (the ucnv_, ucol_, u_strTo* and ucal_ functions it imports). ICU's data also holds
break-iterator dictionaries, unit, currency, language and region names, transliterators and
number spell-out rules, which only other ICU functions read. This keeps every item Qt's
functions can reach and drops those trees, then links the data into a new library with the
same name and exported symbol, using binutils (`as`, `ld`, `nm`), which PyInstaller needs
anyway.

    python packaging/trim_icu.py BUILD/_internal/PySide6/Qt/lib/libicudata.so.73
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

UNUSED_TREES = ("brkitr", "unit", "curr", "lang", "region", "translit", "rbnf")
"""ICU data trees (folders inside the data package) that no function Qt calls opens."""

ALIGN = 16  # ICU's common data keeps each item 16-byte aligned


class TrimError(RuntimeError):
    """The library is not the ICU data library this script understands."""


@dataclass(frozen=True)
class DataItem:
    name: str  # "icudt73l/coll/de.res"
    data: bytes


def read_symbol(library: Path) -> tuple[str, bytes]:
    """The exported ``icudtNN_dat`` symbol's name and bytes (the ICU common data package)."""
    listing = subprocess.run(
        ["nm", "-D", "-S", "--defined-only", str(library)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    match = re.search(r"^([0-9a-f]+) ([0-9a-f]+) R (icudt\d+_dat)$", listing, re.M)
    if match is None:
        raise TrimError(f"{library} exports no icudtNN_dat symbol")
    address, size, name = int(match[1], 16), int(match[2], 16), match[3]
    offset = _file_offset(library, address)
    with library.open("rb") as file:
        file.seek(offset)
        return name, file.read(size)


def _file_offset(library: Path, address: int) -> int:
    """Where the loaded ``address`` lies in the file (from the program headers)."""
    headers = subprocess.run(
        ["readelf", "-lW", str(library)], capture_output=True, text=True, check=True
    ).stdout
    for line in headers.splitlines():
        fields = line.split()
        if fields[:1] == ["LOAD"]:
            offset, vaddr, filesz = int(fields[1], 16), int(fields[2], 16), int(fields[4], 16)
            if vaddr <= address < vaddr + filesz:
                return offset + address - vaddr
    raise TrimError(f"{library}: address {address:#x} is in no loaded segment")


def parse_package(blob: bytes) -> tuple[bytes, list[DataItem]]:
    """The package's header and its items, in table-of-contents order (sorted by name)."""
    header_size, magic1, magic2 = struct.unpack_from("<HBB", blob, 0)
    if (magic1, magic2) != (0xDA, 0x27) or blob[12:16] != b"CmnD":
        raise TrimError("not an ICU common data package")
    toc = header_size
    (count,) = struct.unpack_from("<I", blob, toc)
    entries = [struct.unpack_from("<II", blob, toc + 4 + 8 * i) for i in range(count)]
    items: list[DataItem] = []
    for index, (name_offset, data_offset) in enumerate(entries):
        start = toc + name_offset
        name = blob[start : blob.index(b"\0", start)].decode("ascii")
        end = toc + entries[index + 1][1] if index + 1 < count else len(blob)
        items.append(DataItem(name, blob[toc + data_offset : end]))
    return blob[:header_size], items


def build_package(header: bytes, items: list[DataItem]) -> bytes:
    """A common data package of ``items`` (their order kept: ICU looks names up by bisection)."""
    names = b"".join(item.name.encode("ascii") + b"\0" for item in items)
    table_size = 4 + 8 * len(items)
    data_start = _aligned(table_size + len(names))
    table = [struct.pack("<I", len(items))]
    body = bytearray()
    name_offset = table_size
    for item in items:
        table.append(struct.pack("<II", name_offset, data_start + len(body)))
        name_offset += len(item.name) + 1
        body += item.data
        body += b"\0" * (_aligned(len(body)) - len(body))
    toc = b"".join(table) + names
    return header + toc + b"\0" * (data_start - len(toc)) + bytes(body)


def _aligned(size: int) -> int:
    return (size + ALIGN - 1) // ALIGN * ALIGN


def is_unused(name: str) -> bool:
    parts = name.split("/")
    return len(parts) > 2 and parts[1] in UNUSED_TREES


def link_library(symbol: str, package: bytes, soname: str, out: Path) -> None:
    """A shared library exporting ``symbol`` = ``package``, as ICU's own data library does."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder, "data.bin")
        data.write_bytes(package)
        source = Path(folder, "data.s")
        source.write_text(
            f"\t.section .rodata\n\t.globl {symbol}\n\t.type {symbol}, @object\n"
            f'\t.balign {ALIGN}\n{symbol}:\n\t.incbin "{data}"\n'
            f"\t.size {symbol}, . - {symbol}\n"
            '\t.section .note.GNU-stack,"",@progbits\n',
            encoding="ascii",
        )
        obj = Path(folder, "data.o")
        subprocess.run(["as", "-o", str(obj), str(source)], check=True)
        subprocess.run(
            ["ld", "-shared", "-soname", soname, "-z", "noexecstack", "-o", str(out), str(obj)],
            check=True,
        )


def trim(library: Path) -> tuple[int, int]:
    """Replace ``library`` with its trimmed rebuild; returns (bytes before, bytes after)."""
    before = library.stat().st_size
    symbol, blob = read_symbol(library)
    header, items = parse_package(blob)
    kept = [item for item in items if not is_unused(item.name)]
    package = build_package(header, kept)
    if parse_package(package)[1] != kept:
        raise TrimError("the rebuilt package does not read back as written")
    rebuilt = library.with_name(library.name + ".trimmed")
    link_library(symbol, package, library.name, rebuilt)
    rebuilt.chmod(library.stat().st_mode)
    rebuilt.replace(library)
    return before, library.stat().st_size


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: trim_icu.py PATH/TO/libicudataNN.so", file=sys.stderr)
        return 2
    try:
        before, after = trim(Path(argv[0]))
    except (TrimError, OSError, subprocess.CalledProcessError) as exc:
        print(f"trim_icu: {exc}", file=sys.stderr)
        return 1
    print(f"trim_icu: ICU data {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
