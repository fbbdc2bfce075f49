/// The device family a theme is resolved for (highest precedence dimension).
public enum Idiom: String, CaseIterable, Hashable, Sendable {
    case iphone, ipad, tv, mac, watch, car, vision
}

/// Light or dark mode.
public enum Appearance: String, CaseIterable, Hashable, Sendable {
    case light, dark
}

/// The accessibility contrast setting.
public enum Contrast: String, CaseIterable, Hashable, Sendable {
    case highcontrast
}

/// The user's text size (format 1.1, section 7.2): on when they picked an accessibility size.
/// The lowest-precedence dimension; the text *scale* is a number, not a trait (see `Font`).
public enum TextSize: String, CaseIterable, Hashable, Sendable {
    case largetext
}

/// At most one value per dimension. Used both for the traits an app is running with and for the
/// qualifiers of a file or asset (`Chat~ipad~dark.xml` carries `{ipad, dark}`).
public struct TraitSet: Hashable, Sendable, CustomStringConvertible {
    public var idiom: Idiom?
    public var appearance: Appearance?
    public var contrast: Contrast?
    public var textSize: TextSize?

    public init(
        idiom: Idiom? = nil, appearance: Appearance? = nil, contrast: Contrast? = nil,
        textSize: TextSize? = nil
    ) {
        self.idiom = idiom
        self.appearance = appearance
        self.contrast = contrast
        self.textSize = textSize
    }

    /// No traits at all: the generic layer.
    public static let none = TraitSet()

    /// Why a list of tags does not form a trait set.
    public enum TagError: Error, Hashable, Sendable {
        case unknown(String)
        /// Two tags of one dimension, e.g. `~light~dark` or `~ipad~ipad`.
        case conflict(String, String)
    }

    /// Parses tags such as `["iPad", "dark"]`, case-insensitively.
    public init(tags: some Sequence<some StringProtocol>) throws(TagError) {
        self.init()
        for rawTag in tags {
            let tag = rawTag.lowercased()
            if let idiom = Idiom(rawValue: tag) {
                if let existing = self.idiom { throw .conflict(existing.rawValue, tag) }
                self.idiom = idiom
            } else if let appearance = Appearance(rawValue: tag) {
                if let existing = self.appearance { throw .conflict(existing.rawValue, tag) }
                self.appearance = appearance
            } else if let contrast = Contrast(rawValue: tag) {
                if let existing = self.contrast { throw .conflict(existing.rawValue, tag) }
                self.contrast = contrast
            } else if let textSize = TextSize(rawValue: tag) {
                if let existing = self.textSize { throw .conflict(existing.rawValue, tag) }
                self.textSize = textSize
            } else {
                throw .unknown(String(rawTag))
            }
        }
    }

    /// The tags in dimension order (idiom, appearance, contrast, text size), as `dump` lists them.
    public var tags: [String] {
        [idiom?.rawValue, appearance?.rawValue, contrast?.rawValue, textSize?.rawValue].compactMap { $0 }
    }

    /// Every tag a file name or `--traits` may use, in dimension order.
    public static let knownTags: [String] =
        Idiom.allCases.map(\.rawValue) + Appearance.allCases.map(\.rawValue)
        + Contrast.allCases.map(\.rawValue) + TextSize.allCases.map(\.rawValue)

    public var description: String { tags.isEmpty ? "(no traits)" : tags.joined(separator: ",") }

    /// A file or asset with these qualifiers applies when every one of its tags is active.
    public func applies(in active: TraitSet) -> Bool {
        (idiom == nil || idiom == active.idiom)
            && (appearance == nil || appearance == active.appearance)
            && (contrast == nil || contrast == active.contrast)
            && (textSize == nil || textSize == active.textSize)
    }

    /// The specificity key of the format (has idiom, has appearance, has contrast, has text
    /// size), as a number that compares the same way the tuple does lexicographically.
    public var specificity: Int {
        (idiom != nil ? 8 : 0) + (appearance != nil ? 4 : 0) + (contrast != nil ? 2 : 0) + (textSize != nil ? 1 : 0)
    }
}

/// The trait values a theme actually distinguishes. Any trait value a theme never mentions behaves
/// exactly like no value in that dimension, so resolving for every combination of these covers
/// every possible trait set (and `canonical(_:)` maps any trait set onto one of them).
public struct TraitAxes: Hashable, Sendable {
    public var idioms: Set<Idiom>
    public var appearances: Set<Appearance>
    public var contrasts: Set<Contrast>
    public var textSizes: Set<TextSize>

    public init(
        idioms: Set<Idiom> = [], appearances: Set<Appearance> = [], contrasts: Set<Contrast> = [],
        textSizes: Set<TextSize> = []
    ) {
        self.idioms = idioms
        self.appearances = appearances
        self.contrasts = contrasts
        self.textSizes = textSizes
    }

    /// Every axis value: what you get when you know nothing about the theme.
    public static let all = TraitAxes(
        idioms: Set(Idiom.allCases), appearances: Set(Appearance.allCases), contrasts: Set(Contrast.allCases),
        textSizes: Set(TextSize.allCases))

    public mutating func insert(_ qualifiers: TraitSet) {
        if let idiom = qualifiers.idiom { idioms.insert(idiom) }
        if let appearance = qualifiers.appearance { appearances.insert(appearance) }
        if let contrast = qualifiers.contrast { contrasts.insert(contrast) }
        if let textSize = qualifiers.textSize { textSizes.insert(textSize) }
    }

    /// The representative of `traits`: values this theme never mentions are dropped.
    public func canonical(_ traits: TraitSet) -> TraitSet {
        TraitSet(
            idiom: traits.idiom.flatMap { idioms.contains($0) ? $0 : nil },
            appearance: traits.appearance.flatMap { appearances.contains($0) ? $0 : nil },
            contrast: traits.contrast.flatMap { contrasts.contains($0) ? $0 : nil },
            textSize: traits.textSize.flatMap { textSizes.contains($0) ? $0 : nil })
    }

    /// Every distinct trait set, the generic one first, in a stable order.
    public var traitSets: [TraitSet] {
        let idiomValues: [Idiom?] = [nil] + Idiom.allCases.filter(idioms.contains)
        let appearanceValues: [Appearance?] = [nil] + Appearance.allCases.filter(appearances.contains)
        let contrastValues: [Contrast?] = [nil] + Contrast.allCases.filter(contrasts.contains)
        let textSizeValues: [TextSize?] = [nil] + TextSize.allCases.filter(textSizes.contains)
        var result: [TraitSet] = []
        for idiom in idiomValues {
            for appearance in appearanceValues {
                for contrast in contrastValues {
                    for textSize in textSizeValues {
                        result.append(
                            TraitSet(idiom: idiom, appearance: appearance, contrast: contrast, textSize: textSize))
                    }
                }
            }
        }
        return result
    }
}
