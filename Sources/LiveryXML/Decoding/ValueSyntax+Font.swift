import LiveryModel

// Fonts: the attributes of a font element, each checked, with the CSS habits a designer brings.
extension ValueSyntax {
    /// CSS's numeric weights 100-900, in order.
    static let cssWeights: [FontWeight] = [
        .ultralight, .thin, .light, .regular, .medium, .semibold, .bold, .heavy, .black,
    ]

    static func font(
        family: String?, size: String?, weight: String?, maxSize: String? = nil,
        scaling: String? = nil, letterSpacing: String? = nil, lineHeight: String? = nil
    ) -> Parsed<Font> {
        guard let family, !trimmed(family).isEmpty else {
            return .failure(Problem(message: "a font needs a family, e.g. <font family=\"Helvetica\" size=\"17\"/>"))
        }
        var points: Double?
        if let size {
            switch float(size) {
            case .success(let value) where value > 0: points = value
            case .success:
                return .failure(Problem(message: "a font size must be greater than 0, found '\(trimmed(size))'"))
            case .failure(let problem):
                if let plain = plainNumber(size, for: "a font's size") { return .failure(plain) }
                return .failure(Problem(message: "size: \(problem.message)", fix: problem.fix))
            }
        }
        var fontWeight = FontWeight.regular
        if let weight {
            switch namedWeight(weight) {
            case .success(let parsed): fontWeight = parsed
            case .failure(let problem): return .failure(problem)
            }
        }
        var limit: Double?
        if let maxSize {
            switch float(maxSize) {
            case .success(let value) where value > 0 && value >= (points ?? 0): limit = value
            case .success(let value) where value > 0:
                return .failure(
                    Problem(
                        message:
                            "max-size \(ValueText.number(value)) is smaller than size \(ValueText.number(points ?? 0)); give a max-size of at least the size"
                    ))
            case .success:
                return .failure(
                    Problem(message: "a font's max-size must be greater than 0, found '\(trimmed(maxSize))'"))
            case .failure(let problem):
                if let plain = plainNumber(maxSize, for: "max-size") { return .failure(plain) }
                return .failure(Problem(message: "max-size: \(problem.message)", fix: problem.fix))
            }
        }
        var fontScaling: FontScaling?
        if let scaling {
            guard let parsed = FontScaling(rawValue: String(trimmed(scaling))) else {
                return .failure(
                    Problem(message: "unknown font scaling '\(scaling)'; use scaled (the default) or fixed"))
            }
            fontScaling = parsed
        }
        // Format 1.2 (section 8): both optional, a 0 written is kept apart from absent.
        var spacing: Double?
        if let letterSpacing {
            switch Self.letterSpacing(letterSpacing, points: points) {
            case .success(let value): spacing = value
            case .failure(let problem): return .failure(problem)
            }
        }
        var multiple: Double?
        if let lineHeight {
            switch float(lineHeight) {
            case .success(let value) where value >= 0: multiple = value
            case .success:
                return .failure(
                    Problem(
                        message:
                            "a font's line-height is a multiple of its size and cannot be negative, found '\(trimmed(lineHeight))'; use e.g. 1.2, or leave it out for the platform's default"
                    ))
            case .failure(let problem):
                if let meant = lineHeightMeant(lineHeight, size: points) { return .failure(meant) }
                return .failure(Problem(message: "line-height: \(problem.message)", fix: problem.fix))
            }
        }
        return .success(
            Font(
                family: String(trimmed(family)), size: points, weight: fontWeight, maxSize: limit,
                scaling: fontScaling, letterSpacing: spacing, lineHeight: multiple))
    }

    /// A font's weight by its name; a CSS number or a misspelling is refused with the name meant.
    static func namedWeight(_ weight: String) -> Parsed<FontWeight> {
        guard let parsed = FontWeight(rawValue: String(trimmed(weight))) else {
            let names = FontWeight.allCases.map(\.rawValue).joined(separator: ", ")
            if let number = Int(trimmed(weight)), number >= 100, number <= 900, number % 100 == 0 {
                let meant = cssWeights[number / 100 - 1]
                return .failure(
                    Problem(
                        message:
                            "unknown font weight '\(weight)': weights are named, and CSS's \(number) is \(meant.rawValue); write \(meant.rawValue)",
                        fix: Diagnostic.Fix(replacing: String(trimmed(weight)), with: meant.rawValue)))
            }
            // the list, and the one most likely meant (`demibold` is semibold, `bol` bold)
            let written = String(trimmed(weight))
            let meant = Suggestions.closest(to: written, in: FontWeight.allCases.map(\.rawValue))
            return .failure(
                Problem(
                    message:
                        "unknown font weight '\(weight)'; use one of \(names)\(meant.map { "; most likely '\($0)'" } ?? "")",
                    fix: meant.map { Diagnostic.Fix(replacing: written, with: $0) }))
        }
        return .success(parsed)
    }

    /// A font's letter spacing in points; em, which needs the font's size, is refused with the points meant.
    static func letterSpacing(_ letterSpacing: String, points: Double?) -> Parsed<Double> {
        switch float(letterSpacing) {
        case .success(let value): return .success(value)
        case .failure(let problem):
            if let plain = plainNumber(letterSpacing, for: "letter-spacing") { return .failure(plain) }
            if let value = UnitNumber(letterSpacing), value.unit == "em", let points {
                let meant = written(value.number * points)
                return .failure(
                    Problem(
                        message:
                            "letter-spacing is in points, not em: \(value.written) of a \(ValueText.number(points))-point font is \(meant); write \(meant)",
                        fix: Diagnostic.Fix(replacing: value.written, with: meant)))
            }
            return .failure(Problem(message: "letter-spacing: \(problem.message)", fix: problem.fix))
        }
    }
}
