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
}

/// One file's markup and the names in it, read forgivingly (`MarkupScan`).
struct FileSymbols {
    let document: TextDocument
    let scan: MarkupScan
    /// Definitions: constants, classes, instances (at their `name` or `id` value).
    var definitions: [NamedPlace] = []
    /// Uses: `ref` values (constants) and each word of `class` values (classes).
    var uses: [NamedPlace] = []

    init(path: String, document: TextDocument) {
        self.document = document
        self.scan = MarkupScan(bytes: document.bytes)
        for (index, element) in scan.elements.enumerated() {
            let section = scan.section(of: index)
            let parent = element.parent.map { scan.elements[$0] }
            if let ref = element.attribute("ref"), ref.hasValue {
                uses.append(
                    NamedPlace(
                        kind: .constant, name: ref.value, detail: element.name, file: path, start: ref.valueStart,
                        end: ref.valueEnd))
            }
            if let classes = element.attribute("class"), classes.hasValue,
                section == "instances" || section == "classes"
            {
                for (word, start) in Self.words(classes.value) {
                    uses.append(
                        NamedPlace(
                            kind: .class, name: word, detail: "class", file: path, start: classes.valueStart + start,
                            end: classes.valueStart + start + word.utf8.count))
                }
            }
            guard let parent else { continue }
            if parent.name == "constants", section == "constants", let name = element.attribute("name"), name.hasValue {
                definitions.append(
                    NamedPlace(
                        kind: .constant, name: name.value, detail: element.name, file: path, start: name.valueStart,
                        end: name.valueEnd))
            } else if parent.name == "classes", element.name == "class", let name = element.attribute("name"),
                name.hasValue
            {
                definitions.append(
                    NamedPlace(
                        kind: .class, name: name.value, detail: "class", file: path, start: name.valueStart,
                        end: name.valueEnd))
            } else if parent.name == "instances", let id = element.attribute("id"), id.hasValue {
                definitions.append(
                    NamedPlace(
                        kind: .instance, name: id.value, detail: element.name, file: path, start: id.valueStart,
                        end: id.valueEnd))
            }
        }
    }

    /// The space-separated words of a value, with their byte offsets.
    static func words(_ value: String) -> [(String, Int)] {
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
