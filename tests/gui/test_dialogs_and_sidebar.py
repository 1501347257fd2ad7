"""The small parts of the window on their own: dialogs, connect dialog, sidebar and its model."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.core.models import AgentRow, BrokenEmbed, Guild
from widgets.dialogs.confirm import (
    ConfirmLeaveDialog,
    ConfirmRestoreDialog,
    LeaveChoice,
    OpenLinkDialog,
)
from widgets.dialogs.connect import ConnectDialog, check_server_url
from widgets.window.agent_list_model import (
    AGENT_ID_ROLE,
    BROKEN_EMBEDS_ROLE,
    IS_GUILD_ROLE,
    AgentListModel,
)
from widgets.window.sidebar import Sidebar

GUILDS = [Guild("g_ops", "Operations"), Guild("g_res", "Research")]
AGENTS = [
    AgentRow("a_scout", "Scout", "g_ops", 3),
    AgentRow("a_clerk", "Clerk", "g_ops", 1),
    AgentRow("a_sage", "Sage", "g_res", 2),
]


def test_model_groups_agents_under_guild_headings_sorted_by_name() -> None:
    model = AgentListModel()
    model.set_agents(AGENTS, GUILDS)
    shown = [model.index(i).data() for i in range(model.rowCount())]
    assert shown == ["Operations", "Clerk", "Scout", "Research", "Sage"]
    assert model.index(0).data(IS_GUILD_ROLE) is True
    assert not model.flags(model.index(0)) & Qt.ItemFlag.ItemIsSelectable
    assert model.index(2).data(AGENT_ID_ROLE) == "a_scout"


def test_filter_matches_agent_or_guild_name_and_drops_empty_guilds() -> None:
    model = AgentListModel()
    model.set_agents(AGENTS, GUILDS)
    model.set_filter("sc")
    assert model.agent_ids() == ["a_scout"]
    assert model.rowCount() == 2  # its heading and the agent
    model.set_filter("research")
    assert model.agent_ids() == ["a_sage"]
    model.set_filter("")
    assert model.agent_ids() == ["a_clerk", "a_scout", "a_sage"]


def test_a_filter_letter_that_hides_no_one_does_not_reset_the_list() -> None:
    model = AgentListModel()
    model.set_agents(AGENTS, GUILDS)
    resets: list[str] = []
    model.modelReset.connect(lambda: resets.append(model._filter))
    model.set_filter("e")  # in every name or heading: the same rows
    model.set_filter("ea")  # Research only: fewer rows
    model.set_filter("e")  # all of them again
    model.set_filter("zz")  # no one
    model.set_filter("zzz")  # still no one: the "nothing matches" text is said again
    assert resets == ["ea", "e", "zz", "zzz"]
    assert model.agent_ids() == []


def test_agent_of_an_unlisted_guild_still_shows() -> None:
    model = AgentListModel()
    model.set_agents([AgentRow("a_x", "Xena", "g_gone", 1)], GUILDS)
    assert model.agent_ids() == ["a_x"]
    assert model.index(0).data() == "g_gone"


def test_broken_embeds_mark_the_row() -> None:
    model = AgentListModel()
    model.set_agents(AGENTS, GUILDS)
    broken = (BrokenEmbed("org/o/x.md", 1, "org/o/agents/a_scout/task.md"),)
    model.set_broken_embeds({"a_scout": broken})
    row = model.index(model.row_of("a_scout"))
    assert row.data(BROKEN_EMBEDS_ROLE) == broken
    assert "Not reachable from the Task" in row.data(Qt.ItemDataRole.ToolTipRole)
    assert "org/o/x.md" in row.data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(model.row_of("a_clerk")).data(BROKEN_EMBEDS_ROLE) == ()


def test_sidebar_emits_choice_and_keeps_the_open_agent_selected(qtbot) -> None:
    model = AgentListModel()
    sidebar = Sidebar(model)
    qtbot.addWidget(sidebar)
    model.set_agents(AGENTS, GUILDS)
    sidebar.select_agent("a_scout")
    with qtbot.waitSignal(sidebar.agent_chosen) as chosen:
        sidebar.list_view.clicked.emit(model.index(model.row_of("a_sage")))
    assert chosen.args == ["a_sage"]
    # Until the window answers, the open agent stays selected.
    assert sidebar.list_view.currentIndex().data(AGENT_ID_ROLE) == "a_scout"


def test_sidebar_filter_box_filters_and_says_when_nothing_matches(qtbot) -> None:
    model = AgentListModel()
    sidebar = Sidebar(model)
    qtbot.addWidget(sidebar)
    sidebar.show()
    model.set_agents(AGENTS, GUILDS)
    qtbot.keyClicks(sidebar.filter_edit, "zzz")
    assert model.rowCount() == 0
    assert sidebar.empty_label.isVisible()
    assert sidebar.empty_label.text() == "No agent matches the filter."


def test_confirm_leave_exposes_its_three_buttons(qtbot) -> None:
    for button_name, choice in (
        ("save_button", LeaveChoice.SAVE),
        ("discard_button", LeaveChoice.DISCARD),
        ("cancel_button", LeaveChoice.CANCEL),
    ):
        dialog = ConfirmLeaveDialog("Scout", "switch agent")
        qtbot.addWidget(dialog)
        assert "Scout" in dialog.message_label.text()
        with qtbot.waitSignal(dialog.finished):
            getattr(dialog, button_name).click()
        assert dialog.choice is choice


def test_restore_dialog_shows_the_diff_summary(qtbot) -> None:
    dialog = ConfirmRestoreDialog(2, 5, "3 lines added, 1 removed")
    qtbot.addWidget(dialog)
    assert dialog.summary_label.text() == "3 lines added, 1 removed"
    assert dialog.restore_button.text() == "&Restore v2"
    assert "version 6" in dialog.message_label.text()
    with qtbot.waitSignal(dialog.accepted):
        dialog.restore_button.click()


def test_open_link_dialog_shows_the_whole_address_as_plain_text(qtbot) -> None:
    url = "https://example.com/a/very/long/path?with=<b>query</b>&x=1"
    dialog = OpenLinkDialog(url)
    qtbot.addWidget(dialog)
    assert dialog.address_label.text() == url
    assert dialog.address_label.textFormat() == Qt.TextFormat.PlainText
    with qtbot.waitSignal(dialog.rejected):
        dialog.cancel_button.click()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://td.example.com/", "https://td.example.com"),
        ("  http://127.0.0.1:8080 ", "http://127.0.0.1:8080"),
    ],
)
def test_good_server_addresses_are_normalised(text: str, expected: str) -> None:
    assert check_server_url(text) == (expected, "")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "Enter the server's address"),
        ("ftp://x", "must start with http:// or https://"),
        ("td.example.com", "must start with http:// or https://"),
        ("http://", "no host name"),
        ("http://h:99999", "port"),
        ("http://h/?a=1", "? or #"),
    ],
)
def test_bad_server_addresses_say_what_is_wrong(text: str, problem: str) -> None:
    url, message = check_server_url(text)
    assert url is None
    assert problem in message


def test_connect_dialog_refuses_bad_input_then_accepts(qtbot) -> None:
    dialog = ConnectDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.connect_button.click()
    assert dialog.error_label.isVisible()
    assert "address" in dialog.error_label.text()
    qtbot.keyClicks(dialog.url_edit, "http://127.0.0.1:9")
    dialog.connect_button.click()
    assert "token" in dialog.error_label.text()
    qtbot.keyClicks(dialog.token_edit, "ann-secret")
    with qtbot.waitSignal(dialog.submitted) as submitted:
        dialog.connect_button.click()
    request = submitted.args[0]
    assert (request.url, request.token) == ("http://127.0.0.1:9", "ann-secret")
    assert dialog.isVisible() and not dialog.connect_button.isEnabled()  # until answered
    dialog.show_error("The server refused the token.")
    assert dialog.connect_button.isEnabled()


def test_connect_dialog_without_keyring_keeps_the_token_for_the_session(qtbot) -> None:
    dialog = ConnectDialog(keyring_available=False)
    qtbot.addWidget(dialog)
    assert not dialog.remember_box.isChecked()  # the session only, unless asked
    assert dialog.remember_box.isEnabled()
    assert "file only you can read" in dialog.remember_box.text()
