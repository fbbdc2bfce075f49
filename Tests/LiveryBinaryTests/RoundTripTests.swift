import Foundation
import LiveryModel
import Testing

@testable import LiveryBinary

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
                #expect(
                    try compiled.operations(of: id, for: traits) == expected.instance(id)?.operations,
                    "\(id) for \(traits)")
                #expect(try compiled.instance(id, for: traits) == expected.instance(id))
            }
            #expect(try compiled.operations(of: "nope", for: traits) == nil)
            #expect(try compiled.operations(of: "", for: traits) == nil)
        }
    }

    @Test func handlesAreSortedByIdAndWorkInEveryVariant() throws {
        let compiled = try CompiledTheme(bytes: bytes)
        let ids = ["button_cancel_action", "chat_bubble", "sidebar", "title_label"]
        #expect(ids.map { compiled.handle(for: $0)?.rawValue } == [0, 1, 2, 3])
        #expect(ids.compactMap { compiled.handle(for: $0) }.compactMap(compiled.id(of:)) == ids)
        let ipadDark = try #require(compiled.variant(for: TraitSet(idiom: .ipad, appearance: .dark)))
        let sidebar = try #require(compiled.handle(for: "sidebar"))
        #expect(try compiled.instance(sidebar, in: ipadDark) == SampleThemes.ipadOnly)
        let phone = try #require(compiled.variant(for: TraitSet(idiom: .iphone)))
        #expect(try compiled.instance(sidebar, in: phone) == nil)
        // iphone is not an axis of the theme: it behaves like no idiom at all
        #expect(phone == compiled.variant(for: .none))
        #expect(compiled.variantTraits == SampleThemes.theme.axes.traitSets)
    }

    @Test func identicalResolutionsAreStoredOnce() throws {
        let compiled = try CompiledTheme(bytes: bytes)
        // 8 variants x 3-4 instances, but only label, custom, sidebar and 4 button colourings differ
        #expect(compiled.variantCount == 8)
        #expect(compiled.instanceRecordCount == 7)
        // the button's colourings are one full list of 5 plus patches (1 + 1 + 2 changed operations):
        // lists label 6 + bubble 2 + button 5 + sidebar 1
        #expect(compiled.operationListLength == 14)
        #expect(compiled.listPatchCount == 4)
        // strings are pooled: "normal" once, however many operations use it
        let pool = try #require(compiled.sections.first { $0.kind == "STRS" })
        let text = String(decoding: bytes[pool.offset..<pool.offset + pool.length], as: UTF8.self)
        #expect(text.components(separatedBy: "normal").count == 2)
    }

    /// Records carry no id: ids that resolve alike share one record, and each still reads as itself.
    @Test func idsThatResolveAlikeShareARecord() throws {
        let operations = [
            ResolvedOperation(name: "alpha", params: [Param(name: "value", value: .float(0.5))]),
            ResolvedOperation(name: "hidden", params: [Param(name: "value", value: .bool(false))]),
        ]
        let ids = ["a", "b", "c"]
        let theme = ThemeVariants(
            info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: TraitAxes(appearances: [.dark]),
            variants: [
                .none: ids.map { ResolvedInstance(id: $0, component: "uiview", operations: operations) },
                TraitSet(appearance: .dark): ids.map {
                    ResolvedInstance(id: $0, component: "uiview", operations: operations)
                }
                    + [ResolvedInstance(id: "d", component: "uilabel", operations: operations)],
            ],
            assets: .empty)
        let compiled = try CompiledTheme(bytes: try ThemeWriter.encode(CompiledThemeContents(theme: theme)))
        #expect(compiled.instanceRecordCount == 2)  // uiview and uilabel, one list
        #expect(compiled.operationListLength == 2)
        #expect(try compiled.materialize() == theme)
        try compiled.verifyContents()
        for id in ids + ["d"] {
            #expect(try compiled.instance(id, for: TraitSet(appearance: .dark))?.id == id)
        }
        #expect(try compiled.instance("d", for: .none) == nil)
    }

    /// Lists that differ from an earlier variant's in half their positions or more are stored in
    /// full; fewer, as patches; reordered ones are just different lists. All read back exactly.
    @Test func patchedAndFullListsReadBackExactly() throws {
        func operation(_ name: String, _ value: Double) -> ResolvedOperation {
            ResolvedOperation(name: name, params: [Param(name: "value", value: .float(value))])
        }
        let base = (0..<6).map { operation("op\($0)", Double($0)) }
        var oneChanged = base
        oneChanged[5] = operation("op5", 50)
        var threeChanged = base
        for index in [0, 2, 4] { threeChanged[index] = operation("op\(index)", -1) }
        let longer = base + [operation("extra", 1)]
        let axes = TraitAxes(idioms: [.ipad], appearances: [.dark])
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        for (traits, list) in zip(axes.traitSets, [base, oneChanged, threeChanged, longer]) {
            variants[traits] = [
                ResolvedInstance(id: "x", component: "uiview", operations: list),
                ResolvedInstance(id: "y", component: "uiview", operations: list.reversed()),
            ]
        }
        let theme = ThemeVariants(
            info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: axes,
            variants: variants, assets: .empty)
        let compiled = try CompiledTheme(bytes: try ThemeWriter.encode(CompiledThemeContents(theme: theme)))
        #expect(try compiled.materialize() == theme)
        #expect(compiled.listPatchCount == 2)  // oneChanged, for x and for y
        #expect(compiled.operationListLength == 2 * (6 + 6 + 7))
        for traits in axes.traitSets {
            #expect(try compiled.operations(of: "x", for: traits) == variants[traits]![0].operations)
            #expect(try compiled.operations(of: "y", for: traits) == variants[traits]![1].operations)
        }
    }

    /// A record that two ids share is a base for the patches of either.
    @Test func aSharedRecordIsABaseForEveryIdSharingIt() throws {
        let base = (0..<4).map {
            ResolvedOperation(name: "op\($0)", params: [Param(name: "value", value: .float(Double($0)))])
        }
        var changed = base
        changed[3] = ResolvedOperation(name: "op3", params: [Param(name: "value", value: .float(30))])
        let theme = ThemeVariants(
            info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: TraitAxes(appearances: [.dark]),
            variants: [
                .none: [
                    ResolvedInstance(id: "a", component: "uiview", operations: base),
                    ResolvedInstance(id: "b", component: "uiview", operations: base),
                ],
                TraitSet(appearance: .dark): [
                    ResolvedInstance(id: "a", component: "uiview", operations: base),
                    ResolvedInstance(id: "b", component: "uiview", operations: changed),
                ],
            ],
            assets: .empty)
        let compiled = try CompiledTheme(bytes: try ThemeWriter.encode(CompiledThemeContents(theme: theme)))
        #expect(compiled.instanceRecordCount == 2)
        #expect(compiled.operationListLength == 4)
        #expect(compiled.listPatchCount == 1)
        #expect(try compiled.materialize() == theme)
    }

    @Test func assetsKeepBytesQualifiersAndTheCacheFlag() throws {
        let compiled = try CompiledTheme(bytes: bytes)
        let assets = compiled.assets
        #expect(assets.map(\.variant) == SampleThemes.assets.variants)
        for asset in assets {
            let key = asset.variant.fileKey
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

    /// Small files are read into memory, larger ones mapped (`CompiledTheme.readThreshold`):
    /// both ways give the same theme, the same facts, and the same refusals.
    @Test func readAndMappedFilesReadAlike() throws {
        let folder = NSTemporaryDirectory() + "livery-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wide = try ThemeWriter.encode(CompiledThemeContents(theme: SampleThemes.wide(instances: 2_000)))
        #expect(bytes.count <= CompiledTheme.readThreshold && wide.count > CompiledTheme.readThreshold)
        for (name, file) in [("small", bytes), ("large", wide)] {
            let path = folder + "/\(name).livery"
            try Data(file).write(to: URL(fileURLWithPath: path))
            let opened = try CompiledTheme(contentsOf: path)
            #expect(opened.isMapped == (file.count > CompiledTheme.readThreshold), "\(name)")
            let inMemory = try CompiledTheme(bytes: file)
            #expect(try opened.materialize() == inMemory.materialize(), "\(name)")
            #expect(try CompiledTheme.info(contentsOf: path) == inMemory.info, "\(name)")
            try opened.verifyContents()
            // Cut short and flipped, each way: refused by the full open, whichever way it read.
            try Data(file.prefix(file.count / 2)).write(to: URL(fileURLWithPath: path))
            #expect(throws: BinaryFormatError.self, "\(name) truncated") { try CompiledTheme(contentsOf: path) }
            var flipped = file
            flipped[Format.headerSize + 3] ^= 0x10
            try Data(flipped).write(to: URL(fileURLWithPath: path))
            #expect(throws: BinaryFormatError.self, "\(name) flipped") {
                try CompiledTheme(contentsOf: path).verifyContents()
            }
        }
        #expect(try !CompiledTheme(bytes: bytes).isMapped)
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
        infinite.theme.variants[.none]![0].operations[0].params[0].value = .color(
            Color(red: .infinity, green: 0, blue: 0))
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

/// Format 1.3, section 10: a file records its dimensions, app-defined ones included, and addresses
/// its variants through that record.
@Suite struct DimensionRecordTests {
    static let density = TraitDimension(name: "density", values: ["compact", "comfortable"])

    static func theme() throws -> CompiledThemeContents {
        let dimensions = try TraitDimensions(appDefined: [density])
        var axes = TraitAxes()
        axes.insert(try dimensions.traits(tags: ["rtl"]))
        axes.insert(try dimensions.traits(tags: ["comfortable"]))
        axes.insert(try dimensions.traits(tags: ["dark"]))
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        for (index, traits) in axes.traitSets.enumerated() {
            variants[traits] = [
                ResolvedInstance(
                    id: "a", component: "uiview",
                    operations: [
                        ResolvedOperation(name: "alpha", params: [Param(name: "value", value: .float(Double(index)))])
                    ])
            ]
        }
        let asset = AssetVariant(
            name: "arrow", themeID: "t", file: "arrow~rtl~comfortable.png",
            qualifiers: try dimensions.traits(tags: ["rtl", "comfortable"]), scale: 1)
        let theme = ThemeVariants(
            info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: axes, variants: variants,
            assets: AssetCatalog(searchOrder: ["t"], variants: [asset]), dimensions: dimensions)
        return CompiledThemeContents(theme: theme, assetBytes: [asset.fileKey: [1, 2, 3]])
    }

    @Test func appDefinedDimensionsAndDirectionRoundTrip() throws {
        let contents = try Self.theme()
        let compiled = try CompiledTheme(bytes: try ThemeWriter.encode(contents))
        #expect(compiled.dimensions == contents.theme.dimensions)
        #expect(compiled.dimensions.appDefined.map(\.name) == ["density"])
        #expect(compiled.axes == contents.theme.axes)
        #expect(compiled.variantTraits == contents.theme.axes.traitSets)
        #expect(try compiled.materialize() == contents.theme)
        #expect(compiled.assets.map(\.variant) == contents.theme.assets.variants)
        // A trait set names its variant through the record; values the theme never mentions drop.
        let dimensions = compiled.dimensions
        let running = try dimensions.traits(tags: ["ipad", "dark", "rtl", "comfortable", "largetext"])
        let expected = contents.theme.variants[contents.theme.axes.canonical(running)]
        #expect(try compiled.instance("a", for: running) == expected?.first)
        #expect(compiled.variantTraits.count == 2 * 2 * 2)
    }

    /// A dimension the file does not record cannot be written.
    @Test func anUnrecordedDimensionIsNotWritten() throws {
        var contents = try Self.theme()
        contents.theme.dimensions = .standard
        #expect(throws: BinaryFormatError.self) { try ThemeWriter.encode(contents) }
    }
}
