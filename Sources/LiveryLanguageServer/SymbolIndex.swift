import Foundation
import LiveryModel

/// A name a theme file defines or uses, with the bytes of the name in its file.
struct NamedPlace: Hashable {
    enum Kind: String { case constant, `class`, instance }
    var kind: Kind
    var name: String
    /// The element name: a constant's type, an instance's component type, `class`.
    var detail: String
    var file: String
    var start: Int
    var end: Int

    /// A constant's type, named by its element; nil for a class, an instance, or an element that
    /// is no typed object.
    var valueType: ValueType? { kind == .constant ? ValueType(elementName: detail) : nil }
}

/// One file's markup and the names in it, read forgivingly (`MarkupScan`).
struct FileSymbols {
    private(set) var document: TextDocument
    private(set) var scan: MarkupScan
    let path: String
    /// Definitions: constants, classes, instances (at their `name` or `id` value), in order.
    private(set) var definitions: [NamedPlace] = []
    /// Uses: `ref` values (constants) and each word of `class` values (classes), in order.
    private(set) var uses: [NamedPlace] = []

    init(path: String, document: TextDocument) {
        self.document = document
        self.path = path
        self.scan = MarkupScan(bytes: document.bytes)
        for index in scan.elements.indices {
            Self.addPlaces(of: index, in: scan, path: path, definitions: &definitions, uses: &uses)
        }
    }

    /// Makes these the symbols of a new text of the file, without reading all of it again when
    /// the edit stayed inside one attribute value (`MarkupScan.update(to:)`): the places after it
    /// move, and those of the edited element are found again. Returns false, changing nothing,
    /// when the text must be read again.
    mutating func update(to newDocument: TextDocument) -> Bool {
        guard let (change, edited) = scan.update(to: newDocument.bytes) else { return false }
        document = newDocument
        guard let edited else { return true }
        // the edited element's places are found again (its start did not move, its tag's end
        // did); the others after it move
        let start = scan.elements[edited].start
        let oldTagEnd = scan.elements[edited].tagEnd - change.delta
        var newDefinitions: [NamedPlace] = []
        var newUses: [NamedPlace] = []
        Self.addPlaces(of: edited, in: scan, path: path, definitions: &newDefinitions, uses: &newUses)
        Self.replace(in: &definitions, from: start, to: oldTagEnd, with: newDefinitions, change: change)
        Self.replace(in: &uses, from: start, to: oldTagEnd, with: newUses, change: change)
        return true
    }

    /// Replaces the places in `start..<end` (one element's, which stand together) with `new`, and
    /// moves those after the edit.
    private static func replace(
        in places: inout [NamedPlace], from start: Int, to end: Int, with new: [NamedPlace],
        change: MarkupScan.Change
    ) {
        // places are in the order of their elements, and each element's lie inside its start tag
        var low = 0
        var high = places.count
        while low < high {
            let middle = (low + high) / 2
            if places[middle].start < start { low = middle + 1 } else { high = middle }
        }
        var upper = low
        while upper < places.count, places[upper].start < end { upper += 1 }
        for index in upper..<places.count {
            places[index].start += change.delta
            places[index].end += change.delta
        }
        places.replaceSubrange(low..<upper, with: new)
    }

    /// Appends the places element `index` of `scan` defines and uses.
    private static func addPlaces(
        of index: Int, in scan: MarkupScan, path: String, definitions: inout [NamedPlace], uses: inout [NamedPlace]
    ) {
        let elements = scan.elements
        // the first attribute of each name this cares about (as `attribute(_:)` finds it), in
        // one walk, kept when it has a value
        var ref: MarkupScan.Attribute?
        var classes: MarkupScan.Attribute?
        var name: MarkupScan.Attribute?
        var id: MarkupScan.Attribute?
        var seen = 0
        for attribute in elements[index].attributes {
            switch attribute.name {
            case "ref" where seen & 1 == 0:
                seen |= 1
                ref = attribute.hasValue ? attribute : nil
            case "class" where seen & 2 == 0:
                seen |= 2
                classes = attribute.hasValue ? attribute : nil
            case "name" where seen & 4 == 0:
                seen |= 4
                name = attribute.hasValue ? attribute : nil
            case "id" where seen & 8 == 0:
                seen |= 8
                id = attribute.hasValue ? attribute : nil
            default: break
            }
        }
        guard ref != nil || classes != nil || name != nil || id != nil else { return }
        let elementName = elements[index].name
        let section = scan.section(of: index)
        if let ref {
            uses.append(
                NamedPlace(
                    kind: .constant, name: ref.value, detail: elementName, file: path, start: ref.valueStart,
                    end: ref.valueEnd))
        }
        if let classes, section == "instances" || section == "classes" {
            for (word, start) in Self.words(classes.value) {
                uses.append(
                    NamedPlace(
                        kind: .class, name: word, detail: "class", file: path, start: classes.valueStart + start,
                        end: classes.valueStart + start + word.utf8.count))
            }
        }
        guard let parent = elements[index].parent else { return }
        let parentName = elements[parent].name
        if parentName == "constants", section == "constants", let name {
            definitions.append(
                NamedPlace(
                    kind: .constant, name: name.value, detail: elementName, file: path, start: name.valueStart,
                    end: name.valueEnd))
        } else if parentName == "classes", elementName == "class", let name {
            definitions.append(
                NamedPlace(
                    kind: .class, name: name.value, detail: "class", file: path, start: name.valueStart,
                    end: name.valueEnd))
        } else if parentName == "instances", let id {
            definitions.append(
                NamedPlace(
                    kind: .instance, name: id.value, detail: elementName, file: path, start: id.valueStart,
                    end: id.valueEnd))
        }
    }

    /// The space-separated words of a value, with their byte offsets.
    static func words(_ value: String) -> [(String, Int)] {
        if !value.utf8.contains(0x20) { return value.isEmpty ? [] : [(value, 0)] }
        var result: [(String, Int)] = []
        var offset = 0
        for part in value.split(separator: " ", omittingEmptySubsequences: false) {
            if !part.isEmpty { result.append((String(part), offset)) }
            offset += part.utf8.count + 1
        }
        return result
    }

    func range(_ place: NamedPlace) -> TextRange {
        TextRange(start: document.position(ofOffset: place.start), end: document.position(ofOffset: place.end))
    }

    /// The definition or use whose name holds the offset.
    func place(at offset: Int) -> NamedPlace? {
        (definitions + uses).first { $0.start <= offset && offset <= $0.end }
    }
}
