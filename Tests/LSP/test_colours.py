"""`livery lsp` and derived colours (format 1.3, section 9.1): hover shows the derivation step by
step and the contrast `contrast-with` reached; `textDocument/documentColor` gives a swatch of what
each referring or derived colour resolves to, at its element."""

from lsprotocol import types

CONSTANTS = "Themes/Base.theme/Constants.xml"

# accentStrong derives from brand (#007AFF darkened 0.2 in srgb = #0062CC); onAccent keeps its
# text readable on it, derived with contrast-with.
DERIVED = '<color name="accentStrong" ref="brand" darken="0.2"/>'
GUARDED = '<color name="onAccent" ref="brand" contrast-with="accentStrong" min-ratio="4.5"/>'


def derived_constants(session):
    text = (session.root / CONSTANTS).read_text()
    text = text.replace('<color name="accentStrong">#0062CC</color>', DERIVED)
    text = text.replace('<color name="onAccent">#FFF</color>', GUARDED)
    assert DERIVED in text and GUARDED in text
    return text


def line_of(text, needle):
    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if needle in l)
    return line, lines[line]


async def hover_text(session, uri, line, character):
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                          position=types.Position(line=line, character=character))
    )
    assert hover is not None
    return hover.contents.value


async def test_hover_on_a_derived_constant_shows_the_derivation_step_by_step(session):
    text = derived_constants(session)
    uri = session.open(CONSTANTS, text)
    line, content = line_of(text, DERIVED)
    # on the constant's name
    shown = await hover_text(session, uri, line, content.index("accentStrong") + 3)
    assert "`accentStrong` = `brand` #007AFF darkened 0.2 in srgb = #0062CC" in shown, shown
    assert "1. base `brand` `#007AFFFF`" in shown and "2. darken 0.2 in srgb → `#0062CCFF`" in shown, shown
    # on the modifier attribute: the same derivation
    shown = await hover_text(session, uri, line, content.index("darken") + 2)
    assert "**accentStrong** = `#0062CCFF` (derived colour)" in shown, shown
    assert "darkened 0.2 in srgb = #0062CC" in shown


async def test_hover_on_contrast_with_shows_the_ratio_reached_against_min_ratio(session):
    text = derived_constants(session)
    uri = session.open(CONSTANTS, text)
    line, content = line_of(text, GUARDED)
    shown = await hover_text(session, uri, line, content.index("contrast-with") + 2)
    assert "Contrast with `accentStrong` `#0062CCFF`: **" in shown, shown
    assert "min-ratio 4.5 ✓" in shown, shown
    ratio = float(shown.split("Contrast with `accentStrong` `#0062CCFF`: **")[1].split(":1**")[0])
    assert ratio >= 4.5
    # and through a reference in another file: the hover on the reference carries the derivation
    classes_file = "Themes/Base.theme/Classes.xml"
    chat = (session.root / classes_file).read_text()
    chat_uri = session.open(classes_file, chat)
    ref_line, ref = line_of(chat, '<color ref="onAccent"/>')
    shown = await hover_text(session, chat_uri, ref_line, ref.index("onAccent") + 2)
    assert "Derived:" in shown and "min-ratio 4.5 ✓" in shown, shown


async def test_a_contrast_that_cannot_be_reached_says_so(session):
    text = derived_constants(session).replace('min-ratio="4.5"', 'min-ratio="21"')
    uri = session.open(CONSTANTS, text)
    line, content = line_of(text, 'min-ratio="21"')
    shown = await hover_text(session, uri, line, content.index("contrast-with") + 2)
    assert "min-ratio 21 ✗ unreachable" in shown, shown


async def test_document_colors_give_the_result_of_derived_and_referring_colours(session):
    text = derived_constants(session)
    uri = session.open(CONSTANTS, text)
    colors = await session.client.text_document_document_color_async(
        types.DocumentColorParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    by_start = {(c.range.start.line, c.range.start.character): c for c in colors}
    line, content = line_of(text, DERIVED)
    at = content.index("<color") + 1
    swatch = by_start[(line, at)]
    assert swatch.range.end.character == at + len("color")
    # #0062CC: brand darkened 0.2, not brand
    assert (round(swatch.color.red * 255), round(swatch.color.green * 255), round(swatch.color.blue * 255)) == (0, 98, 204)
    # a plain reference: brand's colour, at `accent`'s element
    line, content = line_of(text, '<color name="accent" ref="brand"')
    swatch = by_start[(line, content.index("<color") + 1)]
    assert (round(swatch.color.red * 255), round(swatch.color.green * 255), round(swatch.color.blue * 255)) == (0, 122, 255)
    # a literal keeps its swatch at its text
    line, content = line_of(text, '<color name="surface">#FFFFFF</color>')
    assert (line, content.index("#FFFFFF")) in by_start
    # picking a colour on a result swatch has nothing to rewrite
    presentations = await session.client.text_document_color_presentation_async(
        types.ColorPresentationParams(
            text_document=types.TextDocumentIdentifier(uri=uri), color=swatch.color,
            range=by_start[line_of(text, DERIVED)[0], line_of(text, DERIVED)[1].index("<color") + 1].range)
    )
    assert presentations is not None and list(presentations) == []


async def test_swatches_follow_the_traits_of_their_file(session):
    # a colour derived from surface in the dark layer starts from dark's surface (#1C1C1E)
    dark = "Themes/Base.theme/Chat~dark.xml"
    text = (session.root / dark).read_text()
    dim = '<color name="surfaceDim" ref="surface" darken="0.5"/>'
    text = text.replace("  </constants>", "    " + dim + "\n  </constants>", 1)
    uri = session.open(dark, text)
    colors = await session.client.text_document_document_color_async(
        types.DocumentColorParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    line, content = line_of(text, dim)
    swatch = next(c for c in colors if (c.range.start.line, c.range.start.character) == (line, content.index("<color") + 1))
    # #1C1C1E darkened 0.5 = #0E0E0F (light's #FFFFFF would give #808080)
    assert (round(swatch.color.red * 255), round(swatch.color.green * 255), round(swatch.color.blue * 255)) == (14, 14, 15)
