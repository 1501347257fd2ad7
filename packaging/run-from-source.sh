#!/bin/sh
# Run Taskdesk from this checkout: the system libraries Qt's window needs (Debian and Ubuntu;
# it asks for sudo when it has to install some), a virtual environment in .venv, then the app.
# Arguments go to `taskdesk` (for example --server URL). Other systems: packaging/README.md.
set -eu
cd "$(dirname "$0")/.."

sh packaging/install-qt-libraries.sh

if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "taskdesk: needs Python 3.11 or newer; this python3 is $(python3 -V 2>&1)" >&2
  exit 1
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
# Every time, so a checkout that moved on gets its new dependencies (quick when nothing did).
.venv/bin/pip install -q --disable-pip-version-check -e .
exec .venv/bin/taskdesk "$@"
