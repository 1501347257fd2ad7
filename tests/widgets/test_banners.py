"""Banners and size meters: texts, exposed buttons, accessible names, warning levels."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtWidgets import QPushButton
from pytestqt.logging import _QtMessageCapture
from pytestqt.qtbot import QtBot

from app.core.limits import EMBED_BUDGET_BYTES, TASK_MAX_BYTES
from app.core.models import BrokenEmbed
from widgets.preview.size_meters import SizeMeters, format_kb
from widgets.window.banners import (
    BudgetBanner,
    ConflictBanner,
    DraftRecoveryBanner,
    MessageBar,
    OfflineBanner,
    UnreachableBanner,
)

TASK = "org/o_acme/agents/a_scout/task.md"
NOTE = "org/o_acme/guilds/guild_ops/style-guide.md"


def _names_match(*buttons: QPushButton) -> None:
    for button in buttons:
        assert button.accessibleName() == button.text().replace("&", "")


def test_unreachable_banner_names_each_embed(qtbot: QtBot) -> None:
    banner = UnreachableBanner()
    qtbot.addWidget(banner)
    banner.set_broken(
        [BrokenEmbed("org/o_acme/gone.md", 1, TASK), BrokenEmbed("recipe:x", 2, NOTE)], TASK
    )
    assert banner.text() == "The Task embeds files this agent can't reach"
    assert banner.lines() == [
        "org/o_acme/gone.md — hop 1, in the Task",
        f"recipe:x — hop 2, in {NOTE}",
    ]
    with qtbot.waitSignal(banner.embed_activated) as blocker:
        banner.list_view.doubleClicked.emit(banner.list_model.index(1, 0))
    assert blocker.args == ["recipe:x"]


def test_conflict_banner(qtbot: QtBot) -> None:
    banner = ConflictBanner()
    qtbot.addWidget(banner)
    banner.set_conflict("Ann", 8)
    assert banner.text() == "Ann saved v8 while you were editing. Your text is kept."
    assert banner.accessibleName() == banner.text()
    assert [
        b.text() for b in (banner.compare_button, banner.keep_mine_button, banner.use_theirs_button)
    ] == [
        "C&ompare",
        "&Keep mine",
        "&Use theirs",
    ]
    _names_match(banner.compare_button, banner.keep_mine_button, banner.use_theirs_button)
    with qtbot.waitSignal(banner.keep_mine_button.clicked):
        banner.keep_mine_button.click()


def test_offline_banner(qtbot: QtBot) -> None:
    banner = OfflineBanner()
    qtbot.addWidget(banner)
    when = datetime(2026, 3, 4, 9, 30, tzinfo=UTC)
    banner.set_as_of(when.isoformat())
    shown = when.astimezone().strftime("%-d %b %H:%M")
    assert banner.text() == (
        f"Offline — showing the Task as of {shown}. "
        "Edits are kept and saved when the server is back."
    )
    _names_match(banner.retry_button)
    with qtbot.waitSignal(banner.retry_button.clicked):
        banner.retry_button.click()


def test_budget_banner(qtbot: QtBot) -> None:
    banner = BudgetBanner()
    qtbot.addWidget(banner)
    banner.set_embedded_bytes(EMBED_BUDGET_BYTES + 5 * 1024)
    assert banner.text().startswith("This agent can't start a run")
    assert "69 KB" in banner.text() and "64 KB" in banner.text()


def test_draft_recovery_banner(qtbot: QtBot) -> None:
    banner = DraftRecoveryBanner()
    qtbot.addWidget(banner)
    now = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
    banner.set_draft("Scout", 6, (now - timedelta(minutes=3)).isoformat(), now=now)
    assert banner.text() == "Unsaved edits to Scout's Task were kept (3 min ago, based on v6)."
    _names_match(banner.recover_button, banner.discard_button)
    with qtbot.waitSignal(banner.discard_button.clicked):
        banner.discard_button.click()


def test_message_bar_info_fades_error_stays(qtbot: QtBot) -> None:
    bar = MessageBar(info_timeout_ms=20)
    qtbot.addWidget(bar)
    with qtbot.waitSignal(bar.closed, timeout=2000):
        bar.show_message("Saved v8.")
        assert not bar.isHidden()
    assert bar.isHidden()
    bar.show_message("The server refused the save: write exceeds 256 KB", "error")
    assert bar.property("kind") == "danger"
    assert not bar.isHidden()
    assert not bar._timer.isActive()
    with qtbot.waitSignal(bar.closed):
        bar.close_button.click()
    assert bar.close_button.accessibleName() == "Close"


def test_size_meters_figures_and_levels(qtbot: QtBot) -> None:
    meters = SizeMeters()
    qtbot.addWidget(meters)
    meters.set_sizes(12_700, 1_000)
    assert meters.task_meter.figures() == "12.4 KB of 256 KB"
    assert meters.task_meter.level() == "ok"
    assert meters.embeds_meter.figures() == "1.0 KB of 64 KB"
    meters.set_sizes(int(TASK_MAX_BYTES * 0.95), EMBED_BUDGET_BYTES + 1)
    assert meters.task_meter.level() == "near"
    assert meters.embeds_meter.level() == "over"
    assert meters.embeds_meter.property("level") == "over"
    assert meters.embeds_meter.figures().endswith("over the limit")
    assert meters.embeds_meter.bar.value() == EMBED_BUDGET_BYTES
    meters.set_sizes(100)  # the expansion is pending: the embedded figure stays
    assert meters.embeds_meter.level() == "over"
    assert meters.task_meter.bar.accessibleName() == meters.task_meter.title_label.text()


def test_format_kb() -> None:
    assert format_kb(262_144) == "256 KB"
    assert format_kb(12_700) == "12.4 KB"
    assert format_kb(0) == "0 KB"


def test_stylesheet_parses_and_styles_banners(qtbot: QtBot, qtlog: _QtMessageCapture) -> None:
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from widgets.common.theme import LIGHT, stylesheet

    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    banner = ConflictBanner()
    meters = SizeMeters()
    layout.addWidget(banner)
    layout.addWidget(meters)
    host.setStyleSheet(stylesheet(LIGHT))
    meters.set_sizes(TASK_MAX_BYTES + 1, 10)
    host.show()
    assert not host.grab().isNull()
    assert not [r for r in qtlog.records if "style" in r.message.lower()]
    assert banner.property("kind") == "warning"
