import LiveryModel

/// Decodes a typed element (`<color>`, `<font>`, `<array>`...) into a `TypedObject`.
extension DecodingContext {
    static let typeNames = ValueType.allCases.map(\.descriptor.elementName)

    static func ownAttributes(of type: ValueType) -> [String] { type.descriptor.attributeNames }

    /// Returns nil, with diagnostics, when the element is not a valid typed object.
    /// `extraAttributes` are allowed besides the type's own (e.g. `name` in `<constants>`).
    mutating func typedObject(_ element: XMLElement, extraAttributes: [String] = [], arrayDepth: Int = 0)
        -> TypedObject?
    {
        guard let type = ValueType(elementName: element.name) else {
            let (hint, fix) = Suggestions.suggest(element.name, in: Self.typeNames)
            diagnostics.append(
                .error(
                    .elementUnknown,
                    "<\(element.name)> is not a typed object\(hint.isEmpty ? "; use one of \(Self.typeNames.joined(separator: ", "))" : hint)",
                    at: location(element), fix: fix.map { renaming(element, $0) }))
            mention(everythingIn: element)
            return nil
        }
        let here = mark(element)
        if type != .color, !element.attributes.isEmpty, rejectModifiers(on: element) {
            mention(everythingIn: element)
            return nil
        }
        let allowed = Self.ownAttributes(of: type) + ["ref"] + extraAttributes
        if let reference = attribute("ref", of: element, allowed: allowed) {
            return referenceObject(
                element, reference, type: type, here: here, allowed: allowed, extraAttributes: extraAttributes)
        }
        if type == .array {
            return arrayObject(element, here: here, extraAttributes: extraAttributes, arrayDepth: arrayDepth)
        }
        if let child = element.children.first {
            error(
                .elementUnknown, "<\(element.name)> holds text, not elements; found <\(child.name)>",
                at: location(child))
            return nil
        }
        if !element.attributes.isEmpty {
            checkAttributes(of: element, allowed: Self.ownAttributes(of: type) + extraAttributes)
        }
        let text = element.text
        let parsed: ValueSyntax.Parsed<Value> =
            switch type {
            case .float:
                ValueSyntax.float(text).map(Value.float).mapError {
                    ValueSyntax.plainNumber(text, for: "a float") ?? $0
                }
            case .integer:
                ValueSyntax.integer(text).map(Value.integer).mapError { problem in
                    guard let plain = ValueSyntax.plainNumber(text, for: "an integer"),
                        case .success = ValueSyntax.integer(plain.fix?.replacement ?? "")
                    else { return problem }
                    return plain
                }
            case .bool: ValueSyntax.bool(text).map(Value.bool)
            case .string: .success(.string(text))
            case .color:
                ValueSyntax.color(text, format: attribute("format", of: element, allowed: allowed)).map(Value.color)
            case .point: ValueSyntax.point(text).map(Value.point)
            case .size: ValueSyntax.size(text).map(Value.size)
            case .rect: ValueSyntax.rect(text).map(Value.rect)
            case .insets: ValueSyntax.insets(text).map(Value.insets)
            case .enumeration: ValueSyntax.enumeration(text).map(Value.enumeration)
            case .font: fontValue(element)
            case .image: imageValue(element)
            case .array: preconditionFailure("arrays are decoded above")
            }
        switch parsed {
        case .success(let value):
            return derived(TypedObject(type: type, content: .literal(value), mark: here), element)
        case .failure(let problem):
            let at = problemLocation(problem, type: type, element: element, here: here, allowed: allowed)
            if type == .image, let fileName = Self.assetFileName(element.text) {
                diagnostics.append(fileName.finding(at: at))
                mentionedAssets.insert(fileName.asset)
                return nil
            }
            diagnostics.append(
                .error(
                    type == .image && !problem.message.hasPrefix("cache") ? .assetName : .valueInvalid,
                    problem.message, at: at, fix: problem.fix))
            return nil
        }
    }

    /// A typed element that names a constant (`ref`): it holds nothing else.
    private mutating func referenceObject(
        _ element: XMLElement, _ reference: String, type: ValueType, here: SourceMark, allowed: [String],
        extraAttributes: [String]
    ) -> TypedObject? {
        mentionedConstants.insert(reference)
        let written = element.attribute("ref") == nil ? misspelling(of: "ref", in: element, allowed: allowed) : nil
        if let written { misspelledAttribute(written, meaning: "ref", in: element) }
        let onlyRefAndExtra = element.allAttributeNames {
            $0 == "ref" || $0 == written || extraAttributes.contains($0)
                || (type == .color && ColorModifierSyntax.attributes.contains($0))
        }
        if !element.textIsBlank || !element.children.isEmpty || !onlyRefAndExtra {
            error(
                .referenceContent,
                "a reference has no content: write <\(element.name) ref=\"\(reference)\"/> with no text, elements or other attributes",
                at: here.location)
            return nil
        }
        if let (name, origin) = Self.referenceFromElsewhere(reference) {
            // One finding; read as the constant meant, so its uses resolve.
            diagnostics.append(
                .error(
                    .attributeInvalid,
                    "'\(reference)' is \(origin); a ref names a constant of the theme: write ref=\"\(name)\"",
                    at: source.location(ofAttribute: "ref", in: element),
                    fix: Diagnostic.Fix(replacing: reference, with: name)))
            mentionedConstants.insert(name)
            return derived(TypedObject(type: type, content: .reference(name), mark: here), element)
        }
        guard checkName(reference, of: element, attribute: "ref") else { return nil }
        return derived(TypedObject(type: type, content: .reference(reference), mark: here), element)
    }

    /// An `<array>`: its items, each a typed object, within the depth and length limits.
    private mutating func arrayObject(
        _ element: XMLElement, here: SourceMark, extraAttributes: [String], arrayDepth: Int
    )
        -> TypedObject?
    {
        guard arrayDepth < limits.maxArrayDepth else {
            error(
                .limitExceeded, "arrays nest more than \(limits.maxArrayDepth) deep; flatten this value",
                at: here.location)
            return nil
        }
        guard element.children.count <= limits.maxArrayLength else {
            error(
                .limitExceeded,
                "an array of \(element.children.count) elements; at most \(limits.maxArrayLength) are allowed",
                at: location(element.children[limits.maxArrayLength]))
            return nil
        }
        checkAttributes(of: element, allowed: extraAttributes)
        checkNoText(in: element)
        var items: [TypedObject] = []
        var valid = true
        for child in element.children {
            if let item = typedObject(child, arrayDepth: arrayDepth + 1) {
                items.append(item)
            } else {
                valid = false
            }
        }
        return valid ? TypedObject(type: .array, content: .array(items), mark: here) : nil
    }

    /// Where a literal's problem is: the attribute it is about, else the element's text.
    private func problemLocation(
        _ problem: ValueSyntax.Problem, type: ValueType, element: XMLElement, here: SourceMark, allowed: [String]
    ) -> SourceLocation {
        switch type {
        case .font where problem.message.contains("max-size"):
            attributeLocation("max-size", of: element, allowed: allowed)
        case .font where problem.message.hasPrefix("unknown font weight"):
            attributeLocation("weight", of: element, allowed: allowed)
        case .font where problem.message.hasPrefix("a font's size"):
            attributeLocation("size", of: element, allowed: allowed)
        case .font where problem.message.hasPrefix("unknown font scaling"):
            attributeLocation("scaling", of: element, allowed: allowed)
        case .font where problem.message.hasPrefix("letter-spacing"):
            attributeLocation("letter-spacing", of: element, allowed: allowed)
        case .font
        where problem.message.hasPrefix("line-height") || problem.message.hasPrefix("a font's line-height"):
            attributeLocation("line-height", of: element, allowed: allowed)
        case .font: here.location
        case .color where problem.message.hasPrefix("unknown color format"):
            attributeLocation("format", of: element, allowed: allowed)
        default: source.location(ofTextIn: element)
        }
    }

    /// The object itself, or for a `color` with modifier attributes, the colour derived from it
    /// (nil with errors when a modifier is invalid).
    private mutating func derived(_ object: TypedObject, _ element: XMLElement) -> TypedObject? {
        guard object.type == .color, !element.attributes.isEmpty, Self.hasModifiers(element) else { return object }
        guard let modifiers = colorModifiers(of: element) else { return nil }
        return TypedObject(
            type: .color, content: .derived(DerivedColorSyntax(base: object, modifiers: modifiers)), mark: object.mark)
    }

    /// A reference written the way another system writes one: an Android resource
    /// (`@color/brand`) or theme attribute (`?attr/brand`), a CSS custom property
    /// (`var(--brand)`), a design-token alias (`{brand}`), a Sass variable (`$brand`). The
    /// constant name meant, and what the text is.
    static func referenceFromElsewhere(_ reference: String) -> (name: String, origin: String)? {
        func plain(_ name: Substring) -> String? {
            let name = String(name)
            return !name.isEmpty && name.allSatisfy({ $0.isLetter || $0.isNumber || "_.-".contains($0) }) ? name : nil
        }
        if reference.hasPrefix("@"), let slash = reference.firstIndex(of: "/"),
            let name = plain(reference[reference.index(after: slash)...])
        {
            return (name, "an Android resource reference")
        }
        if reference.hasPrefix("?") {
            let rest = reference.dropFirst()
            let name = rest.lastIndex(of: "/").map { rest[rest.index(after: $0)...] } ?? rest
            if let name = plain(name) { return (name, "an Android theme attribute") }
        }
        if reference.hasPrefix("var(--"), reference.hasSuffix(")"), let name = plain(reference.dropFirst(6).dropLast())
        {
            return (name, "a CSS custom property")
        }
        if reference.hasPrefix("{"), reference.hasSuffix("}"), let name = plain(reference.dropFirst().dropLast()) {
            return (name, "a design-token alias")
        }
        if reference.hasPrefix("$"), let name = plain(reference.dropFirst()) { return (name, "a Sass variable") }
        return nil
    }

    /// Where an attribute is, or the typo written for it.
    func attributeLocation(_ name: String, of element: XMLElement, allowed: [String]) -> SourceLocation {
        let written =
            element.attribute(name) == nil ? misspelling(of: name, in: element, allowed: allowed) ?? name : name
        return source.location(ofAttribute: written, in: element)
    }

    /// An image named by its file (`bubble.png`, `bubble@2x.png`, `bubble~ipad.png`) rather than
    /// its asset name: the finding says so and the fix is the bare name.
    struct AssetFileName {
        var written: String
        var asset: String
        func finding(at location: SourceLocation) -> Diagnostic {
            .error(
                .assetName,
                "'\(written)' is a file name; an <image> names the asset, without extension, scale or qualifiers: write '\(asset)'",
                at: location, fix: Diagnostic.Fix(replacing: written, with: asset))
        }
    }

    static func assetFileName(_ text: String) -> AssetFileName? {
        let written = String(ValueSyntax.trimmed(text))
        let slash = written.lastIndex(of: "/").map { written.index(after: $0) } ?? written.startIndex
        guard let parsed = try? QualifiedFileName.parse(String(written[slash...])),
            !parsed.pathExtension.isEmpty || parsed.scale != 1 || !parsed.qualifiers.tags.isEmpty
                || written[slash...].contains("@"),
            !parsed.base.isEmpty
        else { return nil }
        let asset = String(written[..<slash]) + parsed.base
        guard asset != written, case .success = ValueSyntax.assetName(asset) else { return nil }
        return AssetFileName(written: written, asset: asset)
    }

    private mutating func fontValue(_ element: XMLElement) -> ValueSyntax.Parsed<Value> {
        let allowed = Self.ownAttributes(of: .font) + ["ref", "name"]
        let text = ValueSyntax.trimmed(element.text)
        guard text.isEmpty else {
            return .failure(
                .init(message: "a font is described by attributes and has no text; found '\(text.prefix(40))'"))
        }
        return ValueSyntax.font(
            family: attribute("family", of: element, allowed: allowed),
            size: attribute("size", of: element, allowed: allowed),
            weight: attribute("weight", of: element, allowed: allowed),
            maxSize: attribute("max-size", of: element, allowed: allowed),
            scaling: attribute("scaling", of: element, allowed: allowed),
            letterSpacing: attribute("letter-spacing", of: element, allowed: allowed),
            lineHeight: attribute("line-height", of: element, allowed: allowed)
        ).map(Value.font)
    }

    private mutating func imageValue(_ element: XMLElement) -> ValueSyntax.Parsed<Value> {
        var cache = false
        if let flag = attribute("cache", of: element, allowed: Self.ownAttributes(of: .image) + ["ref", "name"]) {
            switch ValueSyntax.bool(flag) {
            case .success(let value): cache = value
            case .failure: return .failure(.init(message: "cache must be true or false, found '\(flag)'"))
            }
        }
        return ValueSyntax.assetName(element.text).map { .image(ImageReference(name: $0, cache: cache)) }
    }
}
