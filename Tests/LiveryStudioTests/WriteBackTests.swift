import Foundation
import LiveryModel
import LiveryStudio
import LiveryXML
import Testing

/// The repository's root (for the sample themes).
enum Repository {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
}

/// A copy of Themes/ in a temporary folder, removed when the value goes away.
final class ThemesCopy {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("livery-studio-\(UUID().uuidString)").path
    var themes: String { path + "/Themes" }

    init() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repository.root + "/Themes", toPath: themes)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: themes + "/" + relative)))
    }
}

/// Every configuration file of the sample themes.
func sampleFiles() throws -> [String] {
    let root = Repository.root + "/Themes"
    var files: [String] = []
    for folder in try FileManager.default.contentsOfDirectory(atPath: root).sorted() where folder.hasSuffix(".theme") {
        for name in try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder).sorted()
        where name.hasSuffix(".xml") && name != "Info.xml" && name != "Components.xml" {
            files.append(root + "/" + folder + "/" + name)
        }
    }
    return files
}

@Suite struct WriteBackTests {
    /// A text for `slot` that differs from `old` and is valid for the value's type.
    static func different(_ old: String, type: ValueType, slot: ValueSlot) -> String {
        switch (type, slot) {
        case (.color, .content):
            return old == "#102030" ? "#405060" : "#102030"
        case (_, .attribute("ref")): return old + "x"
        case (_, .attribute("format")): return old == "hex" ? "rgb" : "hex"
        case (_, .attribute("weight")): return old == "bold" ? "light" : "bold"
        case (_, .attribute("scaling")): return old == "fixed" ? "scaled" : "fixed"
        case (.string, _), (_, .attribute("family")), (_, .attribute("name")): return old + " & <more>"
        case (.bool, _): return old == "true" ? "false" : "true"
        default: return old == "7" ? "8" : "7"
        }
    }

    /// Every value of every sample theme file, every slot (its content and each attribute): an
    /// edit changes exactly the bytes of that slot, leaves a file that parses with the new value
    /// in place, and the inverse edit gives back the original bytes.
    @Test func everyValueOfEverySampleFileRoundTrips() throws {
        var checked = 0
        for path in try sampleFiles() {
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let outline = try #require(
                SourceOutline.make(path: path, bytes: original).value, "\(path) does not outline")
            for (index, value) in outline.values.enumerated() {
                var slots: [ValueSlot] = value.spans.attributes.map { .attribute($0.name) }
                if let content = value.spans.content, content.count > 0,
                    !original[content.range].contains(UInt8(ascii: "<"))
                {
                    slots.append(.content)
                }
                for slot in slots {
                    let oldSpan: SourceSpan =
                        switch slot {
                        case .content: value.spans.content!
                        case .attribute(let name): value.spans.attribute(name)!
                        }
                    let oldText = String(decoding: original[oldSpan.range], as: UTF8.self)
                        .trimmingCharacters(
                            in: value.type == .string && slot == .content
                                ? CharacterSet() : .whitespacesAndNewlines)
                    let newText = Self.different(oldText, type: value.type, slot: slot)
                    let edit = try ValueNotation.edit(value, slot: slot, text: newText, in: original)
                    let edited = edit.applied(to: original)
                    // Only the slot's bytes changed.
                    #expect(
                        edit.span.start >= oldSpan.start && edit.span.end <= oldSpan.end,
                        "\(path) #\(index) \(slot.name)")
                    #expect(Array(edited[..<edit.span.start]) == Array(original[..<edit.span.start]))
                    #expect(
                        Array(edited[(edit.span.start + edit.replacement.count)...])
                            == Array(original[edit.span.end...]))
                    // The file still parses, the same value now reads the new text.
                    let reread = try #require(
                        SourceOutline.make(path: path, bytes: edited).value,
                        "\(path) #\(index) \(slot.name) broke the XML")
                    let same = reread.values[index]
                    if slot != .attribute("name") {
                        #expect(same.owner == value.owner, "\(path) #\(index) \(slot.name)")
                    }
                    if value.type != .color || slot != .content {
                        let span = slot == .content ? same.spans.content! : same.spans.attribute(slot.name)!
                        let written = String(decoding: edited[span.range], as: UTF8.self)
                        let decoded = written.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(
                            of: "&lt;", with: "<"
                        )
                        .replacingOccurrences(of: "&gt;", with: ">")
                        #expect(
                            decoded.trimmingCharacters(in: .whitespacesAndNewlines)
                                == newText.trimmingCharacters(in: .whitespacesAndNewlines))
                    }
                    // And back.
                    #expect(
                        edit.inverse(on: original).applied(to: edited) == original,
                        "\(path) #\(index) \(slot.name) did not round-trip")
                    checked += 1
                }
            }
        }
        #expect(checked > 200)
    }

    /// A value with a comment beside its text in the element: the edit replaces the text and
    /// keeps the comment; a value split by a comment, a string with one and CDATA are refused.
    @Test func aCommentInsideAValueStays() throws {
        let text =
            "<?xml version=\"1.0\"?>\n<theme>\n  <constants>\n    <float name=\"gap\">12 <!-- was 10 --></float>\n"
            + "    <color name=\"c\"><!-- brand --> #FF0000</color>\n    <float name=\"split\">1<!-- x -->2</float>\n"
            + "    <string name=\"s\">Hi <!-- x --></string>\n    <float name=\"d\"><![CDATA[3]]></float>\n  </constants>\n</theme>\n"
        let bytes = Array(text.utf8)
        let outline = try #require(SourceOutline.make(path: "/tmp/x.xml", bytes: bytes).value)
        func value(_ name: String) throws -> SourceValue {
            try #require(outline.values.first { if case .constant(name) = $0.owner { true } else { false } })
        }
        for (name, new, expected) in [
            ("gap", "14", "<float name=\"gap\">14 <!-- was 10 --></float>"),
            ("c", "#00FF00", "<color name=\"c\"><!-- brand --> #00FF00</color>"),
        ] {
            let edit = try ValueNotation.edit(try value(name), slot: .content, text: new, in: bytes)
            let edited = edit.applied(to: bytes)
            let editedText = String(decoding: edited, as: UTF8.self)
            #expect(editedText.contains(expected), "\(editedText)")
            #expect(
                editedText.replacingOccurrences(of: expected, with: "")
                    == text.replacingOccurrences(
                        of: expected.replacingOccurrences(of: new, with: name == "gap" ? "12" : "#FF0000"), with: ""))
            #expect(SourceOutline.make(path: "/tmp/x.xml", bytes: edited).value != nil)
            #expect(edit.inverse(on: bytes).applied(to: edited) == bytes)
        }
        for name in ["split", "s", "d"] {
            #expect(throws: StudioEditError.self, "\(name)") {
                try ValueNotation.edit(try value(name), slot: .content, text: "5", in: bytes)
            }
        }
    }

    /// A colour keeps its notation: rgb stays rgb, rgba gets its alpha, hex keeps its case and length.
    @Test func coloursKeepTheirNotation() throws {
        #expect(try ValueNotation.colorText("#FF0000", format: "rgb", like: "0.5,0.5,0.5") == "1,0,0")
        #expect(try ValueNotation.colorText("#FF000080", format: "rgba", like: "0, 0, 0, 1") == "1, 0, 0, 0.501961")
        #expect(try ValueNotation.colorText("#AABBCC", format: "hex", like: "#ff3b30") == "#aabbcc")
        #expect(try ValueNotation.colorText("#AABBCCFF", format: "hex", like: "#FF3B30") == "#AABBCC")
        #expect(try ValueNotation.colorText("#AABBCC", format: "hex", like: "#F30") == "#ABC")
        #expect(try ValueNotation.colorText("#AABBCC80", format: "hex", like: "#FF3B30") == "#AABBCC80")
        #expect(throws: StudioEditError.self) { try ValueNotation.colorText("red", format: "hex", like: "#000") }
    }

    /// A sample file with rgb colours, entities, comments and CRLF line ends: an edit of one
    /// value changes those bytes only.
    @Test func otherBytesStayAsTheyWere() throws {
        let text =
            "<?xml version=\"1.0\"?>\r\n<!-- keep -->\r\n<theme>\r\n\t<constants>\r\n\t\t<color name='brand'   format=\"rgb\"> 1.0,0.0,0.0 </color>\r\n"
            + "\t\t<string name=\"t\">Fish &amp; chips</string>\r\n\t</constants>\r\n</theme>\r\n"
        let bytes = Array(text.utf8)
        let outline = try #require(SourceOutline.make(path: "t.xml", bytes: bytes).value)
        #expect(outline.newline == "\r\n")
        let brand = try #require(outline.values.first)
        let edited = try ValueNotation.edit(brand, slot: .content, text: "#00FF00", in: bytes).applied(to: bytes)
        #expect(
            String(decoding: edited, as: UTF8.self)
                == text.replacingOccurrences(of: "> 1.0,0.0,0.0 <", with: "> 0,1,0 <"))
        let string = outline.values[1]
        let retitled = try ValueNotation.edit(string, slot: .content, text: "Salt & <vinegar>", in: bytes).applied(
            to: bytes)
        #expect(String(decoding: retitled, as: UTF8.self).contains(">Salt &amp; &lt;vinegar&gt;</string>\r\n"))
        let renamed = try ValueNotation.edit(brand, slot: .attribute("name"), text: "it's", in: bytes).applied(
            to: bytes)
        #expect(String(decoding: renamed, as: UTF8.self).contains("<color name='it&apos;s'   format=\"rgb\">"))
    }

    /// A new override is one element, indented like its neighbours, with the file's line ends.
    @Test func overridesAreInsertedIndented() throws {
        let text =
            "<theme>\n    <instances>\n        <uibutton id=\"send\">\n            <operation name=\"alpha\"><param name=\"value\"><float>1</float></param></operation>\n        </uibutton>\n    </instances>\n</theme>\n"
        let outline = try #require(SourceOutline.make(path: "t.xml", bytes: Array(text.utf8)).value)
        #expect(outline.indentUnit == "    ")
        let operation = OverrideInsertion.operationElement(
            name: "backgroundColor", state: .normal, param: "color",
            object: OverrideInsertion.typedElement(type: .color, text: "#FF0000"))
        let intoInstance = try OverrideInsertion.edit(
            adding: operation, toInstance: "send", component: "uibutton", in: outline)
        #expect(
            String(decoding: intoInstance.applied(to: outline.bytes), as: UTF8.self)
                == text.replacingOccurrences(
                    of: "</operation>\n        </uibutton>",
                    with: "</operation>\n            \(operation)\n        </uibutton>"))
        let newInstance = try OverrideInsertion.edit(
            adding: operation, toInstance: "cancel", component: "uibutton", in: outline)
        let result = String(decoding: newInstance.applied(to: outline.bytes), as: UTF8.self)
        #expect(
            result.contains(
                "        </uibutton>\n        <uibutton id=\"cancel\">\n            \(operation)\n        </uibutton>\n    </instances>"
            ))
        #expect(SourceOutline.make(path: "t.xml", bytes: Array(result.utf8)).value?.instances.count == 2)
    }
}
