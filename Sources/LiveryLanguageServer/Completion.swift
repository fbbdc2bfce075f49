import Foundation
import LiveryModel
import LiveryXML

/// One completion item, as LSP's `CompletionItem`. Kinds are LSP's numbers: 10 property (elements,
/// attributes), 7 class (component types, classes), 2 method (operations), 21 constant, 12 value,
/// 17 file (assets), 20 enum member, 9 module (theme ids).
struct CompletionCandidate {
    var label: String
    var kind: Int
    var detail: String?
    var documentation: String?
    /// Snippet text (LSP snippet syntax) replacing `range`, or plain text when `isSnippet` is false.
    var text: String
    var isSnippet = false
}

extension LanguageServer {
    /// `textDocument/completion`: what may stand at the cursor, from the schema and the theme.
    func completion(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (path, theme, symbols, offset) = try context(params)
        guard let offset else { throw .invalidParams("position is missing") }
        let scan = symbols.scan
        let document = symbols.document
        var candidates: [CompletionCandidate] = []
        var replaceStart = offset
        var replaceEnd = offset
        let schema = theme.flatMap { project?.workspace.schema(forThemeAt: $0) } ?? StandardSchema.schema

        if let tag = scan.tag(at: offset) {
            let element = scan.elements[tag]
            if offset <= element.nameEnd {
                // the element's name, being typed
                replaceStart = element.start + 1
                replaceEnd = element.nameEnd
                candidates = elementCandidates(
                    parent: element.parent, scan: scan, path: path, schema: schema,
                    closed: element.closed || !element.attributes.isEmpty)
            } else if let attribute = element.attributes.first(where: {
                $0.hasValue && $0.valueStart <= offset && offset <= $0.valueEnd
            }) {
                replaceStart = attribute.valueStart
                replaceEnd = attribute.valueEnd
                if attribute.name == "class" || (element.name == "dimension" && attribute.name == "values") {
                    // one word of the list
                    var start = offset
                    while start > attribute.valueStart, scan.bytes[start - 1] != UInt8(ascii: " ") { start -= 1 }
                    var end = offset
                    while end < attribute.valueEnd, scan.bytes[end] != UInt8(ascii: " ") { end += 1 }
                    replaceStart = start
                    replaceEnd = end
                }
                candidates = valueCandidates(
                    attribute: attribute.name, element: tag, scan: scan, theme: theme, schema: schema)
            } else {
                candidates = attributeCandidates(element: tag, scan: scan)
                var start = offset
                while start > element.nameEnd, MarkupScan.isNameByte(scan.bytes[start - 1]) { start -= 1 }
                replaceStart = start
            }
        } else if let container = scan.container(of: offset) {
            var start = offset
            while start > 0, MarkupScan.isNameByte(scan.bytes[start - 1]) { start -= 1 }
            if start > 0, scan.bytes[start - 1] == UInt8(ascii: "<") {
                replaceStart = start
                candidates = elementCandidates(parent: container, scan: scan, path: path, schema: schema, closed: false)
            } else {
                replaceStart = start
                candidates = contentCandidates(container: container, scan: scan, theme: theme, schema: schema)
            }
        } else {
            var start = offset
            while start > 0, MarkupScan.isNameByte(scan.bytes[start - 1]) { start -= 1 }
            if start > 0, scan.bytes[start - 1] == UInt8(ascii: "<") {
                replaceStart = start
                candidates = elementCandidates(parent: nil, scan: scan, path: path, schema: schema, closed: false)
            }
        }
        let range = TextRange(
            start: document.position(ofOffset: replaceStart), end: document.position(ofOffset: max(replaceEnd, offset)))
        // an edit must stay on the cursor's line
        let safeRange =
            range.start.line == range.end.line
            ? range : TextRange(start: range.start, end: document.position(ofOffset: offset))
        return .object([
            ("isIncomplete", .bool(false)),
            (
                "items",
                .array(
                    candidates.enumerated().map { index, candidate in
                        .members([
                            ("label", .string(candidate.label)),
                            ("kind", .int(candidate.kind)),
                            ("detail", candidate.detail.map(JSONValue.string)),
                            (
                                "documentation",
                                candidate.documentation.map {
                                    .object([("kind", .string("markdown")), ("value", .string($0))])
                                }
                            ),
                            ("sortText", .string(String(format: "%05d", index))),
                            ("filterText", .string(candidate.label)),
                            ("insertTextFormat", .int(candidate.isSnippet ? 2 : 1)),
                            (
                                "textEdit",
                                .object([("range", Self.json(safeRange)), ("newText", .string(candidate.text))])
                            ),
                        ])
                    })
            ),
        ])
    }

    // MARK: - Elements

    static let typeNames = ValueType.allCases.map(\.descriptor.elementName)

    private func elementCandidates(parent: Int?, scan: MarkupScan, path: String, schema: Schema, closed: Bool)
        -> [CompletionCandidate]
    {
        func element(_ name: String, _ snippet: String, detail: String? = nil, kind: Int = 10) -> CompletionCandidate {
            CompletionCandidate(
                label: name, kind: kind, detail: detail, text: closed ? name : snippet, isSnippet: !closed)
        }
        guard let parent else {
            if FileSystemPaths.isInfoFile(path) {
                return [element("theme-info", "theme-info id=\"$1\" name=\"$2\"${3: parent=\"$4\"}/>")]
            }
            return [
                element("theme", "theme>\n\t$0\n</theme>"),
                element("components", "components>\n\t$0\n</components>"),
            ]
        }
        let parentElement = scan.elements[parent]
        let grandparent = parentElement.parent.map { scan.elements[$0].name }
        switch parentElement.name {
        case "theme":
            let present = Set(scan.elements.filter { $0.parent == parent }.map(\.name))
            return ["constants", "classes", "instances"].filter { !present.contains($0) }.map {
                element($0, "\($0)>\n\t$0\n</\($0)>")
            }
        case "constants":
            return Self.typeNames.map { type in
                element(type, "\(type) name=\"$1\">$0</\(type)>", detail: "constant of type \(type)")
            }
        case "classes":
            return [element("class", "class name=\"$1\">\n\t$0\n</class>")]
        case "instances":
            return schema.components.keys.sorted().map { type in
                let extends = schema.components[type]?.extends.map { " (extends \($0))" } ?? ""
                return element(type, "\(type) id=\"$1\">\n\t$0\n</\(type)>", detail: "component\(extends)", kind: 7)
            }
        case "operation":
            let operation = parentElement.attribute("name")?.value ?? ""
            let params =
                operationSchema(operation, owner: scan.owner(of: parent), scan: scan, schema: schema)?.params ?? []
            return params.map { param in
                CompletionCandidate(
                    label: "param \(param.name)", kind: 10, detail: param.type.rawValue,
                    text: closed ? "param" : "param name=\"\(param.name)\">\(Self.valueSnippet(param))</param>",
                    isSnippet: !closed)
            }
        case "param":
            let paramName = parentElement.attribute("name")?.value ?? ""
            if let operationIndex = parentElement.parent,
                let param = operationSchema(
                    scan.elements[operationIndex].attribute("name")?.value ?? "", owner: scan.owner(of: operationIndex),
                    scan: scan, schema: schema)?.params.first(where: { $0.name == paramName })
            {
                let snippet = Self.valueSnippet(param)
                return [
                    CompletionCandidate(
                        label: param.type.rawValue, kind: 10, detail: "the value \(paramName) takes",
                        text: closed ? param.type.rawValue : String(snippet.dropFirst()), isSnippet: !closed),
                    element(
                        param.type.rawValue + " ref", "\(param.type.rawValue) ref=\"$1\"/>",
                        detail: "a constant of type \(param.type.rawValue)"),
                ]
            }
            return Self.typeNames.map { element($0, "\($0)>$0</\($0)>") }
        case let name where ValueType(elementName: name)?.descriptor.content == .elements:
            return Self.typeNames.map { element($0, "\($0)>$0</\($0)>") }
        case "class":
            return [element("operation", "operation name=\"$1\">\n\t$0\n</operation>")]
        default:
            if grandparent == "instances" {
                return [element("operation", "operation name=\"$1\">\n\t$0\n</operation>")]
            }
            if parentElement.name == "components" {
                return [
                    element("component", "component name=\"$1\"${2: extends=\"$3\"}>\n\t$0\n</component>"),
                    element(
                        "dimension", "dimension name=\"$1\" values=\"$2\"/>", detail: "an app-defined trait dimension"),
                ]
            }
            return []
        }
    }

    /// The typed element a param needs, as a snippet starting with `<`.
    static func valueSnippet(_ param: ParamSchema) -> String {
        param.type.descriptor.snippet(words: param.allowedValues)
    }

    /// The signature of an operation where it is written: in an instance, its component type's
    /// (inherited ones included); in a class, the first component type that has it.
    func operationSchema(_ name: String, owner: Int?, scan: MarkupScan, schema: Schema) -> OperationSchema? {
        if let owner, let parent = scan.elements[owner].parent, scan.elements[parent].name == "instances" {
            return schema.operation(name, of: scan.elements[owner].name)
        }
        for component in schema.components.keys.sorted() {
            if let found = schema.operation(name, of: component) { return found }
        }
        return nil
    }

    static func summary(_ operation: OperationSchema, declaredBy component: String) -> String {
        let params = operation.params.map { "\($0.name): \($0.type.rawValue)" }.joined(separator: ", ")
        return "\(operation.name)(\(params))\(operation.allowsStates ? " [states]" : "") from \(component)"
    }

    // MARK: - Attributes

    private func attributeCandidates(element index: Int, scan: MarkupScan) -> [CompletionCandidate] {
        let element = scan.elements[index]
        let section = scan.section(of: index)
        var names: [String]
        switch element.name {
        case "operation": names = ["name", "state"]
        case "param": names = ["name"]
        case "class": names = ["name", "class"]
        case "theme-info": names = ["id", "name", "version", "parent"]
        case "dimension": names = ["name", "values"]
        default:
            // A typed element's own attributes (a colour's modifiers among them, format 1.3, section 9.1)
            if let type = ValueType(elementName: element.name) {
                names = ["name", "ref"] + type.descriptor.attributeNames
            } else {
                names =
                    section == "instances" && element.parent.map({ scan.elements[$0].name == "instances" }) == true
                    ? ["id", "class"] : []
            }
        }
        // Any constant may be one the app's user can replace (format 1.3, section 9.2).
        if section == "constants", ValueType(elementName: element.name) != nil { names.append("overridable") }
        let present = Set(element.attributes.map(\.name))
        return names.filter { !present.contains($0) }.map {
            CompletionCandidate(label: $0, kind: 10, text: "\($0)=\"$1\"", isSnippet: true)
        }
    }

    private func valueCandidates(
        attribute: String, element index: Int, scan: MarkupScan, theme: String?, schema: Schema
    )
        -> [CompletionCandidate]
    {
        let element = scan.elements[index]
        func values(_ list: [String], kind: Int = 12, detail: String? = nil) -> [CompletionCandidate] {
            list.map { CompletionCandidate(label: $0, kind: kind, detail: detail, text: $0) }
        }
        func constants(of type: ValueType?) -> [CompletionCandidate] {
            guard let theme, let type else { return [] }
            var seen: Set<String> = []
            let resolved = resolvedConstants(ofTheme: theme)
            return definitions(.constant, visibleFrom: theme).filter { $0.valueType == type }.compactMap { place in
                guard seen.insert(place.name).inserted else { return nil }
                return CompletionCandidate(
                    label: place.name, kind: 21, detail: "\(place.detail) constant",
                    documentation: constantDescription(place.name, theme: theme, byName: resolved), text: place.name)
            }
        }
        // A typed element's own attribute: what its descriptor says it takes.
        if let kind = ValueType(elementName: element.name)?.descriptor.attribute(attribute)?.kind {
            switch kind {
            case .words(let words): return values(words)
            case .colorOperand: return constants(of: .color)
            case .text, .number, .color, .schemaWords, .assetName: return []
            }
        }
        switch (element.name, attribute) {
        case ("operation", "name"):
            let owner = scan.owner(of: index)
            if let owner, let parent = scan.elements[owner].parent, scan.elements[parent].name == "instances" {
                let component = scan.elements[owner].name
                return schema.operationNames(of: component).compactMap { name in
                    guard let operation = schema.operation(name, of: component) else { return nil }
                    let declaredBy =
                        schema.lineage(of: component).first { schema.components[$0]?.operations[name] != nil }
                        ?? component
                    return CompletionCandidate(
                        label: name, kind: 2, detail: Self.summary(operation, declaredBy: declaredBy), text: name)
                }
            }
            var seen: [String: String] = [:]
            for component in schema.components.keys.sorted() {
                for (name, _) in schema.components[component]?.operations ?? [:] where seen[name] == nil {
                    seen[name] = component
                }
            }
            return seen.keys.sorted().compactMap { name in
                guard let component = seen[name], let operation = schema.operation(name, of: component) else {
                    return nil
                }
                return CompletionCandidate(
                    label: name, kind: 2, detail: Self.summary(operation, declaredBy: component), text: name)
            }
        case ("operation", "state"):
            return values(ControlState.all.map(\.rawValue))
        case ("param", "name"):
            guard let operationIndex = element.parent else { return [] }
            let operation = operationSchema(
                scan.elements[operationIndex].attribute("name")?.value ?? "", owner: scan.owner(of: operationIndex),
                scan: scan, schema: schema)
            return (operation?.params ?? []).map {
                CompletionCandidate(label: $0.name, kind: 10, detail: $0.type.rawValue, text: $0.name)
            }
        case (_, "ref"):
            return constants(of: ValueType(elementName: element.name))
        case (_, "class"):
            guard let theme else { return [] }
            var seen: Set<String> = []
            return definitions(.class, visibleFrom: theme).compactMap { place in
                guard seen.insert(place.name).inserted else { return nil }
                return CompletionCandidate(label: place.name, kind: 7, detail: "class", text: place.name)
            }
        case (_, "overridable"): return values(["true", "false"])
        case ("theme-info", "parent"):
            guard let project else { return [] }
            return values(project.themes.compactMap(themeID(of:)).sorted(), kind: 9, detail: "theme id")
        case ("component", "extends"):
            return values(schema.components.keys.sorted(), kind: 7)
        case ("dimension", "name"), ("dimension", "values"):
            return dimensionCandidates(attribute: attribute, element: element, theme: theme)
        default:
            return []
        }
    }

    /// A `<dimension>` declaration's `name` offers the app-defined dimensions the theme's chain
    /// and schema files declare (a theme declaring one again must declare it the same); its
    /// `values`, the tags of the dimension it names that the list does not have yet.
    private func dimensionCandidates(attribute: String, element: MarkupScan.Element, theme: String?)
        -> [CompletionCandidate]
    {
        guard let project else { return [] }
        let dimensions =
            theme.map { project.workspace.dimensions(forThemeAt: $0) } ?? project.workspace.schemaDimensions
        guard attribute == "values" else {
            return dimensions.appDefined.map {
                CompletionCandidate(
                    label: $0.name, kind: 7, detail: "dimension: \($0.values.joined(separator: " "))", text: $0.name)
            }
        }
        let name = element.attribute("name")?.value ?? ""
        let written = Set((element.attribute("values")?.value ?? "").split(separator: " ").map(String.init))
        guard let index = dimensions.index(named: name), index >= TraitDimensions.standard.all.count else { return [] }
        return dimensions.all[index].values.filter { !written.contains($0) }.map {
            CompletionCandidate(label: $0, kind: 20, detail: "tag of \(name)", text: $0)
        }
    }

    // MARK: - Content

    private func contentCandidates(container: Int, scan: MarkupScan, theme: String?, schema: Schema)
        -> [CompletionCandidate]
    {
        let element = scan.elements[container]
        guard case .text(let kind)? = ValueType(elementName: element.name)?.descriptor.content else { return [] }
        switch kind {
        case .assetName:
            guard let theme else { return [] }
            return assetNames(visibleFrom: theme).keys.sorted().map {
                CompletionCandidate(label: $0, kind: 17, detail: "asset", text: $0)
            }
        case .words(let words):
            return words.map { CompletionCandidate(label: $0, kind: 12, text: $0) }
        case .schemaWords:
            guard let paramIndex = element.parent, scan.elements[paramIndex].name == "param",
                let operationIndex = scan.elements[paramIndex].parent
            else { return [] }
            let paramName = scan.elements[paramIndex].attribute("name")?.value ?? ""
            let param = operationSchema(
                scan.elements[operationIndex].attribute("name")?.value ?? "", owner: scan.owner(of: operationIndex),
                scan: scan, schema: schema)?.params.first { $0.name == paramName }
            return (param?.allowedValues ?? []).map { CompletionCandidate(label: $0, kind: 20, text: $0) }
        case .text, .number, .color, .colorOperand:
            return []
        }
    }
}

extension FileSystemPaths {
    static func isInfoFile(_ path: String) -> Bool { (path as NSString).lastPathComponent == "Info.xml" }
}
