import Foundation
import Testing
@testable import LiveryBinary
import LiveryModel

@Suite struct RoundTripTests {
    let bytes = try! ThemeWriter.encode(SampleThemes.contents)

    @Test func modelReadBackEqualsModelWritten() throws {
        let compiled = try CompiledTheme(bytes: bytes)
        let readBack = try compiled.materialize()
        #expect(readBack == SampleThemes.theme)
        #expect(readBack.ancestors == [SampleThemes.base])
        #expect(compiled.sourceDigest == SampleThemes.contents.sourceDigests["com.acme.dark"])
        #expect(compiled.chain.first?.sourceDigest == nil)
    }

    @Test func dumpsAgreeForEveryTraitSetAndScale() throws {
        let readBack = try CompiledTheme(bytes: bytes).materialize()
        for traits in SampleThemes.allTraitSets {
            for scale in 1...3 {
                let expected = CanonicalJSON.dump(SampleThemes.theme.resolved(for: traits), scale: scale)
                let actual = CanonicalJSON.dump(readBack.resolved(for: traits), scale: scale)
                #expect(actual == expected, "traits \(traits), scale \(scale)")
            }
        }
    }

    @Test func lookupByIdMatchesTheResolvedModelForEveryTraitSet() throws {
        let compiled = try CompiledTheme(bytes: bytes)
        for traits in SampleThemes.allTraitSets {
            let expected = SampleThemes.theme.resolved(for: traits)
            for id in ["button_cancel_action", "title_label", "chat_bubble", "sidebar"] {
                #expect(compiled.operations(of: id, for: traits) == expected.instance(id)?.operations,
                        "\(id) for \(traits)")
                #expect(compiled.instance(id, for: traits) == expected.instance(id))
            }
            #expect(compiled.operations(of: "nope", for: traits) == nil)
            #expect(compiled.operations(of: "", for: traits) == nil)
        }
    }

    @Test func handlesAreSortedByIdAndWorkInEveryVariant() throws {
        let compiled = try CompiledTheme(bytes: bytes)
        let ids = ["button_cancel_action", "chat_bubble", "sidebar", "title_label"]
        #expect(ids.map { compiled.handle(for: $0)?.rawValue } == [0, 1, 2, 3])
        #expect(ids.compactMap { compiled.handle(for: $0) }.compactMap(compiled.id(of:)) == ids)
        let ipadDark = try #require(compiled.variant(for: TraitSet(idiom: .ipad, appearance: .dark)))
        let sidebar = try #require(compiled.handle(for: "sidebar"))
        #expect(compiled.instance(sidebar, in: ipadDark) == SampleThemes.ipadOnly)
        let phone = try #require(compiled.variant(for: TraitSet(idiom: .iphone)))
        #expect(compiled.instance(sidebar, in: phone) == nil)
        // iphone is not an axis of the theme: it behaves like no idiom at all
        #expect(phone == compiled.variant(for: .none))
        #expect(compiled.variantTraits == SampleThemes.theme.axes.traitSets)
    }

    @Test func identicalResolutionsAreStoredOnce() throws {
        let compiled = try CompiledTheme(bytes: bytes)
        // 8 variants x 3-4 instances, but only label, custom, sidebar and 4 button colourings differ
        #expect(compiled.variantCount == 8)
        #expect(compiled.instanceRecordCount == 7)
        // strings are pooled: "normal" once, however many operations use it
        let pool = try #require(compiled.sections.first { $0.kind == "STRS" })
        let text = String(decoding: bytes[pool.offset..<pool.offset + pool.length], as: UTF8.self)
        #expect(text.components(separatedBy: "normal").count == 2)
    }

    @Test func assetsKeepBytesQualifiersAndTheCacheFlag() throws {
        let compiled = try CompiledTheme(bytes: bytes)
        let assets = compiled.assets
        #expect(assets.map(\.variant) == SampleThemes.assets.variants)
        for asset in assets {
            let key = AssetFileKey(themeID: asset.variant.themeID, file: asset.variant.file)
            #expect(compiled.bytes(of: asset) == SampleThemes.contents.assetBytes[key])
            #expect(asset.offset % 8 == 0)
            #expect(asset.cache == (asset.variant.name == "bubble"))
        }
    }

    @Test func encodingIsDeterministic() throws {
        #expect(try ThemeWriter.encode(SampleThemes.contents) == bytes)
        #expect(try CompiledTheme(bytes: bytes).verifyContents() == ())
    }

    @Test func mappedFileReadsLikeBytes() throws {
        let path = NSTemporaryDirectory() + "livery-\(UUID().uuidString).livery"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let compiled = try CompiledTheme(contentsOf: path)
        #expect(try compiled.materialize() == SampleThemes.theme)
        try compiled.verifyContents()
        #expect(throws: BinaryFormatError.self) { try CompiledTheme(contentsOf: path + ".missing") }
        #expect(throws: BinaryFormatError.self) { try CompiledTheme(contentsOf: NSTemporaryDirectory()) }
    }

    @Test func tinyThemeRoundTrips() throws {
        let tiny = try ThemeWriter.encode(SampleThemes.tiny)
        #expect(try CompiledTheme(bytes: tiny).materialize() == SampleThemes.tiny.theme)
        #expect(tiny.count % 8 == 0)
    }

    @Test func writerRefusesWhatItCannotStore() {
        var nan = SampleThemes.tiny
        nan.theme.variants[.none]![0].operations[0].params[0].value = .float(.nan)
        #expect(throws: BinaryFormatError.self) { _ = try ThemeWriter.encode(nan) }
        var infinite = SampleThemes.tiny
        infinite.theme.variants[.none]![0].operations[0].params[0].value = .color(Color(red: .infinity, green: 0, blue: 0))
        #expect(throws: BinaryFormatError.self) { _ = try ThemeWriter.encode(infinite) }
        var nonCanonical = SampleThemes.tiny
        nonCanonical.theme.variants[TraitSet(idiom: .ipad)] = []
        #expect(throws: BinaryFormatError.self) { _ = try ThemeWriter.encode(nonCanonical) }
        var missingAsset = SampleThemes.contents
        missingAsset.assetBytes.removeAll()
        #expect(throws: BinaryFormatError.self) { _ = try ThemeWriter.encode(missingAsset) }
        var duplicate = SampleThemes.tiny
        duplicate.theme.variants[.none]!.append(duplicate.theme.variants[.none]![0])
        #expect(throws: BinaryFormatError.self) { _ = try ThemeWriter.encode(duplicate) }
    }
}
