import LiveryModel

/// Decodes a typed element (`<color>`, `<font>`, `<array>`...) into a `TypedObject`.
extension DecodingContext {
    static let typeNames = ValueType.allCases.map(\.rawValue)

    static func ownAttributes(of type: ValueType) -> [String] {
        switch type {
        case .color: ["format"]
        case .font: ["family", "size", "weight", "max-size", "scaling", "letter-spacing", "line-height"]
        case .image: ["cache"]
        default: []
        }
    }

    /// Returns nil, with diagnostics, when the element is not a valid typed object.
    /// `extraAttributes` are allowed besides the type's own (e.g. `name` in `<constants>`).
    mutating func typedObject(_ element: XMLElement, extraAttributes: [String] = [], arrayDepth: Int = 0) -> TypedObject? {
        guard let type = ValueType(rawValue: element.name) else {
            let hint = Suggestions.didYouMean(element.name, in: Self.typeNames)
            error(.elementUnknown, "<\(element.name)> is not a typed object\(hint.isEmpty ? "; use one of \(Self.typeNames.joined(separator: ", "))" : hint)",
                  at: location(element))
            return nil
        }
        let here = mark(element)
        if let reference = element.attribute("ref") {
            mentionedConstants.insert(reference)
            let onlyRefAndExtra = element.allAttributeNames { $0 == "ref" || extraAttributes.contains($0) }
            if !element.textIsBlank || !element.children.isEmpty || !onlyRefAndExtra {
                error(.referenceContent, "a reference has no content: write <\(element.name) ref=\"\(reference)\"/> with no text, elements or other attributes",
                      at: here.location)
                return nil
            }
            guard checkName(reference, of: element, attribute: "ref") else { return nil }
            return TypedObject(type: type, content: .reference(reference), mark: here)
        }
        if type == .array {
            guard arrayDepth < limits.maxArrayDepth else {
                error(.limitExceeded, "arrays nest more than \(limits.maxArrayDepth) deep; flatten this value", at: here.location)
                return nil
            }
            guard element.children.count <= limits.maxArrayLength else {
                error(.limitExceeded, "an array of \(element.children.count) elements; at most \(limits.maxArrayLength) are allowed",
                      at: location(element.children[limits.maxArrayLength]))
                return nil
            }
            checkAttributes(of: element, allowed: extraAttributes)
            checkNoText(in: element)
            var items: [TypedObject] = []
            var valid = true
            for child in element.children {
                if let item = typedObject(child, arrayDepth: arrayDepth + 1) { items.append(item) } else { valid = false }
            }
            return valid ? TypedObject(type: .array, content: .array(items), mark: here) : nil
        }
        if let child = element.children.first {
            error(.elementUnknown, "<\(element.name)> holds text, not elements; found <\(child.name)>", at: location(child))
            return nil
        }
        if !element.attributes.isEmpty {
            checkAttributes(of: element, allowed: Self.ownAttributes(of: type) + extraAttributes)
        }
        let text = element.text
        let parsed: ValueSyntax.Parsed<Value> = switch type {
        case .float: ValueSyntax.float(text).map(Value.float)
        case .integer: ValueSyntax.integer(text).map(Value.integer)
        case .bool: ValueSyntax.bool(text).map(Value.bool)
        case .string: .success(.string(text))
        case .color: ValueSyntax.color(text, format: element.attribute("format")).map(Value.color)
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
            return TypedObject(type: type, content: .literal(value), mark: here)
        case .failure(let problem):
            let at = switch type {
            case .font where problem.message.contains("max-size"): source.location(ofAttribute: "max-size", in: element)
            case .font where problem.message.hasPrefix("unknown font scaling"): source.location(ofAttribute: "scaling", in: element)
            case .font where problem.message.hasPrefix("letter-spacing:"): source.location(ofAttribute: "letter-spacing", in: element)
            case .font where problem.message.hasPrefix("line-height:") || problem.message.hasPrefix("a font's line-height"): source.location(ofAttribute: "line-height", in: element)
            case .font: here.location
            case .color where problem.message.hasPrefix("unknown color format"):
                source.location(ofAttribute: "format", in: element)
            default: source.location(ofTextIn: element)
            }
            error(type == .image && !problem.message.hasPrefix("cache") ? .assetName : .valueInvalid, problem.message, at: at)
            return nil
        }
    }

    private mutating func fontValue(_ element: XMLElement) -> ValueSyntax.Parsed<Value> {
        let text = ValueSyntax.trimmed(element.text)
        guard text.isEmpty else {
            return .failure(.init(message: "a font is described by attributes and has no text; found '\(text.prefix(40))'"))
        }
        return ValueSyntax.font(family: element.attribute("family"), size: element.attribute("size"),
                                weight: element.attribute("weight"), maxSize: element.attribute("max-size"),
                                scaling: element.attribute("scaling"), letterSpacing: element.attribute("letter-spacing"),
                                lineHeight: element.attribute("line-height")).map(Value.font)
    }

    private mutating func imageValue(_ element: XMLElement) -> ValueSyntax.Parsed<Value> {
        var cache = false
        if let flag = element.attribute("cache") {
            switch ValueSyntax.bool(flag) {
            case .success(let value): cache = value
            case .failure: return .failure(.init(message: "cache must be true or false, found '\(flag)'"))
            }
        }
        return ValueSyntax.assetName(element.text).map { .image(ImageReference(name: $0, cache: cache)) }
    }
}
