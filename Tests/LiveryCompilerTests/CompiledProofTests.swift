import Foundation
import LiveryBinary
import LiveryModel
import LiveryXML
import Testing

@testable import LiveryCompiler

/// The proof (`ThemeCompiler.firstMismatch`) against writers broken on purpose: each kind of
/// mistake the canonical-dump proof caught is written into a compiled file by encoding a
/// deliberately altered model, and the proof must name it.
@Suite struct CompiledProofTests {
    /// A theme compiled correctly, and a way to write it again with the model altered.
    struct Subject {
        let path: String
        let workspace: ThemeWorkspace
        let compilation: Compilation
        let assetBytes: [AssetFileKey: [UInt8]]

        init(_ path: String) throws {
            self.path = path
            workspace = ThemeWorkspace(searchPaths: [Repository.root + "/Themes"])
            let result = ThemeCompiler.compilation(themeAt: path, workspace: workspace)
            compilation = try #require(result.value, "\(result.diagnostics)")
            let file = try CompiledTheme(bytes: compilation.bytes)
            var bytes: [AssetFileKey: [UInt8]] = [:]
            for asset in file.assets { bytes[asset.variant.fileKey] = file.bytes(of: asset) }
            assetBytes = bytes
        }

        /// What a writer that made `mistake` would have written.
        func written(with mistake: (inout ThemeVariants) -> Void) throws -> [UInt8] {
            var theme = compilation.variants
            mistake(&theme)
            return try ThemeWriter.encode(CompiledThemeContents(theme: theme, assetBytes: assetBytes))
        }

        /// The proof's verdict on `bytes`, both ways in: resolving the folder again, and against
        /// the resolution the bytes were compiled from.
        func verdict(_ bytes: [UInt8]) -> String? {
            let again = ThemeCompiler.firstMismatch(bytes, themeAt: path, workspace: workspace)
            let known = ThemeCompiler.firstMismatch(bytes, variants: compilation.variants)
            #expect(again == known)
            return known
        }
    }

    static let base = Repository.root + "/Themes/Base.theme"
    static let cafe = Repository.root + "/Tests/Fixtures/Normalization/Cafe.theme"

    @Test(arguments: Repository.sampleThemes() + Repository.loadableFixtures() + [cafe])
    func everyCorrectCompilationIsProven(theme path: String) throws {
        let subject = try Subject(path)
        #expect(subject.verdict(subject.compilation.bytes) == nil)
        // the writer is a pure function: writing the same model again proves too
        #expect(subject.verdict(try subject.written { _ in }) == nil)
    }

    /// A writer that interns strings by Swift's `==` stores NFC "café" once for both spellings.
    /// The model it wrote from compares equal to the folder's (canonical equivalence), so only a
    /// comparison of bytes sees it.
    @Test func anNFCAndNFDMergeIsCaught() throws {
        let subject = try Subject(Self.cafe)
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        func merge(_ value: Value) -> Value {
            switch value {
            case .string(let text) where text.utf8.elementsEqual(decomposed.utf8): return .string(composed)
            case .array(let items): return .array(items.map(merge))
            default: return value
            }
        }
        var merged = subject.compilation.variants
        for (traits, instances) in merged.variants {
            merged.variants[traits] = instances.map { instance in
                var instance = instance
                instance.operations = instance.operations.map { operation in
                    var operation = operation
                    operation.params = operation.params.map { Param(name: $0.name, value: merge($0.value)) }
                    return operation
                }
                return instance
            }
        }
        #expect(merged == subject.compilation.variants, "Swift's == cannot tell the two spellings apart")
        let bytes = try ThemeWriter.encode(CompiledThemeContents(theme: merged))
        let verdict = try #require(subject.verdict(bytes))
        #expect(verdict.contains("_decomposed"), "\(verdict)")
        #expect(verdict.contains("63 61 66 65 cc 81"), "the message shows the bytes: \(verdict)")

        // the theme's name holds both spellings too
        let renamed = try subject.written { $0.info.name = "Caf\u{E9} Caf\u{E9}" }
        #expect(try #require(subject.verdict(renamed)).contains("name"))
    }

    @Test func aWrongVariantIsCaught() throws {
        let subject = try Subject(Self.base)
        let dark = TraitSet(appearance: .dark)
        #expect(subject.compilation.variants.variants[dark] != subject.compilation.variants.variants[.none])
        let bytes = try subject.written { $0.variants[dark] = $0.variants[.none] }
        let verdict = try #require(subject.verdict(bytes))
        #expect(verdict.contains("dark"), "\(verdict)")
    }

    @Test func aLostOperationIsCaught() throws {
        let subject = try Subject(Self.base)
        let bytes = try subject.written { theme in
            theme.variants[.none]![0].operations.removeLast()
        }
        let verdict = try #require(subject.verdict(bytes))
        #expect(verdict.contains("lost in the compiled theme"), "\(verdict)")
        #expect(verdict.contains(subject.compilation.variants.variants[.none]![0].id), "\(verdict)")
    }

    @Test func anExtraOperationIsCaught() throws {
        let subject = try Subject(Self.base)
        let bytes = try subject.written { theme in
            theme.variants[.none]![0].operations.append(
                ResolvedOperation(name: "alpha", params: [Param(name: "value", value: .float(0.5))]))
        }
        let verdict = try #require(subject.verdict(bytes))
        #expect(verdict.contains("'alpha'") && verdict.contains("compiled only"), "\(verdict)")
    }

    @Test func aLostInstanceIsCaught() throws {
        let subject = try Subject(Self.base)
        let lost = subject.compilation.variants.variants[.none]!.last!.id
        let bytes = try subject.written { theme in
            for traits in Array(theme.variants.keys) { theme.variants[traits]!.removeAll { $0.id == lost } }
        }
        let verdict = try #require(subject.verdict(bytes))
        #expect(verdict.contains("'\(lost)' is lost"), "\(verdict)")
    }

    /// A colour changed below what `#RRGGBBAA` shows: the old dump compared text and would not
    /// have seen it; values are compared bit for bit.
    @Test func aChangedValueIsCaughtEvenBelowWhatADumpShows() throws {
        let subject = try Subject(Self.base)
        var where_: (Int, Int)?
        for (i, instance) in subject.compilation.variants.variants[.none]!.enumerated() {
            if let j = instance.operations.firstIndex(where: {
                if case .color = $0.params.first?.value { return true } else { return false }
            }) {
                where_ = (i, j)
                break
            }
        }
        let (i, j) = try #require(where_)
        let bytes = try subject.written { theme in
            guard case .color(var color) = theme.variants[.none]![i].operations[j].params[0].value else { return }
            color.red = color.red.nextUp
            theme.variants[.none]![i].operations[j].params[0].value = .color(color)
        }
        let verdict = try #require(subject.verdict(bytes))
        #expect(verdict.contains("param"), "\(verdict)")
        // and a change a dump shows, in a font (what text scales are computed from)
        let font = try subject.written { theme in
            for (i, instance) in theme.variants[.none]!.enumerated() {
                for (j, operation) in instance.operations.enumerated() {
                    if case .font(var font) = operation.params.first?.value {
                        font.maxSize = (font.maxSize ?? 0) + 1
                        theme.variants[.none]![i].operations[j].params[0].value = .font(font)
                        return
                    }
                }
            }
        }
        #expect(subject.verdict(font) != nil)
    }

    /// Personal choices as an app's theme loads them: one instance's uses lost in every trait set,
    /// or one use following another param.
    @Test func aWrongPersonalChoiceIsCaught() throws {
        let subject = try Subject(Self.base)
        let uses = subject.compilation.variants.choices.uses
        let first = try #require(uses[.none]?.first, "the sample Base has personal choices")
        let lost = try subject.written { theme in
            for traits in Array(theme.choices.uses.keys) { theme.choices.uses[traits]!.removeAll { $0.id == first.id } }
        }
        let verdict = try #require(subject.verdict(lost))
        #expect(verdict.contains("personal choices differ"), "\(verdict)")
        let moved = try subject.written { theme in
            for traits in Array(theme.choices.uses.keys) {
                for index in theme.choices.uses[traits]!.indices where theme.choices.uses[traits]![index] == first {
                    theme.choices.uses[traits]![index].param += "Elsewhere"
                }
            }
        }
        #expect(try #require(subject.verdict(moved)).contains("personal choices differ"))
    }

    /// `bubble@2x.png` stored as a scale-4 file: at scale 2 an app would pick `bubble@3x.png`.
    @Test func aWrongAssetAtOneScaleIsCaught() throws {
        let subject = try Subject(Self.base)
        let bytes = try subject.written { theme in
            let variants = theme.assets.variants.map { variant in
                var variant = variant
                if variant.file == "assets/bubble@2x.png" { variant.scale = 4 }
                return variant
            }
            theme.assets = AssetCatalog(searchOrder: theme.assets.searchOrder, variants: variants)
        }
        let verdict = try #require(subject.verdict(bytes))
        #expect(verdict.contains("'bubble'") && verdict.contains("scale 2"), "\(verdict)")
        #expect(!verdict.contains("scale 1"), "scale 1 picks the same file: \(verdict)")
    }

    /// `nav_background~dark.png` lost: only the dark trait sets pick another file, and the proof
    /// checks each asset under the trait sets of its own files' qualifiers.
    @Test func anAssetLostUnderOneTraitIsCaught() throws {
        let subject = try Subject(Self.base)
        let dark = "assets/nav_background~dark.png"
        #expect(subject.compilation.variants.assets.variants.contains { $0.file == dark })
        let bytes = try subject.written { theme in
            theme.assets = AssetCatalog(
                searchOrder: theme.assets.searchOrder, variants: theme.assets.variants.filter { $0.file != dark })
        }
        let verdict = try #require(subject.verdict(bytes))
        #expect(verdict.contains("'nav_background'") && verdict.contains("dark"), "\(verdict)")
    }

    @Test func bytesThatDoNotReadBackAreCaught() throws {
        let subject = try Subject(Self.base)
        var bytes = subject.compilation.bytes
        bytes[bytes.count / 2] ^= 0x10
        #expect(try #require(subject.verdict(bytes)).contains("do not read back"))
    }
}
