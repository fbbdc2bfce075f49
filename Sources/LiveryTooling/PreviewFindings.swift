import LiveryModel

extension PreviewPage {
    /// The findings of the previewed themes, at the top of the page: a half-fixed theme is drawn
    /// as far as it resolves, and the designer sees at once what is still wrong. Empty when there
    /// are none.
    static func findingsSection(_ sides: [PreviewSide]) -> String {
        let findings = Array(Set(sides.flatMap(\.findings))).sorted()
        guard !findings.isEmpty else { return "" }
        let errors = findings.filter { $0.severity == .error }.count
        var html =
            "<section class=\"findings\" style=\"margin:1em 0;padding:.5em 1em;border:2px solid #C00;background:#FFF4F4\">"
        html +=
            "<h2>\(errors) error\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s"): what does not resolve is not drawn</h2><ul>"
        for finding in findings {
            html +=
                "<li><code>\(MarkupText.escaped(finding.location?.description ?? ""))</code> <b>\(finding.severity.rawValue)</b>: \(MarkupText.escaped(finding.message)) [\(MarkupText.escaped(finding.code.rawValue))]</li>"
        }
        return html + "</ul></section>\n"
    }
}
