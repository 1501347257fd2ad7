#!/usr/bin/env bash
# Build the self-contained Linux program: dist/taskdesk-VERSION-linux-ARCH/ and its .tar.zst.
#
#   bash packaging/build-linux.sh        (uses .venv; PYTHON=/path/to/python to choose another)
#
# The folder holds the `taskdesk` program (PyInstaller one-folder, Python, Qt and the X11
# libraries Qt needs inside), its desktop entry, icons and AppStream metadata, and install.sh.
# Prints the build's size (checked against the budget) and how long the build took.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
python=${PYTHON:-.venv/bin/python}
budget_mb=${TASKDESK_BUILD_BUDGET_MB:-150}

# The libraries Qt's xcb plugin needs must be on the build machine for the build to carry them.
sh packaging/install-qt-libraries.sh
for tool in objdump strip zstd; do
  command -v "$tool" >/dev/null || { echo "build-linux: $tool is missing (Debian: apt-get install binutils zstd)" >&2; exit 1; }
done
[ -x "$python" ] || python3 -m venv .venv
"$python" -m pip install -q --disable-pip-version-check -e '.[packaging]'

"$python" -m PyInstaller --noconfirm --log-level WARN \
  --distpath build/pyinstaller/dist --workpath build/pyinstaller/work packaging/taskdesk.spec

version=$("$python" -c 'import app; print(app.version())')
name="taskdesk-$version-linux-$(uname -m)"
out="dist/$name"
id=io.github.taskdesk.Taskdesk
rm -rf "$out" "dist/$name.tar.zst"
mkdir -p "$out"
cp -a build/pyinstaller/dist/taskdesk/. "$out/"
find "$out" -xtype l -delete # links to the Qt libraries the spec left out
"$python" packaging/trim_icu.py "$out"/_internal/PySide6/Qt/lib/libicudata.so.*
install -Dm644 "packaging/linux/$id.desktop" "$out/share/applications/$id.desktop"
install -Dm644 "packaging/linux/$id.metainfo.xml" "$out/share/metainfo/$id.metainfo.xml"
install -Dm644 resources/taskdesk-icon.svg "$out/share/icons/hicolor/scalable/apps/$id.svg"
for size in 48 128 256; do
  install -Dm644 "resources/taskdesk-icon-$size.png" \
    "$out/share/icons/hicolor/${size}x${size}/apps/$id.png"
done
install -m755 packaging/linux/install.sh "$out/install.sh"
install -m644 packaging/linux/README.txt "$out/README.txt"

"$python" packaging/check_build.py "$out" --budget-mb "$budget_mb"
tar -C dist -cf - "$name" | zstd -q -T0 -12 -o "dist/$name.tar.zst"
packed=$(du -b "dist/$name.tar.zst" | cut -f1)
echo "taskdesk build: dist/$name.tar.zst, $((packed / 1000000)) MB packed;" \
  "built in $(($(date +%s) - started)) s"
