// A DTCG resolver document, and the reader that checks it against every rule of the format.
import Foundation
import LiveryModel

/// A DTCG resolver document (format 2025.10): sets of token sources, modifiers whose contexts
/// add sources, and the order they apply in. `tokens import --resolver` turns each modifier
/// context into a qualifier, and the token sets of each combination into layered files.
public struct ResolverDocument: Sendable {
    public enum Source: Sendable {
        /// A tokens file, relative to the resolver.
        case file(String, SourceLocation)
        /// Tokens written inline in the resolver.
        case inline(JSONNode)
    }

    public struct Modifier: Sendable {
        public var name: String
        public var contexts: [(name: String, sources: [Source])]
        public var defaultContext: String
        public var location: SourceLocation
    }

    public enum Step: Sendable {
        case set([Source])
        case modifier(Modifier)
    }

    public var file: String
    public var steps: [Step]
    public var modifiers: [Modifier] {
        steps.compactMap { if case .modifier(let modifier) = $0 { modifier } else { nil } }
    }

    /// How deep `#/sets/...` references may nest inside one another before the document is refused
    /// (a longer chain is almost certainly a mistake, and the walk must stay bounded).
    public static let maxReferenceDepth = 32

    /// Reads the resolver's structure and checks it against every rule of the resolver format
    /// (2025.10): the allowed properties at each level, required `version`, `resolutionOrder`,
    /// `sources` and `contexts`, inline items with a `type` and a unique `name`, references only to
    /// sets (and, from `resolutionOrder`, modifiers), never circular and never deeper than
    /// `maxReferenceDepth`. Every problem is a located `token-resolver` error; a document with any
    /// error gives no `ResolverDocument`.
    public static func parse(_ source: TokenSource) -> (ResolverDocument?, [Diagnostic]) {
        var reader = ResolverReader(file: source.file, root: source.root)
        let steps = reader.read()
        return (
            reader.diagnostics.hasErrors ? nil : steps.map { ResolverDocument(file: source.file, steps: $0) },
            reader.diagnostics
        )
    }
}

/// The checks of `ResolverDocument.parse`, one pass over the document.
private struct ResolverReader {
    let file: String
    let root: JSONNode
    var diagnostics: [Diagnostic] = []
    /// The sets of `sets`, each expanded once (or found wrong once, and reported once).
    var expanded: [String: [ResolverDocument.Source]] = [:]
    var failedSets: Set<String> = []
    /// The modifiers of `modifiers`, each checked once (nil: found wrong, and reported).
    var checkedModifiers: [String: ResolverDocument.Modifier?] = [:]

    static let rootKeys: Set<String> = [
        "$schema", "name", "version", "description", "sets", "modifiers", "resolutionOrder", "$defs",
    ]
    static let setKeys: Set<String> = ["description", "sources", "$extensions"]
    static let modifierKeys: Set<String> = ["description", "contexts", "default", "$extensions"]

    init(file: String, root: JSONNode) {
        self.file = file
        self.root = root
    }

    func at(_ line: Int, _ column: Int) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }
    func at(_ node: JSONNode) -> SourceLocation { at(node.line, node.column) }

    mutating func error(_ message: String, _ node: JSONNode) {
        diagnostics.append(.error(.tokenResolver, message, at: at(node)))
    }
    mutating func error(_ message: String, member: JSONMember) {
        diagnostics.append(.error(.tokenResolver, message, at: at(member.line, member.column)))
    }

    /// Every key of `node` must be one of `allowed`; each other key is one error at the key.
    mutating func only(_ allowed: Set<String>, in node: JSONNode, what: String) {
        for member in node.members ?? [] where !allowed.contains(member.key) {
            error(
                "\(what) has no property '\(member.key)'; it takes \(allowed.sorted().joined(separator: ", "))",
                member: member)
        }
    }

    mutating func optionalString(_ key: String, in node: JSONNode, what: String) {
        if let value = node[key], value.string == nil {
            error("\(what)'s '\(key)' is a string, not \(value.kindName)", value)
        }
    }

    mutating func extensions(in node: JSONNode, what: String) {
        if let value = node["$extensions"], value.members == nil {
            error("\(what)'s '$extensions' is an object of vendor namespaces, not \(value.kindName)", value)
        }
    }

    /// `#/sets/NAME` (with `~1` for `/` and `~0` for `~`, RFC 6901) to NAME.
    static func pointerName(_ pointer: String, prefix: String) -> String? {
        guard pointer.hasPrefix(prefix) else { return nil }
        let rest = String(pointer.dropFirst(prefix.count))
        guard !rest.isEmpty, !rest.contains("/") else { return nil }
        return rest.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    mutating func read() -> [ResolverDocument.Step]? {
        guard root.members != nil else {
            error("a resolver document is a JSON object, not \(root.kindName)", root)
            return nil
        }
        only(Self.rootKeys, in: root, what: "a resolver document")
        if let version = root["version"] {
            if version.string != "2025.10" { error("the resolver's version must be \"2025.10\"", version) }
        } else {
            error("the resolver needs \"version\": \"2025.10\"", root)
        }
        optionalString("$schema", in: root, what: "the resolver")
        optionalString("name", in: root, what: "the resolver")
        optionalString("description", in: root, what: "the resolver")
        if let defs = root["$defs"], defs.members == nil {
            error("the resolver's '$defs' is an object, not \(defs.kindName)", defs)
        }
        // Every set and modifier is checked, referenced or not.
        for (key, what) in [("sets", "set"), ("modifiers", "modifier")] {
            guard let group = root[key] else { continue }
            guard let members = group.members else {
                error("'\(key)' is an object of named \(what)s, not \(group.kindName)", group)
                continue
            }
            for member in members {
                if key == "sets" { _ = namedSet(member.key, trail: []) } else { _ = namedModifier(member.key) }
            }
        }
        guard let orderNode = root["resolutionOrder"] else {
            error("the resolver needs 'resolutionOrder', a non-empty array of sets and modifiers", root)
            return nil
        }
        guard let order = orderNode.array, !order.isEmpty else {
            error(
                "'resolutionOrder' is a non-empty array of sets and modifiers, not \(orderNode.array == nil ? orderNode.kindName : "an empty array")",
                orderNode)
            return nil
        }
        var steps: [ResolverDocument.Step] = []
        // Each referenced set or modifier once, and each inline name once (a set and a modifier
        // inline may not share a name either).
        var names: [String: JSONNode] = [:]
        for item in order {
            if let next = step(item, names: &names) { steps.append(next) }
        }
        return diagnostics.hasErrors ? nil : steps
    }

    /// The step of one `resolutionOrder` item: a reference to a set or modifier, or one inline;
    /// nil, with its errors reported, when it is wrong. `names` holds the names claimed so far.
    mutating func step(_ item: JSONNode, names: inout [String: JSONNode]) -> ResolverDocument.Step? {
        guard item.members != nil else {
            error(
                "a resolutionOrder item is {\"$ref\": \"#/sets/...\"}, {\"$ref\": \"#/modifiers/...\"} or an inline set or modifier, not \(item.kindName)",
                item)
            return nil
        }
        if let reference = item["$ref"] {
            for member in item.members ?? [] where member.key != "$ref" {
                error(
                    "Livery does not apply properties beside $ref ('\(member.key)'); declare the set or modifier with them",
                    member: member)
            }
            guard let pointer = reference.string else {
                error("$ref is a string, not \(reference.kindName)", reference)
                return nil
            }
            if let name = Self.pointerName(pointer, prefix: "#/sets/") {
                claim(pointer, reference, names: &names)
                guard root["sets"]?[name] != nil else {
                    error("'\(pointer)' names no set of this document", reference)
                    return nil
                }
                return namedSet(name, trail: []).map { .set($0) }
            } else if let name = Self.pointerName(pointer, prefix: "#/modifiers/") {
                claim(pointer, reference, names: &names)
                guard root["modifiers"]?[name] != nil else {
                    error("'\(pointer)' names no modifier of this document", reference)
                    return nil
                }
                return namedModifier(name).map { .modifier($0) }
            } else {
                error(
                    "'\(pointer)': resolutionOrder references #/sets/NAME or #/modifiers/NAME"
                        + (pointer.hasPrefix("#/resolutionOrder")
                            ? " (nothing may reference resolutionOrder itself)" : ""),
                    reference)
                return nil
            }
        }
        guard let type = item["type"] else {
            error(
                "an inline resolutionOrder item needs \"type\": \"set\" or \"modifier\" (or write {\"$ref\": ...})",
                item)
            return nil
        }
        guard let name = item["name"]?.string else {
            error(
                "an inline \(type.string ?? "item") needs a 'name', unique in resolutionOrder", item["name"] ?? item
            )
            return nil
        }
        switch type.string {
        case "set":
            claim(names["#/sets/" + name] == nil ? "inline " + name : "#/sets/" + name, item, names: &names)
            return set(name, item, inline: true, trail: []).map { .set($0) }
        case "modifier":
            claim(
                names["#/modifiers/" + name] == nil ? "inline " + name : "#/modifiers/" + name, item,
                names: &names)
            return modifier(name, item, inline: true).map { .modifier($0) }
        default:
            error(
                "an inline item's type is \"set\" or \"modifier\", not \(type.string.map { "'\($0)'" } ?? type.kindName)",
                type)
            return nil
        }
    }

    /// Claims `name` for `node` in `names`; a name claimed before is an error at `node`.
    mutating func claim(_ name: String, _ node: JSONNode, names: inout [String: JSONNode]) {
        if let first = names[name] {
            let shown = name.hasPrefix("inline ") ? String(name.dropFirst(7)) : name
            diagnostics.append(
                .error(
                    .tokenResolver,
                    "'\(shown)' appears twice in resolutionOrder (first at line \(first.line)); each set and modifier is named once",
                    at: SourceLocation(file: file, line: node.line, column: node.column)))
        } else {
            names[name] = node
        }
    }

    /// The set `sets[name]` (which exists), expanded once; `trail` is the chain of sets whose
    /// expansion led here.
    mutating func namedSet(_ name: String, trail: [String]) -> [ResolverDocument.Source]? {
        if let done = expanded[name] { return done }
        if failedSets.contains(name) { return nil }
        guard let node = root["sets"]?[name] else { return nil }
        let result = set(name, node, inline: false, trail: trail + [name])
        if let result { expanded[name] = result } else { failedSets.insert(name) }
        return result
    }

    /// The modifier `modifiers[name]` (which exists), checked once.
    mutating func namedModifier(_ name: String) -> ResolverDocument.Modifier? {
        if let done = checkedModifiers[name] { return done }
        guard let node = root["modifiers"]?[name] else { return nil }
        let result = modifier(name, node, inline: false)
        checkedModifiers[name] = .some(result)
        return result
    }

    /// A set (under `sets`, or inline with `type` and `name`): its sources, expanded.
    mutating func set(_ name: String, _ node: JSONNode, inline: Bool, trail: [String]) -> [ResolverDocument.Source]? {
        let what = "set '\(name)'"
        guard node.members != nil else {
            error("\(what) is an object with 'sources', not \(node.kindName)", node)
            return nil
        }
        only(inline ? Self.setKeys.union(["type", "name"]) : Self.setKeys, in: node, what: what)
        optionalString("description", in: node, what: what)
        extensions(in: node, what: what)
        guard node["sources"] != nil else {
            error("\(what) needs 'sources', an array of {\"$ref\": ...} and inline tokens", node)
            return nil
        }
        return sources(node["sources"], owner: what, trail: trail)
    }

    mutating func modifier(_ name: String, _ node: JSONNode, inline: Bool) -> ResolverDocument.Modifier? {
        let what = "modifier '\(name)'"
        guard node.members != nil else {
            error("\(what) is an object with 'contexts', not \(node.kindName)", node)
            return nil
        }
        only(inline ? Self.modifierKeys.union(["type", "name"]) : Self.modifierKeys, in: node, what: what)
        optionalString("description", in: node, what: what)
        extensions(in: node, what: what)
        guard let contextsNode = node["contexts"] else {
            error("\(what) needs 'contexts', an object of at least two named source lists", node)
            return nil
        }
        guard let contexts = contextsNode.members, contexts.count >= 2 else {
            error(
                "\(what)'s 'contexts' is an object of at least two named source lists"
                    + (contextsNode.members.map { " (it has \($0.count))" } ?? ", not \(contextsNode.kindName)"),
                contextsNode)
            return nil
        }
        var parsed: [(name: String, sources: [ResolverDocument.Source])] = []
        var failed = false
        for context in contexts {
            if context.key.isEmpty { error("\(what) has a context with an empty name", member: context) }
            if let list = sources(context.value, owner: "context '\(context.key)' of \(what)", trail: []) {
                parsed.append((context.key, list))
            } else {
                failed = true
            }
        }
        var defaultContext = contexts[0].key
        if let given = node["default"] {
            if let text = given.string, contexts.contains(where: { $0.key == text }) {
                defaultContext = text
            } else {
                error(
                    "\(what): default must name one of its contexts (\(contexts.map(\.key).joined(separator: ", ")))",
                    given)
                failed = true
            }
        }
        return failed
            ? nil
            : ResolverDocument.Modifier(
                name: name, contexts: parsed, defaultContext: defaultContext, location: at(node))
    }

    /// A list of sources; `#/sets/NAME` references are expanded in place. `trail` is the chain of
    /// sets being expanded: a reference back into it is a cycle, and a chain longer than
    /// `maxReferenceDepth` is refused, so the walk always ends.
    mutating func sources(_ node: JSONNode?, owner: String, trail: [String]) -> [ResolverDocument.Source]? {
        guard let node else { return nil }
        guard let items = node.array else {
            error(
                "the sources of \(owner) are an array of {\"$ref\": ...} and inline tokens, not \(node.kindName)", node)
            return nil
        }
        var result: [ResolverDocument.Source] = []
        var failed = false
        for item in items {
            guard item.members != nil else {
                error("a source of \(owner) is {\"$ref\": ...} or an object of tokens, not \(item.kindName)", item)
                failed = true
                continue
            }
            guard let reference = item["$ref"] else {
                result.append(.inline(item))
                continue
            }
            for member in item.members ?? [] where member.key != "$ref" {
                error(
                    "Livery does not apply properties beside $ref ('\(member.key)'); put the tokens in a source of their own",
                    member: member)
                failed = true
            }
            guard let path = reference.string, !path.isEmpty else {
                error(
                    "$ref is a file path or #/sets/NAME, not \(reference.string == nil ? reference.kindName : "an empty string")",
                    reference)
                failed = true
                continue
            }
            if let name = Self.pointerName(path, prefix: "#/sets/") {
                if let start = trail.firstIndex(of: name) {
                    let cycle = (trail[start...] + [name]).joined(separator: " -> ")
                    error("'\(path)' makes a circular reference between sets: \(cycle)", reference)
                    failed = true
                    continue
                }
                guard trail.count < ResolverDocument.maxReferenceDepth else {
                    error(
                        "set references nest more than \(ResolverDocument.maxReferenceDepth) deep (\(trail.joined(separator: " -> ")) -> \(name))",
                        reference)
                    failed = true
                    continue
                }
                guard root["sets"]?[name] != nil else {
                    error("'\(path)' names no set of this document", reference)
                    failed = true
                    continue
                }
                guard let list = namedSet(name, trail: trail) else {
                    failed = true
                    continue
                }
                result += list
            } else if path.hasPrefix("#/modifiers/") {
                error("'\(path)': \(owner) may not reference a modifier; only resolutionOrder does", reference)
                failed = true
            } else if path.hasPrefix("#/resolutionOrder") {
                error("'\(path)': nothing may reference resolutionOrder items", reference)
                failed = true
            } else if path.hasPrefix("#") {
                error("'\(path)' is not a set; sources reference files or #/sets/NAME", reference)
                failed = true
            } else if path.contains("#") || path.contains("://") {
                error(
                    "'\(path)': Livery reads whole local files; a URL or a fragment of a file is not supported",
                    reference)
                failed = true
            } else {
                result.append(.file(path, at(reference)))
            }
        }
        return failed ? nil : result
    }
}
