/// The device family a theme is resolved for (highest precedence dimension).
public enum Idiom: String, CaseIterable, Hashable, Sendable, Codable {
    case iphone, ipad, tv, mac, watch, car, vision
}

/// Light or dark mode.
public enum Appearance: String, CaseIterable, Hashable, Sendable, Codable {
    case light, dark
}

/// The accessibility contrast setting.
public enum Contrast: String, CaseIterable, Hashable, Sendable, Codable {
    case highcontrast
}

/// The user's text size (format 1.1, section 7.2): on when they picked an accessibility size.
/// The text *scale* is a number, not a trait (see `Font`).
public enum TextSize: String, CaseIterable, Hashable, Sendable, Codable {
    case largetext
}

/// The layout direction of the app's user interface language (format 1.3, section 10). The engine
/// mirrors nothing: a theme's `~rtl` layers say what changes.
public enum LayoutDirection: String, CaseIterable, Hashable, Sendable, Codable {
    case ltr, rtl
}

/// One trait dimension: its name and its values, which are qualifier tags, in order.
public struct TraitDimension: Hashable, Sendable, Codable {
    public let name: String
    public let values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    init<Value: CaseIterable & RawRepresentable<String>>(_ name: String, _ type: Value.Type) {
        self.init(name: name, values: type.allCases.map(\.rawValue))
    }
}

/// The trait dimensions in force, in precedence order (high to low): the five standard ones, then
/// the app's own, as its schema files declare them. Every list of tags, every enumeration of trait
/// sets and every specificity key follows from this one table.
public struct TraitDimensions: Hashable, Sendable, CustomStringConvertible {
    /// Every dimension, in precedence order.
    public let all: [TraitDimension]
    /// Each tag's dimension (its index in `all`) and value index.
    private let positions: [String: TraitPosition]

    /// The standard dimensions, first in precedence, at fixed indices.
    public static let standard = TraitDimensions(
        checked: [
            TraitDimension("idiom", Idiom.self), TraitDimension("appearance", Appearance.self),
            TraitDimension("contrast", Contrast.self), TraitDimension("textSize", TextSize.self),
            TraitDimension("direction", LayoutDirection.self),
        ])

    /// Indices of the standard dimensions in `all`.
    public static let idiom = 0, appearance = 1, contrast = 2, textSize = 3, direction = 4
    /// How many dimensions an app may add, and how many values each may have.
    public static let maximumAppDefined = 8, maximumValues = 16

    private init(checked all: [TraitDimension]) {
        self.all = all
        var positions: [String: TraitPosition] = [:]
        for (dimension, entry) in all.enumerated() {
            for (value, tag) in entry.values.enumerated() {
                positions[tag] = TraitPosition(dimension: dimension, value: value)
            }
        }
        self.positions = positions
    }

    /// Why a declared dimension is refused.
    public enum DeclarationError: Error, Hashable, Sendable, CustomStringConvertible {
        /// A name or value that is not `[a-z][a-z0-9]*`.
        case invalidWord(String)
        /// A dimension without values.
        case noValues(dimension: String)
        /// Two dimensions of one name (a standard name included).
        case duplicateName(String)
        /// A tag already used by another dimension, or twice by this one.
        case duplicateTag(String, first: String, second: String)
        case tooManyDimensions(Int)
        case tooManyValues(dimension: String, count: Int)

        public var description: String {
            switch self {
            case .invalidWord(let word): "'\(word)' is not a dimension name or value; use [a-z][a-z0-9]*"
            case .noValues(let dimension): "dimension '\(dimension)' has no values"
            case .duplicateName(let name): "dimension '\(name)' is declared twice"
            case .duplicateTag(let tag, let first, let second):
                first == second
                    ? "dimension '\(first)' lists '\(tag)' twice"
                    : "tag '\(tag)' of dimension '\(second)' is already a value of dimension '\(first)'"
            case .tooManyDimensions(let count):
                "\(count) app-defined dimensions; at most \(TraitDimensions.maximumAppDefined)"
            case .tooManyValues(let dimension, let count):
                "dimension '\(dimension)' has \(count) values; at most \(TraitDimensions.maximumValues)"
            }
        }
    }

    /// The standard dimensions followed by `appDefined`, in that order, after checking the rules of
    /// format 1.3, section 10.
    public init(appDefined: [TraitDimension]) throws(DeclarationError) {
        guard appDefined.count <= Self.maximumAppDefined else { throw .tooManyDimensions(appDefined.count) }
        var owners: [String: String] = [:]
        var names = Set(Self.standard.all.map(\.name))
        for entry in Self.standard.all { for tag in entry.values { owners[tag] = entry.name } }
        for entry in appDefined {
            guard Self.isWord(entry.name) else { throw .invalidWord(entry.name) }
            guard names.insert(entry.name).inserted else { throw .duplicateName(entry.name) }
            guard !entry.values.isEmpty else { throw .noValues(dimension: entry.name) }
            guard entry.values.count <= Self.maximumValues else {
                throw .tooManyValues(dimension: entry.name, count: entry.values.count)
            }
            for tag in entry.values {
                guard Self.isWord(tag) else { throw .invalidWord(tag) }
                if let owner = owners[tag] { throw .duplicateTag(tag, first: owner, second: entry.name) }
                owners[tag] = entry.name
            }
        }
        self.init(checked: Self.standard.all + appDefined)
    }

    /// `[a-z][a-z0-9]*`: a dimension name or value.
    public static func isWord(_ word: String) -> Bool {
        guard let first = word.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
            return false
        }
        return word.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
    }

    /// The dimensions after the standard ones.
    public var appDefined: ArraySlice<TraitDimension> { all[Self.standard.all.count...] }

    /// The index in `all` of the dimension called `name`.
    public func index(named name: String) -> Int? { all.firstIndex { $0.name == name } }

    /// Every tag a file name or `--traits` may use, in dimension order.
    public var knownTags: [String] { all.flatMap(\.values) }

    /// The dimension and value a tag (lowercased) stands for.
    public func position(of tag: String) -> TraitPosition? { positions[tag] }

    /// Parses tags such as `["iPad", "dark", "compact"]`, case-insensitively.
    public func traits(tags: some Sequence<some StringProtocol>) throws(TraitSet.TagError) -> TraitSet {
        var traits = TraitSet()
        for rawTag in tags {
            let tag = rawTag.lowercased()
            guard let position = positions[tag] else { throw .unknown(String(rawTag)) }
            if let existing = traits[position.dimension] {
                throw .conflict(all[position.dimension].values[existing], tag)
            }
            traits[position.dimension] = position.value
        }
        return traits
    }

    /// The tags of `traits` in dimension order, as `dump` lists them. A value this table does not
    /// know (a trait set made under other dimensions) shows as `dimension#value`.
    public func tags(of traits: TraitSet) -> [String] {
        var tags: [String] = []
        for dimension in 0..<TraitSet.capacity {
            guard let value = traits[dimension] else { continue }
            if dimension < all.count, value < all[dimension].values.count {
                tags.append(all[dimension].values[value])
            } else {
                tags.append("\(dimension < all.count ? all[dimension].name : "dimension\(dimension)")#\(value)")
            }
        }
        return tags
    }

    /// `traits` as its description says it, named by this table: `ipad,compact`, or `(no traits)`.
    public func description(of traits: TraitSet) -> String {
        let tags = tags(of: traits)
        return tags.isEmpty ? "(no traits)" : tags.joined(separator: ",")
    }

    /// Parses a `--traits` value: tags separated by commas (`ipad,dark`), blanks ignored. Every
    /// command and the studio parse trait lists here, and word its errors with `message(for:)`.
    public func traits(list text: String?) throws(TraitSet.TagError) -> TraitSet {
        try traits(
            tags: (text ?? "").split(separator: ",").map { tag in
                tag.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            }.filter { !$0.isEmpty }.map { String($0) })
    }

    /// One line for an unknown or conflicting tag, listing the known tags.
    public func message(for error: TraitSet.TagError) -> String {
        switch error {
        case .unknown(let tag): "unknown trait '\(tag)'; use \(knownTagsText)"
        case .conflict(let first, let second):
            "traits '\(first)' and '\(second)' are of one dimension; give at most one of each"
        }
    }

    /// The known tags dimension by dimension: `idiom: iphone, ipad, ...; appearance: light, dark; ...`.
    public var knownTagsText: String {
        all.map { "\($0.name): \($0.values.joined(separator: ", "))" }.joined(separator: "; ")
    }

    public var description: String {
        all.map { "\($0.name)(\($0.values.joined(separator: " ")))" }.joined(separator: " ")
    }

    public static func == (lhs: TraitDimensions, rhs: TraitDimensions) -> Bool { lhs.all == rhs.all }
    public func hash(into hasher: inout Hasher) { hasher.combine(all) }
}

/// Where a tag sits in the table: its dimension's index and its value's index.
public struct TraitPosition: Hashable, Sendable {
    public let dimension: Int
    public let value: Int
}

/// At most one value per dimension. Used both for the traits an app is running with and for the
/// qualifiers of a file or asset (`Chat~ipad~dark.xml` carries `{ipad, dark}`). A value is an index
/// into its dimension's values in a `TraitDimensions`; the standard dimensions have typed accessors.
public struct TraitSet: Hashable, Sendable, CustomStringConvertible {
    /// One field per dimension, holding the value index plus one (0: no value). The standard
    /// dimensions have 4 bits each, the app-defined ones 5: 5 × 4 + 8 × 5 = 60 bits.
    private var packed: UInt64

    /// How many dimensions a trait set can hold: the standard ones and the most an app may add.
    public static let capacity = 5 + TraitDimensions.maximumAppDefined

    @inline(__always) private static func field(_ dimension: Int) -> (shift: UInt64, mask: UInt64) {
        dimension < 5 ? (UInt64(4 * dimension), 0xF) : (UInt64(20 + 5 * (dimension - 5)), 0x1F)
    }

    public init() { packed = 0 }

    public init(
        idiom: Idiom? = nil, appearance: Appearance? = nil, contrast: Contrast? = nil,
        textSize: TextSize? = nil, direction: LayoutDirection? = nil
    ) {
        packed = 0
        self.idiom = idiom
        self.appearance = appearance
        self.contrast = contrast
        self.textSize = textSize
        self.direction = direction
    }

    /// The value index in dimension `dimension` (an index into `TraitDimensions.all`), or nil.
    public subscript(dimension: Int) -> Int? {
        @inline(__always) get {
            let (shift, mask) = Self.field(dimension)
            let code = Int((packed >> shift) & mask)
            return code == 0 ? nil : code - 1
        }
        set {
            let (shift, mask) = Self.field(dimension)
            precondition(newValue.map { $0 >= 0 && UInt64($0) < mask } ?? true, "trait value out of range")
            packed = packed & ~(mask << shift) | UInt64(newValue.map { $0 + 1 } ?? 0) << shift
        }
    }

    private func typed<Value: CaseIterable>(_ dimension: Int) -> Value? where Value.AllCases == [Value] {
        self[dimension].map { Value.allCases[$0] }
    }

    public var idiom: Idiom? {
        get { typed(TraitDimensions.idiom) }
        set { self[TraitDimensions.idiom] = newValue.flatMap { Idiom.allCases.firstIndex(of: $0) } }
    }
    public var appearance: Appearance? {
        get { typed(TraitDimensions.appearance) }
        set { self[TraitDimensions.appearance] = newValue.flatMap { Appearance.allCases.firstIndex(of: $0) } }
    }
    public var contrast: Contrast? {
        get { typed(TraitDimensions.contrast) }
        set { self[TraitDimensions.contrast] = newValue.flatMap { Contrast.allCases.firstIndex(of: $0) } }
    }
    public var textSize: TextSize? {
        get { typed(TraitDimensions.textSize) }
        set { self[TraitDimensions.textSize] = newValue.flatMap { TextSize.allCases.firstIndex(of: $0) } }
    }
    public var direction: LayoutDirection? {
        get { typed(TraitDimensions.direction) }
        set { self[TraitDimensions.direction] = newValue.flatMap { LayoutDirection.allCases.firstIndex(of: $0) } }
    }

    /// No traits at all: the generic layer.
    public static let none = TraitSet()

    /// Why a list of tags does not form a trait set (`TraitDimensions.message(for:)` words it).
    public enum TagError: Error, Hashable, Sendable {
        case unknown(String)
        /// Two tags of one dimension, e.g. `~light~dark` or `~ipad~ipad`.
        case conflict(String, String)
    }

    /// Parses standard tags such as `["iPad", "dark"]`, case-insensitively
    /// (`TraitDimensions.traits(tags:)` parses app-defined ones too).
    public init(tags: some Sequence<some StringProtocol>) throws(TagError) {
        self = try TraitDimensions.standard.traits(tags: tags)
    }

    /// Parses any tag of `dimensions`, case-insensitively.
    public init(tags: some Sequence<some StringProtocol>, dimensions: TraitDimensions) throws(TagError) {
        self = try dimensions.traits(tags: tags)
    }

    /// The tags in dimension order, named by the standard table (`TraitDimensions.tags(of:)` names
    /// app-defined values).
    public var tags: [String] { TraitDimensions.standard.tags(of: self) }

    /// Every standard tag, in dimension order.
    public static var knownTags: [String] { TraitDimensions.standard.knownTags }

    public var description: String { tags.isEmpty ? "(no traits)" : tags.joined(separator: ",") }

    /// Whether no dimension has a value.
    public var isEmpty: Bool { packed == 0 }

    /// A file or asset with these qualifiers applies when every one of its tags is active.
    public func applies(in active: TraitSet) -> Bool {
        var remaining = packed
        var dimension = 0
        while remaining != 0 {
            let (shift, mask) = Self.field(dimension)
            let code = (packed >> shift) & mask
            if code != 0, code != (active.packed >> shift) & mask { return false }
            remaining &= ~(mask << shift)
            dimension += 1
        }
        return true
    }

    /// The specificity key of the format (one boolean per dimension, in precedence order), as a
    /// number that compares the same way the tuple does lexicographically.
    public var specificity: Int {
        var key = 0
        for dimension in 0..<Self.capacity where self[dimension] != nil { key |= 1 << (Self.capacity - 1 - dimension) }
        return key
    }
}

/// The trait values a theme actually distinguishes. Any trait value a theme never mentions behaves
/// exactly like no value in that dimension, so resolving for every combination of these covers
/// every possible trait set (and `canonical(_:)` maps any trait set onto one of them).
public struct TraitAxes: Hashable, Sendable {
    /// Per dimension, bit v set when value v is mentioned.
    private var masks: [UInt16]

    public init() { masks = Array(repeating: 0, count: TraitSet.capacity) }

    public init(
        idioms: Set<Idiom> = [], appearances: Set<Appearance> = [], contrasts: Set<Contrast> = [],
        textSizes: Set<TextSize> = [], directions: Set<LayoutDirection> = []
    ) {
        self.init()
        for idiom in idioms { insert(TraitSet(idiom: idiom)) }
        for appearance in appearances { insert(TraitSet(appearance: appearance)) }
        for contrast in contrasts { insert(TraitSet(contrast: contrast)) }
        for textSize in textSizes { insert(TraitSet(textSize: textSize)) }
        for direction in directions { insert(TraitSet(direction: direction)) }
    }

    /// Every value of every dimension of `dimensions`: what you get when you know nothing about
    /// the theme.
    public static func all(_ dimensions: TraitDimensions) -> TraitAxes {
        var axes = TraitAxes()
        for (dimension, entry) in dimensions.all.enumerated() {
            for value in entry.values.indices { axes.insert(value, of: dimension) }
        }
        return axes
    }

    /// Every value of the standard dimensions.
    public static let all = TraitAxes.all(.standard)

    public mutating func insert(_ qualifiers: TraitSet) {
        for dimension in 0..<TraitSet.capacity {
            if let value = qualifiers[dimension] { insert(value, of: dimension) }
        }
    }

    public mutating func insert(_ value: Int, of dimension: Int) { masks[dimension] |= 1 << value }

    /// Whether value `value` of dimension `dimension` is mentioned.
    public func contains(_ value: Int, of dimension: Int) -> Bool { masks[dimension] & 1 << value != 0 }

    /// The values of dimension `dimension` mentioned, as bits (value v is bit v).
    public func mask(of dimension: Int) -> UInt16 { masks[dimension] }

    /// The values of dimension `dimension` mentioned, in value order.
    public func values(of dimension: Int) -> [Int] { (0..<16).filter { contains($0, of: dimension) } }

    /// The representative of `traits`: values this theme never mentions are dropped.
    public func canonical(_ traits: TraitSet) -> TraitSet {
        var result = traits
        for dimension in 0..<TraitSet.capacity {
            if let value = traits[dimension], !contains(value, of: dimension) { result[dimension] = nil }
        }
        return result
    }

    /// Every distinct trait set, the generic one first, in a stable order: the first dimension
    /// varies slowest, no value before the values in their order.
    public var traitSets: [TraitSet] {
        var result = [TraitSet.none]
        for dimension in 0..<TraitSet.capacity where masks[dimension] != 0 {
            let values = values(of: dimension)
            result = result.flatMap { base in
                [base]
                    + values.map { value in
                        var traits = base
                        traits[dimension] = value
                        return traits
                    }
            }
        }
        return result
    }
}
