"""The References tree, the bar charts and the shape view, fed from the engine directly."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt

from app.core.budget import budget_breakdown
from app.core.expander import expand_embeds
from app.core.models import AccessEntry, OrgFile, Reader
from app.core.references import find_references
from app.core.task_outline import task_size
from app.core.task_shape import check_task_shape
from widgets.insight.budget_dialog import BudgetDialog, budget_headline
from widgets.insight.reference_tree_model import ReferenceTreeModel
from widgets.insight.shape_view import ShapeView

ORG = "o_acme"
READER = Reader("a_scout", "guild_ops")
EVERYONE = (AccessEntry("org", "read"),)
TITLE = '<img src="file:///etc/passwd">Rules'
FILES = {
    "org/o_acme/rules.md": OrgFile(
        "org/o_acme/rules.md", "note", TITLE, "![[org/o_acme/inner.md]]\n", access=EVERYONE
    ),
    "org/o_acme/inner.md": OrgFile(
        "org/o_acme/inner.md", "note", "Inner", "é" * 40_000, access=EVERYONE
    ),
    "org/o_acme/big.md": OrgFile("org/o_acme/big.md", "note", "Big", "x" * 30_000, access=EVERYONE),
    "org/o_acme/team": OrgFile("org/o_acme/team", "collection", "Team", access=EVERYONE),
}
TASK = (
    "# Scout\n![[org/o_acme/rules.md]]\n![[org/o_acme/rules.md]]\n![[org/o_acme/team]]\n"
    "![[org/o_other/x.md]]\n![[org/o_acme/big.md]]\nSee org/o_acme/team for names.\n"
)


def _references():
    return find_references(
        TASK, org_id=ORG, reader=READER, lookup=FILES, task_path="org/o_acme/agents/a_scout/task.md"
    )


def test_the_tree_is_by_hop_and_says_what_the_run_does(qtbot) -> None:
    model = ReferenceTreeModel()
    model.set_references(_references())
    top = [model.index(r, 0) for r in range(model.rowCount())]
    rows = [(model.data(i), model.data(i.siblingAtColumn(2))) for i in top]
    assert rows == [
        ("rules.md", "inlined, 0.0 KB (v1)"),
        ("rules.md", f"earlier inline's title: {TITLE}"),
        ("team", "collection name: Team"),
        ("org/o_other/x.md", "marker: other org"),  # another org's path stays whole
        ("big.md", "inlined, 29.3 KB (v1)"),
        ("team", "named only (collection)"),
    ]
    inner = model.index(0, 0, top[0])
    assert model.data(inner) == "inner.md"
    assert model.data(inner.siblingAtColumn(1)) == "2"
    assert model.reference(inner).bytes == 80_000


def test_tooltips_show_titles_as_written(qtbot) -> None:
    model = ReferenceTreeModel()
    model.set_references(_references())
    tip = model.data(model.index(1, 0), Qt.ItemDataRole.ToolTipRole)
    assert TITLE in tip or "&lt;img" in tip
    # Shown as written: Qt takes the tooltip as plain text, or it is escaped inert.
    assert not GuiQt.mightBeRichText(tip) or TITLE not in tip


def test_the_breakdown_dialog_shows_the_expanders_bytes_and_the_cut(qtbot) -> None:
    expansion = expand_embeds(TASK, org_id=ORG, reader=READER, lookup=FILES)
    budget = budget_breakdown(expansion, org_id=ORG, reader=READER, lookup=FILES)
    dialog = BudgetDialog(budget, task_size(TASK))
    qtbot.addWidget(dialog)
    assert budget.total == expansion.embedded_bytes == 110_025
    assert sum(n.bytes for n in budget.notes) == budget.total
    assert budget_headline(budget).startswith("Embedded notes: 110,025 of 65,536 bytes")
    assert "Over by 44,489 bytes" in dialog.headline.text()
    rows = dialog.notes_chart.rows()
    assert rows[0].startswith("org/o_acme/inner.md: 80,000 bytes") and "cut" in rows[0]
    assert len(dialog.sections_chart.rows()) == 1


def test_the_shape_view_lists_the_advice(qtbot) -> None:
    view = ShapeView()
    qtbot.addWidget(view)
    view.set_check(check_task_shape(TASK))
    advice = [view.advice.item(i).text() for i in range(view.advice.count())]
    assert any(a.startswith("Add Inputs, Work, Outputs and Files") for a in advice)
    assert "words, under the shape's 300" in view.headline.text()


def test_a_path_written_as_markup_is_escaped_in_its_tooltip(qtbot) -> None:
    references = find_references(
        '![[<img src="file:///etc/passwd">]]\n', org_id=ORG, reader=READER, lookup=FILES
    )
    model = ReferenceTreeModel()
    model.set_references(references)
    tip = model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    assert "&lt;img" in tip and "<img" not in tip
