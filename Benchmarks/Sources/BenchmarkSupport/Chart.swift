import Foundation

/// A log-log line chart as a self-contained SVG: load time against N, one line per loader.
public struct LogLogChart {
    public struct Series {
        public var name: String
        public var color: String
        public var points: [(x: Double, y: Double)]
        /// A reference line (drawn dashed, without markers).
        public var dashed: Bool
        public init(name: String, color: String, points: [(x: Double, y: Double)], dashed: Bool = false) {
            self.name = name
            self.color = color
            self.points = points
            self.dashed = dashed
        }
    }

    public var title: String
    public var subtitle: String
    public var xLabel: String
    public var yLabel: String
    public var series: [Series]

    public init(title: String, subtitle: String, xLabel: String, yLabel: String, series: [Series]) {
        self.title = title
        self.subtitle = subtitle
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.series = series
    }

    public func svg() -> String {
        let width = 840.0, height = 500.0
        let left = 80.0, right = 290.0, top = 60.0, bottom = 60.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let xs = series.flatMap { $0.points.map(\.x) }.filter { $0 > 0 }
        let ys = series.flatMap { $0.points.map(\.y) }.filter { $0 > 0 }
        let xMin = floor(log10(xs.min() ?? 1)), xMax = ceil(log10(xs.max() ?? 10))
        let yMin = floor(log10(ys.min() ?? 1)), yMax = ceil(log10(ys.max() ?? 10))
        func px(_ x: Double) -> Double { left + (log10(x) - xMin) / max(xMax - xMin, 1) * plotWidth }
        func py(_ y: Double) -> Double { top + plotHeight - (log10(y) - yMin) / max(yMax - yMin, 1) * plotHeight }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        func label(_ exponent: Double, unit: String) -> String {
            let value = pow(10, exponent)
            if unit == "ms" {
                switch exponent {
                case ..<(-2.5): return String(format: "%g µs", value * 1000)
                case ..<2.5: return String(format: "%g ms", value)
                default: return String(format: "%g s", value / 1000)
                }
            }
            return value >= 1000 ? String(format: "%gk", value / 1000) : String(format: "%g", value)
        }
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(left))" y="24" font-size="16" font-weight="bold">\(escape(title))</text>
            <text x="\(f(left))" y="42" fill="#555">\(escape(subtitle))</text>

            """
        var exponent = yMin
        while exponent <= yMax {
            let y = py(pow(10, exponent))
            out +=
                "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>\n"
            out +=
                "<text x=\"\(f(left - 8))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(label(exponent, unit: "ms"))</text>\n"
            exponent += 1
        }
        exponent = xMin
        while exponent <= xMax {
            let x = px(pow(10, exponent))
            out +=
                "<line x1=\"\(f(x))\" y1=\"\(f(top))\" x2=\"\(f(x))\" y2=\"\(f(top + plotHeight))\" stroke=\"#ddd\"/>\n"
            out +=
                "<text x=\"\(f(x))\" y=\"\(f(top + plotHeight + 18))\" text-anchor=\"middle\">\(label(exponent, unit: ""))</text>\n"
            exponent += 1
        }
        out +=
            "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" fill=\"none\" stroke=\"#333\"/>\n"
        out +=
            "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 16))\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        out +=
            "<text transform=\"translate(20 \(f(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(escape(yLabel))</text>\n"
        for (index, line) in series.enumerated() {
            let points = line.points.filter { $0.x > 0 && $0.y > 0 }
            let path = points.map { "\(f(px($0.x))),\(f(py($0.y)))" }.joined(separator: " ")
            let dash = line.dashed ? " stroke-dasharray=\"6 5\"" : ""
            out +=
                "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"\(line.dashed ? 1.5 : 2.5)\"\(dash)/>\n"
            for point in points where !line.dashed {
                out += "<circle cx=\"\(f(px(point.x)))\" cy=\"\(f(py(point.y)))\" r=\"4\" fill=\"\(line.color)\"/>\n"
            }
            let legendY = top + 14 + Double(index) * 22
            let legendX = left + plotWidth + 16
            out +=
                "<line x1=\"\(f(legendX))\" y1=\"\(f(legendY - 4))\" x2=\"\(f(legendX + 24))\" y2=\"\(f(legendY - 4))\" stroke=\"\(line.color)\" stroke-width=\"\(line.dashed ? 1.5 : 2.5)\"\(line.dashed ? " stroke-dasharray=\"6 5\"" : "")/>\n"
            if !line.dashed {
                out += "<circle cx=\"\(f(legendX + 12))\" cy=\"\(f(legendY - 4))\" r=\"4\" fill=\"\(line.color)\"/>\n"
            }
            out += "<text x=\"\(f(legendX + 32))\" y=\"\(f(legendY))\">\(escape(line.name))</text>\n"
        }
        return out + "</svg>\n"
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
