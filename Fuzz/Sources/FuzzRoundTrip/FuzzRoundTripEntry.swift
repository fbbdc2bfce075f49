// The whole of fuzz target (3), FuzzRoundTrip, as a function: Fuzz/Sources/FuzzRoundTrip/main.swift
// calls it for libFuzzer and Tests/LiveryBinaryTests/FuzzRegressionTests.swift replays
// Tests/Fixtures/Regressions/FuzzRoundTrip through it (this file is linked there).
//
// a theme model generated from the bytes is compiled and read back; the result
// must equal the model (values, chain, digests, assets and their bytes), every id must be found by
// its own lookup, and the writer's output must pass the on-demand content checks. The writer may
// refuse a model it cannot store (`unencodable`), never write one the reader then rejects.
import LiveryBinary
import LiveryModel

enum FuzzRoundTripEntry {
    /// Reads the fuzzer's bytes as decisions; past the end every read is zero.
    struct Decisions {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        mutating func byte() -> UInt8 {
            guard position < bytes.count else { return 0 }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func below(_ count: Int) -> Int { count <= 1 ? 0 : Int(byte()) % count }
        mutating func flag() -> Bool { byte() & 1 == 1 }

        mutating func u64() -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
            return value
        }

        static let interesting: [Double] = [
            0, -0.0, 1, -1, 0.5, 1e-300, -1e300, .greatestFiniteMagnitude,
            .leastNonzeroMagnitude, -.leastNormalMagnitude, 255, 1.0 / 3,
        ]

        mutating func double() -> Double {
            if flag() { return Self.interesting[below(Self.interesting.count)] }
            let value = Double(bitPattern: u64())
            return value.isFinite ? value : Double(byte())
        }

        static let words = [
            "", "a", "button_send", "é", "e\u{301}", "\u{0}", "💥", "com.acme.base", "normal",
            "highlighted", "color", "x y", "\u{FFFD}", String(repeating: "long", count: 40),
        ]

        mutating func string() -> String {
            switch below(3) {
            case 0: return Self.words[below(Self.words.count)]
            case 1: return "s\(below(16))"
            default:
                let count = below(24)
                return String(decoding: (0..<count).map { _ in byte() }, as: UTF8.self)
            }
        }

        mutating func optional<T>(_ make: (inout Decisions) -> T) -> T? { flag() ? make(&self) : nil }

        mutating func traits() -> TraitSet {
            TraitSet(
                idiom: optional { $0.pick(Idiom.allCases) }, appearance: optional { $0.pick(Appearance.allCases) },
                contrast: optional { $0.pick(Contrast.allCases) })
        }

        mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

        mutating func value(depth: Int) -> Value {
            switch below(depth < 20 ? 13 : 12) {
            case 0: return .float(double())
            case 1: return .integer(Int64(bitPattern: u64()))
            case 2: return .bool(flag())
            case 3: return .string(string())
            case 4: return .color(Color(red: double(), green: double(), blue: double(), alpha: double()))
            case 5: return .point(Point(x: double(), y: double()))
            case 6: return .size(Size(width: double(), height: double()))
            case 7: return .rect(Rect(x: double(), y: double(), width: double(), height: double()))
            case 8: return .insets(Insets(top: double(), left: double(), bottom: double(), right: double()))
            case 9:
                return .font(Font(family: string(), size: optional { $0.double() }, weight: pick(FontWeight.allCases)))
            case 10: return .image(ImageReference(name: string(), cache: flag()))
            case 11: return .enumeration(string())
            default: return .array((0..<below(5)).map { _ in value(depth: depth + 1) })
            }
        }

        mutating func operation() -> ResolvedOperation {
            ResolvedOperation(
                name: string(), state: pick(ControlState.all),
                params: (0..<below(4)).map { _ in Param(name: string(), value: value(depth: 0)) })
        }

        mutating func instance() -> ResolvedInstance {
            ResolvedInstance(id: string(), component: string(), operations: (0..<below(5)).map { _ in operation() })
        }

        mutating func info() -> ThemeInfo {
            ThemeInfo(
                id: string(), name: string(), version: string(), parent: optional { $0.string() },
                description: optional { $0.string() })
        }
    }

    static func run(_ buffer: UnsafeBufferPointer<UInt8>) {
        var input = Decisions(bytes: buffer)
        let info = input.info()
        let ancestors = (0..<input.below(3)).map { _ in input.info() }
        var axes = TraitAxes()
        for _ in 0..<input.below(4) { axes.insert(input.traits()) }

        // A pool of instances shared between variants, so deduplication has work to do.
        let pool = (0..<(1 + input.below(6))).map { _ in input.instance() }
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        for traits in axes.traitSets {
            var seen: Set<String> = []
            var instances: [ResolvedInstance] = []
            for _ in 0..<input.below(6) {
                let instance = input.flag() ? input.pick(pool) : input.instance()
                if seen.insert(instance.id).inserted { instances.append(instance) }
            }
            variants[traits] = instances.sorted { $0.id < $1.id }
        }

        let chainIDs = ancestors.map(\.id) + [info.id]
        var assetVariants: [AssetVariant] = []
        var assetBytes: [AssetFileKey: [UInt8]] = [:]
        for _ in 0..<input.below(4) {
            let variant = AssetVariant(
                name: input.string(), themeID: input.pick(chainIDs), file: input.string(),
                qualifiers: input.traits(), scale: 1 + input.below(4))
            assetVariants.append(variant)
            assetBytes[variant.fileKey] = (0..<input.below(40)).map { _ in input.byte() }
        }
        var digests: [String: SourceDigest] = [:]
        for id in chainIDs where input.flag() {
            digests[id] = SourceDigest(bytes: (0..<32).map { _ in input.byte() })
        }
        let theme = ThemeVariants(
            info: info, ancestors: ancestors, axes: axes, variants: variants,
            assets: AssetCatalog(searchOrder: chainIDs.reversed(), variants: assetVariants))
        let contents = CompiledThemeContents(theme: theme, sourceDigests: digests, assetBytes: assetBytes)

        let bytes: [UInt8]
        do {
            bytes = try ThemeWriter.encode(contents)
        } catch {
            guard case .unencodable = error else { fatalError("the writer failed with \(error)") }
            return
        }
        let compiled: CompiledTheme
        do {
            compiled = try CompiledTheme(bytes: bytes)
            try compiled.verifyContents()
        } catch {
            fatalError("the reader rejects what the writer wrote: \(error)")
        }
        let readBack: ThemeVariants
        do {
            readBack = try compiled.materialize()
        } catch {
            fatalError("materialising a written file failed: \(error)")
        }
        FuzzCheck.require(readBack == theme, "read back \(readBack)\nwritten \(theme)")
        for entry in compiled.chain {
            FuzzCheck.require(entry.sourceDigest == digests[entry.info.id], "digest of \(entry.info.id) changed")
        }
        for asset in compiled.assets {
            let key = asset.variant.fileKey
            FuzzCheck.require(
                compiled.bytes(of: asset) == assetBytes[key], "bytes of asset \(asset.variant.file) changed")
        }
        for (traits, instances) in variants {
            for instance in instances {
                FuzzCheck.require(
                    (try? compiled.instance(instance.id, for: traits)) == instance,
                    "lookup of '\(instance.id)' in \(traits)")
            }
        }
        return
    }
}
