"""PySide6 reads the source of every module imported after it; here it reads bytes, uncached."""

from __future__ import annotations

import sys
from types import ModuleType


def stop_caching_module_sources() -> None:
    """Answer PySide6's import hook without ``inspect.getsource``.

    For each module imported after it, PySide6 asks whether the module's source mentions
    "PySide6" (to switch its ``__feature__`` options per module), through
    ``inspect.getsource``: every source file is decoded, split into lines and kept in
    ``linecache`` for good. At start-up that is ~320 files, ~10 MB of the app's memory and
    part of every import. The same question is answered here from the file's bytes, kept
    nowhere. Call it before the first Qt import; it does nothing if PySide6 changes the hook.
    """
    import shiboken6  # noqa: F401  (installs the hook: shibokensupport.feature)

    feature = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(original) or getattr(original, "reads_bytes", False):
        return

    def mod_uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return bool(original(module))
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return bool(original(module))

    mod_uses_pyside.reads_bytes = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = mod_uses_pyside  # type: ignore[attr-defined]
