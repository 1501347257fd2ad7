"""Each test module is loaded once, under one name: one FaultProxy class, one Fault enum."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from tests.faultproxy import Fault, FaultProxy
from tests.session import session_env

TESTS = Path(__file__).resolve().parent


def test_the_session_tests_use_the_one_fault_proxy() -> None:
    assert session_env.Fault is Fault
    assert session_env.FaultProxy is FaultProxy


def test_no_test_module_is_loaded_under_two_names() -> None:
    """A second name runs the module a second time: its enums and classes no longer match."""
    names: dict[Path, list[str]] = defaultdict(list)
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if file and Path(file).resolve().is_relative_to(TESTS):
            names[Path(file).resolve()].append(name)
    assert {str(f): n for f, n in names.items() if len(n) > 1} == {}
