import Foundation
import LiveryModel
import LiveryTooling
import LiveryXML

extension LanguageServer {
    /// `textDocument/hover`: on a reference or constant, its resolved value and where it comes
    /// from; on an operation, its value and the chain `livery explain` gives (with the contrast
    /// of a text colour against the instance's background); on an image, its files with their
    /// pixel sizes and scales. Values are those of the trait set the file's name qualifies
    /// (`Chat~dark.xml`: dark), the one its definitions are written for.
    func hover(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (path, theme, symbols, offset) = try context(params)
        guard let offset, let theme else { return .null }
        let traits = TraitSet(qualifyingFileNamed: (path as NSString).lastPathComponent) ?? .none
        let scan = symbols.scan
        var text: String?
        if let place = symbols.place(at: offset) {
            switch place.kind {
            case .constant: text = constantDescription(place.name, theme: theme, traits: traits)
            case .class:
                let found = definitions(.class, visibleFrom: theme).filter { $0.name == place.name }
                text =
                    "**class \(place.name)**\n\n"
                    + found.map { "defined at \(displayLocation($0))" }.joined(separator: "\n\n")
            case .instance: text = nil
            }
        }
        if text == nil, let name = assetName(at: offset, in: scan) { text = assetDescription(name, theme: theme) }
        if text == nil, let index = scan.tag(at: offset) ?? scan.container(of: offset) {
            let chain = [index] + scan.ancestors(of: index)
            // a derived colour: its derivation, then the operation it is a param of
            let derived = derivedColorDescription(at: offset, symbols: symbols, theme: theme, traits: traits)
            var operation: String?
            if let index = chain.first(where: { scan.elements[$0].name == "operation" }) {
                operation = operationDescription(index, scan: scan, theme: theme, traits: traits)
            }
            let parts = [derived, operation].compactMap { $0 }
            if !parts.isEmpty { text = parts.joined(separator: "\n\n---\n\n") }
        }
        guard let text else { return .null }
        return .object([("contents", .object([("kind", .string("markdown")), ("value", .string(text))]))])
    }

    func displayLocation(_ place: NamedPlace) -> String {
        guard let symbols = symbols(of: place.file) else { return place.file }
        let position = symbols.document.position(ofOffset: place.start)
        return "\(relative(place.file)):\(position.line + 1)"
    }

    /// A path as the workspace folder sees it.
    func relative(_ path: String) -> String {
        for root in project?.roots ?? [] where path.hasPrefix(root + "/") {
            return String(path.dropFirst(root.count + 1))
        }
        return path
    }

    func displayLocation(_ location: SourceLocation) -> String {
        "\(relative(LanguageServer.standardized(location.file))):\(location.line.map(String.init) ?? "?")"
    }

    /// The theme's constants resolved for `traits`, by name (the constants alone: no instance is
    /// resolved for them).
    func resolvedConstants(ofTheme theme: String, traits: TraitSet = .none) -> [String: ResolvedConstant] {
        let constants =
            project?.workspace.constants(
                ofThemeAt: theme, traits: traits, keepingWhatResolves: true, checkingWholeTheme: false
            ).value ?? []
        return Dictionary(constants.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A constant's resolved value for `traits` and the chain of references it comes through.
    /// `byName` is `resolvedConstants(ofTheme:traits:)`, when the caller describes several.
    func constantDescription(
        _ name: String, theme: String, traits: TraitSet = .none, byName known: [String: ResolvedConstant]? = nil
    ) -> String? {
        let byName = known ?? resolvedConstants(ofTheme: theme, traits: traits)
        guard let constant = byName[name] else { return nil }
        var lines = [
            "**\(name)** = `\(ValueText.describe(constant.value))` (\(constant.value.type.rawValue))\(Self.noting(traits))",
            "",
        ]
        var current: ResolvedConstant? = constant
        var seen: Set<String> = []
        while let step = current, seen.insert(step.name).inserted {
            lines.append("- \(step.name) at \(displayLocation(step.location)) (\(step.themeID))")
            current = step.reference.flatMap { byName[$0] }
        }
        if let derivation = constantDerivation(constant, theme: theme, traits: traits) {
            lines.append("")
            lines.append(Self.derivationMarkdown(title: "Derived:", derivation))
        }
        if case .color(let color) = constant.value {
            lines.append("")
            lines.append(contrastLines(color))
        }
        return lines.joined(separator: "\n")
    }

    /// An operation's effective value in the instance it is written in (or where a class's
    /// operation ends up), with `explain`'s chain.
    func operationDescription(_ operation: Int, scan: MarkupScan, theme: String, traits: TraitSet) -> String? {
        guard let project, let owner = scan.owner(of: operation) else { return nil }
        let ownerElement = scan.elements[owner]
        let name = scan.elements[operation].attribute("name")?.value ?? ""
        let state = ControlState(rawValue: scan.elements[operation].attribute("state")?.value ?? "normal")
        guard ownerElement.name != "class", let id = ownerElement.attribute("id")?.value else {
            let schema = project.workspace.schema(forThemeAt: theme) ?? StandardSchema.schema
            guard let signature = operationSchema(name, owner: owner, scan: scan, schema: schema) else { return nil }
            return "`\(Self.summary(signature, declaredBy: "the schema"))`"
        }
        let explanation = project.workspace.explain(
            themeAt: theme, identifier: id, traits: traits, keepingWhatResolves: true, checkingWholeTheme: false)
        guard
            let explained = explanation.value?.operations.first(where: {
                $0.operation.name == name && $0.operation.state == state
            })
        else {
            // the last check's findings tell of errors elsewhere in the theme (this explanation
            // resolved the instance alone)
            if explanation.diagnostics.hasErrors
                || project.files(ofThemes: [theme]).contains(where: { findings[$0]?.hasErrors == true })
            {
                return "**\(name)**: the theme has errors; fix them to see the value"
            }
            return nil
        }
        var lines = [
            "**\(id).\(explained.operation.key)** = `\(ValueText.describe(explained.operation.params))`\(Self.noting(traits))",
            "",
        ]
        lines += ExplainText.chain(of: explained).map { line in
            // paths as the workspace folder sees them
            "- " + (project.roots).reduce(line) { $0.replacingOccurrences(of: $1 + "/", with: "") }
        }
        // contrast of a text colour against the instance's own background
        if let foreground = explained.operation.params.first.flatMap({ param -> Color? in
            if case .color(let color) = param.value { return color }
            return nil
        }) {
            let background = explanation.value?.operations.first {
                $0.operation.name == "backgroundColor" && $0.operation.state == .normal
            }
            .flatMap { explained -> Color? in
                if case .color(let color) = explained.operation.params.first?.value { return color }
                return nil
            }
            if ["textColor", "titleColor", "placeholderColor"].contains(name), let background {
                let ratio = ContrastRatio.ratio(foreground, on: background)
                lines.append("")
                lines.append(
                    "Contrast on the background \(background.hexString): **\(ContrastRatio.text(ratio))** — \(Self.wcagLevel(ratio))"
                )
            } else {
                lines.append("")
                lines.append(contrastLines(foreground))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Names the trait set a value is for, when it is not the default.
    static func noting(_ traits: TraitSet) -> String {
        traits == .none ? "" : " (with \(traits.tags.joined(separator: ", ")))"
    }

    /// A colour's contrast on white and on black, with the WCAG level of each.
    func contrastLines(_ color: Color) -> String {
        let white = ContrastRatio.ratio(color, on: Color(red: 1, green: 1, blue: 1))
        let black = ContrastRatio.ratio(color, on: Color(red: 0, green: 0, blue: 0))
        return
            "Contrast on white \(ContrastRatio.text(white)) (\(Self.wcagLevel(white))), on black \(ContrastRatio.text(black)) (\(Self.wcagLevel(black)))"
    }

    /// The WCAG 2.2 level a text contrast ratio reaches.
    static func wcagLevel(_ ratio: Double) -> String {
        if ratio >= 7 { return "WCAG AAA" }
        if ratio >= 4.5 { return "WCAG AA (AAA for large text)" }
        if ratio >= 3 { return "WCAG AA for large text only" }
        return "fails WCAG AA"
    }

    /// An asset's files, with their scale and pixel size.
    func assetDescription(_ name: String, theme: String) -> String {
        let files = assetFiles(named: name, visibleFrom: theme)
        guard !files.isEmpty else { return "**\(name)**: no such asset in assets/ of this theme or its parents" }
        var lines = ["**\(name)**", ""]
        for file in files {
            let fileName = (file as NSString).lastPathComponent
            let scale =
                fileName.range(of: "@").map { fileName[$0.upperBound...].prefix { $0.isNumber } }.map(String.init)
                ?? "1"
            let size = Self.pixelSize(of: file).map { "\($0.0)×\($0.1) px" } ?? "size unknown"
            lines.append("- \(relative(file)): @\(scale.isEmpty ? "1" : scale)x, \(size)")
        }
        return lines.joined(separator: "\n")
    }

    /// Width and height of a PNG (from its IHDR chunk) or a JPEG (from its first SOF marker).
    static func pixelSize(of path: String) -> (Int, Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 65536) else { return nil }
        let bytes = [UInt8](data)
        func big(_ at: Int, _ count: Int) -> Int { bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) } }
        if bytes.count >= 24, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return (big(16, 4), big(20, 4))
        }
        if bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            var index = 2
            while index + 9 < bytes.count, bytes[index] == 0xFF {
                let marker = bytes[index + 1]
                let length = big(index + 2, 2)
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    return (big(index + 7, 2), big(index + 5, 2))
                }
                index += 2 + length
            }
        }
        return nil
    }
}
