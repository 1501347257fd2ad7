"""`python -m app`: the `taskdesk` command line (serve, expand, --version)."""

import sys

from app.cli import main

sys.exit(main())
