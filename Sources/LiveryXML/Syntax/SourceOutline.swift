import LiveryModel

/// A range of bytes in a source file, as it is on disk: `start..<end`.
public struct SourceSpan: Hashable, Sendable, Comparable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    public var range: Range<Int> { start..<end }
    public var count: Int { end - start }

    public static func < (lhs: SourceSpan, rhs: SourceSpan) -> Bool {
        (lhs.start, lhs.end) < (rhs.start, rhs.end)
    }
}

/// Where an element is in its file: its whole extent, the start tag, the raw bytes of each
/// attribute value (between the quotes, entities undecoded) and of its content.
public struct SourceElementSpans: Hashable, Sendable {
    /// From `<` to just past the end tag (or past `/>`).
    public var element: SourceSpan
    /// From `<` to just past the start tag's `>`.
    public var startTag: SourceSpan
    /// Between the start tag and the end tag; nil for an empty-element tag (`<color ref="x"/>`).
    public var content: SourceSpan?
    /// Attribute name to the bytes of its value inside the quotes, in source order.
    public var attributes: [(name: String, value: SourceSpan)]
    /// The quote character each attribute uses, by name.
    public var quotes: [String: UInt8]
    /// The white space before the element on its line, when only white space precedes it there.
    public var indentation: String?

    public func attribute(_ name: String) -> SourceSpan? {
        attributes.first { $0.name == name }?.value
    }

    public static func == (lhs: SourceElementSpans, rhs: SourceElementSpans) -> Bool {
        lhs.element == rhs.element && lhs.startTag == rhs.startTag && lhs.content == rhs.content
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(element)
    }
}

/// One typed object written in a configuration file: a constant's value or an operation's param.
public struct SourceValue: Hashable, Sendable {
    public enum Owner: Hashable, Sendable {
        case constant(name: String)
        case instance(id: String, component: String, operation: String, state: ControlState, param: String)
        case `class`(name: String, operation: String, state: ControlState, param: String)
    }

    public var owner: Owner
    /// The typed object's type, named by its element (`color`, `font`, ...).
    public var type: ValueType
    public var spans: SourceElementSpans
    /// The typed object's element.
    public var location: SourceLocation
    /// The element provenance names: the `<operation>` for a param, the constant's own element.
    public var ownerLocation: SourceLocation
    /// Whether it is written as a `ref` to a constant.
    public var isReference: Bool {
        spans.attribute("ref") != nil
    }
}

/// A container element a new override can go into: an instance, or a section of the file.
public struct SourceContainer: Hashable, Sendable {
    public var name: String
    /// The instance id, for instances.
    public var id: String?
    public var spans: SourceElementSpans
    public var location: SourceLocation
}

/// The byte-exact outline of one configuration file: every typed object with the spans of its
/// attribute values and content, the instances and sections with theirs. What lossless
/// write-back works from: an edit replaces exactly one span and leaves every other byte as it is.
public struct SourceOutline: Sendable {
    public var path: String
    public var bytes: [UInt8]
    public var values: [SourceValue]
    public var instances: [SourceContainer]
    /// `constants`, `classes`, `instances` sections present, and the root `theme` element.
    public var sections: [String: SourceContainer]
    /// The file's line ending: "\r\n" when its first line break is one, else "\n".
    public var newline: String
    /// The indentation one level adds, guessed from the file (two spaces when it cannot tell).
    public var indentUnit: String

    /// Parses `bytes` (a configuration file whose path is `path`) and outlines it. Nil with
    /// diagnostics when the XML does not parse.
    public static func make(path: String, bytes: [UInt8]) -> Checked<SourceOutline> {
        let source = SourceText(path: path, bytes: bytes)
        let (document, diagnostics) = XMLDocumentParser.parse(source)
        guard let document, !diagnostics.hasErrors else { return Checked(value: nil, diagnostics: diagnostics) }
        var builder = OutlineBuilder(source: source)
        builder.walk(document.root)
        let newline = bytes.firstIndex(of: 0x0A).map { $0 > 0 && bytes[$0 - 1] == 0x0D ? "\r\n" : "\n" } ?? "\n"
        let outline = SourceOutline(
            path: path, bytes: bytes, values: builder.values, instances: builder.instances,
            sections: builder.sections, newline: newline, indentUnit: builder.indentUnit())
        return Checked(value: outline, diagnostics: diagnostics)
    }
}

private struct OutlineBuilder {
    let source: SourceText
    var values: [SourceValue] = []
    var instances: [SourceContainer] = []
    var sections: [String: SourceContainer] = [:]
    var indents: [String] = []

    init(source: SourceText) { self.source = source }

    func spans(_ element: XMLElement) -> SourceElementSpans {
        RawXMLScanner(bytes: source.bytes).spans(ofElementAt: element.offset)
    }

    func container(_ element: XMLElement, id: String? = nil) -> SourceContainer {
        SourceContainer(name: element.name, id: id, spans: spans(element), location: source.location(of: element))
    }

    mutating func walk(_ root: XMLElement) {
        guard root.name == "theme" else { return }
        sections["theme"] = container(root)
        for section in root.children {
            guard sections[section.name] == nil else { continue }
            let outlined = container(section)
            if let indent = outlined.spans.indentation { indents.append(indent) }
            sections[section.name] = outlined
            switch section.name {
            case "constants":
                for constant in section.children {
                    guard let name = constant.attribute("name") else { continue }
                    value(constant, owner: .constant(name: name), ownerLocation: source.location(of: constant))
                }
            case "classes":
                for definition in section.children where definition.name == "class" {
                    guard let name = definition.attribute("name") else { continue }
                    operations(in: definition) { .class(name: name, operation: $0, state: $1, param: $2) }
                }
            case "instances":
                for instance in section.children {
                    guard let id = instance.attribute("id") else { continue }
                    instances.append(container(instance, id: id))
                    let component = instance.name
                    operations(in: instance) {
                        .instance(id: id, component: component, operation: $0, state: $1, param: $2)
                    }
                }
            default: continue
            }
        }
    }

    mutating func operations(in element: XMLElement, owner: (String, ControlState, String) -> SourceValue.Owner) {
        for operation in element.children where operation.name == "operation" {
            guard let name = operation.attribute("name") else { continue }
            let state = operation.attribute("state").map(ControlState.init(rawValue:)) ?? .normal
            let location = source.location(of: operation)
            for param in operation.children where param.name == "param" {
                guard let paramName = param.attribute("name"), let object = param.children.first else { continue }
                value(object, owner: owner(name, state, paramName), ownerLocation: location)
            }
        }
    }

    /// An element that is no typed object is left out: there is no value to edit.
    mutating func value(_ element: XMLElement, owner: SourceValue.Owner, ownerLocation: SourceLocation) {
        guard let type = ValueType(elementName: element.name) else { return }
        values.append(
            SourceValue(
                owner: owner, type: type, spans: spans(element),
                location: source.location(of: element), ownerLocation: ownerLocation))
    }

    /// The smallest step between a section's indentation and its parent's (the root's is usually empty).
    func indentUnit() -> String {
        let unit = indents.filter { !$0.isEmpty }.min { $0.utf8.count < $1.utf8.count }
        return unit ?? "  "
    }
}

/// Reads element boundaries straight from the bytes of a file that has parsed as XML: the tree
/// keeps where each element starts, this finds where its parts are. Comments, CDATA sections,
/// processing instructions and quoted `>` are skipped (`MarkupTokens`).
struct RawXMLScanner {
    let bytes: [UInt8]

    func spans(ofElementAt offset: Int) -> SourceElementSpans {
        var attributes: [(name: String, value: SourceSpan)] = []
        var quotes: [String: UInt8] = [:]
        // The name, then `name = "value"` pairs up to `>` or `/>`.
        var index = offset + 1
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"),
            bytes[index] != UInt8(ascii: "/")
        {
            index += 1
        }
        var selfClosing = false
        while index < bytes.count {
            let byte = bytes[index]
            if isSpace(byte) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: ">") {
                index += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                selfClosing = true
                index += 1
                continue
            }
            let nameStart = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "=") { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "'") {
                index += 1
            }
            guard index < bytes.count else { break }
            let quote = bytes[index]
            let valueStart = index + 1
            index = valueStart
            while index < bytes.count, bytes[index] != quote { index += 1 }
            attributes.append((name, SourceSpan(start: valueStart, end: index)))
            quotes[name] = quote
            index += 1
        }
        let startTag = SourceSpan(start: offset, end: index)
        var content: SourceSpan?
        var end = index
        if !selfClosing {
            let contentEnd = endTagStart(from: index)
            content = SourceSpan(start: index, end: contentEnd)
            end = contentEnd
            while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
            end = min(end + 1, bytes.count)
        }
        return SourceElementSpans(
            element: SourceSpan(start: offset, end: end), startTag: startTag, content: content,
            attributes: attributes, quotes: quotes, indentation: indentation(before: offset))
    }

    /// The offset of the `</` that closes the element whose content starts at `start`.
    func endTagStart(from start: Int) -> Int {
        var depth = 0
        for token in MarkupTokens(bytes, from: start) {
            switch token.kind {
            case .endTag:
                if depth == 0 { return token.range.lowerBound }
                depth -= 1
            case .startTag(_, let selfClosing) where !selfClosing:
                depth += 1
            default:
                break
            }
        }
        return bytes.count
    }

    private func indentation(before offset: Int) -> String? {
        var index = offset
        while index > 0, bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { index -= 1 }
        guard index == 0 || bytes[index - 1] == 0x0A else { return nil }
        return String(decoding: bytes[index..<offset], as: UTF8.self)
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
