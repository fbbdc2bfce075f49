import LiveryModel

/// The contrast checks of format 1.1, section 7.3: every text colour of a resolved instance
/// against the same instance's opaque background, for every trait set and every state except
/// `disabled`. Shortfalls are gathered over all trait sets, then reported once per (instance,
/// foreground operation, state), at the foreground operation the first short trait set uses.
final class ContrastCheck {
    private let schema: Schema
    private var shortfalls: [Key: Shortfall] = [:]
    private var order: [Key] = []

    private struct Key: Hashable {
        var instance: String
        var operation: OperationKey
    }

    private struct Shortfall {
        var location: SourceLocation
        var traitSets: [TraitSet]
        /// The trait set that falls furthest short (largest required / ratio), for the message.
        var worst: Measure
    }

    private struct Measure {
        var traits: TraitSet
        var ratio: Double
        var required: Double
        var largeText: Bool
        var foreground: Color
        var background: Color
        var backgroundOperation: String
        var shortness: Double { required / ratio }
    }

    /// The theme checked: named in findings located in an ancestor's files, whose colours may
    /// be this theme's (constants bind late), so each child's finding says whose it is.
    private let themeID: String
    private let themePath: String
    /// The theme's dimensions, which name its trait sets.
    var dimensions = TraitDimensions.standard

    init(schema: Schema, themeID: String, themePath: String) {
        self.schema = schema
        self.themeID = themeID
        self.themePath = themePath
    }

    /// The text colours an instance draws and the backgrounds they are drawn on, with their
    /// ratios: what does not depend on the trait set, worked out once per resolved instance.
    struct Pairs {
        struct Pair {
            var index: Int
            var foreground: Color
            var background: Color
            var backgroundOperation: String
            var ratio: Double
        }
        var largeText = false
        var pairs: [Pair] = []
    }

    static func pairs(of instance: ResolvedInstance, schema: Schema) -> Pairs {
        // This runs for every instance resolved afresh: the component's operations are looked up
        // once, only operations with a colour are looked up in them, and the few backgrounds (one
        // per state at most) are a list, not a table allocated per instance.
        var texts: [(Int, Color)] = []
        var backgrounds: [(state: ControlState, color: Color, operation: String)] = []
        var font: Font?
        var titleFont: Font?
        let signatures = schema.operations(of: instance.component)
        for (index, operation) in instance.operations.enumerated() {
            switch operation.name {
            case "font": if case .font(let value)? = operation.params.first?.value { font = value }
            case "titleFont": if case .font(let value)? = operation.params.first?.value { titleFont = value }
            default: break
            }
            guard
                operation.params.contains(where: {
                    if case .color = $0.value { return true }
                    return false
                }), let signature = signatures?[operation.name]
            else { continue }
            for param in operation.params {
                guard case .color(let color) = param.value,
                    let role = signature.params.first(where: { $0.name == param.name })?.role
                else { continue }
                switch role {
                case .textColor: texts.append((index, color))
                case .backgroundColor:
                    // the first background of a state stands
                    if !backgrounds.contains(where: { $0.state == operation.state }) {
                        backgrounds.append((operation.state, color, operation.name))
                    }
                }
            }
        }
        var result = Pairs()
        guard !texts.isEmpty, !backgrounds.isEmpty else { return result }
        result.largeText = ContrastRatio.isLargeText(font ?? titleFont)
        for (index, foreground) in texts {
            let operation = instance.operations[index]
            // WCAG exempts inactive controls.
            guard operation.state != .disabled,
                let (_, background, backgroundOperation) = backgrounds.first(where: { $0.state == operation.state })
                    ?? backgrounds.first(where: { $0.state == .normal }),
                background.alpha >= 1
            else { continue }
            result.pairs.append(
                Pairs.Pair(
                    index: index, foreground: foreground, background: background,
                    backgroundOperation: backgroundOperation,
                    ratio: ContrastRatio.ratio(foreground, on: background)))
        }
        return result
    }

    /// Checks one instance as resolved for `traits`, given its `pairs`; `sources` are the
    /// operations as written, one per resolved operation, for locating a finding.
    func check(_ instance: ResolvedInstance, pairs: Pairs, sources: [OperationSyntax], traits: TraitSet) {
        guard !pairs.pairs.isEmpty else { return }
        let required = ContrastRatio.required(largeText: pairs.largeText, highContrast: traits.contrast != nil)
        for pair in pairs.pairs where pair.ratio < required {
            let operation = instance.operations[pair.index]
            let measure = Measure(
                traits: traits, ratio: pair.ratio, required: required, largeText: pairs.largeText,
                foreground: pair.foreground, background: pair.background,
                backgroundOperation: pair.backgroundOperation)
            let key = Key(instance: instance.id, operation: operation.key)
            if var known = shortfalls[key] {
                known.traitSets.append(traits)
                if measure.shortness > known.worst.shortness { known.worst = measure }
                shortfalls[key] = known
            } else {
                shortfalls[key] = Shortfall(location: sources[pair.index].location, traitSets: [traits], worst: measure)
                order.append(key)
            }
        }
    }

    /// One `contrast-low` warning per (instance, foreground operation, state).
    func diagnostics() -> [Diagnostic] {
        order.map { key in
            let shortfall = shortfalls[key]!
            let worst = shortfall.worst
            let kind = worst.largeText ? "large text" : "normal text"
            let under = worst.traits.contrast == nil ? "" : " under highcontrast"
            let fix =
                ContrastRatio.nearestPassing(worst.foreground, on: worst.background, required: worst.required)
                .map { "the nearest colour of the same hue that passes is \($0.hexString)" }
                ?? "no colour of this hue reaches it on this background; change the background"
            let sets = shortfall.traitSets.map(dimensions.description(of:)).joined(separator: "; ")
            let worstTraits =
                shortfall.traitSets.count < 2
                ? ""
                : worst.traits.isEmpty
                    ? " at worst (no traits)" : " at worst (\(dimensions.description(of: worst.traits)))"
            let inherited = shortfall.location.file.hasPrefix(themePath + "/") ? "" : " in theme \(themeID)"
            let message =
                "\(key.operation.name) \(worst.foreground.hexString) of '\(key.instance)'\(inherited) (state \(key.operation.state)) on its \(worst.backgroundOperation) \(worst.background.hexString) has contrast \(ContrastRatio.text(worst.ratio, required: worst.required)):1\(worstTraits), below the \(ValueText.number(worst.required)):1 WCAG 2.2 asks of \(kind)\(under); \(fix); short with traits: \(sets)"
            return .warning(.contrastLow, message, at: shortfall.location)
        }
    }
}
