internal import CLibXML2
import LiveryModel

/// Turns the bytes of one XML file into an `XMLElement` tree with byte offsets, through
/// libxml2's SAX2 interface (the fastest way in from Swift, and the one that knows positions).
///
/// Safety: no DTD is ever processed (a DOCTYPE stops the parser), no entity beyond the predefined
/// ones exists, no network is used, and libxml2 never prints: its errors come back as diagnostics.
/// Only UTF-8 is accepted, so byte offsets always refer to the file as it is on disk.
///
/// Limits: element depth, name and attribute lengths, attribute counts and text sizes are checked
/// in the SAX callbacks as libxml2 reports each element, and the first one exceeded stops the
/// parser with a located `limit-exceeded` error, so a hostile file costs at most one pass over
/// its bytes and memory in proportion to what was read before the stop.
enum XMLDocumentParser {
    static func parse(_ source: SourceText, limits: FrontEndLimits = .default) -> (
        document: XMLDocument?, diagnostics: [Diagnostic]
    ) {
        if let problem = encodingProblem(in: source.bytes) {
            return (nil, [.error(.xmlEncoding, problem, at: source.location(at: 0))])
        }
        guard !source.bytes.isEmpty else {
            return (
                nil, [.error(.xmlSyntax, "the file is empty; expected an XML document", at: source.location(at: 0))]
            )
        }
        guard source.bytes.count < Int(Int32.max) else {
            return (nil, [.error(.limitExceeded, "the file is larger than 2 GiB", at: source.fileLocation)])
        }
        // Any DOCTYPE is refused before libxml2 sees the file. The SAX handler below refuses it
        // too, but libxml2 stops calling SAX after an earlier fatal error (a broken XML
        // declaration, say) and then still parses the internal subset into a document of its own:
        // found by fuzzing (Tests/Fixtures/Regressions/FuzzXML).
        if let offset = firstDoctype(in: source.bytes) {
            return (
                nil,
                [
                    .error(
                        .xmlDoctype, "DOCTYPE declarations are not allowed in theme files; remove it",
                        at: source.location(at: offset))
                ]
            )
        }
        // libxml2 2.9 checks each attribute of a start tag against all earlier ones (quadratic):
        // an element with too many attributes is refused before libxml2 sees it.
        if let (offset, count) = crowdedStartTag(in: source.bytes, limit: limits.maxAttributesPerElement) {
            return (
                nil,
                [
                    .error(
                        .limitExceeded,
                        "an element with \(count) or more attributes; at most \(limits.maxAttributesPerElement) are allowed",
                        at: source.location(at: offset))
                ]
            )
        }
        var builder: TreeBuilder?
        let parsed: Bool = source.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                guard let context = xmlCreateMemoryParserCtxt(characters.baseAddress, Int32(characters.count)) else {
                    return false
                }
                defer { xmlFreeParserCtxt(context) }
                let receiver = TreeBuilder(source: source, context: context, limits: limits)
                builder = receiver
                // Copy our handler into the one the context owns (libxml2 frees it with the context).
                context.pointee.sax.pointee = TreeBuilder.makeHandler()
                context.pointee.userData = Unmanaged.passUnretained(receiver).toOpaque()
                xmlCtxtUseOptions(
                    context,
                    Int32(
                        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
                            | XML_PARSE_NOWARNING.rawValue))
                xmlParseDocument(context)
                // libxml2 may have built a document of its own (for entity declarations, "expat
                // compatibility"); the context does not free it.
                if let document = context.pointee.myDoc {
                    xmlFreeDoc(document)
                    context.pointee.myDoc = nil
                }
                return context.pointee.wellFormed != 0
            }
        }
        guard let builder else {
            return (nil, [.error(.xmlSyntax, "libxml2 could not start parsing the file", at: source.location(at: 0))])
        }
        guard parsed, !builder.stopped, let root = builder.root else {
            var diagnostics = builder.diagnostics
            if !diagnostics.hasErrors {
                diagnostics.append(
                    .error(.xmlSyntax, "the file is not a well-formed XML document", at: source.location(at: 0)))
            }
            return (nil, diagnostics)
        }
        return (XMLDocument(root: root, source: source), builder.diagnostics)
    }
}

/// The tree under construction. A struct mutated through one property of the builder, so each
/// SAX callback pays one exclusivity check rather than one per array it touches.
private struct TreeParts {
    var names: [String] = []
    var nodes: [XMLTree.Node] = []
    var attributes: [XMLTree.Attribute] = []
    var childSlots: [Int32] = []
    var bytes: [UInt8] = []
    /// Elements opened and not yet closed, innermost last, with where their children start in
    /// `pendingChildren`.
    var open: [(node: Int32, firstPendingChild: Int)] = []
    var pendingChildren: [Int32] = []
    /// The text so far of each open element, by depth (buffers are reused).
    var texts: [[UInt8]] = []
    /// libxml2 interns names in its dictionary: one pointer per distinct name.
    var nameNumbers: [UnsafePointer<xmlChar>: Int32] = [:]
    var root: Int32?

    mutating func number(_ local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) -> Int32 {
        if prefix == nil, let known = nameNumbers[local] { return known }
        let number = Int32(names.count)
        names.append(qualifiedName(local, prefix))
        if prefix == nil { nameNumbers[local] = number }
        return number
    }

    mutating func startElement(name: Int32, offset: Int) {
        let index = Int32(nodes.count)
        nodes.append(
            XMLTree.Node(name: name, offset: Int32(offset), firstAttribute: Int32(attributes.count), attributeCount: 0))
        open.append((index, pendingChildren.count))
        if texts.count < open.count { texts.append([]) }
    }

    /// libxml2, not substituting entities, hands an attribute's `&` (written `&amp;`, `&#38;` or
    /// `&#x26;`) over as the five bytes `&#38;`; a bare `&` cannot reach here, so each `&#38;`
    /// read left to right is one `&`.
    mutating func addAttribute(name: Int32, value: UnsafeBufferPointer<xmlChar>) {
        let start = bytes.count
        let ampersand = UInt8(ascii: "&"), escaped = Array("&#38;".utf8)
        if value.contains(ampersand) {
            var index = 0
            while index < value.count {
                let isEscaped =
                    value[index] == ampersand && value.count - index >= escaped.count
                    && value[index..<(index + escaped.count)].elementsEqual(escaped)
                bytes.append(value[index])
                index += isEscaped ? escaped.count : 1
            }
        } else {
            bytes.append(contentsOf: value)
        }
        attributes.append(
            XMLTree.Attribute(name: name, valueStart: Int32(start), valueLength: Int32(bytes.count - start)))
        nodes[nodes.count - 1].attributeCount += 1
    }

    mutating func endElement() {
        guard let (index, firstPendingChild) = open.popLast() else { return }
        let depth = open.count
        nodes[Int(index)].firstChild = Int32(childSlots.count)
        nodes[Int(index)].childCount = Int32(pendingChildren.count - firstPendingChild)
        childSlots.append(contentsOf: pendingChildren[firstPendingChild...])
        pendingChildren.removeSubrange(firstPendingChild...)
        nodes[Int(index)].textStart = Int32(bytes.count)
        nodes[Int(index)].textLength = Int32(texts[depth].count)
        bytes.append(contentsOf: texts[depth])
        texts[depth].removeAll(keepingCapacity: true)
        if open.isEmpty { root = index } else { pendingChildren.append(index) }
    }

    mutating func characters(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard let current = open.last else { return }
        // White space between child elements is layout, not content: it is dropped here so
        // containers do not accumulate it. Text before any child is kept exactly (a <string>
        // value may be all spaces); non-blank text anywhere is kept so it can be reported.
        let hasChildren = pendingChildren.count > current.firstPendingChild
        guard !hasChildren || !chunk.allSatisfy(ASCII.isBlank) else { return }
        texts[open.count - 1].append(contentsOf: chunk)
    }

    func tree() -> (XMLTree, Int32)? {
        guard let root else { return nil }
        return (XMLTree(names: names, nodes: nodes, attributes: attributes, childSlots: childSlots, bytes: bytes), root)
    }
}

/// Receives libxml2's SAX callbacks and builds the tree. One per parse; not shared across threads.
private final class TreeBuilder {
    let source: SourceText
    let context: xmlParserCtxtPtr
    let limits: FrontEndLimits
    var parts = TreeParts()
    var diagnostics: [Diagnostic] = []
    /// libxml2's messages already reported: it repeats some, and a few kilobytes of broken XML can
    /// make it report thousands (a linear search per message made that quadratic).
    private var reported: Set<Diagnostic> = []
    var stopped = false

    init(source: SourceText, context: xmlParserCtxtPtr, limits: FrontEndLimits) {
        self.source = source
        self.context = context
        self.limits = limits
    }

    /// Stops the parser with a `limit-exceeded` error at `offset`.
    func exceeded(_ message: String, at offset: Int) {
        stop(.error(.limitExceeded, message, at: source.location(at: offset)))
    }

    /// Checks an element as libxml2 reports its start tag; false when it stopped the parser.
    func admit(
        _ localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, offset: Int
    ) -> Bool {
        if parts.open.count >= limits.maxElementDepth {
            exceeded("elements nest more than \(limits.maxElementDepth) deep; a theme needs far fewer", at: offset)
            return false
        }
        let nameLength = Int(xmlStrlen(localName)) + (prefix.map { Int(xmlStrlen($0)) + 1 } ?? 0)
        if nameLength > limits.maxNameBytes {
            exceeded(
                "an element name of \(nameLength) bytes; names are at most \(limits.maxNameBytes) bytes", at: offset)
            return false
        }
        if attributeCount > limits.maxAttributesPerElement {
            exceeded(
                "an element with \(attributeCount) attributes; at most \(limits.maxAttributesPerElement) are allowed",
                at: offset)
            return false
        }
        guard let attributes else { return true }
        for index in 0..<attributeCount {
            let base = index * 5
            guard let name = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4] else {
                continue
            }
            let length = Int(xmlStrlen(name)) + (attributes[base + 1].map { Int(xmlStrlen($0)) + 1 } ?? 0)
            if length > limits.maxNameBytes {
                exceeded(
                    "an attribute name of \(length) bytes; names are at most \(limits.maxNameBytes) bytes", at: offset)
                return false
            }
            if end - start > limits.maxAttributeValueBytes {
                let name = String(cString: name)
                exceeded(
                    "attribute '\(name.prefix(40))' has a value of \(end - start) bytes; at most \(limits.maxAttributeValueBytes) are allowed",
                    at: offset)
                return false
            }
        }
        return true
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> TreeBuilder {
        Unmanaged<TreeBuilder>.fromOpaque(pointer!).takeUnretainedValue()
    }

    var root: XMLElement? {
        parts.tree().map { XMLElement(tree: $0.0, index: $0.1) }
    }

    func stop(_ diagnostic: Diagnostic) {
        guard !stopped else { return }
        stopped = true
        diagnostics.append(diagnostic)
        xmlStopParser(context)
    }

    /// Where the element whose start tag libxml2 has just read begins. The input is at the end
    /// of the start tag, and an attribute value cannot hold a literal '<', so the nearest '<'
    /// before it opens the element.
    func startOffset() -> Int {
        var offset = min(Int(xmlByteConsumed(context)), source.bytes.count - 1)
        while offset > 0, source.bytes[offset] != UInt8(ascii: "<") { offset -= 1 }
        return offset
    }

    func libxmlError(_ error: xmlError) {
        // One line per diagnostic: libxml2 splits some messages ("...indicate encoding !\nBytes: ...").
        let message =
            error.message.map { String(cString: $0) }?
            .trimmingCharacters(in: " \n").split(whereSeparator: \.isNewline).joined(separator: " ") ?? "malformed XML"
        let line = Int(error.line)
        let column = Int(error.int2)
        let location =
            line > 0
            ? SourceLocation(file: source.path, line: line, column: column > 0 ? column : nil)
            : source.fileLocation
        let severity: Severity = error.level == XML_ERR_WARNING ? .warning : .error
        // After the first error libxml2 goes on reporting what follows from it (each element
        // still open, each end tag after it): the first is the cause, the rest is noise.
        guard severity == .warning || !diagnostics.hasErrors else { return }
        let (plain, notes) = LibXMLMessages.translate(error, message: message, source: source)
        var diagnostic = Diagnostic(severity, .xmlSyntax, plain, at: location, notes: notes)
        // A cause the line shows (an HTML entity, a doubled end tag, unquoted values): said, with
        // the fix, located where the fix applies.
        if line > 0, let text = source.text(ofLine: line),
            let (message, fix, from) = LibXMLMessages.fix(error, line: text),
            let span = fix.edits[0].span(
                from: SourceLocation(file: source.path, line: 1, column: from),
                lines: { $0 == 1 ? Substring(text) : nil })
        {
            diagnostic = Diagnostic(
                severity, .xmlSyntax, message,
                at: SourceLocation(file: source.path, line: line, column: span.start.column),
                fix: fix)
        }
        // A nested or unclosed comment: located at the <!-- to fix, not where libxml2 noticed.
        if error.code == Int32(XML_ERR_HYPHEN_IN_COMMENT.rawValue)
            || error.code == Int32(XML_ERR_COMMENT_NOT_FINISHED.rawValue),
            let problem = CommentCheck.firstProblem(in: source.bytes)
        {
            diagnostic = CommentCheck.diagnostic(problem, in: source)
        }
        guard !stopped, reported.insert(diagnostic).inserted else { return }
        guard reported.count <= limits.maxXMLErrorsPerFile else {
            stop(
                .error(
                    .limitExceeded,
                    "more than \(limits.maxXMLErrorsPerFile) XML errors in this file; the rest is not read",
                    at: location))
            return
        }
        diagnostics.append(diagnostic)
    }

    static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, prefix, _, _, _, attributeCount, _, attributes in
            let builder = TreeBuilder.from(context)
            guard !builder.stopped else { return }
            let offset = builder.startOffset()
            guard
                builder.admit(
                    localName!, prefix: prefix, attributeCount: Int(attributeCount), attributes: attributes,
                    offset: offset)
            else { return }
            builder.parts.startElement(name: builder.parts.number(localName!, prefix: prefix), offset: offset)
            guard let attributes else { return }
            // five pointers per attribute: local name, prefix, URI, value start, value end
            for index in 0..<Int(attributeCount) {
                let base = index * 5
                guard let name = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4]
                else { continue }
                builder.parts.addAttribute(
                    name: builder.parts.number(name, prefix: attributes[base + 1]),
                    value: UnsafeBufferPointer(start: start, count: end - start))
            }
        }
        handler.endElementNs = { context, _, _, _ in
            let builder = TreeBuilder.from(context)
            guard !builder.stopped else { return }
            builder.parts.endElement()
        }
        handler.characters = { context, characters, length in
            guard let characters else { return }
            let builder = TreeBuilder.from(context)
            guard !builder.stopped else { return }
            let chunk = UnsafeBufferPointer(start: characters, count: Int(length))
            if let current = builder.parts.open.last,
                builder.parts.texts[builder.parts.open.count - 1].count + chunk.count > builder.limits.maxTextBytes
            {
                builder.exceeded(
                    "the text in this element is longer than \(builder.limits.maxTextBytes) bytes, the limit for one value",
                    at: Int(builder.parts.nodes[Int(current.node)].offset))
                return
            }
            builder.parts.characters(chunk)
        }
        handler.cdataBlock = handler.characters
        // Any DOCTYPE is refused outright: that closes billion laughs, quadratic blow-up and
        // external entities before a single declaration is read.
        handler.internalSubset = { context, _, _, _ in
            let builder = TreeBuilder.from(context)
            builder.stop(
                .error(
                    .xmlDoctype, "DOCTYPE declarations are not allowed in theme files; remove it",
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
