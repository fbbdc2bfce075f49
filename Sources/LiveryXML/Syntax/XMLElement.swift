/// Every element of one parsed file, in flat arrays: element names interned, attribute values
/// and text in one byte arena. A tree of nested Swift values cost about 190 bytes per element
/// (each with its own arrays and strings); this costs about 40, which keeps the peak memory of
/// parsing a few times the file's size. Built by `XMLDocumentParser`, read through `XMLElement`.
final class XMLTree {
    struct Node {
        var name: Int32
        /// Byte offset of the `<` that opens the element.
        var offset: Int32
        var firstAttribute: Int32
        var attributeCount: Int32
        /// Into `childSlots`.
        var firstChild: Int32 = 0
        var childCount: Int32 = 0
        /// Into `bytes`.
        var textStart: Int32 = 0
        var textLength: Int32 = 0
    }

    struct Attribute {
        var name: Int32
        var valueStart: Int32
        var valueLength: Int32
    }

    // Immutable once built: reads of `let` arrays need no exclusivity checks, which on this hot
    // path cost more than the reads themselves.
    let names: [String]
    let nodes: [Node]
    let attributes: [Attribute]
    /// The children of each element, contiguous per element.
    let childSlots: [Int32]
    let bytes: [UInt8]

    init(names: [String], nodes: [Node], attributes: [Attribute], childSlots: [Int32], bytes: [UInt8]) {
        self.names = names
        self.nodes = nodes
        self.attributes = attributes
        self.childSlots = childSlots
        self.bytes = bytes
    }

    func string(start: Int32, length: Int32) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(start)..<Int(start + length)]), as: UTF8.self)
        }
    }
}

/// An element of a parsed file: a light view into its `XMLTree`.
struct XMLElement {
    let tree: XMLTree
    let index: Int32

    private var node: XMLTree.Node { tree.nodes[Int(index)] }

    var name: String { tree.names[Int(node.name)] }

    /// Byte offset of the `<` that opens the element.
    var offset: Int { Int(node.offset) }

    /// The character data directly inside the element, entities decoded, whitespace kept.
    var text: String { tree.string(start: node.textStart, length: node.textLength) }

    var attributes: XMLAttributes {
        XMLAttributes(tree: tree, start: Int(node.firstAttribute), count: Int(node.attributeCount))
    }

    var children: XMLChildren { XMLChildren(tree: tree, start: Int(node.firstChild), count: Int(node.childCount)) }

    /// Whether the element's direct text is empty or XML white space only, read on the bytes
    /// (no string is made: containers are checked for stray text by the thousand).
    var textIsBlank: Bool {
        let node = node
        return tree.bytes.withUnsafeBufferPointer { buffer in
            var index = Int(node.textStart)
            let end = index + Int(node.textLength)
            while index < end {
                switch buffer[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return false
                }
            }
            return true
        }
    }

    /// Whether every attribute's name is in `allowed` (no value strings are made).
    func attributeNamesAll(in allowed: [String]) -> Bool {
        allAttributeNames { allowed.contains($0) }
    }

    /// Whether every attribute's name satisfies `predicate` (no value strings are made).
    func allAttributeNames(_ predicate: (String) -> Bool) -> Bool {
        let node = node
        for slot in Int(node.firstAttribute)..<Int(node.firstAttribute + node.attributeCount)
        where !predicate(tree.names[Int(tree.attributes[slot].name)]) {
            return false
        }
        return true
    }

    func attribute(_ name: String) -> String? {
        let node = node
        for slot in Int(node.firstAttribute)..<Int(node.firstAttribute + node.attributeCount) {
            let attribute = tree.attributes[slot]
            if tree.names[Int(attribute.name)] == name {
                return tree.string(start: attribute.valueStart, length: attribute.valueLength)
            }
        }
        return nil
    }
}

struct XMLAttribute {
    var name: String
    var value: String
}

struct XMLAttributes: RandomAccessCollection {
    let tree: XMLTree
    let start: Int
    let count: Int
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> XMLAttribute {
        let attribute = tree.attributes[start + position]
        return XMLAttribute(
            name: tree.names[Int(attribute.name)],
            value: tree.string(start: attribute.valueStart, length: attribute.valueLength))
    }
}

struct XMLChildren: RandomAccessCollection {
    let tree: XMLTree
    let start: Int
    let count: Int
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> XMLElement {
        XMLElement(tree: tree, index: tree.childSlots[start + position])
    }
}

/// A parsed file: its root element and the source that locates every node.
struct XMLDocument {
    var root: XMLElement
    var source: SourceText
}
