/// WCAG 2.2 contrast arithmetic (format 1.1, section 7.3): what `validate` checks and what the
/// preview's badges show, so the two always agree.
public enum ContrastRatio {
    /// The ratio normal text needs, and large text; `highcontrast` raises both one level.
    public static func required(largeText: Bool, highContrast: Bool) -> Double {
        switch (largeText, highContrast) {
        case (false, false): 4.5
        case (false, true): 7
        case (true, false): 3
        case (true, true): 4.5
        }
    }

    /// WCAG's large text: at least 18 points, or 14 points when semibold or heavier. A font
    /// without a size is the platform's body size, which is not large.
    public static func isLargeText(_ font: Font?) -> Bool {
        guard let font, let size = font.size else { return false }
        let heavy = FontWeight.allCases.firstIndex(of: font.weight)! >= FontWeight.allCases.firstIndex(of: .semibold)!
        return size >= 18 || (size >= 14 && heavy)
    }

    /// The relative luminance of an sRGB colour (its alpha is ignored).
    public static func luminance(_ color: Color) -> Double {
        func linear(_ channel: Double) -> Double {
            let c = min(max(channel, 0), 1)
            return c <= 0.04045 ? c / 12.92 : power2point4((c + 0.055) / 1.055)
        }
        return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
    }

    /// `x^2.4` for x in 0.09...1 (the sRGB curve's range), as `x^2 * fifthRoot(x^2)`: this module
    /// depends on nothing, not even the C library's `pow`. Newton's method from 1 converges in a
    /// handful of steps on that range and agrees with `pow` to about 1e-15.
    static func power2point4(_ x: Double) -> Double {
        let square = x * x
        var root = 1.0
        for _ in 0..<64 {
            let fourth = root * root * root * root
            let next = root - (fourth * root - square) / (5 * fourth)
            if abs(next - root) < 1e-17 {
                root = next
                break
            }
            root = next
        }
        return square * root
    }

    /// `(L1 + 0.05) / (L2 + 0.05)`, lighter over darker: 1 (same) to 21 (black on white).
    /// `foreground` is composited over `background` first when it is translucent.
    public static func ratio(_ foreground: Color, on background: Color) -> Double {
        let lights = [luminance(composite(foreground, over: background)), luminance(background)]
        return (lights.max()! + 0.05) / (lights.min()! + 0.05)
    }

    /// `foreground` painted over an opaque `background`: what the eye sees.
    public static func composite(_ foreground: Color, over background: Color) -> Color {
        let alpha = min(max(foreground.alpha, 0), 1)
        guard alpha < 1 else { return foreground }
        func mix(_ top: Double, _ bottom: Double) -> Double { top * alpha + bottom * (1 - alpha) }
        return Color(
            red: mix(foreground.red, background.red), green: mix(foreground.green, background.green),
            blue: mix(foreground.blue, background.blue), alpha: 1)
    }

    /// The ratio as people quote it, to two decimals (`4.48`). A ratio below `required` never
    /// prints as reaching it (4.497 against 4.5 prints `4.49`, not `4.50`).
    public static func text(_ ratio: Double, required: Double? = nil) -> String {
        var hundredths = (ratio * 100).rounded()
        if let required, ratio < required, hundredths >= (required * 100).rounded() {
            hundredths = (ratio * 100).rounded(.down)
        }
        let whole = Int(hundredths) / 100
        let fraction = Int(hundredths) % 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The colour of the same hue and saturation, and the same alpha, with the lightness nearest
    /// to `foreground`'s that reaches `required` on `background` once written as 8-bit hex; for
    /// translucent text that no lightness rescues, the nearest opaque one. Nil when none does
    /// (then the background has to change).
    public static func nearestPassing(_ foreground: Color, on background: Color, required: Double) -> Color? {
        if let found = nearestLightness(foreground, on: background, required: required) { return found }
        guard foreground.alpha < 1 else { return nil }
        var opaque = foreground
        opaque.alpha = 1
        return nearestLightness(opaque, on: background, required: required)
    }

    /// The first of 1,000 lightness steps (each step tried darker, then lighter) whose colour
    /// passes. Found by bisection, which finds what trying every step in order finds: a colour's
    /// luminance never falls as its lightness rises (each channel, rounded or composited, is
    /// non-decreasing in it), and the ratio falls then rises around the background's luminance,
    /// so from a step that fails, the steps that fail in one direction are the ones before the
    /// first that passes. Bisection pays in `bench-brands.py`'s tree of brands with findings,
    /// where every contrast finding asks for its nearest passing colour.
    private static func nearestLightness(_ foreground: Color, on background: Color, required: Double) -> Color? {
        let (hue, saturation, lightness) = hsl(foreground)
        let steps = 1000
        func candidate(_ step: Int, _ direction: Double) -> Color? {
            let candidateLightness = lightness + direction * Double(step) / Double(steps)
            guard (0...1).contains(candidateLightness) else { return nil }
            var candidate = rgb(hue: hue, saturation: saturation, lightness: candidateLightness)
            candidate.alpha = foreground.alpha
            return quantized(candidate)
        }
        func passes(_ step: Int, _ direction: Double) -> Bool {
            candidate(step, direction).map { ratio($0, on: background) >= required } ?? false
        }
        /// The first step of `range` where `holds` is true, given it holds from there on.
        func first(in range: ClosedRange<Int>, where holds: (Int) -> Bool) -> Int? {
            guard holds(range.upperBound) else { return nil }
            var low = range.lowerBound
            var high = range.upperBound
            while low < high {
                let middle = (low + high) / 2
                if holds(middle) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        for direction in [-1.0, 1.0] where passes(1, direction) { return candidate(1, direction) }
        var best: (step: Int, direction: Double)?
        for direction in [-1.0, 1.0] {
            // The steps that stay within 0...1 come first; bisect among them.
            guard candidate(1, direction) != nil,
                let last = first(in: 1...steps, where: { candidate($0 + 1, direction) == nil || $0 == steps }),
                let step = first(in: 1...last, where: { passes($0, direction) })
            else { continue }
            if best == nil || step < best!.step { best = (step, direction) }
        }
        return best.flatMap { candidate($0.step, $0.direction) }
    }

    /// Rounded to the 8-bit channels `#RRGGBBAA` can say, so a suggested colour passes as written.
    static func quantized(_ color: Color) -> Color {
        func byte(_ value: Double) -> Double { (min(max(value, 0), 1) * 255).rounded() / 255 }
        return Color(red: byte(color.red), green: byte(color.green), blue: byte(color.blue), alpha: byte(color.alpha))
    }

    /// HSL with saturation and lightness in 0...1, from `ColorScience` (which uses 0...100).
    static func hsl(_ color: Color) -> (hue: Double, saturation: Double, lightness: Double) {
        let (hue, saturation, lightness) = ColorScience.hsl(color)
        return (hue, saturation / 100, lightness / 100)
    }

    static func rgb(hue: Double, saturation: Double, lightness: Double) -> Color {
        ColorScience.color(hue: hue, saturation: saturation * 100, lightness: lightness * 100)
    }
}
