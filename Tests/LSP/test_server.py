"""`livery lsp` end to end, through pytest-lsp: every feature, half-typed buffers, files
changing on disk, odd workspaces and clients that misbehave."""

import asyncio
import json
import shutil
import subprocess

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from conftest import LIVERY, copy_themes, start

CHAT = "Themes/Base.theme/Chat.xml"
CONSTANTS = "Themes/Base.theme/Constants.xml"


def pos(line, character):
    return types.Position(line=line, character=character)


def doc(uri):
    return types.TextDocumentIdentifier(uri=uri)


def codes(diagnostics):
    return sorted(d.code for d in diagnostics)


def cli_findings(root, theme):
    """What `livery validate --format json` finds, as (file, line, code)."""
    run = subprocess.run(
        [LIVERY, "validate", str(root / "Themes" / theme), "--format", "json"], capture_output=True, text=True
    )
    return sorted((d["file"], d.get("line"), d["code"]) for d in json.loads(run.stdout or "[]"))


# --- Diagnostics ---------------------------------------------------------------------------------


async def test_typo_in_an_unsaved_buffer_gets_the_validate_finding_and_its_fix(session):
    uri = session.open(CHAT)
    text = (session.root / CHAT).read_text()
    session.replace_all(uri, text.replace('<operation name="barTintColor">', '<operation name="barTintColr">'))
    found = await session.diagnostics(uri, lambda d: any(x.code == "operation-unknown" for x in d))
    finding = next(d for d in found if d.code == "operation-unknown")
    assert finding.range.start.line == 19  # 0-based line of <operation name="barTintColr">
    assert finding.severity == types.DiagnosticSeverity.Error
    assert finding.source == "livery"
    # the file on disk is untouched: the CLI finds nothing there
    assert cli_findings(session.root, "Base.theme") == []
    # the quick fix applies exactly the finding's edit
    actions = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri), range=finding.range, context=types.CodeActionContext(diagnostics=[finding])
        )
    )
    assert actions and actions[0].kind == types.CodeActionKind.QuickFix
    edits = actions[0].edit.changes[uri]
    assert [(e.new_text, e.range.start.line) for e in edits] == [("barTintColor", 19)]
    assert edits[0].range.end.character - edits[0].range.start.character == len("barTintColr")


async def test_a_fix_moving_a_constant_up_edits_both_files_in_one_action(session):
    # the child defines a colour in an unsaved buffer, and its parent uses it
    palette = "Themes/Dark.theme/Palette.xml"
    palette_uri = session.open(palette)
    defined = '<color name="brandPressed">#0066CC</color>'
    session.replace_all(
        palette_uri,
        (session.root / palette).read_text().replace(defined, defined + '\n    <color name="darkOnly">#0A84FF</color>'),
    )
    uri = session.open(CHAT)
    used = '<param name="color"><color ref="accent"/></param>'
    session.replace_all(uri, (session.root / CHAT).read_text().replace(used, used.replace("accent", "darkOnly"), 1))
    found = await session.diagnostics(uri, lambda d: any(x.code == "reference-unknown" for x in d))
    finding = next(d for d in found if d.code == "reference-unknown")
    actions = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri), range=finding.range, context=types.CodeActionContext(diagnostics=[finding])
        )
    )
    assert actions and actions[0].title.startswith("Move 'darkOnly' up")
    changes = actions[0].edit.changes
    # one action, edits for both documents: into Base's constants (on disk), out of Dark's buffer
    constants_uri = session.uri(CONSTANTS)
    assert sorted(changes) == sorted([constants_uri, palette_uri])
    [insert] = changes[constants_uri]
    close = (session.root / CONSTANTS).read_text().split("\n").index("  </constants>")
    assert insert.range.start == insert.range.end == pos(close, 0)
    assert insert.new_text == '    <color name="darkOnly">#0A84FF</color>\n'
    [remove] = changes[palette_uri]
    assert (remove.range.start, remove.range.end, remove.new_text) == (pos(7, 0), pos(8, 0), "")


async def test_buffer_findings_equal_validate_on_the_same_text(session, tmp_path):
    uri = session.open(CONSTANTS)
    text = (session.root / CONSTANTS).read_text()
    broken = text.replace('<color name="accent" ref="brand" overridable="true"/>', '<color name="accent" ref="brnd" overridable="true"/>')
    session.replace_all(uri, broken)
    found = await session.diagnostics(uri, lambda d: len(d) > 0)
    # the same text saved and validated by the CLI
    (session.root / CONSTANTS).write_text(broken)
    expected = [(line, code) for (file, line, code) in cli_findings(session.root, "Base.theme") if file.endswith("Constants.xml")]
    assert sorted((d.range.start.line + 1, d.code) for d in found) == sorted(expected)
    assert "reference-unknown" in codes(found)


async def test_incremental_edits_and_a_non_ascii_line(session):
    uri = session.open(CONSTANTS)
    lines = (session.root / CONSTANTS).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<color name="brand" format="hex">' in l)
    # a comment with characters outside the BMP and accents before the broken value
    prefix = "<!-- é😀 -->"
    session.edit(uri, (line, 4), (line, 4), prefix)
    column = lines[line].index("#007AFF") + len(prefix)  # in UTF-16 units: 😀 is two
    column16 = column + 1  # the emoji's second unit
    session.edit(uri, (line, column16), (line, column16 + 7), "#GG7AFF")
    found = await session.diagnostics(uri, lambda d: any(x.code == "value-invalid" for x in d))
    finding = next(d for d in found if d.code == "value-invalid")
    assert finding.range.start.line == line
    # the finding points into the element, past the non-ASCII comment, in UTF-16 units
    assert finding.range.start.character > len(prefix)
    # undo the value: the finding goes away
    session.edit(uri, (line, column16), (line, column16 + 7), "#007AFF")
    await session.diagnostics(uri, lambda d: not any(x.code == "value-invalid" for x in d))


async def test_half_typed_xml_never_crashes_and_still_reports(session):
    uri = session.open(CHAT)
    text = (session.root / CHAT).read_text()
    line = text.split("\n").index("    <uiview id=\"chat_background\">")
    # type an element one character at a time, unclosed tag and open quote included
    for i, ch in enumerate('<uilabel id="half'):
        session.edit(uri, (line, 4 + i), (line, 4 + i), ch)
    found = await session.diagnostics(uri, lambda d: any(x.code == "xml-syntax" for x in d))
    assert found
    completion = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=pos(line + 4, 27))
    )
    assert completion is not None
    hover = await session.client.text_document_hover_async(types.HoverParams(text_document=doc(uri), position=pos(line, 10)))
    assert hover is None or hover.contents


async def test_an_edit_in_a_parent_reaches_its_children_unopened(session):
    uri = session.open(CONSTANTS)
    text = (session.root / CONSTANTS).read_text()
    # Dark references 'brand' through Base; removing Base's constant breaks Dark's files too
    session.replace_all(uri, text.replace('<color name="onAccent">#FFF</color>', ""))
    dark_palette = session.uri("Themes/Dark.theme/Classes.xml")
    base_classes = session.uri("Themes/Base.theme/Classes.xml")
    found = await session.diagnostics(base_classes, lambda d: any(x.code == "reference-unknown" for x in d))
    assert any("onAccent" in d.message for d in found)
    assert dark_palette is not None


async def test_an_edit_in_a_schema_file_is_seen_by_its_themes(session):
    # the schema is kept between checks: renaming the component in Base's schema file must still
    # make the instances that use it unknown, in Base and in its children
    uri = session.open("Themes/Base.theme/Components.xml")
    text = (session.root / "Themes/Base.theme/Components.xml").read_text()
    session.replace_all(uri, text.replace('name="chatbubble"', 'name="chatbubbles"'))
    chat = session.uri(CHAT)
    found = await session.diagnostics(chat, lambda d: any(x.code == "component-unknown" for x in d))
    assert any("chatbubble" in d.message for d in found)
    session.replace_all(uri, text)
    await session.diagnostics(chat, lambda d: not any(x.code == "component-unknown" for x in d))


async def test_a_typo_undone_and_typed_again_is_reported_again(session):
    uri = session.open(CONSTANTS)
    lines = (session.root / CONSTANTS).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<color name="accent" ref="brand" overridable="true"/>' in l)
    column = lines[line].index('ref="brand"') + len('ref="br')
    for _ in range(2):
        session.edit(uri, (line, column), (line, column + 1), "")  # ref="brnd"
        await session.diagnostics(uri, lambda d: any(x.code == "reference-unknown" for x in d))
        session.edit(uri, (line, column), (line, column), "a")  # back to the text on disk
        await session.diagnostics(uri, lambda d: not any(x.code == "reference-unknown" for x in d))


async def test_typing_in_a_value_is_seen_by_hover_and_definition(session):
    # the file's symbols follow an edit inside an attribute value without reading the file again:
    # the edited reference and everything after it (moved) must still be found
    uri = session.open(CONSTANTS)
    lines = (session.root / CONSTANTS).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<color name="accent" ref="brand" overridable="true"/>' in l)
    later = next(i for i, l in enumerate(lines) if '<color name="bubbleOutgoing" ref="accent" ' in l)
    strong = next(i for i, l in enumerate(lines) if '<color name="accentStrong">' in l)
    start = lines[line].index('ref="brand"') + len('ref="')

    async def hover_later():
        hover = await session.client.text_document_hover_async(
            types.HoverParams(text_document=doc(uri), position=pos(later, lines[later].index('ref="accent"') + 7))
        )
        return hover.contents.value

    assert "#007AFFFF" in await hover_later()
    # ref="brand" retyped as ref="accentStrong", a character at a time
    session.edit(uri, (line, start), (line, start + len("brand")), "")
    for i, ch in enumerate("accentStrong"):
        session.edit(uri, (line, start + i), (line, start + i), ch)
    definition = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=pos(line, start + 3))
    )
    assert [(d.uri, d.range.start.line) for d in definition] == [(uri, strong)]
    assert "#0062CCFF" in await hover_later()
    session.edit(uri, (line, start), (line, start + len("accentStrong")), "brand")
    assert "#007AFFFF" in await hover_later()


async def test_an_edit_in_a_parent_is_seen_by_hover_in_a_child(session):
    uri = session.open(CONSTANTS)
    lines = (session.root / CONSTANTS).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<color name="accent" ref="brand" overridable="true"/>' in l)
    dark = session.open("Themes/Dark.theme/Classes.xml")
    dark_lines = (session.root / "Themes/Dark.theme/Classes.xml").read_text().split("\n")
    at = next(i for i, l in enumerate(dark_lines) if '<color ref="accent" ' in l)
    position = pos(at, dark_lines[at].index('ref="accent"') + 7)

    async def hover():
        found = await session.client.text_document_hover_async(types.HoverParams(text_document=doc(dark), position=position))
        return found.contents.value

    assert "#0A84FFFF" in await hover()  # Dark's brand
    end = lines[line].index('ref="brand"') + len('ref="brand')
    session.edit(uri, (line, end), (line, end), "Pressed")
    assert "#0066CCFF" in await hover()  # Dark's brandPressed, through Base's accent


async def test_notes_become_related_information(session):
    uri = session.open(CHAT)
    text = (session.root / CHAT).read_text()
    # a mistyped end tag: the finding notes where the element opened
    session.replace_all(uri, text.replace("</uiview>", "</uiveiw>", 1))
    found = await session.diagnostics(uri, lambda d: any(x.code == "xml-syntax" for x in d))
    finding = next(d for d in found if d.code == "xml-syntax")
    assert finding.range.start.line == 13
    assert [(r.location.uri, r.location.range.start.line, r.message) for r in finding.related_information] == [
        (uri, 6, "<uiview> is opened here")
    ]


async def test_closing_a_buffer_goes_back_to_the_disk(session):
    uri = session.open(CHAT)
    text = (session.root / CHAT).read_text()
    session.replace_all(uri, text.replace('name="tintColor"', 'name="tintColour"'))
    await session.diagnostics(uri, lambda d: len(d) > 0)
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc(uri)))
    await session.diagnostics(uri, lambda d: len(d) == 0)


async def test_a_file_deleted_on_disk_while_open_keeps_its_buffer(session):
    uri = session.open(CHAT)
    (session.root / CHAT).unlink()
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=uri, type=types.FileChangeType.Deleted)])
    )
    text = (session.root / "Themes/Base.theme/Chat~dark.xml").read_text()
    session.replace_all(uri, text.replace("<theme>", "<theme>\n<oops", 1))
    found = await session.diagnostics(uri, lambda d: any(x.code == "xml-syntax" for x in d))
    assert found
    symbols = await session.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(uri)))
    assert symbols is not None


async def test_a_file_renamed_on_disk_while_open(session):
    uri = session.open(CHAT)
    (session.root / CHAT).rename(session.root / "Themes/Base.theme/Chat2.xml")
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri=uri, type=types.FileChangeType.Deleted),
                types.FileEvent(uri=session.uri("Themes/Base.theme/Chat2.xml"), type=types.FileChangeType.Created),
            ]
        )
    )
    # the buffer and the renamed file both define the instances: one file's definitions are duplicates
    session.replace_all(uri, (session.root / "Themes/Base.theme/Chat2.xml").read_text())
    await session.settle()
    hover = await session.client.text_document_hover_async(types.HoverParams(text_document=doc(uri), position=pos(11, 26)))
    assert hover is not None


async def test_two_themes_with_one_id(tmp_path):
    root = copy_themes(tmp_path / "ws", names=("Base.theme", "Light.theme"))
    shutil.copytree(root / "Themes/Light.theme", root / "Themes/Light2.theme")
    running = await start(root)
    try:
        uri = running.open("Themes/Light2.theme/Info.xml")
        found = await running.diagnostics(uri, lambda d: any(x.code == "theme-duplicate" for x in d))
        clash = next(d for d in found if d.code == "theme-duplicate")
        assert "already used" in clash.message
        assert clash.related_information[0].location.uri == running.uri("Themes/Light.theme/Info.xml")
    finally:
        await running.client.shutdown_session()
        await running.client.stop()


async def test_a_ten_megabyte_file(session):
    # 2,000 constants, a 10 MB comment, then a broken value on the last line of the constants
    body = "".join(f'    <color name="c{i}" ref="brand"/>\n' for i in range(2000))
    padding = "    <!-- " + "padding " * 1_300_000 + "-->\n"
    text = f"<theme>\n  <constants>\n{body}{padding}    <color name=\"bad\">#GG0000</color>\n  </constants>\n</theme>\n"
    assert len(text.encode()) > 10_000_000
    bad_line = 2 + 2000 + 1
    uri = session.open("Themes/Base.theme/Big.xml", text)
    found = await session.diagnostics(uri, lambda d: any(x.code == "value-invalid" for x in d), timeout=120)
    assert next(d for d in found if d.code == "value-invalid").range.start.line == bad_line
    symbols = await session.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(uri)))
    assert len(symbols) == 2001
    # an incremental edit at the end of the big buffer fixes it
    column = text.split("\n")[bad_line].index("#GG")
    session.edit(uri, (bad_line, column + 1), (bad_line, column + 3), "FF")
    await session.diagnostics(uri, lambda d: not any(x.code == "value-invalid" for x in d), timeout=120)


# --- Misbehaving clients -------------------------------------------------------------------------


async def test_requests_for_files_never_opened_are_errors(session):
    with pytest.raises(JsonRpcException) as error:
        await session.client.text_document_hover_async(
            types.HoverParams(text_document=doc(session.uri(CHAT)), position=pos(0, 0))
        )
    assert "not open" in str(error.value)
    with pytest.raises(JsonRpcException):
        await session.client.text_document_completion_async(
            types.CompletionParams(text_document=doc("file:///nowhere/at/all.xml"), position=pos(5, 5))
        )
    # the server lives on
    uri = session.open(CHAT)
    assert await session.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(uri)))


async def test_out_of_order_changes_and_positions_are_survived(session):
    # a change for a document never opened, a close before an open, positions past the end
    session.edit(session.uri(CHAT), (0, 0), (0, 0), "x")
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc(session.uri(CHAT))))
    uri = session.open(CHAT)
    session.edit(uri, (100000, 5), (100001, 0), "")
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(999999, 999999))
    )
    assert hover is None
    completion = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=pos(5, 999))
    )
    assert completion is not None


async def test_unknown_methods_and_cancelled_requests(session):
    with pytest.raises(JsonRpcException) as error:
        await session.client.protocol.send_request_async("livery/noSuchMethod", {})
    assert "unsupported" in str(error.value)
    uri = session.open(CHAT)
    params = types.HoverParams(text_document=doc(uri), position=pos(25, 10))
    # a queue of hovers; the last is cancelled while it still waits, and is answered as cancelled
    queued = [session.client.protocol.send_request(types.TEXT_DOCUMENT_HOVER, params, msg_id=f"h{i}") for i in range(60)]
    session.client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="h59"))
    results = await asyncio.gather(*(asyncio.wrap_future(f) for f in queued), return_exceptions=True)
    assert all(not isinstance(r, Exception) for r in results[:10])
    assert isinstance(results[-1], JsonRpcException) and results[-1].code == -32800, results[-1]


# --- Completion ----------------------------------------------------------------------------------


async def completion_labels(session, uri, line, character):
    result = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=pos(line, character))
    )
    items = result.items if hasattr(result, "items") else result
    return {item.label: item for item in items}


async def test_completion_of_operation_names_for_the_component_type(session):
    lines = (session.root / CHAT).read_text().split("\n")
    uri = session.open(CHAT)
    # <operation name="frame"> in <uinavigationbar>: the cursor inside the name value
    line = 16
    assert lines[line].strip() == '<operation name="frame">'
    column = lines[line].index('"frame"') + 1
    labels = await completion_labels(session, uri, line, column)
    assert "barTintColor" in labels  # the type's own
    assert "cornerRadius" in labels  # inherited from uiview
    assert "uiview" in labels["cornerRadius"].detail
    assert "numberOfLines" not in labels  # uilabel's, not this type's


async def test_completion_of_params_values_constants_states(session):
    lines = (session.root / CHAT).read_text().split("\n")
    uri = session.open(CHAT)
    # ref=" in a color: colour constants only
    line = next(i for i, l in enumerate(lines) if '<color ref="surface"/>' in l)
    column = lines[line].index('ref="') + 5
    labels = await completion_labels(session, uri, line, column)
    assert {"brand", "accent", "surface", "textPrimary"} <= set(labels)
    assert "radiusSmall" not in labels and "fontTitle" not in labels
    # <param name="..."> of barTintColor
    column = lines[line].index('name="') + 6
    labels = await completion_labels(session, uri, line, column)
    assert set(labels) == {"color"}
    # an image's content: asset names without extension or scale
    line = next(i for i, l in enumerate(lines) if "<image>nav_background</image>" in l)
    column = lines[line].index("nav_background")
    labels = await completion_labels(session, uri, line, column)
    assert {"nav_background", "bubble", "send", "avatar"} <= set(labels)
    assert not any(label.endswith(".png") or "@" in label for label in labels)


async def test_completion_of_elements_component_types_classes_and_snippets(session):
    uri = session.open(CHAT)
    text = (session.root / CHAT).read_text()
    lines = text.split("\n")
    # a new line in <instances>, typing '<'
    session.edit(uri, (6, 0), (6, 0), "    <\n")
    await session.settle()
    labels = await completion_labels(session, uri, 6, 5)
    assert {"uibutton", "uilabel", "uiview"} <= set(labels)
    assert labels["uibutton"].insert_text_format == types.InsertTextFormat.Snippet
    # in an operation of a uilabel, typing '<': the param snippets of that operation
    # (one line was added above)
    line = next(i for i, l in enumerate(lines) if '<uilabel id="label_title">' in l) + 1 + 1
    assert lines[line - 1].strip() == '<operation name="frame">'
    session.edit(uri, (line + 1, 0), (line + 1, 0), "        <\n")  # after <operation name="frame">
    await session.settle()
    labels = await completion_labels(session, uri, line + 1, 9)
    assert "param rect" in labels
    assert "<rect>" in labels["param rect"].text_edit.new_text
    # class="..." of an instance: class names
    session.replace_all(uri, text.replace('<uilabel id="label_title">', '<uilabel id="label_title" class="">'))
    await session.settle()
    line = next(i for i, l in enumerate(lines) if '<uilabel id="label_title">' in l)
    column = len('    <uilabel id="label_title" class="')
    labels = await completion_labels(session, uri, line, column)
    assert {"rounded", "bordered", "primaryButton"} <= set(labels)


async def test_completion_of_states(session):
    uri = session.open(CHAT)
    text = (session.root / CHAT).read_text()
    session.replace_all(uri, text.replace('<operation name="titleColor">', '<operation name="titleColor" state="">', 1))
    lines = (session.root / CHAT).read_text().replace('<operation name="titleColor">', '<operation name="titleColor" state="">', 1).split("\n")
    line = next(i for i, l in enumerate(lines) if 'state=""' in l)
    labels = await completion_labels(session, uri, line, lines[line].index('state="') + 7)
    assert {"normal", "highlighted", "disabled", "selected", "focused"} == set(labels)


async def test_completion_of_dimension_declarations(session):
    """In a schema file: the <dimension> element, its attributes, the app-defined dimensions the
    chain declares for `name`, and for `values` the tags of the named one not yet listed."""
    path = "Themes/Dark.theme/Schema.xml"
    text = "<components>\n  <\n</components>\n"
    uri = session.open(path, text)
    await session.settle()
    labels = await completion_labels(session, uri, 1, 3)
    assert {"component", "dimension"} <= set(labels)
    assert "values=" in labels["dimension"].text_edit.new_text
    # Dark inherits Base, whose Components.xml declares density (compact, comfortable)
    session.replace_all(uri, '<components>\n  <dimension name="" values="compact "/>\n</components>\n')
    await session.settle()
    line = '  <dimension name="" values="compact "/>'
    labels = await completion_labels(session, uri, 1, line.index('name="') + 6)
    assert set(labels) == {"density"}
    session.replace_all(uri, '<components>\n  <dimension name="density" values="compact "/>\n</components>\n')
    await session.settle()
    line = '  <dimension name="density" values="compact "/>'
    labels = await completion_labels(session, uri, 1, line.index("compact ") + len("compact "))
    assert set(labels) == {"comfortable"}


# --- Hover ---------------------------------------------------------------------------------------


async def test_hover_on_a_reference_shows_the_value_and_chain(session):
    uri = session.open(CHAT)
    lines = (session.root / CHAT).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<color ref="accent"/>' in l)
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(line, lines[line].index("accent") + 2))
    )
    text = hover.contents.value
    assert "#007AFFFF" in text  # accent -> brand
    assert "Constants.xml:" in text and "brand" in text
    assert "WCAG" in text


async def test_hover_on_an_operation_explains_it_with_contrast(session):
    uri = session.open(CHAT)
    lines = (session.root / CHAT).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<operation name="titleColor">' in l)
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(line, 8))
    )
    text = hover.contents.value
    assert "nav_bar_main.titleColor" in text
    assert "Chat.xml:" in text and "textPrimary" in text
    assert "Contrast" in text and "WCAG" in text


async def test_hover_in_a_qualified_file_shows_the_values_of_its_traits(session):
    # bubble_incoming's shadow comes from the card class, except in dark, where Chat~dark.xml
    # sets it to 0: a hover there explains the dark value
    uri = session.open("Themes/Base.theme/Chat~dark.xml")
    lines = (session.root / "Themes/Base.theme/Chat~dark.xml").read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<operation name="shadowOpacity">' in l)
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(line, 8))
    )
    text = hover.contents.value
    assert "bubble_incoming.shadowOpacity** = `float 0` (with dark)" in text
    assert "Chat~dark.xml:" in text
    # the class's own operation, hovered in an unqualified file: the value without traits
    classes = session.open("Themes/Base.theme/Classes.xml")
    lines = (session.root / "Themes/Base.theme/Classes.xml").read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<operation name="shadowOpacity">' in l)
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(classes), position=pos(line, 8))
    )
    assert "(with" not in hover.contents.value


async def test_hover_on_an_image_shows_sizes_and_scales(session):
    uri = session.open(CHAT)
    lines = (session.root / CHAT).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if "<image>nav_background</image>" in l)
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(line, lines[line].index("nav_background") + 3))
    )
    text = hover.contents.value
    assert "nav_background.png" in text and "nav_background~dark.png" in text
    assert " px" in text and "@1x" in text


# --- Navigation ----------------------------------------------------------------------------------


async def test_definition_of_constant_class_parent_and_asset(session):
    uri = session.open(CHAT)
    lines = (session.root / CHAT).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<color ref="surface"/>' in l)
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=pos(line, lines[line].index("surface") + 1))
    )
    # Constants.xml and the dark layer define it
    assert sorted(l.uri for l in found) == [session.uri("Themes/Base.theme/Chat~dark.xml"), session.uri(CONSTANTS)]
    for location in found:
        text = (session.root / "Themes" / location.uri.split("/Themes/")[1]).read_text().split("\n")
        line_text = text[location.range.start.line]
        assert line_text[location.range.start.character : location.range.end.character] == "surface"
        assert '<color name="surface"' in line_text
    # a parent id in Info.xml
    info = session.open("Themes/Dark.theme/Info.xml")
    info_lines = (session.root / "Themes/Dark.theme/Info.xml").read_text().split("\n")
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(info), position=pos(1, info_lines[1].index("com.livery.base") + 3))
    )
    assert [l.uri for l in found] == [session.uri("Themes/Base.theme/Info.xml")]
    # an asset
    line = next(i for i, l in enumerate(lines) if "<image>nav_background</image>" in l)
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=pos(line, lines[line].index("nav_background") + 2))
    )
    assert {l.uri.rsplit("/", 1)[1] for l in found} == {"nav_background.png", "nav_background~dark.png"}


async def test_definition_of_an_instance_id_in_a_child(session):
    uri = session.open("Themes/Dark.theme/Chat~ipad.xml")
    lines = (session.root / "Themes/Dark.theme/Chat~ipad.xml").read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if ' id="' in l)
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=pos(line, lines[line].index(' id="') + 5))
    )
    assert any("Base.theme" in l.uri for l in found)


async def test_references_across_children(session):
    uri = session.open(CONSTANTS)
    lines = (session.root / CONSTANTS).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<color name="surface">' in l)
    found = await session.client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(uri),
            position=pos(line, lines[line].index("surface") + 1),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    files = {l.uri.split("/Themes/")[1] for l in found}
    assert "Base.theme/Constants.xml" in files and "Base.theme/Chat.xml" in files
    assert "Dark.theme/Palette.xml" in files  # Dark redefines it


async def test_document_and_workspace_symbols(session):
    uri = session.open(CONSTANTS)
    symbols = await session.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(uri)))
    names = {s.name for s in symbols}
    assert {"brand", "accent", "surface"} <= names
    found = await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="button_"))
    assert found and all("button_" in s.name for s in found)
    assert any(s.kind == types.SymbolKind.Object for s in found)


# --- Edits ---------------------------------------------------------------------------------------


async def test_rename_a_constant_everywhere_and_refusals(session):
    uri = session.open(CONSTANTS)
    lines = (session.root / CONSTANTS).read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if '<color name="surface">' in l)
    at = pos(line, lines[line].index("surface") + 1)
    edit = await session.client.text_document_rename_async(
        types.RenameParams(text_document=doc(uri), position=at, new_name="panel")
    )
    files = {u.split("/Themes/")[1] for u in edit.changes}
    assert {"Base.theme/Constants.xml", "Base.theme/Chat.xml", "Dark.theme/Palette.xml"} <= files
    assert all(e.new_text == "panel" for edits in edit.changes.values() for e in edits)
    # each edit replaces exactly the old name
    for file_uri, edits in edit.changes.items():
        text = (session.root / "Themes" / file_uri.split("/Themes/")[1]).read_text().split("\n")
        for e in edits:
            assert text[e.range.start.line][e.range.start.character : e.range.end.character] == "surface"
    with pytest.raises(JsonRpcException) as error:
        await session.client.text_document_rename_async(
            types.RenameParams(text_document=doc(uri), position=at, new_name="brand")
        )
    assert "already exists" in str(error.value)
    with pytest.raises(JsonRpcException) as error:
        await session.client.text_document_rename_async(
            types.RenameParams(text_document=doc(uri), position=at, new_name="not a name")
        )
    assert "not a valid name" in str(error.value)


async def test_document_colors_and_presentations_keep_the_notation(session):
    uri = session.open(CONSTANTS)
    colors = await session.client.text_document_document_color_async(types.DocumentColorParams(text_document=doc(uri)))
    lines = (session.root / CONSTANTS).read_text().split("\n")

    def at(fragment):
        for c in colors:
            line = lines[c.range.start.line]
            if line[c.range.start.character : c.range.end.character] == fragment:
                return c
        raise AssertionError(f"no colour {fragment}: {[(c.range, c.color) for c in colors]}")

    short = at("#FFF")
    assert (short.color.red, short.color.green, short.color.blue) == (1, 1, 1)
    rgba = at("0.235, 0.235, 0.263, 0.75")

    async def present(info, color):
        return await session.client.text_document_color_presentation_async(
            types.ColorPresentationParams(text_document=doc(uri), color=color, range=info.range)
        )

    result = await present(short, types.Color(red=0.0, green=2 / 15, blue=1.0, alpha=1.0))
    assert result[0].text_edit.new_text == "#02F"  # short stays short
    result = await present(short, types.Color(red=0.1, green=0.2, blue=0.3, alpha=1.0))
    assert result[0].text_edit.new_text == "#1A334D"
    result = await present(rgba, types.Color(red=1.0, green=0.0, blue=0.0, alpha=0.5))
    assert result[0].text_edit.new_text == "1, 0, 0, 0.501961"
    assert result[0].text_edit.range == rgba.range


async def test_requests_after_shutdown_are_errors_and_exit_is_clean(tmp_path):
    root = copy_themes(tmp_path / "ws", names=("Base.theme",))
    running = await start(root)
    client = running.client
    await client.shutdown_async(None)
    with pytest.raises(JsonRpcException) as error:
        await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="brand"))
    assert "shutting down" in str(error.value)
    client.exit(None)
    assert await asyncio.wait_for(client._server.wait(), 20) == 0
    await client.stop()


async def test_completion_of_colour_modifiers(session):
    # format 1.3: a colour's modifier attributes, their spaces, and colour constants for mix
    uri = session.open(CHAT)
    text = (session.root / CHAT).read_text()
    edited = text.replace('<color ref="surface"/>', '<color ref="surface" space="" mix="" />', 1)
    session.replace_all(uri, edited)
    await session.settle()
    lines = edited.split("\n")
    line = next(i for i, l in enumerate(lines) if 'space="" mix=""' in l)
    labels = await completion_labels(session, uri, line, lines[line].index('space="') + 7)
    assert set(labels) == {"srgb", "hsl", "lch"}
    labels = await completion_labels(session, uri, line, lines[line].index('mix="') + 5)
    assert {"brand", "accent", "surface"} <= set(labels)
    assert "radiusSmall" not in labels
    labels = await completion_labels(session, uri, line, lines[line].index("/>"))
    assert {"lighten", "darken", "amount", "alpha", "contrast-with", "min-ratio"} <= set(labels)
    assert "space" not in labels and "mix" not in labels
