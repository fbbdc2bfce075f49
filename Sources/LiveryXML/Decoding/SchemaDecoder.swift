import LiveryModel

/// Decodes a `<components>` schema file (section 5 of the format): its components and the trait
/// dimensions it declares (format 1.3, section 10).
enum SchemaDecoder {
    static func decode(_ root: XMLElement, context: inout DecodingContext) -> Schema {
        guard root.name == "components" else {
            context.error(
                .rootUnexpected, "a schema file must have a <components> root element, found <\(root.name)>",
                at: context.location(root))
            return Schema()
        }
        context.checkAttributes(of: root, allowed: [])
        context.checkNoText(in: root)
        var components: [ComponentSchema] = []
        var dimensions: [DimensionDeclaration] = []
        for element in root.children {
            switch element.name {
            case "component":
                if let component = component(element, context: &context) { components.append(component) }
            case "dimension":
                if let declaration = dimension(element, context: &context) { dimensions.append(declaration) }
            default:
                context.unknownElement(element, in: "components", expected: ["component", "dimension"])
            }
        }
        var schema = Schema(components: components)
        schema.dimensions = dimensions
        return schema
    }

    /// `<dimension name="density" values="compact comfortable"/>`: read as written; the rules of
    /// names and tags are checked once the dimensions in force are known (`TraitDimensions.adding`).
    private static func dimension(_ element: XMLElement, context: inout DecodingContext) -> DimensionDeclaration? {
        context.checkAttributes(of: element, allowed: ["name", "values"])
        context.checkNoText(in: element)
        let example = "<dimension name=\"density\" values=\"compact comfortable\"/>"
        for child in element.children {
            context.error(
                .elementUnknown, "<dimension> has no content; its values are an attribute, e.g. \(example)",
                at: context.location(child))
        }
        guard let name = context.required("name", of: element, example: example) else { return nil }
        // an empty list is refused with the other rules of a declaration, at the attribute
        guard let values = element.attribute("values") else {
            _ = context.required("values", of: element, example: example)
            return nil
        }
        return DimensionDeclaration(
            dimension: TraitDimension(
                name: name, values: values.split(whereSeparator: \.isWhitespace).map(String.init)),
            nameLocation: context.source.location(ofAttribute: "name", in: element),
            valuesLocation: context.source.location(ofAttribute: "values", in: element))
    }

    private static func component(_ element: XMLElement, context: inout DecodingContext) -> ComponentSchema? {
        context.checkAttributes(of: element, allowed: ["name", "extends"])
        context.checkNoText(in: element)
        guard
            let name = context.required(
                "name", of: element, example: "<component name=\"chatbubble\" extends=\"uiview\">"),
            context.checkName(name, of: element)
        else { return nil }
        var operations: [OperationSchema] = []
        for child in element.children {
            guard child.name == "operation" else {
                context.unknownElement(child, in: "component", expected: ["operation"])
                continue
            }
            if let operation = operation(child, context: &context) { operations.append(operation) }
        }
        let location =
            element.attribute("extends") == nil
            ? context.location(element)
            : context.source.location(ofAttribute: "extends", in: element)
        return ComponentSchema(
            name: name, extends: element.attribute("extends"), operations: operations, location: location)
    }

    private static func operation(_ element: XMLElement, context: inout DecodingContext) -> OperationSchema? {
        context.checkAttributes(of: element, allowed: ["name", "states"])
        context.checkNoText(in: element)
        guard let name = context.required("name", of: element, example: "<operation name=\"bubbleColor\">"),
            context.checkName(name, of: element)
        else { return nil }
        var allowsStates = false
        if let states = element.attribute("states") {
            guard case .success(let flag) = ValueSyntax.bool(states) else {
                context.error(
                    .schemaInvalid, "states must be true or false, found '\(states)'",
                    at: context.source.location(ofAttribute: "states", in: element))
                return nil
            }
            allowsStates = flag
        }
        var params: [ParamSchema] = []
        for child in element.children {
            guard child.name == "param" else {
                context.unknownElement(child, in: "operation", expected: ["param"])
                continue
            }
            if let param = param(child, context: &context) { params.append(param) }
        }
        return OperationSchema(name: name, allowsStates: allowsStates, params: params)
    }

    private static func param(_ element: XMLElement, context: inout DecodingContext) -> ParamSchema? {
        context.checkAttributes(of: element, allowed: ["name", "type", "values", "of", "role"])
        context.checkNoText(in: element)
        guard let name = context.required("name", of: element, example: "<param name=\"color\" type=\"color\"/>"),
            let typeName = context.required("type", of: element, example: "<param name=\"color\" type=\"color\"/>")
        else { return nil }
        let typeNames = ValueType.allCases.map(\.descriptor.elementName)
        guard let type = ValueType(elementName: typeName) else {
            let hint = Suggestions.didYouMean(typeName, in: typeNames)
            context.error(
                .schemaInvalid,
                "unknown param type '\(typeName)'\(hint.isEmpty ? "; use one of \(typeNames.joined(separator: ", "))" : hint)",
                at: context.source.location(ofAttribute: "type", in: element))
            return nil
        }
        var allowed: [String]?
        if type == .enumeration {
            let values = (element.attribute("values") ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            guard !values.isEmpty, values.allSatisfy(ValueSyntax.isIdentifier) else {
                context.error(
                    .schemaInvalid, "an enum param lists its values, e.g. values=\"none round pointed\"",
                    at: context.location(element))
                return nil
            }
            allowed = values
        }
        var elementType: ValueType?
        if let of = element.attribute("of") {
            guard type == .array, let parsed = ValueType(elementName: of), parsed != .array else {
                context.error(
                    .schemaInvalid, "'of' names the element type of an array param, e.g. type=\"array\" of=\"color\"",
                    at: context.source.location(ofAttribute: "of", in: element))
                return nil
            }
            elementType = parsed
        }
        var role: ColorRole?
        if let text = element.attribute("role") {
            let names = ColorRole.allCases.map(\.rawValue)
            guard type == .color, let parsed = ColorRole(rawValue: text) else {
                context.error(
                    .schemaInvalid,
                    "role marks a color param for the contrast checks: role=\"\(names.joined(separator: "\" or role=\""))\" on type=\"color\"",
                    at: context.source.location(ofAttribute: "role", in: element))
                return nil
            }
            role = parsed
        }
        return ParamSchema(name: name, type: type, allowedValues: allowed, elementType: elementType, role: role)
    }
}
