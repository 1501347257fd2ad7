"""PyInstaller's entry script: the same `taskdesk` command as the installed console script."""

from widgets.launcher import main

if __name__ == "__main__":
    raise SystemExit(main())
