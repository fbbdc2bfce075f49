internal import CLibXML2
import LiveryModel

/// libxml2's error messages in the project's voice: what is wrong in the designer's terms and
/// the fix (`xmlParseEntityRef: no name` becomes "write & as &amp;"). Messages not known here
/// keep libxml2's text.
enum LibXMLMessages {
    static func translate(_ error: xmlError, message: String, source: SourceText) -> (String, [Diagnostic.Note]) {
        let first = error.str1.map { String(cString: $0) }
        let second = error.str2.map { String(cString: $0) }
        switch xmlParserErrors(rawValue: UInt32(error.code)) {
        case XML_ERR_NAME_REQUIRED where message.contains("EntityRef"),
             XML_ERR_ENTITYREF_SEMICOL_MISSING:
            return ("'&' starts an entity reference here; to write an ampersand, write &amp;", [])
        case XML_ERR_UNDECLARED_ENTITY:
            let name = first.map { "&\($0);" } ?? "this entity"
            return ("\(name) is not an entity XML knows; write & as &amp;, or use one of &amp; &lt; &gt; &quot; &apos;", [])
        case XML_ERR_LT_IN_ATTRIBUTE:
            return ("an attribute value cannot hold '<'; write it as &lt;", [])
        case XML_ERR_TAG_NAME_MISMATCH:
            guard let open = first, let close = second else { break }
            let opened = source.location(ofStartTag: open, onLine: Int(error.int1))
            return ("</\(close)> does not close the open <\(open)>; add </\(open)> before it, or correct the end tag",
                    [Diagnostic.Note("<\(open)> is opened here", at: opened)])
        case XML_ERR_TAG_NOT_FINISHED:
            guard let open = first else { break }
            let opened = source.location(ofStartTag: open, onLine: Int(error.int1))
            return ("the file ends while <\(open)> is still open; add </\(open)>",
                    [Diagnostic.Note("<\(open)> is opened here", at: opened)])
        case XML_ERR_DOCUMENT_END:
            return ("content after the end of the root element; a file holds one root element, e.g. <theme>...</theme>", [])
        case XML_ERR_DOCUMENT_EMPTY:
            return ("expected an element here, e.g. <theme>; the file has no root element", [])
        case XML_ERR_ATTRIBUTE_NOT_STARTED, XML_ERR_ATTRIBUTE_WITHOUT_VALUE:
            return ("an attribute needs a quoted value, e.g. name=\"brand\"", [])
        case XML_ERR_STRING_NOT_CLOSED:
            return ("an attribute value is not closed; add the closing quote", [])
        case XML_ERR_ATTRIBUTE_REDEFINED:
            return ("attribute '\(first ?? "?")' is given twice on one element; keep one", [])
        case XML_ERR_GT_REQUIRED:
            return ("a start tag is not closed; end it with '>' (or '/>' for an empty element)", [])
        default:
            break
        }
        return (message, [])
    }
}
