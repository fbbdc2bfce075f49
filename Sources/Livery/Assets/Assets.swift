import Foundation
import LiveryModel

/// Reads the bytes of asset files. A theme loader supplies one per loaded theme: a folder reads
/// from disk, a compiled file from its own storage, a test from memory.
public protocol AssetSource: Sendable {
    /// The bytes of `variant.file` in the theme `variant.themeID`, or nil when unavailable.
    func data(for variant: AssetVariant) -> Data?
}

/// Turns asset bytes into the app's image type (e.g. `UIImage(data:scale:)`). Headless apps and
/// tests need none: the image then carries only its bytes.
public typealias ImageDecoder = @Sendable (_ data: Data, _ variant: AssetVariant) -> (any Sendable)?

/// An image ready for a setter: which file it came from, its bytes and, when the app installed
/// an `ImageDecoder`, the decoded image.
public final class ThemeImage: Sendable, CustomStringConvertible {
    /// The asset's name as the theme writes it (`bubble`).
    public let name: String
    /// The theme whose folder (or compiled file) supplied the file.
    public let themeID: String
    /// Relative to that theme, e.g. `assets/bubble@2x.png`.
    public let file: String
    /// The scale of the file's variant (2 for `bubble@2x.png`).
    public let scale: Int
    /// The file's bytes.
    public let data: Data
    /// What the app's decoder made of `data`, kept untyped: the applicator serves every binding.
    private let decodedImage: (any Sendable)?

    /// An image of the given file; `decoded` is what an `ImageDecoder` made of `data`.
    public init(name: String, themeID: String, file: String, scale: Int, data: Data, decoded: (any Sendable)? = nil) {
        self.name = name
        self.themeID = themeID
        self.file = file
        self.scale = scale
        self.data = data
        self.decodedImage = decoded
    }

    /// What the app's `ImageDecoder` made of `data`, as the type it makes, e.g.
    /// `image.decoded(as: UIImage.self)`; nil without a decoder, when decoding failed, or when
    /// the decoder makes another type.
    public func decoded<Image>(as type: Image.Type = Image.self) -> Image? {
        decodedImage as? Image
    }

    public var description: String { "\(name) (\(themeID):\(file))" }
}

/// Reads asset files from theme folders on disk. `roots` maps a theme id to its folder.
public struct FolderAssetSource: AssetSource {
    /// Theme ids to their folders.
    public var roots: [String: String]
    /// A source reading the themes' folders given by id.
    public init(roots: [String: String]) { self.roots = roots }

    public func data(for variant: AssetVariant) -> Data? {
        guard let root = roots[variant.themeID] else { return nil }
        // The catalog only names files inside `assets/`; refuse anything that climbs out anyway.
        guard !variant.file.split(separator: "/").contains("..") else { return nil }
        return FileManager.default.contents(atPath: root + "/" + variant.file)
    }
}

/// Assets held in memory, by file: for tests and generated themes.
public struct InMemoryAssetSource: AssetSource {
    /// The bytes of each asset file.
    public var files: [AssetFileKey: Data]
    /// A source serving the given files.
    public init(files: [AssetFileKey: Data] = [:]) { self.files = files }
    public func data(for variant: AssetVariant) -> Data? { files[variant.fileKey] }
}

/// Decoded images that themes marked `cache="true"`, shared by every component that shows them.
/// Bounded by count and by bytes (least recently used goes first) and emptied on every theme
/// switch, so a theme's images never outlive it.
@MainActor
public final class ImageCache {
    private struct Entry {
        var image: ThemeImage
        var lastUse: UInt64
    }

    /// The most images kept at once.
    public let maximumCount: Int
    /// The most bytes of image files kept at once.
    public let maximumBytes: Int
    /// The bytes of the images kept now.
    public private(set) var totalBytes = 0
    /// Counters for tests and tuning: a hit is an image served without reading its file.
    public private(set) var hits = 0
    /// Images that had to be read and decoded.
    public private(set) var misses = 0
    private var entries: [AssetFileKey: Entry] = [:]
    private var clock: UInt64 = 0

    /// A cache bounded by count and bytes (each at least 1).
    public init(maximumCount: Int = 64, maximumBytes: Int = 32 << 20) {
        self.maximumCount = max(1, maximumCount)
        self.maximumBytes = max(1, maximumBytes)
    }

    /// The number of images kept now.
    public var count: Int { entries.count }

    func image(for key: AssetFileKey) -> ThemeImage? {
        clock += 1
        guard let entry = entries[key] else {
            misses += 1
            return nil
        }
        hits += 1
        entries[key]?.lastUse = clock
        return entry.image
    }

    func insert(_ image: ThemeImage, for key: AssetFileKey) {
        // An image larger than the whole budget is served but never kept.
        guard image.data.count <= maximumBytes else { return }
        clock += 1
        if let old = entries.removeValue(forKey: key) { totalBytes -= old.image.data.count }
        while !entries.isEmpty, entries.count >= maximumCount || totalBytes + image.data.count > maximumBytes {
            evictLeastRecentlyUsed()
        }
        entries[key] = Entry(image: image, lastUse: clock)
        totalBytes += image.data.count
    }

    /// Linear in the cache's size, which is bounded and small; eviction is rare next to hits.
    private func evictLeastRecentlyUsed() {
        guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { return }
        totalBytes -= entries.removeValue(forKey: oldest)?.image.data.count ?? 0
    }

    /// Empties the cache (the applicator does on every theme switch).
    public func removeAll() {
        entries.removeAll()
        totalBytes = 0
    }
}

/// Resolves image references of one theme (for its traits and scale) during apply passes.
/// Images not marked for caching are read once per pass, however many components show them.
@MainActor
final class ImageLoader {
    let theme: ResolvedTheme
    let scale: Int
    let source: (any AssetSource)?
    let decoder: ImageDecoder?
    // Unowned. Invariant that makes that safe: a loader belongs to one prepared theme, which
    // only its applicator holds (its cache of prepared themes and its scopes); the applicator
    // holds the image cache and the manager whose hook this is, so both outlive the loader.
    unowned let cache: ImageCache
    unowned let diagnostics: DiagnosticHook
    // Invariant that makes the unchecked access safe: main actor only, and no access spans a
    // call out; `endPass` runs after every registration (`livery-switch-bench` registration).
    @exclusivity(unchecked) private var passImages: [AssetFileKey: ThemeImage] = [:]

    init(
        theme: ResolvedTheme, scale: Int, source: (any AssetSource)?, decoder: ImageDecoder?,
        cache: ImageCache, diagnostics: DiagnosticHook
    ) {
        self.theme = theme
        self.scale = scale
        self.source = source
        self.decoder = decoder
        self.cache = cache
        self.diagnostics = diagnostics
    }

    /// Forgets the previous pass's uncached images: "not cached" means loaded when applied.
    func endPass() {
        if !passImages.isEmpty { passImages.removeAll(keepingCapacity: true) }
    }

    /// The file the format's rule picks, for diffing: the same name can mean another file
    /// after a theme, trait or scale change.
    func variant(_ reference: ImageReference) -> AssetVariant? {
        Self.variant(reference, of: theme, scale: scale)
    }

    /// The same, for a theme prepared on another thread (`InstancePreparer`).
    nonisolated static func variant(_ reference: ImageReference, of theme: ResolvedTheme, scale: Int) -> AssetVariant? {
        theme.assets.select(reference.name, traits: theme.traits, scale: scale)
    }

    func image(_ reference: ImageReference) -> ThemeImage? {
        guard let variant = variant(reference) else {
            unavailable(reference, "no file of the theme matches traits \(theme.traits) at scale \(scale)")
            return nil
        }
        let key = variant.fileKey
        if reference.cache, let image = cache.image(for: key) { return image }
        if !reference.cache, let image = passImages[key] { return image }
        guard let data = source?.data(for: variant) else {
            unavailable(reference, "\(variant.themeID):\(variant.file) cannot be read")
            return nil
        }
        let image = ThemeImage(
            name: reference.name, themeID: variant.themeID, file: variant.file,
            scale: variant.scale, data: data, decoded: decoder?(data, variant))
        if reference.cache { cache.insert(image, for: key) } else { passImages[key] = image }
        return image
    }

    private func unavailable(_ reference: ImageReference, _ reason: String) {
        diagnostics.report(
            .warning(
                .runtimeAssetUnavailable,
                "image '\(reference.name)' of theme \(theme.info.id): \(reason); the setter is skipped",
                at: nil),
            finding: .unavailableAsset(
                themeID: theme.info.id, traits: theme.traits, scale: scale, image: reference.name))
    }
}
