"""A throw-away PostgreSQL server for the tests and benchmarks: initdb + pg_ctl in a temp folder.

The system's PostgreSQL binaries (``/usr/lib/postgresql/<major>/bin``, Debian's
``postgresql`` package) run as the ``postgres`` user when the tests run as root (PostgreSQL
refuses to run as root), on a free loopback port, with fsync off: the tests check behaviour,
not the disk's. ``PostgresCluster.new_database()`` hands each test a database of its own.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's binaries folder, or None."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: p.parent.parent.name
    )
    return found[-1].parent if found else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PostgresCluster:
    """A running PostgreSQL server of its own; ``stop()`` ends it and removes its files."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="taskdesk-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._names = itertools.count(1)
        self._as_user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            self._as_user = pwd.getpwnam("postgres")
            os.chown(self.folder, self._as_user.pw_uid, self._as_user.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
            "--no-sync",
        )
        options = (
            f"-c port={self.port} -c listen_addresses=127.0.0.1 -c fsync=off"
            f" -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
            f" -c unix_socket_directories={self.folder}"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "start",
        )
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        user = self._as_user
        preexec = None
        if user is not None:

            def preexec() -> None:
                os.setgid(user.pw_gid)
                os.setuid(user.pw_uid)

        subprocess.run(
            command, check=True, capture_output=True, preexec_fn=preexec, cwd=self.folder
        )

    def new_database(self, prefix: str = "t") -> str:
        """A new, empty database; its URL."""
        import psycopg

        name = f"{prefix}{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def new_schema(self) -> str:
        """A new, empty schema of the cluster's one database, as a URL whose connections
        work in it: what each test gets (a schema is made in a millisecond, a database in
        half a second)."""
        import psycopg

        name = f"s{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        return f"{self.url}?options=-csearch_path%3D{name}"

    def dump(self, url: str) -> bytes:
        """``pg_dump`` of a database: every byte it holds, as text."""
        name = url.rsplit("/", 1)[1].split("?", 1)[0]
        result = subprocess.run(
            [
                str(self.bin_dir / "pg_dump"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                name,
            ],
            check=True,
            capture_output=True,
        )
        return result.stdout

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, OSError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def postgres_cluster() -> Iterator[PostgresCluster]:
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    cluster = PostgresCluster(bin_dir)
    try:
        yield cluster
    finally:
        cluster.stop()
