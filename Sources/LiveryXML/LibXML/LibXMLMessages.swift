internal import CLibXML2
import LiveryModel

/// libxml2's error messages in the project's voice: what is wrong in the designer's terms and
/// the fix (`xmlParseEntityRef: no name` becomes "write & as &amp;"). Messages not known here
/// keep libxml2's text.
enum LibXMLMessages {
    static func translate(_ error: xmlError, message: String, source: SourceText) -> (String, [Diagnostic.Note]) {
        let first = error.str1.map { String(cString: $0) }
        let second = error.str2.map { String(cString: $0) }
        let code = xmlParserErrors(rawValue: UInt32(error.code))
        switch code {
        case XML_ERR_NAME_REQUIRED where message.contains("EntityRef"),
            XML_ERR_ENTITYREF_SEMICOL_MISSING:
            return ("'&' starts an entity reference here; to write an ampersand, write &amp;", [])
        case XML_ERR_NAME_REQUIRED where message.hasPrefix("StartTag"):
            return (
                "'<' starts a tag here, but no element name follows; to write a less-than sign in text, write &lt;", []
            )
        case XML_ERR_NAME_REQUIRED where message.contains("attribute name"):
            return (
                "this tag is not written right: after the element's name come attributes (name=\"value\"), then '>' or '/>'; close the tag, or remove the stray character",
                []
            )
        case XML_ERR_SPACE_REQUIRED:
            return ("attributes must be separated by a space, e.g. name=\"title\" class=\"caption\"", [])
        case XML_ERR_HYPHEN_IN_COMMENT:
            return ("a comment cannot hold '--'; write a single '-' or another dash", [])
        case XML_ERR_COMMENT_NOT_FINISHED:
            return ("a comment opened with <!-- is not closed; end it with -->", [])
        case XML_ERR_RESERVED_XML_NAME where message.contains("PI name"):
            return ("a processing instruction cannot be named 'xml' (in any case); remove it", [])
        case XML_ERR_RESERVED_XML_NAME:
            return (
                "the <?xml ...?> declaration must be the very first thing in the file; remove what comes before it (spaces, a line, a comment)",
                []
            )
        case XML_ERR_INVALID_CHAR where message.contains("UTF-8"):
            return ("the file is not UTF-8 here; save it as UTF-8", [])
        case XML_ERR_INVALID_CHAR where message.contains("CharRef"),
            XML_ERR_INVALID_CHARREF:
            return (
                "this character reference names a character XML does not allow (a control character or a surrogate); remove it",
                []
            )
        case XML_ERR_INVALID_CHAR:
            return (
                "the file holds a character XML does not allow (a control character or a surrogate, pasted in unseen perhaps); remove it",
                []
            )
        case XML_ERR_INVALID_HEX_CHARREF:
            return ("a character reference &#x...; takes hexadecimal digits, e.g. &#x2014; for an em dash", [])
        case XML_ERR_INVALID_DEC_CHARREF:
            return ("a character reference &#...; takes decimal digits, e.g. &#8212; for an em dash", [])
        case XML_NS_ERR_UNDEFINED_NAMESPACE:
            return ("the prefix '\(first ?? "?")' is not declared; theme files use plain names, without 'prefix:'", [])
        case XML_ERR_MISPLACED_CDATA_END:
            return ("']]>' cannot appear in text; write ]]&gt;", [])
        case XML_ERR_CDATA_NOT_FINISHED:
            return ("a <![CDATA[ section is not closed; end it with ]]>", [])
        case XML_ERR_PI_NOT_FINISHED:
            return ("a processing instruction (<?\(first ?? "")...) is not closed; end it with ?>", [])
        case XML_ERR_XMLDECL_NOT_FINISHED:
            return ("the XML declaration is not closed; write it as <?xml version=\"1.0\" encoding=\"UTF-8\"?>", [])
        case XML_ERR_UNKNOWN_VERSION, XML_WAR_UNKNOWN_VERSION:
            return ("XML version '\(first ?? "?")' is not supported; write version=\"1.0\"", [])
        default:
            break
        }
        return markupMessage(code, first: first, second: second, line: Int(error.int1), source: source) ?? (message, [])
    }

    /// Messages about tags, attributes and the document's shape; nil for a code not known here.
    private static func markupMessage(
        _ code: xmlParserErrors, first: String?, second: String?, line: Int, source: SourceText
    ) -> (String, [Diagnostic.Note])? {
        switch code {
        case XML_ERR_LTSLASH_REQUIRED:
            return ("an end tag is not written right; write it as </name>", [])
        case XML_ERR_UNDECLARED_ENTITY:
            let name = first.map { "&\($0);" } ?? "this entity"
            return (
                "\(name) is not an entity XML knows; write & as &amp;, or use one of &amp; &lt; &gt; &quot; &apos;", []
            )
        case XML_ERR_LT_IN_ATTRIBUTE:
            return (
                "an attribute value cannot hold '<': write it as &lt;, or, if the value's closing quote is missing, add it",
                []
            )
        case XML_ERR_TAG_NAME_MISMATCH:
            guard let open = first, let close = second else { return nil }
            let opened = source.location(ofStartTag: open, onLine: line)
            return (
                "</\(close)> does not close the open <\(open)>; add </\(open)> before it, or correct the end tag",
                [Diagnostic.Note("<\(open)> is opened here", at: opened)]
            )
        case XML_ERR_TAG_NOT_FINISHED:
            guard let open = first else { return nil }
            let opened = source.location(ofStartTag: open, onLine: line)
            return (
                "the file ends while <\(open)> is still open; add </\(open)>",
                [Diagnostic.Note("<\(open)> is opened here", at: opened)]
            )
        case XML_ERR_DOCUMENT_END:
            return (
                "content after the end of the root element; a file holds one root element, e.g. <theme>...</theme>", []
            )
        case XML_ERR_DOCUMENT_EMPTY:
            return ("expected an element here, e.g. <theme>; the file has no root element", [])
        case XML_ERR_ATTRIBUTE_NOT_STARTED, XML_ERR_ATTRIBUTE_WITHOUT_VALUE:
            return ("an attribute needs a quoted value, e.g. name=\"brand\"", [])
        case XML_ERR_STRING_NOT_CLOSED, XML_ERR_ATTRIBUTE_NOT_FINISHED:
            return ("an attribute value is not closed; add the closing quote", [])
        case XML_ERR_ATTRIBUTE_REDEFINED:
            return ("attribute '\(first ?? "?")' is given twice on one element; keep one", [])
        case XML_ERR_GT_REQUIRED:
            return ("a tag is not closed; end it with '>' (or '/>' for an empty element)", [])
        default:
            return nil
        }
    }

    /// HTML's named characters a designer pastes (`&nbsp;`), which XML does not know, by name:
    /// the character reference to write instead.
    static let htmlEntities: [String: Int] = [
        "nbsp": 160, "copy": 169, "reg": 174, "trade": 8482, "mdash": 8212, "ndash": 8211, "hellip": 8230,
        "lsquo": 8216, "rsquo": 8217, "ldquo": 8220, "rdquo": 8221, "bull": 8226, "middot": 183, "euro": 8364,
        "times": 215, "deg": 176,
    ]

    /// A message and a text fix for the errors whose cause shows on the line libxml2 reports:
    /// an HTML entity, an end tag an editor doubled, an attribute value without quotes or in
    /// typographic quotes. Nil when the line shows no such cause.
    /// `from` is the 1-based column to look for the replaced text from.
    static func fix(_ error: xmlError, line: String) -> (message: String, fix: Diagnostic.Fix, from: Int)? {
        let first = error.str1.map { String(cString: $0) }
        let second = error.str2.map { String(cString: $0) }
        let code = xmlParserErrors(rawValue: UInt32(error.code))
        switch code {
        case XML_ERR_UNDECLARED_ENTITY:
            guard let name = first, let code = htmlEntities[name] else { return nil }
            return (
                "&\(name); is an HTML entity, which XML does not know; write the character, or &#\(code);",
                Diagnostic.Fix(replacing: "&\(name);", with: "&#\(code);"), 1
            )
        case XML_ERR_TAG_NAME_MISMATCH:
            guard let close = second else { return nil }
            let end = "</\(close)>"
            guard let doubled = line.firstMatch(of: try! Regex(escapedForRegex(end) + "[ \\t]*" + escapedForRegex(end)))
            else { return nil }
            // The second end tag, removed: located at it, so the fix finds it there.
            let second = line[doubled.range].ranges(of: end).last!.lowerBound
            return (
                "a second \(end) closes nothing (an editor may have added it when the first was typed); remove it",
                Diagnostic.Fix(replacing: end, with: ""), line.distance(from: line.startIndex, to: second) + 1
            )
        case XML_ERR_ATTRIBUTE_NOT_STARTED, XML_ERR_ATTRIBUTE_WITHOUT_VALUE:
            if let quoted = line.firstMatch(
                of: try! Regex(
                    "=([\u{201C}\u{201D}\u{2018}\u{2019}\u{201E}])([^\u{201C}\u{201D}\u{2018}\u{2019}\"'<>]*)[\u{201C}\u{201D}\u{2018}\u{2019}]"
                )),
                let value = quoted.output[2].substring
            {
                let written = String(line[quoted.range].dropFirst())
                return (
                    "an attribute value is quoted with typographic quotes (\(written.prefix(1))...\(written.suffix(1))), which XML does not read as quotes; write \"\(value)\"",
                    Diagnostic.Fix(replacing: written, with: "\"\(value)\""), 1
                )
            }
            if let bare = line.firstMatch(of: try! Regex("[ \t]([A-Za-z][A-Za-z0-9-]*)=([^\"' \t/>]+)")),
                let name = bare.output[1].substring, let value = bare.output[2].substring
            {
                return (
                    "an attribute value needs quotes: write \(name)=\"\(value)\"",
                    Diagnostic.Fix(replacing: "\(name)=\(value)", with: "\(name)=\"\(value)\""), 1
                )
            }
            return nil
        default:
            return nil
        }
    }

    /// `text` with the regular-expression metacharacters it holds escaped.
    private static func escapedForRegex(_ text: String) -> String {
        text.map { "\\^$.|?*+()[]{}/".contains($0) ? "\\" + String($0) : String($0) }.joined()
    }
}
