#!/bin/sh
# Install the system libraries Qt's window needs on Debian and Ubuntu, if any are missing.
#
#   sh packaging/install-qt-libraries.sh          install what's missing (asks sudo if not root)
#   sh packaging/install-qt-libraries.sh --check  only say what's missing (exit 1 if anything)
#
# Only what is missing is installed: each library is looked up by its file name in the
# loader's cache, so a machine that has it under another package name (Ubuntu's t64
# packages) is left alone. Other systems: see packaging/README.md.
set -eu

# file the loader looks for    Debian/Ubuntu package that brings it
LIBRARIES='
libxcb-cursor.so.0       libxcb-cursor0
libxcb-icccm.so.4        libxcb-icccm4
libxcb-image.so.0        libxcb-image0
libxcb-keysyms.so.1      libxcb-keysyms1
libxcb-randr.so.0        libxcb-randr0
libxcb-render-util.so.0  libxcb-render-util0
libxcb-render.so.0       libxcb-render0
libxcb-shape.so.0        libxcb-shape0
libxcb-shm.so.0          libxcb-shm0
libxcb-sync.so.1         libxcb-sync1
libxcb-util.so.1         libxcb-util1
libxcb-xfixes.so.0       libxcb-xfixes0
libxcb-xkb.so.1          libxcb-xkb1
libxcb.so.1              libxcb1
libX11-xcb.so.1          libx11-xcb1
libX11.so.6              libx11-6
libxkbcommon-x11.so.0    libxkbcommon-x11-0
libxkbcommon.so.0        libxkbcommon0
libEGL.so.1              libegl1
libGL.so.1               libgl1
libfontconfig.so.1       libfontconfig1
libfreetype.so.6         libfreetype6
libdbus-1.so.3           libdbus-1-3
libglib-2.0.so.0         libglib2.0-0
'

check_only=false
[ "${1:-}" = "--check" ] && check_only=true

if [ "$(uname -s)" != Linux ] || ! command -v apt-get >/dev/null 2>&1; then
  exit 0 # not Debian or Ubuntu: packaging/README.md has the line for other systems
fi

known=$( (ldconfig -p 2>/dev/null || /sbin/ldconfig -p) | awk '{ print $1 }')
missing=$(printf '%s\n' "$LIBRARIES" | while read -r file package; do
  [ -n "$file" ] || continue
  printf '%s\n' "$known" | grep -qxF "$file" || printf '%s ' "$package"
done)
# Without a font, Qt draws every letter as an empty box.
if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list 2>/dev/null | head -n 1)" ]; then
  missing="$missing fontconfig fonts-dejavu-core"
fi
# Debian and Ubuntu ship Python's venv module (and pip for it) separately.
if ! command -v python3 >/dev/null 2>&1; then
  missing="$missing python3 python3-venv"
elif ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  missing="$missing python3-venv"
fi
missing=$(echo $missing) # one line, single spaces

[ -n "$missing" ] || exit 0
command="apt-get install -y --no-install-recommends $missing"
if $check_only; then
  echo "taskdesk: missing system packages for Qt's window: $missing" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  echo "taskdesk: installing the system packages Qt's window needs: $missing"
  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive $command -q >/dev/null
elif command -v sudo >/dev/null 2>&1; then
  echo "taskdesk: Qt's window needs these system packages: $missing"
  echo "taskdesk: installing them with sudo (it may ask for your password)"
  sudo apt-get update -q >/dev/null && sudo $command -q >/dev/null
else
  echo "taskdesk: Qt's window needs these system packages; as root, run: $command" >&2
  exit 1
fi
