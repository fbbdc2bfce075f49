import LiveryModel

/// Decodes a `<theme>` configuration file into constants, classes and instances.
struct ConfigurationDecoder {
    var context: DecodingContext
    /// Numbers operations uniquely across a workspace.
    var nextSerial: Int
    let identities: IdentityTable
    /// `class` attribute texts already split: instances that use the same classes share one array.
    var classLists: [String: [String]] = [:]

    static let sections = ["constants", "classes", "instances"]
    // Allowed attributes, built once: array literals in a hot path would allocate per call.
    static let classAttributes = ["name", "class"]
    static let instanceAttributes = ["id", "class"]
    static let operationAttributes = ["name", "state"]
    static let paramAttributes = ["name"]
    static let constantAttributes = ["name", "overridable"]
    static let none: [String] = []

    mutating func decode(_ root: XMLElement, fileName: String, qualifiers: TraitSet) -> ConfigurationFile {
        var file = ConfigurationFile(fileName: fileName, qualifiers: qualifiers)
        context.checkAttributes(of: root, allowed: Self.none)
        context.checkNoText(in: root)
        var seen: [String: SourceMark] = [:]
        for section in root.children {
            guard Self.sections.contains(section.name) else {
                // what the section defines is unknown: nothing is reported unused or unknown for it
                context.unknownElement(section, in: "theme", expected: Self.sections)
                file.incomplete = true
                continue
            }
            if let first = seen[section.name] {
                context.error(
                    .elementDuplicate,
                    "<theme> holds at most one <\(section.name)>; merge it with the one at \(first.location)",
                    at: context.location(section))
                continue
            }
            seen[section.name] = context.mark(section)
            context.checkAttributes(of: section, allowed: Self.none)
            context.checkNoText(in: section)
            switch section.name {
            case "constants":
                file.constants += section.children.compactMap { constant($0, broken: &file.brokenConstants) }
            case "classes":
                file.classes = section.children.compactMap { element in
                    if let definition = classDefinition(element) { return definition }
                    // broken, but defined: its uses are not unknown
                    if let name = element.attribute("name") { file.brokenClasses.insert(name) }
                    context.mention(everythingIn: element)
                    return nil
                }
            default:
                file.instances = section.children.compactMap { element in
                    if isMisplacedConstant(element) {
                        // One mistake, one finding: the definition is read as the constant it is,
                        // so its uses resolve, and only where it stands is reported.
                        context.error(
                            .elementUnknown,
                            "<\(element.name) name=\"\(element.attribute("name") ?? "")\"> defines a constant, and constants belong in <constants>, not <instances>; move it into <constants>",
                            at: context.location(element))
                        if let definition = constant(element, broken: &file.brokenConstants) {
                            file.constants.append(definition)
                        }
                        return nil
                    }
                    return instance(element)
                        ?? {
                            context.mention(everythingIn: element)
                            return nil
                        }()
                }
            }
        }
        reportDuplicates(file)
        file.mentionedConstants = context.mentionedConstants
        file.mentionedClasses = context.mentionedClasses
        file.mentionedAssets = context.mentionedAssets
        return file
    }

    /// A typed object with a name and no id among the instances (`<color name="brand">`): a
    /// constant written in the wrong section.
    private func isMisplacedConstant(_ element: XMLElement) -> Bool {
        ValueType(elementName: element.name) != nil && element.attribute("name") != nil
            && element.attribute("id") == nil
    }

    private mutating func constant(_ element: XMLElement, broken: inout Set<String>) -> ConstantSyntax? {
        let allowed = ValueType(elementName: element.name).map { DecodingContext.ownAttributes(of: $0) + ["ref"] } ?? []
        guard
            let name = context.required(
                "name", of: element, allowed: allowed + Self.constantAttributes,
                example: "<\(element.name) name=\"brand\">"),
            context.checkName(name, of: element)
        else {
            context.mention(everythingIn: element)
            return nil
        }
        var overridable: Bool?
        if let flag = element.attribute("overridable") {
            guard case .success(let value) = ValueSyntax.bool(flag) else {
                context.error(
                    .valueInvalid, "overridable must be true or false, found '\(flag)'",
                    at: context.source.location(ofAttribute: "overridable", in: element))
                broken.insert(name)
                context.mention(everythingIn: element)
                return nil
            }
            overridable = value
        }
        guard let object = context.typedObject(element, extraAttributes: Self.constantAttributes) else {
            broken.insert(name)
            context.mention(everythingIn: element)
            return nil
        }
        return ConstantSyntax(name: name, object: object, mark: context.mark(element), overridable: overridable)
    }

    private mutating func classDefinition(_ element: XMLElement) -> ClassSyntax? {
        guard element.name == "class" else {
            context.unknownElement(element, in: "classes", expected: ["class"])
            return nil
        }
        context.checkAttributes(of: element, allowed: Self.classAttributes)
        context.checkNoText(in: element)
        guard
            let name = context.required(
                "name", of: element, allowed: Self.classAttributes, example: "<class name=\"rounded\">"),
            context.checkName(name, of: element)
        else { return nil }
        return ClassSyntax(
            name: name, classes: classList(element), operations: operations(in: element),
            mark: context.mark(element))
    }

    private mutating func instance(_ element: XMLElement) -> InstanceSyntax? {
        context.checkAttributes(of: element, allowed: Self.instanceAttributes)
        context.checkNoText(in: element)
        guard
            let id = context.required(
                "id", of: element, allowed: Self.instanceAttributes,
                example: "<\(element.name) id=\"button_send\">")
        else { return nil }
        guard !id.utf8.contains(where: ASCII.isBlank) else {
            context.error(
                .attributeInvalid,
                "instance id '\(id)' contains whitespace; identifiers are single words like button_send",
                at: context.source.location(ofAttribute: "id", in: element))
            return nil
        }
        return InstanceSyntax(
            id: id, component: element.name, classes: classList(element),
            operations: operations(in: element), mark: context.mark(element))
    }

    private mutating func classList(_ element: XMLElement) -> [String] {
        let allowed = element.name == "class" ? Self.classAttributes : Self.instanceAttributes
        guard let text = context.attribute("class", of: element, allowed: allowed) else { return [] }
        if let known = classLists[text] { return known }
        let list = text.split(whereSeparator: \.isWhitespace).map(String.init)
        classLists[text] = list
        return list
    }

    private mutating func operations(in element: XMLElement) -> [OperationSyntax] {
        let limit = context.limits.maxOperationsPerInstance
        guard element.children.count <= limit else {
            context.error(
                .limitExceeded,
                "<\(element.name)> has \(element.children.count) operations; at most \(limit) are allowed in one element",
                at: context.location(element.children[limit]))
            return []
        }
        return element.children.compactMap { child in
            guard child.name == "operation" else {
                context.unknownElement(child, in: element.name, expected: ["operation"])
                return nil
            }
            guard let operation = operation(child) else {
                context.mention(everythingIn: child)
                return nil
            }
            return operation
        }
    }

    private mutating func operation(_ element: XMLElement) -> OperationSyntax? {
        context.checkAttributes(of: element, allowed: Self.operationAttributes)
        context.checkNoText(in: element)
        guard
            let name = context.required(
                "name", of: element, allowed: Self.operationAttributes,
                example: "<operation name=\"backgroundColor\">"),
            context.checkName(name, of: element)
        else { return nil }
        var state = ControlState.normal
        if let written = context.attribute("state", of: element, allowed: Self.operationAttributes) {
            let known = ControlState.all.map(\.rawValue)
            guard known.contains(written) else {
                let (hint, fix) = Suggestions.listing(written, in: known)
                let attribute =
                    element.attribute("state") == nil
                    ? context.misspelling(of: "state", in: element, allowed: Self.operationAttributes) ?? "state"
                    : "state"
                context.diagnostics.append(
                    .error(
                        .stateUnknown,
                        "unknown state '\(written)'\(hint)",
                        at: context.source.location(ofAttribute: attribute, in: element), fix: fix))
                return nil
            }
            state = ControlState(rawValue: written)
        }
        var params = ParamList()
        var valid = true
        for child in element.children {
            guard child.name == "param" else {
                context.unknownElement(child, in: "operation", expected: ["param"])
                valid = false
                continue
            }
            if let param = param(child) { params.append(param) } else { valid = false }
        }
        // An operation with a broken param is dropped whole, so later checks do not also report
        // the param as missing.
        guard valid else { return nil }
        defer { nextSerial += 1 }
        return OperationSyntax(
            serial: nextSerial, name: name, state: state, params: params,
            mark: context.mark(element),
            identity: identities.number(OperationKey(name: name, state: state)))
    }

    private mutating func param(_ element: XMLElement) -> ParamSyntax? {
        context.checkAttributes(of: element, allowed: Self.paramAttributes)
        if element.children.isEmpty, !element.textIsBlank {
            // A bare value (`<param name="color">#FFFFFF</param>`) is one mistake: the typed
            // element around it is missing. Its consequences (text in a container, a param
            // without a typed object) are folded into this finding.
            context.bareValue(in: element)
            return nil
        }
        context.checkNoText(in: element)
        guard
            let name = context.required(
                "name", of: element, allowed: Self.paramAttributes, example: "<param name=\"color\">"),
            context.checkName(name, of: element)
        else { return nil }
        guard element.children.count == 1 else {
            let found = element.children.isEmpty ? "none" : "\(element.children.count)"
            context.error(
                .paramValueCount, "<param name=\"\(name)\"> holds exactly one typed object, found \(found)",
                at: context.location(element))
            return nil
        }
        guard let object = context.typedObject(element.children[0]) else { return nil }
        return ParamSyntax(name: name, object: object, mark: context.mark(element))
    }

    /// Two definitions of one name in a single file are almost always a copy-paste slip.
    private mutating func reportDuplicates(_ file: ConfigurationFile) {
        func report(
            _ items: [(String, SourceMark)], code: DiagnosticCode, noun: String,
            outcome: String = "the later one wins"
        ) {
            var first: [String: SourceMark] = [:]
            for (name, mark) in items {
                if let earlier = first[name] {
                    context.warning(
                        code,
                        "\(noun) '\(name)' is defined again in the same file (first at \(earlier.location)); \(outcome)",
                        at: mark.location)
                } else {
                    first[name] = mark
                }
            }
        }
        report(file.constants.map { ($0.name, $0.mark) }, code: .constantDuplicate, noun: "constant")
        report(file.classes.map { ($0.name, $0.mark) }, code: .classDuplicate, noun: "class")
        // Instances merge, in one file as across files (format 1.1, 7.1); only the repeat is suspicious.
        report(
            file.instances.map { ($0.id, $0.mark) }, code: .instanceDuplicate, noun: "instance",
            outcome: "the two merge and the later one's operations win; write them as one element")
        for operations in file.classes.map(\.operations) + file.instances.map(\.operations) {
            var seen: Set<Int> = []
            for operation in operations where !seen.insert(operation.identity).inserted {
                context.warning(
                    .operationDuplicate,
                    "operation '\(operation.name)' (state \(operation.state)) is set twice in one element; the later one wins",
                    at: operation.location)
            }
        }
    }
}
