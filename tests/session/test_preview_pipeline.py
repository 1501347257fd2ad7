"""PreviewPipeline with the real PreviewNotes, renderer and reference server."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from PySide6.QtCore import QTimer

from app.core.expander import Expansion
from app.core.models import Reader
from app.core.user_message import Severity
from app.desk.preview_pipeline import PreviewContext, PreviewPipeline, PreviewResult
from app.render.preview_html import render_preview
from app.render.preview_notes import PreviewExpansion, PreviewNotes
from tests.session import session_env as env

CONTEXT = PreviewContext(
    org_id="o_acme",
    reader=Reader("a_writer", "guild_ops"),
    task_path="org/o_acme/agents/a_writer/task.md",
)
EMBED = "![[org/o_acme/guilds/guild_ops/style-guide.md]]"


@dataclass
class CountingNotes:
    """The real PreviewNotes, with a record of the texts it was asked to expand."""

    real: PreviewNotes
    asked: list[str] = field(default_factory=list)

    def expand_for_preview(
        self,
        task_text: str,
        *,
        org_id: str,
        reader: Reader,
        task_path: str = "",
        progress: Callable[[int, int], None] | None = None,
    ) -> PreviewExpansion:
        self.asked.append(task_text)
        return self.real.expand_for_preview(
            task_text, org_id=org_id, reader=reader, task_path=task_path, progress=progress
        )


@pytest.fixture
def notes(ann: Any, store: Any) -> CountingNotes:
    return CountingNotes(PreviewNotes(ann, store, env.SERVER_KEY))


def pipeline(
    runner: Any, notes: Any, text: list[str], **kw: Any
) -> tuple[PreviewPipeline, list[PreviewResult], list[Any]]:
    made = PreviewPipeline(runner=runner, notes=notes, text_source=lambda: text[0], **kw)
    results: list[PreviewResult] = []
    messages: list[Any] = []
    made.ready.connect(results.append)
    made.message.connect(messages.append)
    made.set_context(CONTEXT)
    return made, results, messages


def test_a_burst_of_keystrokes_makes_one_preview_of_the_latest_text(
    qtbot: Any, runner: Any, notes: CountingNotes
) -> None:
    text = ["# Writer\n\n" + EMBED]
    made, results, _ = pipeline(runner, notes, text, debounce_ms=50)
    qtbot.waitUntil(lambda: len(results) == 1)  # set_context draws at once
    for i in range(20):
        text[0] = f"# Writer {i}\n\n{EMBED}"
        made.schedule()
    qtbot.waitUntil(lambda: len(results) == 2 and not made.busy)
    assert notes.asked[-1] == text[0] and len(notes.asked) == 2
    latest = results[-1]
    assert "Writer 19" in latest.html
    assert "Write short sentences." in latest.html  # the note is inlined
    assert latest.text_version > results[0].text_version
    assert not latest.unknown and not latest.unsupported


def test_requests_during_a_slow_preview_collapse_into_one_follow_up(
    qtbot: Any, runner: Any, notes: CountingNotes, hooks: Any
) -> None:
    hooks.delay(0.4, path="/api/notes/")  # fetching the note is slow
    text = ["first " + EMBED]
    made, results, _ = pipeline(runner, notes, text, debounce_ms=10)
    qtbot.waitUntil(lambda: len(notes.asked) == 1)  # the first, slow, job is running
    for word in ("second", "third", "fourth"):
        text[0] = f"{word} {EMBED}"
        made.schedule()
        made.refresh_now()
    qtbot.waitUntil(lambda: not made.busy, timeout=5000)
    assert notes.asked == ["first " + EMBED, "fourth " + EMBED]
    assert [r.expansion.text.split()[0] for r in results] == ["first", "fourth"]
    versions = [r.text_version for r in results]
    assert versions == sorted(versions)


def test_a_failing_renderer_becomes_one_message_and_the_pipeline_recovers(
    qtbot: Any, runner: Any, notes: CountingNotes
) -> None:
    broken = [True]

    def render(expansion: Expansion, **options: Any) -> str:
        if broken[0]:
            raise ValueError("renderer fault")
        return render_preview(expansion, **options)

    text = ["plain text"]
    made, results, messages = pipeline(runner, notes, text, render=render, debounce_ms=10)
    qtbot.waitUntil(lambda: len(messages) == 1)
    made.schedule()
    qtbot.waitUntil(lambda: not made.busy)
    assert len(messages) == 1  # once per spell of failures, not per keystroke
    assert messages[0].severity is Severity.WARNING
    assert "renderer fault" not in messages[0].text and "untouched" in messages[0].text
    assert results == []
    broken[0] = False
    made.schedule()
    qtbot.waitUntil(lambda: len(results) == 1)
    assert "plain text" in results[0].html


def test_the_preview_says_what_it_could_not_check_when_offline(
    qtbot: Any, runner: Any, notes: CountingNotes, proxy: Any
) -> None:
    proxy.add(env.Fault.REFUSE)
    text = [EMBED]
    _, results, messages = pipeline(runner, notes, text)
    qtbot.waitUntil(lambda: len(results) == 1, timeout=5000)
    assert results[0].unknown == ("org/o_acme/guilds/guild_ops/style-guide.md",)
    assert results[0].notice
    assert messages == []


def test_nothing_is_drawn_without_a_context(qtbot: Any, runner: Any, notes: Any) -> None:
    made = PreviewPipeline(runner=runner, notes=notes, text_source=lambda: "x", debounce_ms=1)
    made.schedule()
    qtbot.waitUntil(lambda: not made.busy)
    assert notes.asked == []


def test_a_preview_started_for_the_last_agent_is_never_shown_as_the_next_ones(
    qtbot: Any, runner: Any, notes: CountingNotes, hooks: Any
) -> None:
    hooks.delay(0.4, path="/api/notes/")  # the writer's note is slow to come
    text = ["writer " + EMBED]
    made, results, _ = pipeline(runner, notes, text, debounce_ms=10)
    loading: list[tuple[int, int]] = []
    made.loading.connect(lambda done, asked: loading.append((done, asked)))
    qtbot.waitUntil(lambda: len(notes.asked) == 1)  # the writer's preview is being made
    made.set_context(None)  # another agent opens: its Task is not in the editor yet
    text[0] = "clerk"
    made.set_context(PreviewContext("o_acme", Reader("a_clerk", "guild_research")))
    loading.clear()  # counted while it was still the writer's preview
    qtbot.waitUntil(lambda: not made.busy, timeout=5000)
    assert notes.asked == ["writer " + EMBED, "clerk"]
    assert [r.expansion.text for r in results] == ["clerk"]
    assert loading == []  # the writer's lookups were not counted as the clerk's


def test_after_a_cheap_preview_the_next_key_is_drawn_without_the_debounce(
    qtbot: Any, runner: Any, notes: CountingNotes
) -> None:
    text = ["# Writer\n\nBe brief."]
    # A debounce longer than any wait here: only the cheap path can draw the next preview.
    made, results, _ = pipeline(runner, notes, text, debounce_ms=600_000, cheap_ms=600_000)
    qtbot.waitUntil(lambda: len(results) == 1)
    for word in ("Be", "Be short", "Be short and clear"):
        text[0] = f"# Writer\n\n{word}."
        made.schedule()
        qtbot.waitUntil(lambda: not made.busy)
        assert results[-1].expansion.text == text[0]
    assert len(results) == 4


@pytest.mark.parametrize(("cheap_ms", "pulled_at_once"), [(0, False), (600_000, True)])
def test_the_next_key_waits_for_a_pause_only_after_an_expensive_preview(
    qtbot: Any, runner: Any, notes: CountingNotes, cheap_ms: int, pulled_at_once: bool
) -> None:
    pulled: list[str] = []
    text = "# Writer\n\nBe brief."

    def source() -> str:
        pulled.append(text)  # called on the GUI thread as a preview starts
        return text

    made = PreviewPipeline(
        runner=runner, notes=notes, text_source=source, debounce_ms=600_000, cheap_ms=cheap_ms
    )
    made.set_context(CONTEXT)
    qtbot.waitUntil(lambda: not made.busy)
    made.schedule()
    turn = QTimer()  # started after the pipeline's own timer: fires after it would
    turn.setSingleShot(True)
    with qtbot.waitSignal(turn.timeout):
        turn.start(0)
    assert len(pulled) == (2 if pulled_at_once else 1)
    made.refresh_now()  # what showing the tab does: no more waiting
    qtbot.waitUntil(lambda: not made.busy)


def long_task(paragraphs: int = 900) -> str:
    return "\n\n".join(
        [f"# Writer\n\nFollow {EMBED} always."]
        + [
            f"Paragraph {n} with *emphasis* and a [link](https://example.com/{n})."
            for n in range(paragraphs)
        ]
    )


def test_a_long_task_shows_its_first_screenful_before_its_whole_preview(
    qtbot: Any, runner: Any, notes: CountingNotes
) -> None:
    text = [long_task()]
    order: list[tuple[str, str]] = []
    made = PreviewPipeline(runner=runner, notes=notes, text_source=lambda: text[0])
    made.glimpse.connect(lambda html: order.append(("glimpse", html)))
    made.ready.connect(lambda result: order.append(("ready", result.html)))
    made.set_context(CONTEXT)
    qtbot.waitUntil(lambda: len(order) == 2)
    (first, head), (then, whole) = order
    assert (first, then) == ("glimpse", "ready")
    assert "Write short sentences." in head  # the first screenful has its notes inlined
    assert "Paragraph 10 " in head and "Paragraph 800 " not in head
    assert whole.startswith(head)  # the screenful is the whole preview's beginning
    assert "Paragraph 899 " in whole
    expansion = notes.real.expand_for_preview(
        text[0], org_id=CONTEXT.org_id, reader=CONTEXT.reader, task_path=CONTEXT.task_path
    ).expansion
    assert whole == render_preview(expansion)  # what is drawn at last is a whole render


def test_only_a_long_tasks_first_preview_is_glimpsed(
    qtbot: Any, runner: Any, notes: CountingNotes
) -> None:
    text = [long_task()]
    made, results, _ = pipeline(runner, notes, text)
    glimpses: list[str] = []
    made.glimpse.connect(glimpses.append)
    qtbot.waitUntil(lambda: len(results) == 1 and not made.busy)
    text[0] += "\n\nOne more paragraph."
    made.refresh_now()
    qtbot.waitUntil(lambda: len(results) == 2 and not made.busy)
    assert len(glimpses) <= 1  # the first may have landed before the connection above
    count = len(glimpses)
    made.set_context(CONTEXT)  # the same agent opened again: its first preview again
    qtbot.waitUntil(lambda: len(results) == 3 and not made.busy)
    assert len(glimpses) == count + 1
    short, short_results, _ = pipeline(runner, notes, ["# Short\n\nA short Task."])
    short_glimpses: list[str] = []
    short.glimpse.connect(short_glimpses.append)
    short.refresh_now()
    qtbot.waitUntil(lambda: len(short_results) == 2 and not short.busy)
    assert short_glimpses == []
