"""Client GET-and-parse of a 13 MB Task (50 revisions of 256 KB) beside json.loads of its bytes.

A real reference server, in its own process as in real use (in-process it would share the
GIL with the client being measured), on loopback, holds a Task saved 51 times (so 50
revisions are kept), each version 256 KiB. Measured, median of several runs each:
  - json.loads of the body's bytes (the baseline; the target is within 1.5x of it),
  - orjson.loads of the same bytes, and the client's parse (orjson, shape checks, TaskDoc),
  - the floor: the server's whole answer read from a plain socket, no HTTP library,
  - a bare requests GET of the body (transfer only, no parsing),
  - TaskdeskClient.get_task on a fresh client (request, bounded read, parse, dataclasses),
  - TaskdeskClient.get_task again (the conditional GET: 304, no body).

Run: .venv/bin/python bench/bench_client.py [rounds]
"""

from __future__ import annotations

import json
import multiprocessing as mp
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson
import requests

from app.client import TaskdeskClient
from app.client.parse import parse_answer, task_from
from app.core.limits import MAX_REVISIONS, TASK_MAX_BYTES
from app.server import start_server

WORKSPACE = Path(__file__).resolve().parents[1] / "tests" / "data" / "workspace_basic.json"
TOKEN = "ann-secret"
AGENT = "a_helper"


def task_text(version: int) -> str:
    """256 KiB of plain Markdown rules that differ from one version to the next."""
    line = f"- v{version}: keep replies short, cite the ticket, say what is left to do.\n"
    text = (line * (TASK_MAX_BYTES // len(line) + 1))[:TASK_MAX_BYTES]
    assert len(text.encode("utf-8")) == TASK_MAX_BYTES
    return text


def median_ms(run: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


_BUFFER = bytearray(64 * 1024 * 1024)  # allocated once: not part of what is measured


def socket_get(base_url: str, path: str) -> int:
    """The floor: the server's whole answer over a plain socket, no HTTP library, no parsing."""
    parts = urlsplit(base_url)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        f"Authorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
    ).encode()
    view = memoryview(_BUFFER)
    received = 0
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(request)
        while count := sock.recv_into(view[received:]):
            received += count
    return received


def seed(url: str) -> None:
    with TaskdeskClient(url, TOKEN, read_timeout=60) as client:
        for version in range(MAX_REVISIONS + 1):
            client.put_task(AGENT, task_text(version), None)
        doc = client.get_task(AGENT)
    assert len(doc.revisions) == MAX_REVISIONS, len(doc.revisions)


def serve(folder: str, urls: Queue[str], stop: Event) -> None:
    """The server process: start, say where, run until told to stop."""
    with start_server(WORKSPACE, Path(folder) / "server.sqlite") as server:
        urls.put(server.url)
        stop.wait()


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    context = mp.get_context("spawn")
    urls: Queue[str] = context.Queue()
    stop = context.Event()
    with tempfile.TemporaryDirectory(prefix="bench-client-") as folder:
        process = context.Process(target=serve, args=(folder, urls, stop), daemon=True)
        process.start()
        try:
            measure(urls.get(timeout=30), rounds)
        finally:
            stop.set()
            process.join(10)


def measure(base_url: str, rounds: int) -> None:
    started = time.perf_counter()
    seed(base_url)
    print(f"seeded {MAX_REVISIONS + 1} saves in {time.perf_counter() - started:.1f} s")
    url = f"{base_url}/api/agents/{AGENT}/files/task.md"
    headers = {"Authorization": f"Bearer {TOKEN}"}
    body = requests.get(url, headers=headers, timeout=30).content
    print(f"body: {len(body):,} bytes, {MAX_REVISIONS} revisions, rounds: {rounds}")

    def bare_get() -> bytes:
        return requests.get(url, headers=headers, timeout=30).content

    def client_get() -> object:
        with TaskdeskClient(base_url, TOKEN) as fresh:  # no cached copy: a full GET
            return fresh.get_task(AGENT)

    cached = TaskdeskClient(base_url, TOKEN)
    cached.get_task(AGENT)

    json_ms = median_ms(lambda: json.loads(body), rounds)
    orjson_ms = median_ms(lambda: orjson.loads(body), rounds)
    build = task_from(AGENT, None)
    parse_ms = median_ms(lambda: parse_answer(body, "the Task", build), rounds)
    floor_ms = median_ms(lambda: socket_get(base_url, urlsplit(url).path), rounds)
    bare_ms = median_ms(bare_get, rounds)
    client_ms = median_ms(client_get, rounds)
    not_modified_ms = median_ms(lambda: cached.get_task(AGENT), rounds * 4)
    cached.close()

    print(f"{'json.loads of the body (baseline)':<46} {json_ms:8.2f} ms")
    print(f"{'orjson.loads of the body':<46} {orjson_ms:8.2f} ms")
    print(f"{'client parse: orjson + shape checks + TaskDoc':<46} {parse_ms:8.2f} ms")
    print(f"{'plain-socket GET of the answer (the floor)':<46} {floor_ms:8.2f} ms")
    print(f"{'requests GET of the body, no parsing':<46} {bare_ms:8.2f} ms")
    print(f"{'client get_task: GET + read + parse':<46} {client_ms:8.2f} ms")
    print(f"{'client get_task again: 304, cached copy':<46} {not_modified_ms:8.2f} ms")
    ratio = client_ms / json_ms
    verdict = "within" if ratio <= 1.5 else "OVER"
    print(f"client GET-and-parse / json.loads = {ratio:.2f}x ({verdict} the 1.5x target)")
    print(f"client GET-and-parse / (floor + json.loads) = {client_ms / (floor_ms + json_ms):.2f}x")
    print(f"client parse alone / json.loads = {parse_ms / json_ms:.2f}x")


if __name__ == "__main__":
    main()
