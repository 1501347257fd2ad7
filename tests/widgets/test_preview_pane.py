"""PreviewPane: loads nothing, routes links, keeps the scroll, edit on double-click, agent view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.desk.runner import Runner
from app.render.links import embed_url
from tests.on_screen import shown
from widgets.preview.preview_document import InertDocument, fill_in_chunks, inert_resource
from widgets.preview.preview_pane import PreviewPane
from widgets.preview.preview_panel import PreviewPanel

IMAGE = QTextDocument.ResourceType.ImageResource


@pytest.fixture
def runner(qtbot: QtBot) -> Iterator[Runner]:
    """The one way the preview's large documents are built off the GUI thread."""
    worker = Runner()
    yield worker
    assert worker.shutdown(), "a preview build outlived the test"


@pytest.fixture
def pane(qtbot: QtBot) -> PreviewPane:
    return shown(qtbot, PreviewPane(), (500, 300))


@pytest.fixture
def png(tmp_path: Path, qapp: QApplication) -> Path:
    path = tmp_path / "pixel.png"
    image = QImage(8, 8, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    assert image.save(str(path))
    return path


DATA_PNG = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4"
    "z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="
)


def _urls(png: Path) -> list[str]:
    return [QUrl.fromLocalFile(str(png)).toString(), "http://127.0.0.1:9/x.png", DATA_PNG]


def test_a_plain_document_would_load_these_images(png: Path) -> None:
    """The control: the file really loads in an ordinary QTextDocument, so the test below bites."""
    document = QTextDocument()
    document.setHtml(f'<img src="{QUrl.fromLocalFile(str(png)).toString()}">')
    assert document.resource(IMAGE, QUrl.fromLocalFile(str(png))) is not None


def test_preview_loads_nothing_the_html_names(pane: PreviewPane, png: Path) -> None:
    urls = _urls(png)
    html = "".join(f'<p><img src="{u}"></p>' for u in urls)
    css = tmp_css(png)
    html += f'<link rel="stylesheet" href="{QUrl.fromLocalFile(str(css)).toString()}"><p>x</p>'
    pane.show_html(html)
    pane.grab()  # images are fetched when laid out and painted
    document = pane.document()
    assert isinstance(document, InertDocument)
    blank = inert_resource(IMAGE)
    for url in urls:
        assert document.resource(IMAGE, QUrl(url)) == blank
        assert pane.loadResource(IMAGE, QUrl(url)) == blank
    # The stylesheet would make paragraphs red; nothing of it was read.
    assert document.firstBlock().charFormat().foreground().color() != QColor("red")
    assert "red" not in document.toHtml()


def tmp_css(png: Path) -> Path:
    css = png.with_name("evil.css")
    css.write_text("p { color: red; }", encoding="utf-8")
    return css


def test_large_html_is_parsed_off_thread_and_still_loads_nothing(
    qtbot: QtBot, runner: Runner, png: Path
) -> None:
    pane = PreviewPane(runner=runner, threaded_from_chars=10)
    qtbot.addWidget(pane)
    pane.show()
    html = f'<p>Big</p><img src="{QUrl.fromLocalFile(str(png)).toString()}">'
    with qtbot.waitSignal(pane.html_shown):
        pane.show_html(html)
    assert pane.toPlainText().startswith("Big")
    assert isinstance(pane.document(), InertDocument)
    pane.grab()
    blank = inert_resource(IMAGE)
    assert pane.document().resource(IMAGE, QUrl.fromLocalFile(str(png))) == blank
    pane.wait_for_builds()


def test_only_the_newest_of_overlapping_builds_is_shown(qtbot: QtBot, runner: Runner) -> None:
    pane = PreviewPane(runner=runner, threaded_from_chars=10)
    qtbot.addWidget(pane)
    pane.show()
    pane.show_html("<p>first version</p>")
    with qtbot.waitSignal(pane.html_shown):
        pane.show_html("<p>second version</p>")
    pane.wait_for_builds()
    assert pane.toPlainText() == "second version"


def test_large_html_leaves_the_gui_thread_only_through_the_runner(
    qtbot: QtBot, runner: Runner
) -> None:
    pane = PreviewPane(runner=runner, threaded_from_chars=10)
    qtbot.addWidget(pane)
    pane.show()
    with qtbot.waitSignal(pane.html_shown):
        pane.show_html("<p>built in a worker</p>")
        assert runner.pending == 1  # the build is the runner's job, not the pane's own thread
        assert pane.toPlainText() == ""
    assert pane.toPlainText() == "built in a worker"


def test_without_a_runner_large_html_is_shown_at_once(qtbot: QtBot) -> None:
    pane = PreviewPane(threaded_from_chars=10)  # a note's small preview: no worker at all
    qtbot.addWidget(pane)
    pane.show()
    with qtbot.waitSignal(pane.html_shown, timeout=0):
        pane.show_html("<p>at once</p>")
    assert pane.toPlainText() == "at once"


def test_show_html_keeps_the_scroll_position(pane: PreviewPane) -> None:
    html = "".join(f"<p>Paragraph {i}</p>" for i in range(400))
    pane.show_html(html)
    bar = pane.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(bar.maximum() // 2)
    value = bar.value()
    pane.show_html(html.replace("Paragraph 3<", "Changed 3<"))  # patched in place
    assert abs(bar.value() - value) <= 2
    assert "Changed 3" in pane.toPlainText()
    pane.show_html("<p>New start</p>" + html)  # rebuilt: the same fraction of the height
    assert abs(bar.value() / bar.maximum() - 0.5) < 0.01
    assert pane.toPlainText().startswith("New start")


def test_hidden_preview_defers_until_shown(qtbot: QtBot) -> None:
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.show_html("<p>later</p>")
    assert pane.toPlainText() == ""
    with qtbot.waitSignal(pane.html_shown):
        pane.show()
    assert pane.toPlainText() == "later"


def _click_anchor(pane: PreviewPane, qtbot: QtBot, href: str) -> None:
    pane.show_html(f'<p><a href="{href}">LINKLINKLINKLINK</a></p>')
    cursor = pane.document().find("LINK")
    rect = pane.cursorRect(cursor)
    qtbot.mouseClick(pane.viewport(), Qt.MouseButton.LeftButton, pos=rect.center() - QPoint(8, 0))


def test_clicking_an_embed_emits_its_path(pane: PreviewPane, qtbot: QtBot) -> None:
    path = "org/o_acme/guilds/guild_ops/style-guide.md"
    with qtbot.waitSignal(pane.embed_clicked) as blocker:
        _click_anchor(pane, qtbot, embed_url(path))
    assert blocker.args == [path]


def test_web_link_is_offered_not_opened(pane: PreviewPane, qtbot: QtBot) -> None:
    with qtbot.waitSignal(pane.external_link_requested) as blocker:
        _click_anchor(pane, qtbot, "https://example.com/a?b=1")
    assert blocker.args == ["https://example.com/a?b=1"]
    assert "LINKLINK" in pane.toPlainText()  # still the preview, nothing navigated


def test_file_link_is_blocked_with_a_message(pane: PreviewPane, qtbot: QtBot) -> None:
    with qtbot.waitSignal(pane.link_blocked) as blocker:
        pane.on_anchor_clicked(QUrl("file:///etc/passwd"))
    assert "file" in blocker.args[0]
    assert pane.source().isEmpty()


def test_double_click_requests_edit(pane: PreviewPane, qtbot: QtBot) -> None:
    pane.show_html("<p>Some text</p>")
    with qtbot.waitSignal(pane.edit_requested):
        qtbot.mouseDClick(pane.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(20, 10))


def test_panel_toggles_to_the_exact_agent_text(qtbot: QtBot) -> None:
    panel = PreviewPanel()
    qtbot.addWidget(panel)
    panel.show()
    exact = '<style-guide path="p" level="guild">\n**raw** text\n</style-guide>\n\n'
    panel.show_preview("<p>rendered</p>", exact)
    assert panel.stack.currentWidget() is panel.pane
    panel.agent_view_button.click()
    assert panel.stack.currentWidget() is panel.agent_text_view
    assert panel.agent_text_view.toPlainText() == exact
    assert panel.agent_text_view.isReadOnly()
    panel.set_agent_text("second")
    assert panel.agent_text_view.toPlainText() == "second"
    panel.rendered_button.click()
    assert panel.stack.currentWidget() is panel.pane


def test_panel_accessible_names_match_labels(qtbot: QtBot) -> None:
    panel = PreviewPanel()
    qtbot.addWidget(panel)
    for button in (panel.rendered_button, panel.agent_view_button):
        assert button.accessibleName() == button.text()
    assert panel.agent_text_view.accessibleName() == panel.agent_view_button.text()


def _preview_html() -> str:
    """A real preview: headings, lists, code, links and an inlined note, about 60 KB."""
    from app.core.expander import expand_embeds
    from app.core.models import AccessEntry, OrgFile, Reader
    from app.render import render_preview

    note = "org/o_acme/guilds/guild_ops/style-guide.md"
    files = {
        note: OrgFile(
            note, "note", "Style guide", "- short\n- *clear*\n", 1, (AccessEntry("org", "read"),)
        )
    }
    sections = [
        f"## Section {i}\n\nSome **bold** and `code` and [a link](https://example.com/{i}).\n\n"
        f"- one\n- two ![[{note}]]\n\n```\ncode {i}\n```\n\n> quoted {i}\n"
        for i in range(300)
    ]
    text = f"# Task\n\nFollow ![[{note}]].\n\n" + "\n".join(sections)
    expansion = expand_embeds(text, org_id="o_acme", reader=Reader("a", "g"), lookup=files)
    return render_preview(expansion)


def _signature(document: QTextDocument) -> list[tuple[object, ...]]:
    rows: list[tuple[object, ...]] = []
    block = document.firstBlock()
    while block.isValid():
        fmt = block.blockFormat()
        rows.append(
            (
                block.text(),
                fmt.headingLevel(),
                fmt.topMargin(),
                fmt.bottomMargin(),
                fmt.leftMargin(),
                block.textList() is not None,
                block.charFormat().fontWeight(),
            )
        )
        block = block.next()
    return rows


def test_slices_build_the_same_document_as_set_html(qapp: QApplication) -> None:
    html = _preview_html()
    whole = QTextDocument()
    whole.setHtml(html)
    sliced = QTextDocument()
    fill_in_chunks(sliced, html, 2_000)
    assert sliced.toPlainText() == whole.toPlainText()
    assert _signature(sliced) == _signature(whole)


def _edited(html: str, old: str, new: str) -> str:
    assert old in html
    return html.replace(old, new, 1)


@pytest.mark.parametrize("threaded", [False, True])
def test_a_small_change_is_patched_in_place(qtbot: QtBot, runner: Runner, threaded: bool) -> None:
    pane = PreviewPane(runner=runner, threaded_from_chars=10 if threaded else 10**9)
    qtbot.addWidget(pane)
    pane.resize(500, 300)
    pane.show()
    html = _preview_html()
    with qtbot.waitSignal(pane.html_shown, timeout=10_000):
        pane.show_html(html)
    document = pane.document()
    bar = pane.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    value = bar.value()
    changed = _edited(html, "Section 150", "Section one-fifty")
    changed = _edited(changed, "quoted 151", "quoted and <b>changed</b>")
    with qtbot.waitSignal(pane.html_shown, timeout=10_000):
        pane.show_html(changed)
    pane.wait_for_builds()
    assert pane.document() is document  # same document: no relayout, no jump
    assert abs(bar.value() - value) <= 2
    fresh = QTextDocument()
    fresh.setHtml(changed)
    assert _signature(pane.document()) == _signature(fresh)


def test_patches_that_add_and_remove_blocks_match_a_fresh_document(qtbot: QtBot) -> None:
    pane = PreviewPane(threaded_from_chars=10**9)
    qtbot.addWidget(pane)
    pane.show()
    html = _preview_html()
    pane.show_html(html)
    start = html.index("<h2>Section 100</h2>")
    stop = html.index("<h2>Section 120</h2>")
    for version in (
        html[:start] + html[stop:],  # twenty sections gone
        html[:start] + "<p>inserted</p><ul><li>a</li></ul>" + html[start:],  # blocks added
        html,  # and back
    ):
        pane.show_html(version)
        fresh = QTextDocument()
        fresh.setHtml(version)
        assert _signature(pane.document()) == _signature(fresh)


def test_a_new_first_block_rebuilds(qtbot: QtBot) -> None:
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.show_html("<h1>One</h1><p>body</p>")
    first = pane.document()
    pane.show_html("<h1>Two</h1><p>body</p>")
    assert pane.document() is not first
    assert pane.toPlainText() == "Two\nbody"


def test_a_first_screenful_gives_way_to_the_whole_preview(qtbot: QtBot, runner: Runner) -> None:
    from app.render.html_blocks import split_top_level_html

    whole = "\n".join(f"<p>Paragraph {n} of a long Task.</p>" for n in range(4000))
    head = whole[: whole.index("<p>Paragraph 40 ")].rstrip("\n")
    panel = PreviewPanel(runner=runner)
    qtbot.addWidget(panel)
    panel.resize(500, 300)
    panel.show()
    panel.show_glimpse(head)
    assert panel.pane.document().toPlainText().startswith("Paragraph 0 ")
    assert "Paragraph 39 " in panel.pane.document().toPlainText()
    panel.show_preview(whole, "agent text")
    qtbot.waitUntil(lambda: "Paragraph 3999 " in panel.pane.document().toPlainText())
    qtbot.waitUntil(lambda: not panel.pane.is_laying_out())
    assert panel.pane._pieces == split_top_level_html(whole)  # what a whole render gives
    assert panel.pane.verticalScrollBar().value() == 0  # read from the top, as the glimpse


def test_a_first_screenful_is_not_shown_to_a_reader_further_down(qtbot: QtBot) -> None:
    panel = PreviewPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.show_preview("<p>before</p>", "before")
    panel.pane.scroll_to_fraction(0.5)  # the agent's preview opens where it was read
    panel.show_glimpse("<p>the top of the Task</p>")
    assert "the top of the Task" not in panel.pane.document().toPlainText()
