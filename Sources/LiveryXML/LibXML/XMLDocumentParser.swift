internal import CLibXML2
import LiveryModel

/// Turns the bytes of one XML file into an `XMLElement` tree with byte offsets, through
/// libxml2's SAX2 interface (the fastest way in from Swift, and the one that knows positions).
///
/// Safety: no DTD is ever processed (a DOCTYPE stops the parser), no entity beyond the predefined
/// ones exists, no network is used, and libxml2 never prints: its errors come back as diagnostics.
/// Only UTF-8 is accepted, so byte offsets always refer to the file as it is on disk.
enum XMLDocumentParser {
    static func parse(_ source: SourceText) -> (document: XMLDocument?, diagnostics: [Diagnostic]) {
        if let problem = encodingProblem(in: source.bytes) {
            return (nil, [.error(.xmlEncoding, problem, at: source.location(at: 0))])
        }
        guard !source.bytes.isEmpty else {
            return (nil, [.error(.xmlSyntax, "the file is empty; expected an XML document", at: source.location(at: 0))])
        }
        let builder = TreeBuilder(source: source)
        let parsed: Bool = source.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                guard let context = xmlCreateMemoryParserCtxt(characters.baseAddress, Int32(characters.count)) else {
                    return false
                }
                defer { xmlFreeParserCtxt(context) }
                builder.context = context
                defer { builder.context = nil }
                // Copy our handler into the one the context owns (libxml2 frees it with the context).
                context.pointee.sax.pointee = TreeBuilder.makeHandler()
                context.pointee.userData = Unmanaged.passUnretained(builder).toOpaque()
                xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
                    | XML_PARSE_NOWARNING.rawValue))
                xmlParseDocument(context)
                return context.pointee.wellFormed != 0
            }
        }
        guard parsed, !builder.stopped, let root = builder.root else {
            var diagnostics = builder.diagnostics
            if !diagnostics.hasErrors {
                diagnostics.append(.error(.xmlSyntax, "the file is not a well-formed XML document", at: source.location(at: 0)))
            }
            return (nil, diagnostics)
        }
        return (XMLDocument(root: root, source: source), builder.diagnostics)
    }

    /// Theme files must be UTF-8: a UTF-16 byte order mark, UTF-16 text without one, or an XML
    /// declaration naming another encoding is refused before libxml2 would convert anything.
    static func encodingProblem(in bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return "the file is UTF-16; theme files must be UTF-8"
        }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 {
            return "the file looks like UTF-16 or UTF-32 (it has NUL bytes); theme files must be UTF-8"
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard body.starts(with: Array("<?xml".utf8)) else { return nil }
        let declaration = String(decoding: body.prefix { $0 != UInt8(ascii: ">") }, as: UTF8.self)
        guard let range = declaration.firstRange(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let name = rest.dropFirst().prefix { $0 != quote }
        let normalized = name.lowercased()
        guard normalized == "utf-8" || normalized == "utf8" else {
            return "the XML declaration says encoding=\"\(name)\"; theme files must be UTF-8"
        }
        return nil
    }
}

/// Receives libxml2's SAX callbacks and builds the tree. One per parse; not shared across threads.
private final class TreeBuilder {
    let source: SourceText
    var context: xmlParserCtxtPtr?
    var diagnostics: [Diagnostic] = []
    var root: XMLElement?
    var stopped = false
    /// Elements opened and not yet closed, innermost last.
    private var open: [XMLElement] = []
    private var text: [UInt8] = []

    init(source: SourceText) {
        self.source = source
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> TreeBuilder {
        Unmanaged<TreeBuilder>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// The byte offset libxml2 has reached.
    var consumed: Int { context.map { Int(xmlByteConsumed($0)) } ?? 0 }

    func stop(_ diagnostic: Diagnostic) {
        guard !stopped else { return }
        stopped = true
        diagnostics.append(diagnostic)
        if let context { xmlStopParser(context) }
    }

    func startElement(name: String, attributes: [XMLAttribute]) {
        flushText()
        // libxml2 calls back with the input at the end of the start tag; an attribute value cannot
        // hold a literal '<', so the nearest '<' before it opens this element.
        var offset = min(consumed, source.bytes.count - 1)
        while offset > 0, source.bytes[offset] != UInt8(ascii: "<") { offset -= 1 }
        open.append(XMLElement(name: name, attributes: attributes, children: [], text: "", offset: offset))
    }

    func endElement() {
        flushText()
        guard let element = open.popLast() else { return }
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(element)
        }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !open.isEmpty else { return }
        text.append(contentsOf: bytes)
    }

    private func flushText() {
        guard !text.isEmpty, !open.isEmpty else { return text.removeAll(keepingCapacity: true) }
        open[open.count - 1].text += String(decoding: text, as: UTF8.self)
        text.removeAll(keepingCapacity: true)
    }

    func libxmlError(_ error: xmlError) {
        let message = error.message.map { String(cString: $0) }?
            .trimmingCharacters(in: " \n") ?? "malformed XML"
        let line = Int(error.line)
        let column = Int(error.int2)
        let location = line > 0
            ? SourceLocation(file: source.path, line: line, column: column > 0 ? column : nil)
            : source.fileLocation
        let severity: Severity = error.level == XML_ERR_WARNING ? .warning : .error
        let diagnostic = Diagnostic(severity, .xmlSyntax, message, at: location)
        if !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
    }

    static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, prefix, _, _, _, attributeCount, _, attributes in
            let builder = TreeBuilder.from(context)
            var list: [XMLAttribute] = []
            list.reserveCapacity(Int(attributeCount))
            if let attributes {
                // five pointers per attribute: local name, prefix, URI, value start, value end
                for index in 0..<Int(attributeCount) {
                    let base = index * 5
                    guard let name = attributes[base], let start = attributes[base + 3],
                          let end = attributes[base + 4] else { continue }
                    let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                    list.append(XMLAttribute(name: qualifiedName(name, attributes[base + 1]), value: value))
                }
            }
            builder.startElement(name: qualifiedName(localName!, prefix), attributes: list)
        }
        handler.endElementNs = { context, _, _, _ in
            TreeBuilder.from(context).endElement()
        }
        handler.characters = { context, characters, length in
            guard let characters else { return }
            TreeBuilder.from(context).characters(UnsafeBufferPointer(start: characters, count: Int(length)))
        }
        handler.cdataBlock = handler.characters
        // Any DOCTYPE is refused outright: that closes billion laughs, quadratic blow-up and
        // external entities before a single declaration is read.
        handler.internalSubset = { context, _, _, _ in
            let builder = TreeBuilder.from(context)
            builder.stop(.error(.xmlDoctype, "DOCTYPE declarations are not allowed in theme files; remove it",
                                at: builder.source.location(at: builder.doctypeOffset())))
        }
        handler.serror = { context, error in
            guard let context, let error else { return }
            TreeBuilder.from(context).libxmlError(error.pointee)
        }
        return handler
    }

    /// The offset of `<!DOCTYPE`, for a precise location.
    func doctypeOffset() -> Int {
        let marker = Array("<!DOCTYPE".utf8)
        guard source.bytes.count >= marker.count else { return 0 }
        for index in 0...(source.bytes.count - marker.count) where source.bytes[index] == marker[0] {
            if source.bytes[index..<(index + marker.count)].elementsEqual(marker) { return index }
        }
        return 0
    }
}

private func qualifiedName(_ local: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?) -> String {
    let name = String(cString: local)
    guard let prefix else { return name }
    return String(cString: prefix) + ":" + name
}

extension String {
    /// Drops the given characters from both ends (Foundation-free).
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        let start = firstIndex { !characters.contains($0) } ?? endIndex
        let end = lastIndex { !characters.contains($0) }.map { index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}
