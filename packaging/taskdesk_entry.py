"""PyInstaller's entry script: the same `taskdesk` command as the installed console script."""

import os
import sys


def restore_library_path() -> None:
    """Give programs we start (the browser for a link) the caller's LD_LIBRARY_PATH.

    The bootloader put the build's own libraries first in it, which this process has read
    already; a browser started with it could load them instead of its own and crash.
    """
    original = os.environ.pop("LD_LIBRARY_PATH_ORIG", None)
    if original is not None:
        os.environ["LD_LIBRARY_PATH"] = original
    else:
        os.environ.pop("LD_LIBRARY_PATH", None)


if __name__ == "__main__":
    if getattr(sys, "frozen", False) and sys.platform.startswith("linux"):
        restore_library_path()
    from widgets.launcher import main

    raise SystemExit(main())
