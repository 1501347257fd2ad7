"""Kill the real app mid-typing, start it again, and judge the draft it offers back.

One round: a ``typing_app`` child types into the real editor; after a random while it gets
SIGKILL; the next child, on the same TASKDESK_HOME, reports the draft the window offers,
recovers it and types on (so every start after the first is both a restart and the next
victim). The round is judged against the killed child's key log: the offered text must be
one the editor held, and (where a limit is given: the benchmark) at some moment within
``MAX_TEXT_AGE_S`` before the kill.

Used by ``tests/crash/`` (a few kills; the text's age is printed there, not judged: it
depends on the machine's load) and ``bench/bench_crash.py`` (fifty and more, judged).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHILD_MODULE = "tests.crash.typing_app"

MAX_TEXT_AGE_S = 1.0
"""The issue's promise: the text as of at most 1 s before the kill comes back."""
START_TIMEOUT_S = 60.0
"""A child must report within this; a hung start fails the run with its standard error."""
KILL_TIMEOUT_S = 10.0
STACK_DUMP_WAIT_S = 1.0
STDERR_TAIL_CHARS = 12_000  # room for every thread's stack of a hung app


class AppFailedError(Exception):
    """A child exited, hung or reported something unexpected; the message holds its stderr."""


@dataclass(frozen=True, slots=True)
class Keystroke:
    """One line of a key log: the editor text's length and hash right after ``key``."""

    at: float  # CLOCK_MONOTONIC, system-wide on Linux: comparable with the parent's clock
    length: int
    sha: str
    key: str | None  # None: the text before the first keystroke


def read_keylog(path: Path) -> list[Keystroke]:
    """The key log a killed child left; a line cut short by the kill is skipped."""
    found: list[Keystroke] = []
    if not path.exists():
        return found
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split(" ", 3)
        if len(parts) != 4:
            continue
        try:
            found.append(Keystroke(float(parts[0]), int(parts[1]), parts[2], json.loads(parts[3])))
        except ValueError:
            continue
    return found


def child_environment(home: Path, token: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        TASKDESK_HOME=str(home),
        TASKDESK_TOKEN=token,
        QT_QPA_PLATFORM="offscreen",
        QT_LOGGING_RULES="qt.qpa.*=false",
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",  # never the real keyring
        PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p),
        # A child that dies of a signal of its own (not the round's kill) prints where it
        # was to its stderr, which the failure quotes.
        PYTHONFAULTHANDLER="1",
    )
    return env


class AppProcess:
    """One ``typing_app`` child: its JSON events from stdout, its stderr kept in a file."""

    def __init__(
        self,
        *,
        server_url: str,
        token: str,
        home: Path,
        agent_id: str,
        keylog: Path,
        stderr_path: Path,
        seed: int,
        typing: bool = True,
        extra_args: Sequence[str] = (),
    ) -> None:
        self.keylog = keylog
        self.stderr_path = stderr_path
        args = [
            sys.executable,
            "-m",
            CHILD_MODULE,
            "--server",
            server_url,
            "--agent",
            agent_id,
            "--keylog",
            str(keylog),
            "--seed",
            str(seed),
            *extra_args,
        ]
        if not typing:
            args.append("--no-typing")
        with stderr_path.open("wb") as stderr:
            self.proc = subprocess.Popen(
                args,
                cwd=ROOT,
                env=child_environment(home, token),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=stderr,
            )
        assert self.proc.stdout is not None
        self._stdout = self.proc.stdout
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)

    def stderr_tail(self) -> str:
        try:
            text = self.stderr_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return text[-STDERR_TAIL_CHARS:]

    def _failed(self, why: str) -> AppFailedError:
        if self.proc.poll() is None:
            self._dump_stacks()
        self.close()
        return AppFailedError(
            f"{why} (exit code {self.proc.returncode}); its stderr:\n{self.stderr_tail()}"
        )

    def _dump_stacks(self) -> None:
        """Asks a hung app for its threads' stacks (faulthandler, on its stderr)."""
        os.kill(self.proc.pid, signal.SIGUSR1)
        with contextlib.suppress(subprocess.TimeoutExpired):  # it keeps running: that's the point
            self.proc.wait(timeout=STACK_DUMP_WAIT_S)  # time to write them

    def next_event(self, timeout: float = START_TIMEOUT_S) -> dict[str, Any]:
        """The child's next JSON line; AppFailedError when it exits or stays silent."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                raise self._failed(f"the app said nothing for {timeout:.0f} s")
            chunk = os.read(self._stdout.fileno(), 65536)
            if not chunk:
                raise self._failed("the app exited before reporting")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            event: dict[str, Any] = json.loads(line)
        except ValueError:
            raise self._failed(f"the app printed {line[:200]!r}, not an event") from None
        return event

    def expect(self, *names: str, timeout: float = START_TIMEOUT_S) -> dict[str, Any]:
        event = self.next_event(timeout)
        if event.get("event") not in names:
            raise self._failed(f"expected one of {names}, the app reported {event}")
        return event

    def type_for(self, seconds: float) -> None:
        """Let the app type for ``seconds``; it must still be running afterwards."""
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return
        raise self._failed(f"the app exited while typing, after less than {seconds:.2f} s")

    def kill(self) -> float:
        """SIGKILL; returns the kill time on CLOCK_MONOTONIC (read once the signal is sent,
        so the lag measured from it can only be overstated)."""
        os.kill(self.proc.pid, signal.SIGKILL)
        killed_at = time.monotonic()
        self.proc.wait(timeout=KILL_TIMEOUT_S)
        self.close()
        return killed_at

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=KILL_TIMEOUT_S)
        self._selector.close()
        self._stdout.close()


@dataclass(frozen=True, slots=True)
class Expected:
    """What every offer must name: the agent and the version the edits are based on."""

    agent_id: str
    agent_name: str
    base_version: int


@dataclass(slots=True)
class Verdict:
    """One kill and what the next start offered back."""

    round: int
    typed_for_s: float
    keystrokes: int
    offered: bool = False
    keystroke_lag_s: float | None = None
    """Kill time minus the time of the keystroke whose text came back."""
    text_age_s: float | None = None
    """Kill time minus the last moment the editor held the text that came back."""
    recovered_chars: int = 0
    banner: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def lost(self) -> bool:
        """The offered text is not one the editor held within the promised second."""
        return self.text_age_s is None or self.text_age_s > MAX_TEXT_AGE_S


def _parse_time(value: str) -> float | None:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def judge(
    round_no: int,
    keylog: list[Keystroke],
    killed_at: float,
    typed_for_s: float,
    reply: dict[str, Any],
    recovered: dict[str, Any] | None,
    expected: Expected,
    wall_minus_mono: float,
    max_text_age_s: float | None = MAX_TEXT_AGE_S,
) -> Verdict:
    """Compares what the restarted app offered with what the killed one's editor held;
    ``max_text_age_s`` None: the text's age is measured, not judged."""
    verdict = Verdict(round_no, typed_for_s, max(0, len(keylog) - 1))
    problems = verdict.problems
    verdict.offered = reply["event"] == "offer"
    verdict.recovered_chars = int(reply.get("length", 0))
    matches = [i for i, k in enumerate(keylog) if k.sha == reply["sha"]]
    if not matches:
        problems.append(
            f"lost: the text the restart showed ({reply.get('length')} chars) is none the "
            f"editor held during the {len(keylog) - 1} keystrokes before the kill"
        )
    else:
        i = matches[-1]
        held_until = keylog[i + 1].at if i + 1 < len(keylog) else killed_at
        verdict.keystroke_lag_s = killed_at - keylog[i].at
        verdict.text_age_s = max(0.0, killed_at - held_until)
        if max_text_age_s is not None and verdict.text_age_s > max_text_age_s:
            problems.append(
                f"lost: the text came back as of {verdict.text_age_s:.3f} s before the kill "
                f"(keystroke {i} of {len(keylog) - 1}); at most {max_text_age_s} s is allowed"
            )
    if verdict.offered:
        _judge_offer(
            verdict, keylog, matches, killed_at, reply, recovered, expected, wall_minus_mono
        )
    return verdict


def _judge_offer(
    verdict: Verdict,
    keylog: list[Keystroke],
    matches: list[int],
    killed_at: float,
    offer: dict[str, Any],
    recovered: dict[str, Any] | None,
    expected: Expected,
    wall_minus_mono: float,
) -> None:
    problems = verdict.problems
    banner = str(offer.get("banner", ""))
    verdict.banner = banner
    if offer.get("agent_id") != expected.agent_id:
        problems.append(f"the draft offered is {offer.get('agent_id')!r}'s")
    if offer.get("base_version") != expected.base_version:
        problems.append(
            f"the draft is based on v{offer.get('base_version')}, not v{expected.base_version}"
        )
    if expected.agent_name not in banner or f"v{expected.base_version}" not in banner:
        problems.append(f"the banner does not name the agent and base version: {banner!r}")
    saved = _parse_time(str(offer.get("saved_at", "")))
    if saved is None or not str(offer.get("banner_time", "")).strip():
        problems.append(f"the offer names no time: {offer.get('saved_at')!r}")
    else:
        # saved_at is shown to the second: allow one second of rounding either way. Text
        # from before this round's first keystroke was written by an earlier start.
        earliest = keylog[matches[-1]].at if matches and matches[-1] > 0 else None
        latest = killed_at + wall_minus_mono + 1.0
        if saved > latest or (earliest is not None and saved < earliest + wall_minus_mono - 1.0):
            problems.append(
                f"the offer's time {offer.get('saved_at')} is not between the keystroke "
                "and the kill"
            )
    if recovered is None or recovered.get("sha") != offer.get("sha"):
        problems.append("Recover did not put the offered text in the editor")
    elif not recovered.get("dirty") or not recovered.get("banner_hidden"):
        problems.append(f"after Recover the text is not marked unsaved: {recovered}")


ServerCheck = Callable[[], str | None]
"""Returns a problem when the server's Task changed (nothing may be saved by a crash)."""


@dataclass(slots=True)
class CrashRun:
    """Kill-and-restart rounds on one TASKDESK_HOME against one server."""

    server_url: str
    token: str
    home: Path
    work_dir: Path
    expected: Expected
    server_check: ServerCheck
    rng: random.Random
    typing_s: tuple[float, float] = (0.5, 4.0)
    key_ms: tuple[int, int] = (20, 60)
    max_text_age_s: float | None = MAX_TEXT_AGE_S  # None: measure the text's age only
    on_verdict: Callable[[Verdict], None] = lambda _v: None
    _started: int = 0

    def _start(self, *, typing: bool) -> AppProcess:
        n = self._started
        self._started += 1
        return AppProcess(
            server_url=self.server_url,
            token=self.token,
            home=self.home,
            agent_id=self.expected.agent_id,
            keylog=self.work_dir / f"keylog-{n}.txt",
            stderr_path=self.work_dir / f"stderr-{n}.txt",
            seed=self.rng.randrange(2**31),
            typing=typing,
            extra_args=("--min-ms", str(self.key_ms[0]), "--max-ms", str(self.key_ms[1])),
        )

    @staticmethod
    def _answer(child: AppProcess) -> tuple[dict[str, Any], dict[str, Any] | None]:
        reply = child.expect("offer", "no_offer")
        recovered = child.expect("recovered") if reply["event"] == "offer" else None
        return reply, recovered

    def run(self, kills: int) -> list[Verdict]:
        """``kills`` rounds; each verdict is also passed to ``on_verdict`` as it is known."""
        wall_minus_mono = time.time() - time.monotonic()
        verdicts: list[Verdict] = []
        self.work_dir.mkdir(parents=True, exist_ok=True)
        child = self._start(typing=True)
        try:
            first, _ = self._answer(child)
            if first["event"] != "no_offer":
                raise AppFailedError(f"a fresh home offered a draft: {first}")
            for round_no in range(1, kills + 1):
                child.expect("typing")
                typed_for = self.rng.uniform(*self.typing_s)
                child.type_for(typed_for)
                killed_at = child.kill()
                keylog = read_keylog(child.keylog)
                child = self._start(typing=round_no < kills)
                reply, recovered = self._answer(child)
                verdict = judge(
                    round_no,
                    keylog,
                    killed_at,
                    typed_for,
                    reply,
                    recovered,
                    self.expected,
                    wall_minus_mono,
                    self.max_text_age_s,
                )
                problem = self.server_check()
                if problem:
                    verdict.problems.append(problem)
                verdicts.append(verdict)
                self.on_verdict(verdict)
        finally:
            child.close()
        return verdicts
