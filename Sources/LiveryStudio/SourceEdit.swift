import Foundation
import LiveryModel
import LiveryXML

/// One change to one file: the bytes of `span` replaced by `replacement` (an empty span inserts).
/// Every other byte of the file stays as it was.
public struct SourceEdit: Hashable, Sendable {
    public var span: SourceSpan
    public var replacement: [UInt8]

    public init(span: SourceSpan, replacement: [UInt8]) {
        self.span = span
        self.replacement = replacement
    }

    public init(span: SourceSpan, replacement: String) {
        self.init(span: span, replacement: Array(replacement.utf8))
    }

    /// The file after the edit. The span must lie inside `bytes`.
    public func applied(to bytes: [UInt8]) -> [UInt8] {
        precondition(span.start >= 0 && span.start <= span.end && span.end <= bytes.count, "edit span outside the file")
        var result = bytes
        result.replaceSubrange(span.range, with: replacement)
        return result
    }

    /// The edit that undoes this one on the file it produced from `bytes`.
    public func inverse(on bytes: [UInt8]) -> SourceEdit {
        SourceEdit(
            span: SourceSpan(start: span.start, end: span.start + replacement.count),
            replacement: Array(bytes[span.range]))
    }
}

/// Where in a typed object's element a value is written: its content, or one attribute.
public enum ValueSlot: Hashable, Sendable {
    case content
    case attribute(String)

    /// `content`, or the attribute's name: how the page names a slot.
    public var name: String {
        switch self {
        case .content: "content"
        case .attribute(let name): name
        }
    }

    public init(name: String) {
        self = name == "content" ? .content : .attribute(name)
    }
}

/// Why an edit cannot be made; the message says what to do.
public struct StudioEditError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case stale, outsideFolders = "outside-folders", readOnly = "read-only", generated, notFound = "not-found",
            invalid, writeFailed = "write-failed"
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Writing one value back in the notation it was written in.
public enum ValueNotation {
    /// The edit that makes the value in `slot` of `value` read `text`. `text` is what the editor
    /// gives: for a colour's content `#RRGGBB` or `#RRGGBBAA`, converted here to the element's
    /// `format` (hex keeps the original's letter case and length where it can hold the colour;
    /// rgb and rgba get components); for everything else the value as it should read. White
    /// space around a content value is kept, and the new text is escaped for where it goes.
    public static func edit(_ value: SourceValue, slot: ValueSlot, text: String, in bytes: [UInt8]) throws -> SourceEdit
    {
        switch slot {
        case .attribute(let name):
            guard let span = value.spans.attribute(name) else {
                return try addAttribute(name, text: text, to: value.spans, in: bytes)
            }
            let quote = value.spans.quotes[name] ?? UInt8(ascii: "\"")
            return SourceEdit(span: span, replacement: escapeAttribute(text, quote: quote))
        case .content:
            guard let content = value.spans.content else {
                throw StudioEditError(
                    .invalid,
                    "<\(value.type.descriptor.elementName)> at \(value.location) has no content to edit (it is written as a reference)"
                )
            }
            let run = try textRun(of: value, content: content, in: bytes)
            // Keep the white space around the value unless the value is a string (where it is part of it).
            var start = run.start
            var end = run.end
            if !value.type.descriptor.keepsWhiteSpace {
                while start < end, isBlank(bytes[start]) { start += 1 }
                while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            }
            let old = String(decoding: bytes[start..<end], as: UTF8.self)
            var replacement = text
            if value.type.descriptor.content == .text(.color) {
                let format =
                    value.spans.attribute("format").map { String(decoding: bytes[$0.range], as: UTF8.self) } ?? "hex"
                replacement = try colorText(text, format: format, like: old)
            }
            return SourceEdit(span: SourceSpan(start: start, end: end), replacement: escapeContent(replacement))
        }
    }

    /// The bytes of a value's content that hold its text: all of it, or, where comments sit
    /// beside the value (`<float>12 <!-- was 10 --></float>`), its one run of text that is not
    /// blank, so the comments stay as they are. Refused: CDATA or a processing instruction, a
    /// value split in two by a comment, a string with a comment in it (its white space is part
    /// of it, so which part an edit replaces is unclear).
    static func textRun(of value: SourceValue, content: SourceSpan, in bytes: [UInt8]) throws -> SourceSpan {
        guard bytes[content.range].contains(UInt8(ascii: "<")) else { return content }
        func matches(_ text: String, at index: Int) -> Bool {
            let pattern = Array(text.utf8)
            return index + pattern.count <= content.end && Array(bytes[index..<(index + pattern.count)]) == pattern
        }
        var runs: [SourceSpan] = []
        var runStart = content.start
        var at = content.start
        while at < content.end {
            guard bytes[at] == UInt8(ascii: "<") else {
                at += 1
                continue
            }
            guard matches("<!--", at: at),
                let close = stride(from: at + 4, to: content.end, by: 1).first(where: { matches("-->", at: $0) })
            else {
                throw StudioEditError(
                    .invalid,
                    value.type.descriptor.content == .elements
                        ? "<\(value.type.descriptor.elementName)> at \(value.location): the studio does not edit arrays yet; edit it in a text editor"
                        : "<\(value.type.descriptor.elementName)> at \(value.location) holds markup besides comments (an element, CDATA or an instruction); edit it in a text editor"
                )
            }
            runs.append(SourceSpan(start: runStart, end: at))
            at = close + 3
            runStart = at
        }
        runs.append(SourceSpan(start: runStart, end: content.end))
        let texts = runs.filter { bytes[$0.range].contains { !isBlank($0) } }
        guard !value.type.descriptor.keepsWhiteSpace, texts.count == 1 else {
            throw StudioEditError(
                .invalid,
                value.type.descriptor.keepsWhiteSpace
                    ? "<\(value.type.descriptor.elementName)> at \(value.location) has a comment inside its text; edit it in a text editor"
                    : "<\(value.type.descriptor.elementName)> at \(value.location) has its text split by a comment; edit it in a text editor"
            )
        }
        return texts[0]
    }

    /// Inserts ` name="text"` at the end of the start tag (before `>` or `/>`).
    static func addAttribute(_ name: String, text: String, to spans: SourceElementSpans, in bytes: [UInt8]) throws
        -> SourceEdit
    {
        var at = spans.startTag.end - 1
        if at > spans.startTag.start, bytes[at - 1] == UInt8(ascii: "/") { at -= 1 }
        while at > spans.startTag.start, isBlank(bytes[at - 1]) { at -= 1 }
        let quote = spans.quotes.values.first ?? UInt8(ascii: "\"")
        let q = String(decoding: [quote], as: UTF8.self)
        return SourceEdit(
            span: SourceSpan(start: at, end: at),
            replacement: Array(" \(name)=\(q)".utf8) + escapeAttribute(text, quote: quote) + [quote])
    }

    /// A colour given as `#RRGGBB[AA]` in the notation of `format` (`ColorNotation`).
    public static func colorText(_ hex: String, format: String, like old: String) throws -> String {
        guard let text = ColorNotation.text(hex, format: format, like: old) else {
            throw StudioEditError(.invalid, "'\(hex)' is not a colour; give #RRGGBB or #RRGGBBAA")
        }
        return text
    }

    public static func escapeContent(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    public static func escapeAttribute(_ text: String, quote: UInt8) -> [UInt8] {
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: "\"") where quote == byte: out += Array("&quot;".utf8)
            case UInt8(ascii: "'") where quote == byte: out += Array("&apos;".utf8)
            case 0x0A: out += Array("&#10;".utf8)
            case 0x09: out += Array("&#9;".utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}

/// Inserting a new override where there was none: one operation element, indented like its
/// neighbours, in the instance's element; or the instance, or the `<instances>` section, when
/// the file lacks them.
public enum OverrideInsertion {
    /// The typed object's element for a literal value, e.g. `<color format="hex">#FF0000</color>`.
    public static func typedElement(type: ValueType, text: String, attributes: [(String, String)] = []) -> String {
        let descriptor = type.descriptor
        var tag = "<\(descriptor.elementName)"
        if descriptor.content == .text(.color) { tag += " format=\"hex\"" }
        for (name, value) in attributes {
            tag +=
                " \(name)=\""
                + String(decoding: ValueNotation.escapeAttribute(value, quote: UInt8(ascii: "\"")), as: UTF8.self)
                + "\""
        }
        if text.isEmpty && !descriptor.keepsWhiteSpace { return tag + "/>" }
        return tag + ">" + String(decoding: ValueNotation.escapeContent(text), as: UTF8.self)
            + "</\(descriptor.elementName)>"
    }

    public static func operationElement(name: String, state: ControlState, param: String, object: String) -> String {
        let stateAttribute = state == .normal ? "" : " state=\"\(state.rawValue)\""
        return "<operation name=\"\(name)\"\(stateAttribute)><param name=\"\(param)\">\(object)</param></operation>"
    }

    /// The edit that adds `operation` to instance `id` (of type `component`) in the outlined file.
    public static func edit(
        adding operation: String, toInstance id: String, component: String, in outline: SourceOutline
    ) throws -> SourceEdit {
        let newline = outline.newline
        let unit = outline.indentUnit
        if let instance = outline.instances.first(where: { $0.id == id }) {
            guard let content = instance.spans.content else {
                // `<uibutton id="x"/>`: becomes an element with content.
                let tagEnd = instance.spans.startTag.end
                let indent = instance.spans.indentation ?? ""
                let startTag = String(
                    decoding: outline.bytes[instance.spans.startTag.start..<(tagEnd - 2)], as: UTF8.self
                )
                .replacingTrailingBlanks()
                let text = startTag + ">" + newline + indent + unit + operation + newline + indent + "</\(component)>"
                return SourceEdit(span: instance.spans.startTag, replacement: text)
            }
            let indent = (instance.spans.indentation ?? "") + unit
            return insertBeforeEndTag(
                operation, content: content, indent: indent, closingIndent: instance.spans.indentation ?? "",
                outline: outline)
        }
        let instanceIndent = (outline.sections["instances"]?.spans.indentation ?? unit) + unit
        let element =
            "<\(component) id=\"\(id)\">" + newline + instanceIndent + unit + operation + newline + instanceIndent
            + "</\(component)>"
        if let section = outline.sections["instances"], let content = section.spans.content {
            return insertBeforeEndTag(
                element, content: content, indent: instanceIndent, closingIndent: section.spans.indentation ?? "",
                outline: outline)
        }
        guard let root = outline.sections["theme"], let content = root.spans.content else {
            throw StudioEditError(.invalid, "\(outline.path) has no <theme> element to add to")
        }
        let sectionIndent = (root.spans.indentation ?? "") + unit
        let section =
            "<instances>" + newline + sectionIndent + unit
            + element.replacingOccurrences(of: newline, with: newline + unit)
            + newline + sectionIndent + "</instances>"
        return insertBeforeEndTag(
            section, content: content, indent: sectionIndent, closingIndent: root.spans.indentation ?? "",
            outline: outline)
    }

    /// Inserts `text` on a line of its own just before the end tag that closes `content`.
    static func insertBeforeEndTag(
        _ text: String, content: SourceSpan, indent: String, closingIndent: String, outline: SourceOutline
    ) -> SourceEdit {
        let bytes = outline.bytes
        // The end tag's line: insert after the last line break in the content when only white
        // space follows it; otherwise put the end tag on a new line.
        var at = content.end
        while at > content.start, bytes[at - 1] == 0x20 || bytes[at - 1] == 0x09 { at -= 1 }
        if at > content.start, bytes[at - 1] == 0x0A {
            return SourceEdit(span: SourceSpan(start: at, end: at), replacement: indent + text + outline.newline)
        }
        return SourceEdit(
            span: SourceSpan(start: content.end, end: content.end),
            replacement: outline.newline + indent + text + outline.newline + closingIndent)
    }

    /// A new configuration file holding one instance with one operation.
    public static func newFile(adding operation: String, toInstance id: String, component: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <theme>
              <instances>
                <\(component) id="\(id)">
                  \(operation)
                </\(component)>
              </instances>
            </theme>

            """.utf8)
    }
}

extension String {
    func replacingTrailingBlanks() -> String {
        var text = self
        while let last = text.last, last == " " || last == "\t" || last == "\n" || last == "\r" { text.removeLast() }
        return text
    }
}
