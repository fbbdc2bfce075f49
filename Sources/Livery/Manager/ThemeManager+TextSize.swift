import LiveryModel

/// The user's text size (format 1.1, section 7.2): two settings that read like `setTraits`.
/// The text scale resizes fonts and selects nothing; the `largetext` trait selects the
/// `~largetext` files and assets and resizes nothing. An app usually sets both from one
/// preference (docs/Accessibility.md shows the UIKit and Android mappings).
extension ThemeManager {
    /// Sets the text scale, 0.5...4 (values outside are clamped). Applicators re-apply only the
    /// font operations whose applied values change: the size, `min(size x s, max-size)`, and the
    /// letter spacing, which grows with it (format 1.2; line height is a multiple of the size and
    /// stays as written). Fonts marked `scaling="fixed"`, fonts without a size, and fonts already
    /// at their `max-size` are not touched.
    public func setTextScale(_ textScale: Double) {
        let clamped = min(max(textScale, TextScale.range.lowerBound), TextScale.range.upperBound)
        guard clamped != self.textScale, clamped.isFinite else { return }
        self.textScale = clamped
        notify(Change(theme: false, traits: false, scale: false, reload: false, textScale: true))
    }

    /// Sets the text scale and turns the `largetext` trait on or off in one step, so observers
    /// re-apply once: what an app calls when the user's text-size preference changes.
    public func setTextSize(scale textScale: Double, largeText: Bool) {
        let clamped = min(max(textScale, TextScale.range.lowerBound), TextScale.range.upperBound)
        var traits = self.traits
        traits.textSize = largeText ? .largetext : nil
        let change = Change(
            theme: false, traits: traits != self.traits, scale: false, reload: false,
            textScale: clamped.isFinite && clamped != self.textScale)
        guard change.traits || change.textScale else { return }
        self.traits = traits
        if change.textScale { self.textScale = clamped }
        notify(change)
    }
}

extension ResolvedTheme {
    /// The theme with every font sized (and its letter spacing scaled) as applied at `textScale`
    /// (max-size and `fixed` respected). At the standard scale it is the theme itself, untouched.
    func applyingTextScale(_ textScale: Double) -> ResolvedTheme {
        guard textScale != TextScale.standard else { return self }
        var theme = self
        theme.instances = instances.map { $0.applyingTextScale(textScale) }
        return theme
    }
}

extension ResolvedInstance {
    /// The instance with every font sized as applied at `textScale`; itself at the standard scale.
    func applyingTextScale(_ textScale: Double) -> ResolvedInstance {
        guard textScale != TextScale.standard else { return self }
        var instance = self
        for operation in instance.operations.indices {
            for param in instance.operations[operation].params.indices {
                if let scaled = instance.operations[operation].params[param].value.applyingTextScale(textScale) {
                    instance.operations[operation].params[param].value = scaled
                }
            }
        }
        return instance
    }
}

extension Value {
    /// The value with its fonts (also inside arrays) at `textScale`; nil when it holds no font.
    func applyingTextScale(_ textScale: Double) -> Value? {
        switch self {
        case .font(let font): return .font(font.applied(textScale: textScale))
        case .array(let items):
            let scaled = items.map { $0.applyingTextScale(textScale) }
            guard scaled.contains(where: { $0 != nil }) else { return nil }
            return .array(zip(items, scaled).map { $1 ?? $0 })
        default: return nil
        }
    }
}
