"""Preview render times beside bare renders of the same text: markdown-it in the preview's
dialect (what the preview uses) and Python-Markdown (what it used before, the baseline).

Run: .venv/bin/python bench/bench_render.py   (Python-Markdown comes with the bench extra)
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import markdown
from PySide6.QtGui import QGuiApplication, QTextDocument
from task_words import WORDS  # bench/ is on the path when a script runs

from app.core.expander import expand_embeds
from app.core.models import AccessEntry, OrgFile, Reader
from app.render import PreviewRenderer
from app.render.commonmark import new_markdown

ORG = "o_bench"
READER = Reader("a_bench", "guild_bench")


def sentence(rng: random.Random) -> str:
    words = rng.choices(WORDS, k=rng.randint(6, 16))
    if rng.random() < 0.3:
        words[rng.randrange(len(words))] = f"**{rng.choice(WORDS)}**"
    if rng.random() < 0.2:
        words[rng.randrange(len(words))] = f"`{rng.choice(WORDS)}`"
    return " ".join(words).capitalize() + "."


def markdown_block(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.15:
        return "## " + sentence(rng)[:-1]
    if kind < 0.45:
        return "\n".join("- " + sentence(rng) for _ in range(rng.randint(2, 6)))
    if kind < 0.5:
        return "```\n" + "\n".join(sentence(rng) for _ in range(4)) + "\n```"
    if kind < 0.55:
        rows = [f"| {rng.choice(WORDS)} | {rng.choice(WORDS)} |" for _ in range(4)]
        return "| name | value |\n| --- | --- |\n" + "\n".join(rows)
    return " ".join(sentence(rng) for _ in range(rng.randint(2, 5)))


def make_task(size: int, embeds: int, seed: int) -> tuple[str, dict[str, OrgFile]]:
    rng = random.Random(seed)
    files: dict[str, OrgFile] = {}
    access = (AccessEntry("org", "read"),)
    for n in range(embeds):
        path = f"org/{ORG}/guilds/guild_bench/rule-{n}.md"
        body = "\n\n".join(markdown_block(rng) for _ in range(3))
        files[path] = OrgFile(path, "note", f"Rule {n}", body, access=access)
    blocks: list[str] = []
    paths = list(files)
    total = 0
    placed = 0
    while total < size:
        if placed < embeds and rng.random() < 0.3:
            blocks.append(f"![[{paths[placed]}]]")
            placed += 1
        block = markdown_block(rng)
        blocks.append(block)
        total += len(block) + 2
    blocks.extend(f"![[{p}]]" for p in paths[placed:])
    return "\n\n".join(blocks), files


def best_ms(action: Callable[[], object], repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def median_ms(action: Callable[[], object], repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def refresh_after_edits(
    renderer: PreviewRenderer, text: str, files: dict[str, OrgFile], doc: QTextDocument
) -> float:
    """Each edit changes one word somewhere else, so each refresh renders one new block."""
    rng = random.Random(4)
    times = []
    for _ in range(7):
        at = text.find(" ", rng.randrange(len(text)))
        edited = expand(text[:at] + " edited" + text[at:], files)
        start = time.perf_counter()
        doc.setHtml(renderer.render_preview(edited))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def expand(text: str, files: dict[str, OrgFile]):  # type: ignore[no-untyped-def]
    return expand_embeds(text, org_id=ORG, reader=READER, lookup=files)


def show(label: str, ms: float, note: str = "") -> None:
    print(f"  {label:<58} {ms:8.2f} ms {note}".rstrip())


def main() -> None:
    app = QGuiApplication.instance() or QGuiApplication([])  # QTextDocument needs one
    doc = QTextDocument()
    extensions = ["tables", "fenced_code", "sane_lists"]

    def bare(text: str) -> str:
        return markdown.markdown(text, extensions=extensions)

    commonmark = new_markdown()

    def bare_new(text: str) -> str:
        return commonmark.render(text)

    def versus(new_ms: float, old_ms: float) -> str:
        return f"({new_ms / old_ms:.2f}x Python-Markdown)"

    text, files = make_task(8 * 1024, 20, seed=1)
    expansion = expand(text, files)
    print(f"8 KB Task ({len(text.encode())} bytes, {len(expansion.notes)} inlined notes)")
    warm = PreviewRenderer()
    our_html = warm.render_preview(expansion)
    bare_html = bare(expansion.text)
    old = best_ms(lambda: bare(expansion.text))
    show("bare Python-Markdown (expanded text), the baseline", old)
    show("bare markdown-it (expanded text)", (new := best_ms(lambda: bare_new(expansion.text))),
         versus(new, old))  # fmt: skip
    show("render_preview, cold cache", best_ms(lambda: PreviewRenderer().render_preview(expansion)))
    show("render_preview, warm cache", best_ms(lambda: warm.render_preview(expansion)))
    show("setHtml(bare html)", best_ms(lambda: doc.setHtml(bare_html)))
    show("setHtml(preview html)", best_ms(lambda: doc.setHtml(our_html)))
    show("refresh: bare markdown + setHtml", best_ms(lambda: doc.setHtml(bare(expansion.text))))
    show(
        "refresh: one-word edit, render_preview (warm) + setHtml",
        refresh_after_edits(warm, text, files, doc),
        "(median of 7 edits)",
    )

    big, big_files = make_task(256 * 1024, 20, seed=2)
    big_expansion = expand(big, big_files)
    print(f"256 KB Task ({len(big.encode())} bytes)")
    old = best_ms(lambda: bare(big_expansion.text), 3)
    show("bare Python-Markdown (expanded text), the baseline", old)
    new = best_ms(lambda: bare_new(big_expansion.text), 3)
    show("bare markdown-it (expanded text)", new, versus(new, old))
    cold = best_ms(lambda: PreviewRenderer().render_preview(big_expansion), 3)
    show("render_preview, cold cache (full render, sanitised)", cold, versus(cold, old))
    renderer = PreviewRenderer()
    big_html = renderer.render_preview(big_expansion)
    rng = random.Random(3)
    times = []
    for _ in range(7):
        at = rng.randrange(len(big))
        edited = expand(big[:at] + "x" + big[at:], big_files)
        start = time.perf_counter()
        renderer.render_preview(edited)
        times.append((time.perf_counter() - start) * 1000)
    show(
        "render_preview after a one-character edit (warm)",
        statistics.median(times),
        "(median of 7)",
    )
    show("setHtml(preview html)", best_ms(lambda: doc.setHtml(big_html), 3))
    del app


if __name__ == "__main__":
    main()
