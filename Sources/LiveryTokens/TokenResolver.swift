// Resolving tokens: aliases and JSON Pointers followed to the value each token stands for.
import LiveryModel

/// A token whose value was resolved and validated against its type.
public struct ResolvedToken: Sendable {
    public var raw: RawToken
    public var type: TokenType
    public var value: TokenValue
    /// The token path this token's whole value aliases (`{a.b}`, or a `$ref` to `#/a/b/$value`).
    public var alias: [String]?
    public var path: [String] { raw.path }
}

/// Resolves aliases (`{group.token}`) and JSON Pointer references (`$ref`) and validates every
/// value against its type (sections 7-9). Every problem is one located diagnostic; a token with
/// one is left out, so nothing invalid reaches a theme.
public struct TokenResolver {
    public let sources: [TokenSource]
    private var tokens: [RawToken] = []
    private var byKey: [String: Int] = [:]
    private var results: [Int: ResolvedToken?] = [:]
    private var inProgress: [Int] = []
    var pointersInProgress: [String] = []
    public private(set) var diagnostics: [Diagnostic] = []
    /// Tokens that aliases used, for `$deprecated` warnings at the place of use.
    private var reportedDeprecations: Set<String> = []

    /// How many aliases in a row a token may be reached through.
    public static let maxAliasDepth = 256

    public init(sources: [TokenSource], tokens: [RawToken]) {
        self.sources = sources
        for token in tokens {
            if let existing = byKey[token.key] {
                self.tokens[existing] = token
            } else {
                byKey[token.key] = self.tokens.count
                self.tokens.append(token)
            }
        }
    }

    /// Parses every source, merges them in order (a later file's token replaces an earlier one
    /// with the same path) and resolves the result.
    public static func resolve(_ sources: [TokenSource]) -> (tokens: [ResolvedToken], diagnostics: [Diagnostic]) {
        var raw: [RawToken] = []
        var diagnostics: [Diagnostic] = []
        for (index, source) in sources.enumerated() {
            var parser = TokenParser(source: source, sourceIndex: index)
            raw += parser.parse()
            diagnostics += parser.diagnostics
        }
        var resolver = TokenResolver(sources: sources, tokens: raw)
        let resolved = resolver.resolveAll()
        return (resolved, diagnostics + resolver.diagnostics)
    }

    public mutating func resolveAll() -> [ResolvedToken] {
        (0..<tokens.count).compactMap { resolve($0) }
    }

    mutating func error(_ code: DiagnosticCode, _ message: String, at: SourceLocation) {
        diagnostics.append(.error(code, message, at: at))
    }

    func location(_ node: JSONNode, in source: Int) -> SourceLocation {
        SourceLocation(file: sources[source].file, line: node.line, column: node.column)
    }

    // MARK: - Tokens

    private mutating func resolve(_ index: Int) -> ResolvedToken? {
        if let done = results[index] { return done }
        let token = tokens[index]
        if let start = inProgress.firstIndex(of: index) {
            let cycle = (inProgress[start...] + [index]).map { tokens[$0].key }.joined(separator: " -> ")
            error(.tokenReferenceCycle, "token '\(token.key)' refers to itself: \(cycle)", at: token.location)
            return nil
        }
        // A chain of aliases longer than this is refused rather than followed (each link is a
        // level of recursion, and a hostile file could hold a chain as long as its size allows).
        guard inProgress.count < Self.maxAliasDepth else {
            error(
                .tokenReferenceCycle,
                "token '\(token.key)' is reached through more than \(Self.maxAliasDepth) aliases in a row; shorten the chain",
                at: token.location)
            results[index] = .some(nil)
            return nil
        }
        inProgress.append(index)
        defer { inProgress.removeLast() }
        let result = compute(token)
        results[index] = result
        return result
    }

    private mutating func compute(_ token: RawToken) -> ResolvedToken? {
        if let pointer = token.pointer {
            guard let (target, source, aliasPath) = follow(pointer, in: token.source) else { return nil }
            var type = token.type
            // A pointer to another token's whole $value may leave the type to that token.
            if type == nil, let aliasPath, let index = byKey[aliasPath.joined(separator: ".")] {
                type = resolve(index)?.type
            }
            guard let type else {
                error(
                    .tokenType, "token '\(token.key)' has no $type and its group gives none; add \"$type\"",
                    at: token.location)
                return nil
            }
            pointersInProgress.append(pointer.string ?? "")
            defer { pointersInProgress.removeLast() }
            guard let value = typed(target, as: type, source: source, aliasAllowed: true) else { return nil }
            return ResolvedToken(raw: token, type: type, value: value.value, alias: aliasPath ?? value.alias)
        }
        guard let node = token.value else { return nil }
        if let aliasPath = Self.aliasPath(node) {
            guard let target = targetToken(aliasPath, at: location(node, in: token.source)) else { return nil }
            if let type = token.type, type != target.type {
                error(
                    .tokenReferenceType,
                    "token '\(token.key)' is a \(type.rawValue) but aliases '\(target.raw.key)', a \(target.type.rawValue)",
                    at: location(node, in: token.source))
                return nil
            }
            return ResolvedToken(raw: token, type: target.type, value: target.value, alias: target.path)
        }
        guard let type = token.type else {
            error(
                .tokenType, "token '\(token.key)' has no $type and its group gives none; add \"$type\"",
                at: token.location)
            return nil
        }
        guard let value = typed(node, as: type, source: token.source, aliasAllowed: false) else { return nil }
        return ResolvedToken(raw: token, type: type, value: value.value, alias: nil)
    }

    /// `{a.b.c}` as a path, or nil when the string is not an alias at all. A string that starts
    /// with `{` but is not a well-formed alias is reported where it is typed.
    static func aliasPath(_ node: JSONNode) -> [String]? {
        guard let text = node.string, text.count > 2, text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
        let inner = text.dropFirst().dropLast()
        let parts = inner.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard
            parts.allSatisfy({ part in
                !part.isEmpty && !part.contains("{") && !part.contains("}") && part.first?.isWhitespace != true
                    && part.last?.isWhitespace != true
            })
        else { return nil }
        return parts
    }

    mutating func targetToken(_ path: [String], at: SourceLocation) -> ResolvedToken? {
        let key = path.joined(separator: ".")
        guard let index = byKey[key] else {
            let parent = byKey.keys.first { key.hasPrefix($0 + ".") }
            let why =
                parent.map {
                    "; '\($0)' is a token, and aliases cannot reach into a token's value (use a $ref JSON Pointer)"
                } ?? ""
            error(.tokenReference, "the alias {\(key)} names no token\(why)", at: at)
            return nil
        }
        guard let target = resolve(index) else {
            if inProgress.contains(index) { return nil }
            error(.tokenReference, "the alias {\(key)} names a token that is itself invalid", at: at)
            return nil
        }
        if let message = tokens[index].deprecated, reportedDeprecations.insert("\(at)").inserted {
            diagnostics.append(
                .warning(.tokenDeprecated, "'\(key)' is deprecated\(message.isEmpty ? "" : ": \(message)")", at: at))
        }
        return target
    }

    // MARK: - JSON Pointers

    /// The node a `$ref` names, the source it is in, and (when it names a token's whole `$value`)
    /// that token's path.
    mutating func follow(_ pointer: JSONNode, in source: Int) -> (JSONNode, Int, [String]?)? {
        let at = location(pointer, in: source)
        guard let text = pointer.string else {
            error(
                .tokenReference,
                "$ref is \(pointer.kindName); write a JSON Pointer string such as \"#/colors/blue/$value\"", at: at)
            return nil
        }
        guard text.hasPrefix("#/"), text.count > 2 else {
            error(
                .tokenReference,
                "'\(text)' is not a JSON Pointer into this file; write \"#/\" then the path, e.g. \"#/colors/blue/$value\"",
                at: at)
            return nil
        }
        if pointersInProgress.contains(text) {
            error(.tokenReferenceCycle, "the JSON Pointer '\(text)' leads back to itself", at: at)
            return nil
        }
        guard pointersInProgress.count < Self.maxAliasDepth else {
            error(
                .tokenReferenceCycle,
                "'\(text)' is reached through more than \(Self.maxAliasDepth) JSON Pointers in a row; shorten the chain",
                at: at)
            return nil
        }
        let segments = text.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map(
            JSONPointer.unescape)
        var node = sources[source].root
        var insideValue = false
        var tokenPath: [String] = []
        var walked: [String] = []
        for (position, segment) in segments.enumerated() {
            walked.append(segment)
            if let members = node.members {
                if !insideValue, segment.hasPrefix("$"), segment != "$value", segment != "$root" {
                    error(
                        .tokenReference, "'\(text)' points at \(segment), metadata; point at a token's $value", at: at)
                    return nil
                }
                guard let next = members.first(where: { $0.key == segment })?.value else {
                    error(
                        .tokenReference,
                        "'\(text)' names nothing: there is no '\(segment)' at #/\(walked.dropLast().joined(separator: "/"))",
                        at: at)
                    return nil
                }
                if !insideValue {
                    if segment == "$value" {
                        insideValue = true
                        if position == segments.count - 1 {
                            node = next
                            return (node, source, tokenPath)
                        }
                    } else {
                        tokenPath.append(segment)
                    }
                }
                node = next
            } else if let items = node.array, insideValue {
                guard let number = Int(segment), number >= 0, String(number) == segment, number < items.count else {
                    error(
                        .tokenReference,
                        "'\(text)' uses '\(segment)' as an index into an array of \(items.count); write 0 to \(items.count - 1)",
                        at: at)
                    return nil
                }
                node = items[number]
            } else {
                error(
                    .tokenReference,
                    "'\(text)' names nothing: #/\(walked.dropLast().joined(separator: "/")) is \(node.kindName)", at: at
                )
                return nil
            }
        }
        guard insideValue else {
            let what = Self.isTokenNode(node) ? "a token" : "a group"
            error(
                .tokenReference,
                "'\(text)' points at \(what), not a value; end the pointer at the token's /$value (or inside it)",
                at: at)
            return nil
        }
        return (node, source, nil)
    }

    static func isTokenNode(_ node: JSONNode) -> Bool { node.member("$value") != nil || node.member("$ref") != nil }

    /// Resolves a `{"$ref": ...}` object found inside a value.
    mutating func pointerObject(_ node: JSONNode) -> JSONNode? {
        guard let members = node.members, members.count == 1, members[0].key == "$ref" else { return nil }
        return members[0].value
    }
}
