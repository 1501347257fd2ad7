#!/bin/sh
# Put Taskdesk in your applications menu, from wherever you unpacked it.
#
#   ./install.sh               for you: ~/.local/share (menu entry, icons) and ~/.local/bin
#   ./install.sh --uninstall   take them out again (the unpacked folder stays)
#
# The folder itself stays where it is: move it first if you want it elsewhere, then run this.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
id=io.github.taskdesk.Taskdesk
data=${XDG_DATA_HOME:-$HOME/.local/share}
bin=$HOME/.local/bin
sizes="48x48 128x128 256x256"

if [ "${1:-}" = "--uninstall" ]; then
  rm -f "$data/applications/$id.desktop" "$data/metainfo/$id.metainfo.xml" \
    "$data/icons/hicolor/scalable/apps/$id.svg"
  for size in $sizes; do rm -f "$data/icons/hicolor/$size/apps/$id.png"; done
  [ -L "$bin/taskdesk" ] && rm -f "$bin/taskdesk"
  echo "Taskdesk is out of your menu; $here is still there to delete."
  exit 0
fi

mkdir -p "$data/applications" "$data/metainfo" "$data/icons/hicolor/scalable/apps" "$bin"
# The menu entry starts this folder's program by its full path: no PATH needed.
sed -e "s|^Exec=taskdesk|Exec=\"$here/taskdesk\"|" -e "s|^TryExec=taskdesk|TryExec=$here/taskdesk|" \
  "$here/share/applications/$id.desktop" >"$data/applications/$id.desktop"
cp "$here/share/metainfo/$id.metainfo.xml" "$data/metainfo/"
cp "$here/share/icons/hicolor/scalable/apps/$id.svg" "$data/icons/hicolor/scalable/apps/"
for size in $sizes; do
  mkdir -p "$data/icons/hicolor/$size/apps"
  cp "$here/share/icons/hicolor/$size/apps/$id.png" "$data/icons/hicolor/$size/apps/"
done
ln -sfn "$here/taskdesk" "$bin/taskdesk"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$data/applications" || true
echo "Taskdesk is in your applications menu, and \`taskdesk\` is in $bin."
