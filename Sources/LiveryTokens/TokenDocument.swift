import Foundation
import LiveryModel

/// One tokens file, read: its path as diagnostics spell it and its JSON.
public struct TokenSource: Sendable {
    public var file: String
    public var root: JSONNode
    public init(file: String, root: JSONNode) {
        self.file = file
        self.root = root
    }

    /// Reads and parses a file; a syntax error becomes one located `tokens-json` diagnostic.
    public static func read(_ file: String, bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(UnreadableTokens)
        -> TokenSource
    {
        do {
            return TokenSource(file: file, root: try JSONReader.parse(bytes, limits: limits))
        } catch {
            throw UnreadableTokens(
                diagnostic: .error(
                    .tokensJSON, error.message,
                    at: SourceLocation(file: file, line: error.line, column: error.column)))
        }
    }
}

/// A tokens file that is not JSON: the one located diagnostic saying why.
public struct UnreadableTokens: Error, Sendable {
    public var diagnostic: Diagnostic
}

/// A token as written: its path, its type (own or inherited from its groups), and its `$value`
/// or `$ref` still unresolved.
public struct RawToken: Sendable {
    public var path: [String]
    public var type: TokenType?
    public var value: JSONNode?
    /// The token-level `$ref` (a JSON Pointer string), the alternative to `$value`.
    public var pointer: JSONNode?
    public var description: String?
    /// nil when not deprecated; the message (possibly empty) when it is.
    public var deprecated: String?
    /// Index of the source the token was written in (JSON Pointers resolve in that file).
    public var source: Int
    public var location: SourceLocation
    /// The token's `$extensions` object, for the vendor data Livery reads back
    /// (`TypographyExtension`).
    public var extensions: JSONNode? = nil

    public var key: String { path.joined(separator: ".") }
}

/// Reads the groups and tokens of one file: structure, names, metadata, `$type` inheritance and
/// `$extends` (section 6 of the format), leaving values to `TokenResolver`.
struct TokenParser {
    let source: TokenSource
    let sourceIndex: Int
    var diagnostics: [Diagnostic] = []
    /// Groups by path key, with the `$type` in force there (for `$extends` targets).
    private var groups: [String: (node: JSONNode, type: TokenType?)] = [:]
    private var tokenKeys: Set<String> = []
    private var expanding: [String] = []

    static let groupProperties: Set<String> = [
        "$type", "$description", "$extensions", "$deprecated", "$extends", "$root",
    ]
    static let tokenProperties: Set<String> = ["$value", "$ref", "$type", "$description", "$extensions", "$deprecated"]

    init(source: TokenSource, sourceIndex: Int) {
        self.source = source
        self.sourceIndex = sourceIndex
    }

    func location(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(file: source.file, line: line, column: column)
    }
    func location(_ node: JSONNode) -> SourceLocation { location(node.line, node.column) }

    mutating func error(_ code: DiagnosticCode, _ message: String, _ at: SourceLocation) {
        diagnostics.append(.error(code, message, at: at))
    }

    static func isToken(_ node: JSONNode) -> Bool { node.member("$value") != nil || node.member("$ref") != nil }

    mutating func parse() -> [RawToken] {
        guard source.root.members != nil else {
            error(
                .tokenStructure, "a tokens file holds a JSON object of groups and tokens, not \(source.root.kindName)",
                location(source.root))
            return []
        }
        index(source.root, path: [], inherited: nil)
        return group(source.root, path: [], inherited: nil)
    }

    /// First pass: every group's path and type, so `$extends` can name groups anywhere.
    private mutating func index(_ node: JSONNode, path: [String], inherited: TokenType?) {
        let type = declaredType(node) ?? inherited
        groups[path.joined(separator: ".")] = (node, type)
        for member in node.members ?? [] where !member.key.hasPrefix("$") && member.value.members != nil {
            if Self.isToken(member.value) {
                tokenKeys.insert((path + [member.key]).joined(separator: "."))
            } else {
                index(member.value, path: path + [member.key], inherited: type)
            }
        }
    }

    private func declaredType(_ node: JSONNode) -> TokenType? {
        node["$type"]?.string.flatMap(TokenType.init(rawValue:))
    }

    mutating func checkType(_ node: JSONNode) -> TokenType? {
        guard let member = node.member("$type") else { return nil }
        guard let name = member.value.string else {
            error(
                .tokenType, "$type is \(member.value.kindName); write one type name as a string, e.g. \"color\"",
                location(member.value))
            return nil
        }
        guard let type = TokenType(rawValue: name) else {
            let known = TokenType.allCases.map(\.rawValue).joined(separator: ", ")
            error(.tokenType, "unknown $type '\(name)'; use one of \(known)", location(member.value))
            return nil
        }
        return type
    }

    private mutating func checkMetadata(_ node: JSONNode) -> (description: String?, deprecated: String?) {
        var description: String?
        var deprecated: String?
        if let member = node.member("$description") {
            if let text = member.value.string {
                description = text
            } else {
                error(
                    .tokenStructure, "$description is \(member.value.kindName); write a string", location(member.value))
            }
        }
        if let member = node.member("$deprecated") {
            switch member.value.content {
            case .bool(let flag): deprecated = flag ? "" : nil
            case .string(let message): deprecated = message
            default:
                error(
                    .tokenStructure, "$deprecated is \(member.value.kindName); write true, false or a message string",
                    location(member.value))
            }
        }
        if let member = node.member("$extensions"), member.value.members == nil {
            error(
                .tokenStructure, "$extensions is \(member.value.kindName); write an object keyed by vendor",
                location(member.value))
        }
        return (description, deprecated)
    }

    /// Checks a group or token name (section 5.1): no leading `$`, no `{`, `}` or `.`.
    private mutating func checkName(_ member: JSONMember) -> Bool {
        if let bad = member.key.first(where: { $0 == "{" || $0 == "}" || $0 == "." }) {
            error(
                .tokenStructure,
                "the name '\(member.key)' contains '\(bad)'; names may not contain '{', '}' or '.' (they are reference syntax)",
                location(member.line, member.column))
            return false
        }
        if member.key.isEmpty {
            error(
                .tokenStructure, "an empty name; give the group or token a name", location(member.line, member.column))
            return false
        }
        return true
    }

    /// The tokens of a group and its subgroups, paths absolute, `$extends` applied.
    private mutating func group(_ node: JSONNode, path: [String], inherited: TokenType?) -> [RawToken] {
        // A group that extends another inherits its properties too, $type among them.
        let type = checkType(node) ?? extendedType(node) ?? inherited
        _ = checkMetadata(node)
        var tokens = OrderedTokens()
        if let extends = node.member("$extends") {
            for made in extended(extends, into: path, inherited: type) { tokens.replace(with: made) }
        }
        for member in node.members ?? [] {
            if member.key.hasPrefix("$") {
                if member.key == "$root", member.value.members != nil, Self.isToken(member.value) {
                    if let made = token(member, path: path + ["$root"], inherited: type) { tokens.replace(with: made) }
                } else if member.key == "$schema" && path.isEmpty {
                    continue
                } else if !Self.groupProperties.contains(member.key) {
                    error(
                        .tokenStructure,
                        "unknown property '\(member.key)' in a group; names starting with '$' are reserved by the format",
                        location(member.line, member.column))
                } else if member.key == "$root" {
                    error(
                        .tokenStructure, "$root must be a token (an object with $value or $ref)", location(member.value)
                    )
                }
                continue
            }
            guard checkName(member) else { continue }
            guard member.value.members != nil else {
                error(
                    .tokenStructure,
                    "'\(member.key)' is \(member.value.kindName); a group's members are groups or tokens (objects)",
                    location(member.value))
                continue
            }
            if Self.isToken(member.value) {
                if let made = token(member, path: path + [member.key], inherited: type) { tokens.replace(with: made) }
            } else {
                for made in group(member.value, path: path + [member.key], inherited: type) {
                    tokens.replace(with: made)
                }
            }
        }
        return tokens.tokens
    }

    private func extendedType(_ node: JSONNode, depth: Int = 0) -> TokenType? {
        guard depth < 32, let text = node["$extends"]?.string, text.hasPrefix("{"), text.hasSuffix("}"),
            let target = groups[String(text.dropFirst().dropLast())]
        else { return nil }
        return target.type ?? extendedType(target.node, depth: depth + 1)
    }

    /// Tokens in first-definition order, found by path in constant time.
    struct OrderedTokens {
        var tokens: [RawToken] = []
        var index: [[String]: Int] = [:]

        /// A later definition of a path replaces an earlier one in place (`$extends` overrides).
        mutating func replace(with token: RawToken) {
            if let at = index[token.path] {
                tokens[at] = token
            } else {
                index[token.path] = tokens.count
                tokens.append(token)
            }
        }
    }

    private mutating func extended(_ member: JSONMember, into path: [String], inherited: TokenType?) -> [RawToken] {
        let at = location(member.value)
        guard let text = member.value.string else {
            error(
                .tokenExtends,
                "$extends is \(member.value.kindName); write a group reference such as \"{base.button}\"", at)
            return []
        }
        let targetPath: [String]
        if text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2 {
            targetPath = text.dropFirst().dropLast().split(separator: ".", omittingEmptySubsequences: false).map(
                String.init)
        } else if text.hasPrefix("#/") {
            targetPath = text.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map(
                JSONPointer.unescape)
        } else {
            error(
                .tokenExtends, "$extends '\(text)' is not a reference; write \"{group.path}\" or \"#/group/path\"", at)
            return []
        }
        let key = targetPath.joined(separator: ".")
        if tokenKeys.contains(key) {
            error(.tokenExtends, "$extends names '\(key)', which is a token; a group can extend only a group", at)
            return []
        }
        guard let target = groups[key] else {
            error(.tokenExtends, "$extends names '\(key)', but no group has that path", at)
            return []
        }
        let here = path.joined(separator: ".")
        if let start = expanding.firstIndex(of: key) {
            let cycle = (expanding[start...] + [key]).joined(separator: " -> ")
            error(.tokenExtends, "$extends makes a cycle: \(cycle)", at)
            return []
        }
        if key == here || here.hasPrefix(key + ".") {
            error(.tokenExtends, "group '\(here)' extends '\(key)', which contains it: a cycle", at)
            return []
        }
        expanding.append(here)
        defer { expanding.removeLast() }
        let before = diagnostics.count
        let inheritedTokens = group(target.node, path: targetPath, inherited: target.type ?? inherited)
        // Diagnostics about the target are reported where the target is parsed itself.
        let cycleFindings = diagnostics[before...].filter { $0.code == .tokenExtends && $0.message.contains("cycle") }
        diagnostics.removeSubrange(before...)
        if let cycle = cycleFindings.first { diagnostics.append(.error(.tokenExtends, cycle.message, at: at)) }
        return inheritedTokens.map { token in
            var copy = token
            copy.path = path + token.path.dropFirst(targetPath.count)
            return copy
        }
    }

    private mutating func token(_ member: JSONMember, path: [String], inherited: TokenType?) -> RawToken? {
        let node = member.value
        var valid = true
        for property in node.members ?? [] where !Self.tokenProperties.contains(property.key) {
            let what =
                property.key.hasPrefix("$")
                ? "an unknown property" : "a child, but a token has a $value and cannot hold groups or tokens"
            error(
                .tokenStructure, "'\(property.key)' in token '\(path.joined(separator: "."))' is \(what)",
                location(property.line, property.column))
            valid = false
        }
        if node.member("$value") != nil, let pointer = node.member("$ref") {
            error(
                .tokenStructure, "token '\(path.joined(separator: "."))' has both $value and $ref; keep one",
                location(pointer.line, pointer.column))
            valid = false
        }
        if let value = node["$value"], case .null = value.content {
            error(.tokenValue, "$value is null; give the token a value", location(value))
            valid = false
        }
        let type = checkType(node) ?? inherited
        let (description, deprecated) = checkMetadata(node)
        guard valid else { return nil }
        return RawToken(
            path: path, type: type, value: node["$value"], pointer: node["$ref"], description: description,
            deprecated: deprecated, source: sourceIndex, location: location(member.line, member.column),
            extensions: node["$extensions"])
    }
}

/// RFC 6901 pointers as DTCG uses them (`#/colors/blue/$value`).
enum JSONPointer {
    static func unescape(_ segment: Substring) -> String {
        segment.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }
}
