import LiveryModel

/// Decodes a `<theme>` configuration file into constants, classes and instances.
struct ConfigurationDecoder {
    var context: DecodingContext
    /// Numbers operations uniquely across a workspace.
    var nextSerial: Int

    static let sections = ["constants", "classes", "instances"]

    mutating func decode(_ root: XMLElement, fileName: String, qualifiers: TraitSet) -> ConfigurationFile {
        var file = ConfigurationFile(fileName: fileName, qualifiers: qualifiers)
        context.checkAttributes(of: root, allowed: [])
        context.checkNoText(in: root)
        var seen: [String: SourceLocation] = [:]
        for section in root.children {
            guard Self.sections.contains(section.name) else {
                context.unknownElement(section, in: "theme", expected: Self.sections)
                continue
            }
            if let first = seen[section.name] {
                context.error(.elementDuplicate, "<theme> holds at most one <\(section.name)>; merge it with the one at \(first)",
                              at: context.location(section))
                continue
            }
            seen[section.name] = context.location(section)
            context.checkAttributes(of: section, allowed: [])
            context.checkNoText(in: section)
            switch section.name {
            case "constants": file.constants = section.children.compactMap { constant($0) }
            case "classes": file.classes = section.children.compactMap { classDefinition($0) }
            default: file.instances = section.children.compactMap { instance($0) }
            }
        }
        reportDuplicates(file)
        return file
    }

    private mutating func constant(_ element: XMLElement) -> ConstantSyntax? {
        guard let name = context.required("name", of: element, example: "<\(element.name) name=\"brand\">"),
              context.checkName(name, of: element),
              let object = context.typedObject(element, extraAttributes: ["name"]) else { return nil }
        return ConstantSyntax(name: name, object: object, location: context.location(element))
    }

    private mutating func classDefinition(_ element: XMLElement) -> ClassSyntax? {
        guard element.name == "class" else {
            context.unknownElement(element, in: "classes", expected: ["class"])
            return nil
        }
        context.checkAttributes(of: element, allowed: ["name", "class"])
        context.checkNoText(in: element)
        guard let name = context.required("name", of: element, example: "<class name=\"rounded\">"),
              context.checkName(name, of: element) else { return nil }
        return ClassSyntax(name: name, classes: classList(element), operations: operations(in: element),
                           location: context.location(element))
    }

    private mutating func instance(_ element: XMLElement) -> InstanceSyntax? {
        context.checkAttributes(of: element, allowed: ["id", "class"])
        context.checkNoText(in: element)
        guard let id = context.required("id", of: element, example: "<\(element.name) id=\"button_send\">") else { return nil }
        guard !id.contains(where: \.isWhitespace) else {
            context.error(.attributeInvalid, "instance id '\(id)' contains whitespace; identifiers are single words like button_send",
                          at: context.source.location(ofAttribute: "id", in: element))
            return nil
        }
        return InstanceSyntax(id: id, component: element.name, classes: classList(element),
                              operations: operations(in: element), location: context.location(element),
                              classLocation: context.source.location(ofAttribute: "class", in: element))
    }

    private func classList(_ element: XMLElement) -> [String] {
        (element.attribute("class") ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
    }

    private mutating func operations(in element: XMLElement) -> [OperationSyntax] {
        element.children.compactMap { child in
            guard child.name == "operation" else {
                context.unknownElement(child, in: element.name, expected: ["operation"])
                return nil
            }
            return operation(child)
        }
    }

    private mutating func operation(_ element: XMLElement) -> OperationSyntax? {
        context.checkAttributes(of: element, allowed: ["name", "state"])
        context.checkNoText(in: element)
        guard let name = context.required("name", of: element, example: "<operation name=\"backgroundColor\">"),
              context.checkName(name, of: element) else { return nil }
        var state = OperationState.normal
        if let written = element.attribute("state") {
            guard OperationState.all.contains(written) else {
                let hint = Suggestions.didYouMean(written, in: OperationState.all)
                context.error(.stateUnknown, "unknown state '\(written)'\(hint.isEmpty ? "; use one of \(OperationState.all.joined(separator: ", "))" : hint)",
                              at: context.source.location(ofAttribute: "state", in: element))
                return nil
            }
            state = written
        }
        var params: [ParamSyntax] = []
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
        return OperationSyntax(serial: nextSerial, name: name, state: state, params: params,
                               location: context.location(element))
    }

    private mutating func param(_ element: XMLElement) -> ParamSyntax? {
        context.checkAttributes(of: element, allowed: ["name"])
        context.checkNoText(in: element)
        guard let name = context.required("name", of: element, example: "<param name=\"color\">"),
              context.checkName(name, of: element) else { return nil }
        guard element.children.count == 1 else {
            let found = element.children.isEmpty ? "none" : "\(element.children.count)"
            context.error(.paramValueCount, "<param name=\"\(name)\"> holds exactly one typed object, found \(found)",
                          at: context.location(element))
            return nil
        }
        guard let object = context.typedObject(element.children[0]) else { return nil }
        return ParamSyntax(name: name, object: object, location: context.location(element))
    }

    /// Two definitions of one name in a single file are almost always a copy-paste slip.
    private mutating func reportDuplicates(_ file: ConfigurationFile) {
        func report(_ items: [(String, SourceLocation)], code: DiagnosticCode, noun: String) {
            var first: [String: SourceLocation] = [:]
            for (name, location) in items {
                if let earlier = first[name] {
                    context.warning(code, "\(noun) '\(name)' is defined again in the same file (first at \(earlier)); the later one wins",
                                    at: location)
                } else {
                    first[name] = location
                }
            }
        }
        report(file.constants.map { ($0.name, $0.location) }, code: .constantDuplicate, noun: "constant")
        report(file.classes.map { ($0.name, $0.location) }, code: .classDuplicate, noun: "class")
        report(file.instances.map { ($0.id, $0.location) }, code: .instanceDuplicate, noun: "instance")
        for operations in file.classes.map(\.operations) + file.instances.map(\.operations) {
            var seen: Set<OperationIdentity> = []
            for operation in operations where !seen.insert(operation.identity).inserted {
                context.warning(.operationDuplicate, "operation '\(operation.name)' (state \(operation.state)) is set twice in one element; the later one wins",
                                at: operation.location)
            }
        }
    }
}
