import LiveryModel

/// Shared state while decoding one file: its source, for locations, and the findings so far.
/// Decoding never stops at the first problem: every error of a file is collected.
struct DecodingContext {
    let source: SourceText
    var diagnostics: [Diagnostic] = []
    /// Names seen in `ref` attributes, valid or not.
    var mentionedConstants: Set<String> = []
    /// Class and asset names written in elements that were dropped for an error.
    var mentionedClasses: Set<String> = []
    var mentionedAssets: Set<String> = []
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

    /// What an element that is dropped for an error names (constants, classes, assets, in it
    /// and its descendants): the definitions it would have used are not unused, the one cause is
    /// the broken element, reported where it is.
    mutating func mention(everythingIn element: XMLElement) {
        if let reference = element.attribute("ref") { mentionedConstants.insert(reference) }
        for attribute in element.attributes {
            if attribute.name == "ref" || Suggestions.closest(to: attribute.name, in: ["ref"]) != nil {
                mentionedConstants.insert(attribute.value)
            }
            if attribute.name == "class" || Suggestions.closest(to: attribute.name, in: ["class"]) != nil {
                for name in attribute.value.split(whereSeparator: \.isWhitespace) {
                    mentionedClasses.insert(String(name))
                }
            }
        }
        if element.children.isEmpty, !element.textIsBlank {
            let text = String(ValueSyntax.trimmed(element.text))
            mentionedAssets.insert(text)
            if let file = try? QualifiedFileName.parse(text) { mentionedAssets.insert(file.base) }
        }
        for child in element.children { mention(everythingIn: child) }
    }

    /// The attribute `name`, or the attribute written for it with a typo: an attribute the
    /// element does not allow whose nearest allowed name is `name`, when `name` itself is absent.
    /// The typo is reported as an error by `checkAttributes`; reading it as meant keeps the
    /// theme's meaning, so nothing else is reported because of it.
    func attribute(_ name: String, of element: XMLElement, allowed: [String]) -> String? {
        if let value = element.attribute(name) { return value }
        guard let written = misspelling(of: name, in: element, allowed: allowed) else { return nil }
        return element.attribute(written)
    }

    /// The attribute written where `name` was meant, if any.
    func misspelling(of name: String, in element: XMLElement, allowed: [String]) -> String? {
        for attribute in element.attributes where !allowed.contains(attribute.name) {
            if Suggestions.closest(to: attribute.name, in: allowed) == name { return attribute.name }
        }
        return nil
    }

    /// A required attribute, reporting its absence (or emptiness). `allowed` are the element's
    /// attributes: a misspelling of `name` among the others is read as `name`.
    mutating func required(
        _ name: String, of element: XMLElement, allowed: [String] = [], example: @autoclosure () -> String
    ) -> String? {
        guard let value = attribute(name, of: element, allowed: allowed), !ValueSyntax.trimmed(value).isEmpty else {
            let article = name.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            error(
                .attributeMissing, "<\(element.name)> needs \(article) '\(name)' attribute, e.g. \(example())",
                at: location(element))
            return nil
        }
        return value
    }

    /// Warns about attributes the format does not define (likely typos, otherwise ignored).
    mutating func checkAttributes(of element: XMLElement, allowed: [String]) {
        if element.attributeNamesAll(in: allowed) { return }
        for attribute in element.attributes where !allowed.contains(attribute.name) {
            let (hint, fix) = Suggestions.suggest(attribute.name, in: allowed)
            if let meant = fix?.replacement, element.attribute(meant) == nil {
                misspelledAttribute(attribute.name, meaning: meant, in: element)
                continue
            }
            diagnostics.append(
                .warning(
                    .attributeUnknown, "<\(element.name)> has no attribute '\(attribute.name)'; it is ignored\(hint)",
                    at: source.location(ofAttribute: attribute.name, in: element), fix: fix))
        }
    }

    /// An attribute written with a typo for one the element has: an error (the theme does not say
    /// what it means to), read as meant so that nothing follows from it.
    mutating func misspelledAttribute(_ written: String, meaning meant: String, in element: XMLElement) {
        // a word of another tool (`name` for an instance's `id`, CSS's `font-weight`) is not a typo
        let why =
            Suggestions.synonyms[written.lowercased()]?.contains(meant) == true
            ? "\(ValueType(elementName: element.name) == nil && meant == "id" ? "an instance is named by 'id'" : "Livery writes it '\(meant)'"): write \(meant)=\"\(element.attribute(written) ?? "")\""
            : "did you mean '\(meant)'?"
        diagnostics.append(
            .error(
                .attributeUnknown,
                "<\(element.name)> has no attribute '\(written)'; \(why) (read as \(meant))",
                at: source.location(ofAttribute: written, in: element),
                fix: Diagnostic.Fix(replacing: written, with: meant)))
    }

    /// Containers hold elements only: stray text is almost always a misplaced value.
    mutating func checkNoText(in element: XMLElement) {
        if element.textIsBlank { return }
        let text = ValueSyntax.trimmed(element.text)
        guard !text.isEmpty else { return }
        error(
            .xmlText, "<\(element.name)> holds elements, not text; found '\(text.prefix(40))'",
            at: source.location(ofTextIn: element))
    }

    /// A param holding its value as bare text: one finding, saying which typed element to wrap
    /// it in where the text tells (`#FFFFFF` is a colour, `true` a bool, `0.5` a float), with
    /// the wrapped value as the fix.
    mutating func bareValue(in element: XMLElement) {
        let text = String(ValueSyntax.trimmed(element.text))
        let name = element.attribute("name") ?? ""
        let type = Self.typeOfBareValue(text)
        let message: String
        var fix: Diagnostic.Fix?
        if let type {
            message =
                "<param name=\"\(name)\"> holds a typed object, not bare text: wrap '\(text.prefix(40))' in <\(type.rawValue)>, <\(type.rawValue)>\(text.prefix(40))</\(type.rawValue)>"
            fix = Diagnostic.Fix(replacing: text, with: "<\(type.rawValue)>\(text)</\(type.rawValue)>")
        } else {
            message =
                "<param name=\"\(name)\"> holds a typed object, not bare text: wrap '\(text.prefix(40))' in the element of the param's type, e.g. <float>\(text.prefix(40))</float> or <integer>\(text.prefix(40))</integer>"
        }
        diagnostics.append(.error(.paramValueCount, message, at: source.location(ofTextIn: element), fix: fix))
        mention(everythingIn: element)
    }

    /// The type a bare value's text is unambiguously written in: a colour (`#FFFFFF`), a bool,
    /// a float with a fraction; nil for a whole number (a float or an integer) or other text.
    static func typeOfBareValue(_ text: String) -> ValueType? {
        if text.hasPrefix("#"), text.count > 1, text.dropFirst().allSatisfy(\.isHexDigit) { return .color }
        if text == "true" || text == "false" { return .bool }
        if text.contains("."), Double(text) != nil { return .float }
        return nil
    }

    mutating func unknownElement(_ element: XMLElement, in parent: String, expected: [String]) {
        let (hint, fix) = Suggestions.suggest(element.name, in: expected)
        let list = expected.map { "<\($0)>" }.joined(separator: ", ")
        diagnostics.append(
            .error(
                .elementUnknown,
                "unexpected <\(element.name)> in <\(parent)>\(hint.isEmpty ? "; expected \(list)" : hint)",
                at: location(element), fix: fix.map { renaming(element, $0) }))
        mention(everythingIn: element)
    }

    /// A fix renaming an element: the start tag, and the end tag where it has one.
    func renaming(_ element: XMLElement, _ fix: Diagnostic.Fix) -> Diagnostic.Fix {
        var fix = fix
        if let end = EndTags.location(ofEndTagOf: element, in: source) { fix.replace(at: [end]) }
        return fix
    }

    /// Checks a name against `[A-Za-z_][A-Za-z0-9_.-]*` (constants, classes, params, operations).
    mutating func checkName(_ name: String, of element: XMLElement, attribute: String = "name") -> Bool {
        let valid =
            name.utf8.first.map { ASCII.isLetter($0) || $0 == UInt8(ascii: "_") } == true
            && ASCII.isWord(name, extra: "_.-")
        if !valid {
            error(
                .attributeInvalid,
                "'\(name)' is not a valid \(attribute); use letters, digits, '_', '.' and '-', starting with a letter or '_'",
                at: source.location(ofAttribute: attribute, in: element))
        }
        return valid
    }
}
