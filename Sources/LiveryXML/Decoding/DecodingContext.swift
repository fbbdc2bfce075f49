import LiveryModel

/// Shared state while decoding one file: its source, for locations, and the findings so far.
/// Decoding never stops at the first problem: every error of a file is collected.
struct DecodingContext {
    let source: SourceText
    var diagnostics: [Diagnostic] = []
    /// Names seen in `ref` attributes, valid or not.
    var mentionedConstants: Set<String> = []
    /// Caps on array sizes and operations per element (the parser checks the rest).
    var limits = FrontEndLimits.default

    init(source: SourceText) {
        self.source = source
    }

    func location(_ element: XMLElement) -> SourceLocation { source.location(of: element) }

    func mark(_ element: XMLElement) -> SourceMark { SourceMark(source, element.offset) }
    func mark(ofAttribute name: String, in element: XMLElement) -> SourceMark {
        SourceMark(source, source.offset(ofAttribute: name, in: element))
    }
    func mark(ofTextIn element: XMLElement) -> SourceMark { SourceMark(source, source.offset(ofTextIn: element)) }

    mutating func error(_ code: DiagnosticCode, _ message: String, at location: SourceLocation) {
        diagnostics.append(.error(code, message, at: location))
    }

    mutating func warning(_ code: DiagnosticCode, _ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(code, message, at: location))
    }

    /// A required attribute, reporting its absence (or emptiness).
    mutating func required(_ name: String, of element: XMLElement, example: @autoclosure () -> String) -> String? {
        guard let value = element.attribute(name), !ValueSyntax.trimmed(value).isEmpty else {
            let article = name.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            error(.attributeMissing, "<\(element.name)> needs \(article) '\(name)' attribute, e.g. \(example())", at: location(element))
            return nil
        }
        return value
    }

    /// Warns about attributes the format does not define (likely typos, otherwise ignored).
    mutating func checkAttributes(of element: XMLElement, allowed: [String]) {
        if element.attributeNamesAll(in: allowed) { return }
        for attribute in element.attributes where !allowed.contains(attribute.name) {
            let (hint, fix) = Suggestions.suggest(attribute.name, in: allowed)
            diagnostics.append(.warning(.attributeUnknown, "<\(element.name)> has no attribute '\(attribute.name)'; it is ignored\(hint)",
                                        at: source.location(ofAttribute: attribute.name, in: element), fix: fix))
        }
    }

    /// Containers hold elements only: stray text is almost always a misplaced value.
    mutating func checkNoText(in element: XMLElement) {
        if element.textIsBlank { return }
        let text = ValueSyntax.trimmed(element.text)
        guard !text.isEmpty else { return }
        error(.xmlText, "<\(element.name)> holds elements, not text; found '\(text.prefix(40))'",
              at: source.location(ofTextIn: element))
    }

    mutating func unknownElement(_ element: XMLElement, in parent: String, expected: [String]) {
        let hint = Suggestions.didYouMean(element.name, in: expected)
        let list = expected.map { "<\($0)>" }.joined(separator: ", ")
        error(.elementUnknown, "unexpected <\(element.name)> in <\(parent)>\(hint.isEmpty ? "; expected \(list)" : hint)",
              at: location(element))
    }

    /// Checks a name against `[A-Za-z_][A-Za-z0-9_.-]*` (constants, classes, params, operations).
    mutating func checkName(_ name: String, of element: XMLElement, attribute: String = "name") -> Bool {
        let valid = name.utf8.first.map { ASCII.isLetter($0) || $0 == UInt8(ascii: "_") } == true
            && ASCII.isWord(name, extra: "_.-")
        if !valid {
            error(.attributeInvalid, "'\(name)' is not a valid \(attribute); use letters, digits, '_', '.' and '-', starting with a letter or '_'",
                  at: source.location(ofAttribute: attribute, in: element))
        }
        return valid
    }
}
