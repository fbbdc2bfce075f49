import Foundation
import LiveryModel
import LiveryXML
import Testing

@testable import LiveryBinary
@testable import LiveryTokens

/// Every value type through every place that answers for it, starting from its descriptor: the
/// completion snippet, filled in, is a value the front end accepts as that type; the element
/// name is the key of its canonical JSON and of its saved form; the compiled file stores it under
/// its own tag and reads it back; its DTCG mapping imports back as the same type. A type added
/// to `ValueType` is checked here with no edit beyond the switches the compiler asks for.
@Suite struct ValueTypeDescriptorTests {
    /// The text a bare `$n` placeholder of a snippet is filled with: only types whose snippet
    /// gives no default of its own need one.
    static func bareText(_ type: ValueType) -> String {
        switch type {
        case .float: "1.5"
        case .integer: "2"
        case .string: "hello"
        case .image: "icon"
        case .array: "<color>#FFFFFF</color>"
        case .bool, .color, .point, .size, .rect, .insets, .font, .enumeration: ""
        }
    }

    /// The snippet with each placeholder replaced as an editor's user accepting it would:
    /// `${1:default}` by its default, `${1|a,b|}` by its first choice, `$1` by `text`.
    static func filled(_ snippet: String, text: String) -> String {
        snippet
            .replacing(#/\$\{\d+:([^}]*)\}/#) { String($0.output.1) }
            .replacing(#/\$\{\d+\|([^,|]*)[^}]*\}/#) { String($0.output.1) }
            .replacing(#/\$\d+/#) { _ in text }
    }

    /// Font weights, so that the enum has a DTCG type to go through.
    static let enumWords = ["bold", "regular"]

    static func operation(_ type: ValueType) -> String { type.descriptor.elementName + "Value" }

    /// A theme with one operation per value type, each param written as its snippet.
    static func probeTheme() throws -> Scratch {
        var schema = "<components><component name=\"probe\">"
        var instance = "<probe id=\"p\">"
        for type in ValueType.allCases {
            let name = type.descriptor.elementName
            let extra =
                switch type.descriptor.content {
                case .text(.schemaWords): " values=\"\(enumWords.joined(separator: " "))\""
                case .elements: " of=\"color\""
                default: ""
                }
            schema +=
                "<operation name=\"\(operation(type))\"><param name=\"value\" type=\"\(name)\"\(extra)/></operation>"
            let snippet = type.descriptor.snippet(
                words: type.descriptor.content == .text(.schemaWords) ? enumWords : nil)
            instance +=
                "<operation name=\"\(operation(type))\"><param name=\"value\">\(filled(snippet, text: bareText(type)))</param></operation>"
        }
        return try Scratch([
            "schema.xml": schema + "</component></components>",
            "Probe.theme/Info.xml": Scratch.info("probe"),
            "Probe.theme/Probe.xml": "<theme><instances>" + instance + "</probe></instances></theme>",
            "Probe.theme/assets/icon.png": "png",
        ])
    }

    @Test func everyTypeGoesFromItsSnippetThroughEveryFormatAndBack() throws {
        let scratch = try Self.probeTheme()
        let workspace = ThemeWorkspace(schemaFiles: [scratch("schema.xml")])
        let resolved = workspace.resolve(themeAt: scratch("Probe.theme"), traits: TraitSet())
        #expect(!resolved.diagnostics.hasErrors, "\(resolved.diagnostics.map(\.description))")
        let theme = try resolved.unwrap()
        let operations = try #require(theme.instances.first { $0.id == "p" }).operations
        var values: [ValueType: Value] = [:]
        for type in ValueType.allCases {
            // The XML front end reads the snippet as a value of the type.
            let operation = try #require(operations.first { $0.name == Self.operation(type) }, "\(type)")
            let value = try #require(operation.params.first?.value)
            #expect(value.type == type)
            values[type] = value
            #expect(ValueType(elementName: type.descriptor.elementName) == type)
            // Canonical JSON: one key, the element name.
            guard case .object(let members) = CanonicalJSON.value(value, theme: theme, scale: 1) else {
                Issue.record("\(type): canonical JSON is not an object")
                continue
            }
            #expect(members.map { $0.0 } == [type.descriptor.elementName])
            // The saved form: the same key, and the value back.
            let saved = try JSONEncoder().encode(value)
            let object = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
            #expect(Array(object.keys) == [type.descriptor.elementName])
            #expect(try JSONDecoder().decode(Value.self, from: saved) == value)
        }

        // The compiled file: each type under its own tag, every value read back as written.
        let tags = Set(ValueType.allCases.map { $0.tag })
        #expect(tags.count == ValueType.allCases.count, "two types share a compiled tag")
        let variants = try workspace.variants(ofThemeAt: scratch("Probe.theme")).unwrap()
        var assetBytes: [AssetFileKey: [UInt8]] = [:]
        for asset in variants.assets.variants { assetBytes[asset.fileKey] = Array("png".utf8) }
        let bytes = try ThemeWriter.encode(CompiledThemeContents(theme: variants, assetBytes: assetBytes))
        let compiled = try CompiledTheme(bytes: bytes)
        let section = try #require(compiled.sections.first { $0.kind == "PARM" })
        let written = Set(
            (0..<compiled.valueSlotCount).map { bytes[section.offset + 8 + $0 * Format.valueSlotSize + 4] })
        for type in ValueType.allCases {
            #expect(written.contains(type.tag.rawValue), "\(type): its tag is not in the file")
        }
        let read = try compiled.materialize()
        let readOperations = try #require(read.variants[.none]?.first { $0.id == "p" }).operations
        for type in ValueType.allCases {
            let value = readOperations.first { $0.name == Self.operation(type) }?.params.first?.value
            #expect(value == values[type], "\(type)")
        }

        // DTCG: a type with a token type exports and imports back as itself; the others are
        // reported as skipped, by element name.
        var mapped: Set<ValueType> = []
        for type in ValueType.allCases {
            let value = try #require(values[type])
            var exporter = TokenExporter()
            let document = exporter.document([ExportedConstant(name: "probe", value: value, reference: nil)])
            guard TokenExporter.token(value) != nil else {
                #expect(exporter.skipped.map { $0.type } == [type.descriptor.elementName])
                continue
            }
            mapped.insert(type)
            let json = document.rendered()
            var tokenImport = TokenImport { $0 == "tokens.json" ? Array(json.utf8) : nil }
            let constants = tokenImport.layers(files: ["tokens.json"]).first?.constants ?? []
            #expect(constants.map(\.type) == [type], "\(type): \(json)")
        }
        #expect(mapped == [.float, .integer, .color, .font, .enumeration])
    }

    /// The descriptor's answers agree with each other: attribute names are unique and apart from
    /// the ones every element may carry; the studio edits the content, or each attribute of a type
    /// written as attributes; a colour's modifiers are the attributes the decoder reads as such.
    @Test func everyDescriptorIsConsistent() {
        for type in ValueType.allCases {
            let descriptor = type.descriptor
            #expect(descriptor.type == type)
            #expect(Set(descriptor.attributeNames).count == descriptor.attributeNames.count, "\(type)")
            #expect(Set(descriptor.attributeNames).isDisjoint(with: ["name", "ref", "overridable"]), "\(type)")
            let slots = descriptor.editorFields.map(\.slot)
            switch descriptor.content {
            case .attributes:
                #expect(slots == descriptor.attributes.filter { !$0.isModifier }.map(\.name), "\(type)")
                #expect(descriptor.attributes.contains { $0.example != nil }, "\(type): an empty snippet")
            case .text, .verbatimText, .elements:
                #expect(slots == ["content"], "\(type)")
            }
        }
        #expect(
            ValueType.color.descriptor.modifierNames == [
                "lighten", "darken", "mix", "amount", "alpha", "contrast-with", "min-ratio", "space",
            ])
        #expect(ValueType.allCases.filter { !$0.descriptor.modifierNames.isEmpty } == [.color])
    }
}
