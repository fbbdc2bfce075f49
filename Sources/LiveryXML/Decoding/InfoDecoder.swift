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
            context.error(.rootUnexpected, "Info.xml must have a <theme-info> root element, found <\(root.name)>",
                          at: context.location(root))
            return nil
        }
        context.checkAttributes(of: root, allowed: ["id", "name", "version", "parent"])
        context.checkNoText(in: root)
        var description: String?
        for child in root.children {
            if child.name == "description", description == nil {
                description = String(ValueSyntax.trimmed(child.text))
            } else {
                context.unknownElement(child, in: "theme-info", expected: ["description"])
            }
        }
        let id = context.required("id", of: root, example: "<theme-info id=\"com.acme.dark\" name=\"Dark\">")
        let name = context.required("name", of: root, example: "<theme-info id=\"com.acme.dark\" name=\"Dark\">")
        var valid = id != nil && name != nil
        for attribute in ["id", "parent"] {
            if let value = root.attribute(attribute), !isThemeID(value) {
                context.error(.attributeInvalid, "'\(value)' is not a valid theme \(attribute); use letters, digits, '.', '_' and '-'",
                              at: context.source.location(ofAttribute: attribute, in: root))
                valid = false
            }
        }
        let version = root.attribute("version") ?? "1.0.0"
        if !isVersion(version) {
            context.error(.attributeInvalid, "'\(version)' is not a version; write MAJOR.MINOR.PATCH, e.g. 1.2.0",
                          at: context.source.location(ofAttribute: "version", in: root))
            valid = false
        }
        guard valid, let id, let name else { return nil }
        let info = ThemeInfo(id: id, name: name, version: version, parent: root.attribute("parent"), description: description)
        return Decoded(info: info, location: context.location(root),
                       parentLocation: context.source.location(ofAttribute: "parent", in: root))
    }

    /// `[A-Za-z0-9._-]+`
    static func isThemeID(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
