import LiveryModel

/// Decodes `Info.xml`: `<theme-info id= name= version= parent=>`.
enum InfoDecoder {
    struct Decoded {
        var info: ThemeInfo
        var location: SourceLocation
        var parentLocation: SourceLocation
    }

    static func decode(_ root: XMLElement, context: inout DecodingContext) -> Decoded? {
        guard root.name == "theme-info" else {
            context.error(
                .rootUnexpected, "Info.xml must have a <theme-info> root element, found <\(root.name)>",
                at: context.location(root))
            return nil
        }
        let allowed = ["id", "name", "version", "parent"]
        context.checkAttributes(of: root, allowed: allowed)
        context.checkNoText(in: root)
        var description: String?
        /// A parent written as an element (`<parent>com.acme.base</parent>`), read as meant: the
        /// themes below still resolve, so the one finding is the element.
        var parentElement: (id: String, element: XMLElement)?
        for child in root.children {
            if child.name == "description", description == nil {
                description = String(ValueSyntax.trimmed(child.text))
            } else if ["parent", "extends", "inherits"].contains(child.name.lowercased()), child.children.isEmpty,
                root.attribute("parent") == nil, parentElement == nil
            {
                let id = String(ValueSyntax.trimmed(child.text))
                context.diagnostics.append(
                    .error(
                        .elementUnknown,
                        "a theme's parent is an attribute of <theme-info>, not an element: write <theme-info ... parent=\"\(id)\"> and remove <\(child.name)> (read as parent=\"\(id)\")",
                        at: context.location(child),
                        fix: isThemeID(id) ? parentAttribute(id, for: child, in: root, context.source) : nil))
                if isThemeID(id) { parentElement = (id, child) }
            } else {
                context.unknownElement(child, in: "theme-info", expected: ["description"])
            }
        }
        let id = context.required(
            "id", of: root, allowed: allowed, example: "<theme-info id=\"com.acme.dark\" name=\"Dark\">")
        let name = context.required(
            "name", of: root, allowed: allowed, example: "<theme-info id=\"com.acme.dark\" name=\"Dark\">")
        func location(_ attribute: String) -> SourceLocation {
            let written =
                root.attribute(attribute) == nil
                ? context.misspelling(of: attribute, in: root, allowed: allowed) ?? attribute : attribute
            return context.source.location(ofAttribute: written, in: root)
        }
        var valid = id != nil && name != nil
        for attribute in ["id", "parent"] {
            if let value = context.attribute(attribute, of: root, allowed: allowed), !isThemeID(value) {
                context.error(
                    .attributeInvalid,
                    "'\(value)' is not a valid theme \(attribute); use letters, digits, '.', '_' and '-'",
                    at: location(attribute))
                valid = false
            }
        }
        let version = context.attribute("version", of: root, allowed: allowed) ?? "1.0.0"
        if !isVersion(version) {
            context.error(
                .attributeInvalid, "'\(version)' is not a version; write MAJOR.MINOR.PATCH, e.g. 1.2.0",
                at: location("version"))
            valid = false
        }
        guard valid, let id, let name else { return nil }
        let info = ThemeInfo(
            id: id, name: name, version: version,
            parent: context.attribute("parent", of: root, allowed: allowed) ?? parentElement?.id,
            description: description)
        return Decoded(
            info: info, location: context.location(root),
            parentLocation: parentElement.map { context.location($0.element) } ?? location("parent"))
    }

    /// The fix of a parent written as an element: the element removed (it may span lines), and
    /// `parent="id"` added to the root's start tag; nil when the tags cannot be found.
    static func parentAttribute(_ id: String, for element: XMLElement, in root: XMLElement, _ source: SourceText)
        -> Diagnostic.Fix?
    {
        guard let (afterStart, empty) = EndTags.endOfStartTag(at: root.offset, in: source.bytes), !empty,
            let extent = EndTags.extent(ofElementAt: element.offset, in: source.bytes)
        else { return nil }
        return Diagnostic.Fix(
            "Write parent=\"\(id)\" on <\(root.name)> and remove <\(element.name)>",
            edits: [
                Diagnostic.Fix.Edit(
                    at: source.location(at: afterStart - 1), replacing: ">", with: " parent=\"\(id)\">"),
                source.removal(of: extent),
            ])
    }

    /// `[A-Za-z0-9._-]+`
    static func isThemeID(_ text: String) -> Bool {
        !text.isEmpty && ASCII.isWord(text, extra: "._-")
    }

    static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(ASCII.isDigit) }
    }
}
