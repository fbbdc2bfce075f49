import Foundation
import LiveryModel
import Testing

@testable import LiveryBinary

/// The format's string equality is byte equality. Swift's `==` is canonical equivalence ("é"
/// NFC equals "e" + U+0301 NFD), so every check here compares UTF-8 bytes.
@Suite struct NormalizationTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    static func bytes(_ text: String?) -> [UInt8]? { text.map { Array($0.utf8) } }

    /// Every string of an operation, in order, as bytes.
    static func strings(_ operation: ResolvedOperation?) -> [[UInt8]] {
        guard let operation else { return [] }
        var result = [Array(operation.name.utf8), Array(operation.state.rawValue.utf8)]
        func collect(_ value: Value) {
            switch value {
            case .string(let text), .enumeration(let text): result.append(Array(text.utf8))
            case .font(let font): result.append(Array(font.family.utf8))
            case .image(let image): result.append(Array(image.name.utf8))
            case .array(let elements): elements.forEach(collect)
            default: break
            }
        }
        for param in operation.params {
            result.append(Array(param.name.utf8))
            collect(param.value)
        }
        return result
    }

    @Test func valuesThatDifferOnlyInNormalizationStayDistinct() throws {
        #expect(Self.composed == Self.decomposed)  // the trap: Swift calls them equal
        func label(_ id: String, _ text: String, state: String = "normal", param: String = "text") -> ResolvedInstance {
            ResolvedInstance(
                id: id, component: "uilabel",
                operations: [
                    ResolvedOperation(
                        name: "text", state: ControlState(rawValue: state),
                        params: [Param(name: param, value: .string(text))]),
                    ResolvedOperation(
                        name: "font", params: [Param(name: "font", value: .font(Font(family: text, size: 12)))]),
                    ResolvedOperation(name: "mode", params: [Param(name: "mode", value: .enumeration(text))]),
                    ResolvedOperation(name: "list", params: [Param(name: "items", value: .array([.string(text)]))]),
                ])
        }
        let instances = [
            label("composed", Self.composed),
            label("decomposed", Self.decomposed),
            label("param_composed", "x", param: Self.composed),
            label("param_decomposed", "x", param: Self.decomposed),
            label("state_composed", "x", state: Self.composed),
            label("state_decomposed", "x", state: Self.decomposed),
            label(Self.decomposed + "_id", Self.decomposed),
        ]
        let theme = ThemeVariants(
            info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: TraitAxes(),
            variants: [.none: instances.sorted { $0.id < $1.id }], assets: .empty)
        let compiled = try CompiledTheme(bytes: try ThemeWriter.encode(CompiledThemeContents(theme: theme)))
        try compiled.verifyContents()
        for instance in instances {
            let read = try #require(
                try compiled.instance(instance.id, for: .none), "\(instance.id) is not found by its own bytes")
            #expect(Self.bytes(read.id) == Self.bytes(instance.id))
            #expect(read.operations.count == instance.operations.count)
            for (written, readBack) in zip(instance.operations, read.operations) {
                #expect(Self.strings(readBack) == Self.strings(written), "\(instance.id): \(written.name)")
            }
        }
    }

    @Test func idsThatDifferOnlyInNormalizationAreRefusedNotMerged() throws {
        let theme = ThemeVariants(
            info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: TraitAxes(),
            variants: [
                .none: [
                    ResolvedInstance(id: Self.composed, component: "uiview", operations: []),
                    ResolvedInstance(id: Self.decomposed, component: "uiview", operations: []),
                ]
            ],
            assets: .empty)
        #expect(throws: BinaryFormatError.self) { try ThemeWriter.encode(CompiledThemeContents(theme: theme)) }
    }

    /// Numbers are bytes too: Swift's `==` calls 0 and -0 equal, and an operation setting -0
    /// shared the record of one setting 0, so the proof refused a theme that validates.
    @Test func numbersThatDifferOnlyInTheSignOfZeroStayDistinct() throws {
        #expect(0.0 == -0.0)  // the trap
        func view(_ id: String, _ alpha: Double) -> ResolvedInstance {
            ResolvedInstance(
                id: id, component: "uiview",
                operations: [ResolvedOperation(name: "alpha", params: [Param(name: "value", value: .float(alpha))])])
        }
        let theme = ThemeVariants(
            info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: TraitAxes(),
            variants: [.none: [view("negative", -0.0), view("positive", 0.0)]], assets: .empty)
        let compiled = try CompiledTheme(bytes: try ThemeWriter.encode(CompiledThemeContents(theme: theme)))
        for (id, expected) in [("negative", -0.0), ("positive", 0.0)] {
            let read = try #require(try compiled.instance(id, for: .none))
            guard case .float(let value)? = read.operations.first?.params.first?.value else {
                Issue.record("\(id): no float read back")
                continue
            }
            #expect(value.bitPattern == expected.bitPattern, "\(id)")
        }
    }
}
