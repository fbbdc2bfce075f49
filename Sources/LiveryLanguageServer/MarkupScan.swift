import LiveryXML

/// A forgiving read of XML markup for editor features: start tags with their attributes and
/// offsets, nesting by end tags, comments and CDATA skipped (by LiveryXML's `MarkupTokens`).
/// Unlike the front end's parser it never gives up: a half-typed buffer (an unclosed tag, a quote
/// not yet closed) still yields every element before and after the damage, so completion works
/// at the cursor.
struct MarkupScan {
    struct Attribute: Equatable {
        var name: String
        var nameStart: Int
        /// The value's bytes, inside the quotes; `valueEnd` stops at the closing quote, or at a
        /// `<` or the end of the file when the quote is not closed yet.
        var valueStart: Int
        var valueEnd: Int
        var value: String
        var hasValue: Bool
    }

    struct Element: Equatable {
        var name: String
        /// Offset of `<`.
        var start: Int
        var nameEnd: Int
        /// Offset just past the start tag (`>`), or where a broken tag stops.
        var tagEnd: Int
        var selfClosing: Bool
        /// Whether the start tag ends with `>` (false while it is being typed).
        var closed = false
        var attributes: [Attribute]
        var parent: Int?
        /// The ancestor (or the element itself) whose parent is the root element; nil for the root.
        var top: Int?
        /// Offset of the end tag's `<` (content end); nil while unclosed.
        var contentEnd: Int?

        func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }
    }

    private(set) var bytes: [UInt8]
    private(set) var elements: [Element] = []
    /// Elements whose start tag is still being typed (no `>`), in order.
    private var unclosedTags: [Int] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
        scan()
    }

    private mutating func scan() {
        // an element per `<` at most: room for all of them at once, not by doubling
        elements.reserveCapacity(bytes.withUnsafeBufferPointer { $0.reduce(0) { $0 + ($1 == 0x3C ? 1 : 0) } })
        var stack: [Int] = []
        // comments, CDATA, instructions and declarations are read through by the tokenizer
        for token in MarkupTokens(bytes) {
            switch token.kind {
            case .endTag(let nameRange):
                let name = String(decoding: bytes[nameRange], as: UTF8.self)
                if let open = stack.lastIndex(where: { elements[$0].name == name }) {
                    for element in stack[open...] { elements[element].contentEnd = token.range.lowerBound }
                    stack.removeSubrange(open...)
                }
            case .startTag:
                var element = startTag(at: token.range.lowerBound, parent: stack.last)
                if let parent = element.parent {
                    element.top = elements[parent].top ?? elements.count
                }
                elements.append(element)
                if !element.closed { unclosedTags.append(elements.count - 1) }
                // a tag still being typed (no `>` yet) holds nothing: what follows is its sibling
                if element.closed && !element.selfClosing { stack.append(elements.count - 1) }
            default:
                break
            }
        }
    }

    private func startTag(at offset: Int, parent: Int?) -> Element {
        let count = bytes.count
        var index = offset + 1
        while index < count, Self.isNameByte(bytes[index]) { index += 1 }
        let name = String(decoding: bytes[(offset + 1)..<index], as: UTF8.self)
        var element = Element(
            name: name, start: offset, nameEnd: index, tagEnd: count, selfClosing: false, attributes: [],
            parent: parent)
        while index < count {
            let byte = bytes[index]
            if Self.isSpace(byte) {
                index += 1
            } else if byte == UInt8(ascii: ">") {
                element.tagEnd = index + 1
                element.closed = true
                return element
            } else if byte == UInt8(ascii: "/"), index + 1 < count, bytes[index + 1] == UInt8(ascii: ">") {
                element.selfClosing = true
                element.closed = true
                element.tagEnd = index + 2
                return element
            } else if byte == UInt8(ascii: "<") {
                element.tagEnd = index
                return element
            } else if Self.isNameByte(byte) {
                let nameStart = index
                while index < count, Self.isNameByte(bytes[index]) { index += 1 }
                var attribute = Attribute(
                    name: String(decoding: bytes[nameStart..<index], as: UTF8.self), nameStart: nameStart,
                    valueStart: index, valueEnd: index, value: "", hasValue: false)
                var look = index
                while look < count, Self.isSpace(bytes[look]) { look += 1 }
                if look < count, bytes[look] == UInt8(ascii: "=") {
                    look += 1
                    while look < count, Self.isSpace(bytes[look]) { look += 1 }
                    if look < count, bytes[look] == UInt8(ascii: "\"") || bytes[look] == UInt8(ascii: "'") {
                        let quote = bytes[look]
                        var end = look + 1
                        while end < count, bytes[end] != quote, bytes[end] != UInt8(ascii: "<") { end += 1 }
                        attribute.valueStart = look + 1
                        attribute.valueEnd = end
                        attribute.value = String(decoding: bytes[(look + 1)..<end], as: UTF8.self)
                        attribute.hasValue = true
                        index = end < count && bytes[end] == quote ? end + 1 : end
                    } else {
                        index = look
                    }
                }
                element.attributes.append(attribute)
            } else {
                index += 1
            }
        }
        element.tagEnd = count
        return element
    }

    // MARK: - Edits

    /// What an edit changed: the bytes from `start` to `oldEnd` became those from `start` to
    /// `newEnd` (the longest common prefix and suffix of the two texts stand around it).
    struct Change: Equatable {
        var start: Int
        var oldEnd: Int
        var newEnd: Int
        var delta: Int { newEnd - oldEnd }

        init(from old: [UInt8], to new: [UInt8]) {
            let limit = min(old.count, new.count)
            var prefix = 0
            var suffix = 0
            old.withUnsafeBufferPointer { old in
                new.withUnsafeBufferPointer { new in
                    while prefix < limit, old[prefix] == new[prefix] { prefix += 1 }
                    while suffix < limit - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
                        suffix += 1
                    }
                }
            }
            start = prefix
            oldEnd = old.count - suffix
            newEnd = new.count - suffix
        }
    }

    /// Makes this the scan of `newBytes` when it differs from the scanned text inside one quoted
    /// attribute value only, with neither its quote nor `<` removed or typed (typing a name or a
    /// reference): the markup around it is the same, shifted. Returns the change and the element
    /// whose attribute changed (nil when the texts are equal); nil, changing nothing, when the
    /// edit may change the markup: then the text must be scanned again.
    mutating func update(to newBytes: [UInt8]) -> (change: Change, element: Int?)? {
        let change = Change(from: bytes, to: newBytes)
        guard change.start < bytes.count || change.start < newBytes.count else {
            bytes = newBytes
            return (change, nil)
        }
        guard let index = lastElement(startingBefore: change.start),
            let at = elements[index].attributes.firstIndex(where: {
                $0.hasValue && $0.valueStart <= change.start && change.oldEnd <= $0.valueEnd
            })
        else { return nil }
        let attribute = elements[index].attributes[at]
        guard attribute.valueStart >= 1, attribute.valueEnd < bytes.count else { return nil }
        let quote = bytes[attribute.valueStart - 1]
        guard (quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")) && bytes[attribute.valueEnd] == quote,
            !bytes[change.start..<change.oldEnd].contains(where: { $0 == quote || $0 == UInt8(ascii: "<") }),
            !newBytes[change.start..<change.newEnd].contains(where: { $0 == quote || $0 == UInt8(ascii: "<") })
        else { return nil }
        // Every offset from the edit's end on moves by the change in length, but the value's
        // start (an insertion at the value's start is inside the value).
        let delta = change.delta
        let end = change.oldEnd
        @inline(__always) func moved(_ offset: Int) -> Int { offset >= end ? offset + delta : offset }
        for element in elements.indices
        where elements[element].tagEnd >= end || (elements[element].contentEnd ?? 0) >= end {
            let tagMoves = elements[element].tagEnd >= end
            elements[element].start = moved(elements[element].start)
            elements[element].nameEnd = moved(elements[element].nameEnd)
            elements[element].tagEnd = moved(elements[element].tagEnd)
            elements[element].contentEnd = elements[element].contentEnd.map(moved)
            guard tagMoves else { continue }
            for other in elements[element].attributes.indices {
                elements[element].attributes[other].nameStart = moved(elements[element].attributes[other].nameStart)
                elements[element].attributes[other].valueStart = moved(elements[element].attributes[other].valueStart)
                elements[element].attributes[other].valueEnd = moved(elements[element].attributes[other].valueEnd)
            }
        }
        elements[index].attributes[at].valueStart = attribute.valueStart
        let valueEnd = elements[index].attributes[at].valueEnd
        elements[index].attributes[at].value = String(
            decoding: newBytes[attribute.valueStart..<valueEnd], as: UTF8.self)
        bytes = newBytes
        return (change, index)
    }

    // MARK: - Questions

    /// The element starting last before `offset` (elements are in order of their start).
    private func lastElement(startingBefore offset: Int) -> Int? {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if elements[middle].start < offset { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The innermost element whose start tag holds `offset` (from `<` to `>` inclusive). Start
    /// tags do not overlap, so it can only be the last one starting before `offset`.
    func tag(at offset: Int) -> Int? {
        guard let index = lastElement(startingBefore: offset) else { return nil }
        let element = elements[index]
        return (element.closed ? offset < element.tagEnd : offset <= element.tagEnd) ? index : nil
    }

    /// The innermost element whose content holds `offset` (after its start tag, before its end
    /// tag; a start tag still being typed has no end, so it holds the rest of the file), the last
    /// in order when several do. Contents nest: every other element holding `offset` is the last
    /// one starting before it or one of its ancestors, and the nearest of them is the last.
    func container(of offset: Int) -> Int? {
        var found: Int?
        var current = lastElement(startingBefore: offset)
        while let index = current {
            if holds(index, offset) {
                found = index
                break
            }
            current = elements[index].parent
        }
        if let unclosed = unclosedTags.last(where: { holds($0, offset) }), unclosed > (found ?? -1) {
            found = unclosed
        }
        return found
    }

    private func holds(_ index: Int, _ offset: Int) -> Bool {
        let element = elements[index]
        return !element.selfClosing && element.tagEnd <= offset && offset <= (element.contentEnd ?? bytes.count)
    }

    /// The element's text content (between its tags), when it has no child elements.
    func content(of index: Int) -> (start: Int, end: Int)? {
        let element = elements[index]
        guard !element.selfClosing, let end = element.contentEnd, end >= element.tagEnd else { return nil }
        return (element.tagEnd, end)
    }

    /// The ancestors of an element, nearest first.
    func ancestors(of index: Int) -> [Int] {
        var result: [Int] = []
        var current = elements[index].parent
        while let parent = current {
            result.append(parent)
            current = elements[parent].parent
        }
        return result
    }

    /// The section an element stands in (`constants`, `classes`, `instances`), when its root is `<theme>`.
    func section(of index: Int) -> String? {
        guard let top = elements[index].top, let root = elements[top].parent, elements[root].name == "theme" else {
            return nil
        }
        return elements[top].name
    }

    /// The instance or class element an element is inside (itself included).
    func owner(of index: Int) -> Int? {
        ([index] + ancestors(of: index)).first { candidate in
            guard let parent = elements[candidate].parent else { return false }
            return elements[parent].name == "instances"
                || (elements[parent].name == "classes" && elements[candidate].name == "class")
        }
    }

    // MARK: - Bytes

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: ".") || byte >= 0x80
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
