import Foundation
import LiveryModel

@testable import LiveryXML

/// A kind of everyday mistake a designer makes in a theme folder. Each kind knows every place in
/// the sample themes where the mistake can be made; `MutationTests` makes it at each place, one
/// at a time, and checks that the front end reports it as exactly one finding, there.
enum MutationKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case misspelledElement = "misspelled element"
    case misspelledAttribute = "misspelled attribute"
    case misspelledOperation = "misspelled operation"
    case operationOfAnotherComponent = "operation of another component"
    case misspelledParam = "misspelled param"
    case misspelledState = "misspelled state"
    case misspelledQualifier = "misspelled qualifier (file name)"
    case misspelledConstantReference = "misspelled constant reference"
    case misspelledClassReference = "misspelled class reference"
    case misspelledAssetReference = "misspelled asset reference"
    case misspelledParent = "misspelled parent id"
    case wrongCase = "wrong case"
    case extensionAdded = "asset extension added"
    case wrongType = "value of the wrong type"
    case outOfRange = "value out of range"
    case unescapedCharacter = "unescaped character"
    case duplicatedThemeID = "duplicated theme id"
    case selfParent = "theme its own parent"
    case mutualParent = "themes each other's parent"
    case renamedFile = "file renamed"
    // Hints that must lead to a valid theme.
    case nestedComment = "comment holding a comment"
    case unclosedComment = "comment never closed"
    case cssLineHeight = "CSS line height"
    case constantInInstances = "constant among the instances"
    case parentNamedByFolder = "parent named by its folder"
    // Everyday habits from CSS, HTML, Android resources and editors.
    case unquotedAttribute = "attribute value without quotes"
    case smartQuotes = "attribute value in typographic quotes"
    case cssColorFunction = "CSS colour function"
    case hexWithoutHash = "hex colour without #"
    case androidResourceReference = "Android resource reference"
    case androidThemeAttribute = "Android theme attribute"
    case cssVariable = "CSS custom property"
    case htmlEntity = "HTML entity"
    case doubledEndTag = "end tag doubled by the editor"
    case decimalComma = "decimal comma"
    case unitOnNumber = "unit on a plain number"
    case cssFontWeight = "numeric CSS font weight"
    case boolWord = "yes or no for a bool"
    // Each a consequence folded into its cause, or a word of another tool read as meant.
    case bareParamValue = "bare value in a param"
    case instanceNamedWithName = "instance named with name="
    case parentElement = "parent written as an element"
    case childConstantInParent = "constant of a child used in its parent"
    case cssFontAttribute = "CSS font attribute name"
    case foundryWeightName = "font weight named as a foundry does"
    case uikitStateWord = "state named as UIKit or CSS does"
    case androidTypeName = "typed object named as Android does"
    case androidNightQualifier = "Android qualifier (night)"
    case britishSpelling = "British spelling of colour"
    case androidUnit = "Android unit on a number"
    case pointsUnit = "points unit on a number"
    case hyphenQualifier = "qualifier after a hyphen (file name)"
    case underscoreQualifier = "qualifier after an underscore (file name)"
    case dottedQualifier = "qualifier after a dot (file name)"
    case scaleLikeQualifier = "qualifier written as a scale (file name)"
    case androidValuesFolder = "Android values folder"
    case androidStyle = "Android <style> for a class"
    case androidItem = "Android <item> for an operation"
    case figmaTokenReference = "Figma token reference"
    case sassVariable = "Sass variable"
    case boolDigit = "1 or 0 for a bool"
    case cssColorKeyword = "CSS colour keyword"
    case cssShortHexAlpha = "CSS #RGBA colour"

    var description: String { rawValue }

    /// Misspelled names are errors: each changes what the theme means.
    var severity: Severity { .error }

    /// Kinds whose finding must carry a fix (the value meant is known), which the test applies.
    var requiresFix: Bool {
        switch self {
        case .nestedComment, .unclosedComment, .constantInInstances: false
        case .cssLineHeight, .parentNamedByFolder, .unquotedAttribute, .smartQuotes, .cssColorFunction,
            .hexWithoutHash, .androidResourceReference, .androidThemeAttribute, .cssVariable, .htmlEntity,
            .doubledEndTag, .decimalComma, .unitOnNumber, .cssFontWeight, .boolWord, .bareParamValue,
            .instanceNamedWithName, .cssFontAttribute, .foundryWeightName, .uikitStateWord,
            .androidTypeName, .britishSpelling, .androidUnit, .pointsUnit, .androidStyle, .androidItem,
            .figmaTokenReference, .sassVariable, .boolDigit, .cssColorKeyword, .cssShortHexAlpha, .parentElement,
            .childConstantInParent:
            true
        default: false
        }
    }
}

/// One mistake, made at one place.
struct Mutation: CustomStringConvertible, Sendable {
    enum Change: Sendable {
        case write(file: String, contents: String)
        case rename(from: String, to: String)
    }

    /// A place a finding may be: a file (relative to the copy) and a line; nil for the file itself.
    struct Place: Hashable, Sendable, CustomStringConvertible {
        var file: String
        var line: Int?
        var description: String { line.map { "\(file):\($0)" } ?? file }
    }

    var kind: MutationKind
    /// What was changed, for a failure message: `Base.theme/Chat.xml:40: uilabel -> uilabl`.
    var summary: String
    var changes: [Change]
    /// Where the one finding must be. Usually one place, the mutated line; a clash between two
    /// definitions (a duplicated id, a cycle of parents) may be reported at any of its members,
    /// since nothing tells which one the designer edited.
    var places: [Place]

    var description: String { "\(kind): \(summary)" }

    /// The change without its line: two places where the same text of one file is changed the
    /// same way are one case.
    /// What was changed, without where: `uilabel` in `...:40: uilabel -> uialbel`.
    var token: String {
        let change = summary.split(separator: ": ", maxSplits: 1).last ?? ""
        return String(change.split(separator: " -> ").first ?? "")
    }

    var shape: String {
        summary.replacing(try! Regex(":[0-9]+:"), with: ":")
    }
}

/// The sample themes as text, and every mutation of every kind that applies to them.
struct SampleThemeTexts {
    /// Relative path (`Base.theme/Chat.xml`) to contents, for every XML file of every theme.
    let texts: [String: String]
    /// Relative paths of every asset file.
    let assets: [String]
    /// Theme folder name to (id, parent id).
    let themes: [String: (id: String, parent: String?)]
    let schema: Schema

    init(root: String) throws {
        var texts: [String: String] = [:]
        var assets: [String] = []
        var themes: [String: (String, String?)] = [:]
        let manager = FileManager.default
        for folder in try manager.contentsOfDirectory(atPath: root).sorted() where folder.hasSuffix(".theme") {
            for name in try manager.contentsOfDirectory(atPath: root + "/" + folder).sorted() {
                if name.hasSuffix(".xml") {
                    texts[folder + "/" + name] = try String(
                        contentsOfFile: root + "/" + folder + "/" + name, encoding: .utf8)
                } else if name == "assets" {
                    for asset in try manager.contentsOfDirectory(atPath: root + "/" + folder + "/assets").sorted() {
                        assets.append(folder + "/assets/" + asset)
                    }
                }
            }
            let info = texts[folder + "/Info.xml"] ?? ""
            themes[folder] = (Self.attribute("id", in: info) ?? "", Self.attribute("parent", in: info))
        }
        self.texts = texts
        self.assets = assets
        self.themes = themes
        var schema = StandardSchema.schema
        for (path, text) in texts where text.contains("<components>") {
            let source = SourceText(path: path, bytes: Array(text.utf8))
            if let document = XMLDocumentParser.parse(source).document {
                var context = DecodingContext(source: source)
                schema.merge(SchemaDecoder.decode(document.root, context: &context))
            }
        }
        self.schema = schema
    }

    static func attribute(_ name: String, in text: String) -> String? {
        guard let match = text.firstMatch(of: try! Regex(" \(name)=\"([^\"]*)\"")), let range = match.output[1].range
        else { return nil }
        return String(text[range])
    }

    /// Configuration files (`<theme>` roots), sorted.
    var configurationFiles: [String] {
        texts.keys.filter { !$0.hasSuffix("/Info.xml") && texts[$0]!.contains("\n<theme>") }.sorted()
    }

    var infoFiles: [String] { texts.keys.filter { $0.hasSuffix("/Info.xml") }.sorted() }

    // MARK: - Text helpers

    struct Site {
        var file: String
        var range: Range<String.Index>
        var text: String
        var line: Int
    }

    /// Every match of `pattern`'s first capture group in the files, with its line.
    func sites(_ pattern: String, in files: [String]) -> [Site] {
        let regex = try! Regex(pattern)
        var result: [Site] = []
        for file in files {
            let text = texts[file]!
            for match in text.matches(of: regex) {
                guard let range = match.output[1].range else { continue }
                // comments and the XML declaration are not where these mistakes are made
                let lineStart =
                    text[..<range.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
                let lineText = text[lineStart...].prefix { $0 != "\n" }
                if lineText.hasPrefix("<?xml") { continue }
                if isInComment(range.lowerBound, of: text) { continue }
                result.append(
                    Site(
                        file: file, range: range, text: String(text[range]),
                        line: Self.line(of: range.lowerBound, in: text)))
            }
        }
        return result
    }

    func isInComment(_ index: String.Index, of text: String) -> Bool {
        guard let open = text[..<index].range(of: "<!--", options: .backwards) else { return false }
        let close = text[open.upperBound..<index].range(of: "-->")
        return close == nil
    }

    static func line(of index: String.Index, in text: String) -> Int {
        text[..<index].utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    /// The text of `file` with `replacements` applied (ranges in the original text).
    func replacing(_ file: String, _ replacements: [(Range<String.Index>, String)]) -> String {
        var text = texts[file]!
        for (range, new) in replacements.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            text.replaceSubrange(range, with: new)
        }
        return text
    }

    /// The range of the name in the end tag that closes the element whose name is at `nameRange`,
    /// or nil when the element is empty (`<color ref="x"/>`).
    func endTagName(closing nameRange: Range<String.Index>, in file: String) -> Range<String.Index>? {
        let text = texts[file]!
        let name = String(text[nameRange])
        guard let close = text[nameRange.upperBound...].firstIndex(of: ">"),
            text[text.index(before: close)] != "/"
        else { return nil }
        var depth = 1
        var index = text.index(after: close)
        while let open = text[index...].range(of: "<" + name) ?? nil {
            let end = text[index...].range(of: "</" + name + ">")
            if let end, end.lowerBound < open.lowerBound {
                depth -= 1
                if depth == 0 {
                    return text.index(end.lowerBound, offsetBy: 2)..<text.index(end.upperBound, offsetBy: -1)
                }
                index = end.upperBound
                continue
            }
            let after = text[open.upperBound...].first
            if after == " " || after == ">" {
                let tagEnd = text[open.upperBound...].firstIndex(of: ">")!
                if text[text.index(before: tagEnd)] != "/" { depth += 1 }
            }
            index = open.upperBound
        }
        if let end = text[index...].range(of: "</" + name + ">") {
            return text.index(end.lowerBound, offsetBy: 2)..<text.index(end.upperBound, offsetBy: -1)
        }
        return nil
    }

    /// A misspelling a designer makes: two neighbouring letters in the middle swapped, or, where
    /// they are the same letter, one dropped.
    static func typo(_ word: String) -> String {
        var characters = Array(word)
        guard characters.count >= 2 else { return word + word }
        let at = max(characters.count / 2 - 1, 0)
        if characters[at] != characters[at + 1] {
            characters.swapAt(at, at + 1)
        } else {
            characters.remove(at: at)
        }
        return String(characters)
    }

    /// The name written with capitals the way a designer coming from UIKit would: `UILabel`,
    /// `TextColor`, `Color`.
    static func wrongCase(_ word: String) -> String {
        if word.hasPrefix("ui"), word.count > 2 {
            return "UI" + word.dropFirst(2).prefix(1).uppercased() + word.dropFirst(3)
        }
        return word.prefix(1).uppercased() + word.dropFirst()
    }

    func rename(_ site: Site, to new: String, kind: MutationKind, withEndTag: Bool = false) -> Mutation {
        var replacements = [(site.range, new)]
        if withEndTag, let end = endTagName(closing: site.range, in: site.file) { replacements.append((end, new)) }
        return Mutation(
            kind: kind, summary: "\(site.file):\(site.line): \(site.text) -> \(new)",
            changes: [.write(file: site.file, contents: replacing(site.file, replacements))],
            places: [.init(file: site.file, line: site.line)])
    }

    // MARK: - The mutations

    func mutations(_ kind: MutationKind) -> [Mutation] {
        let configuration = configurationFiles
        let typedNames = ValueType.allCases.map(\.rawValue).joined(separator: "|")
        switch kind {
        case .misspelledElement:
            // component types, sections, operations, params and typed objects, end tags included
            let elements =
                sites("<([a-z][A-Za-z0-9]*) id=\"", in: configuration)
                + sites("<(constants|classes|instances|class|operation|param)[ >]", in: configuration)
                + sites("<(\(typedNames))[ >/]", in: configuration)
            return elements.map { rename($0, to: Self.typo($0.text), kind: kind, withEndTag: true) }
        case .misspelledAttribute:
            return sites(" ([a-z][a-z-]*)=\"", in: texts.keys.sorted()).filter { !$0.file.contains("Components") }
                .map { rename($0, to: Self.typo($0.text), kind: kind) }
        case .misspelledOperation:
            return sites("<operation name=\"([^\"]+)\"", in: configuration).map {
                rename($0, to: Self.typo($0.text), kind: kind)
            }
        case .operationOfAnotherComponent:
            return operationsOfOtherComponents()
        case .misspelledParam:
            return sites("<param name=\"([^\"]+)\"", in: configuration).map {
                rename($0, to: Self.typo($0.text), kind: kind)
            }
        case .misspelledState:
            return sites(" state=\"([^\"]+)\"", in: configuration).map {
                rename($0, to: Self.typo($0.text), kind: kind)
            }
        case .misspelledQualifier:
            return (texts.keys.sorted() + assets).flatMap { path -> [Mutation] in
                let (folder, name) = split(path)
                let tags = name.split(separator: ".")[0].split(separator: "~").dropFirst()
                    .map { $0.split(separator: "@")[0] }
                return tags.map { tag in
                    let renamed = name.replacingOccurrences(of: "~" + tag, with: "~" + Self.typo(String(tag)))
                    return Mutation(
                        kind: kind, summary: "\(path) -> \(renamed)",
                        changes: [.rename(from: path, to: folder + "/" + renamed)],
                        places: [.init(file: folder + "/" + renamed, line: nil)])
                }
            }
        case .misspelledConstantReference:
            return sites(" ref=\"([^\"]+)\"", in: configuration).map { rename($0, to: Self.typo($0.text), kind: kind) }
        case .misspelledClassReference:
            return sites(" class=\"([^\"]+)\"", in: configuration).flatMap { site -> [Mutation] in
                let text = texts[site.file]!
                var mutations: [Mutation] = []
                var start = site.range.lowerBound
                for word in site.text.split(separator: " ") {
                    let range = text[start..<site.range.upperBound].range(of: word)!
                    let one = Site(file: site.file, range: range, text: String(word), line: site.line)
                    mutations.append(rename(one, to: Self.typo(String(word)), kind: kind))
                    start = range.upperBound
                }
                return mutations
            }
        case .misspelledAssetReference:
            return sites("<image[^>]*>([^<]+)</image>", in: configuration).map {
                rename($0, to: Self.typo($0.text), kind: kind)
            }
        case .misspelledParent:
            return sites(" parent=\"([^\"]+)\"", in: infoFiles).map { rename($0, to: Self.typo($0.text), kind: kind) }
        case .wrongCase:
            let elements =
                sites("<([a-z][A-Za-z0-9]*) id=\"", in: configuration)
                + sites("<(\(typedNames))[ >/]", in: configuration)
            let names =
                sites("<operation name=\"([^\"]+)\"", in: configuration)
                + sites(" state=\"([^\"]+)\"", in: configuration)
                + sites("<enum>([^<]+)</enum>", in: configuration) + sites(" ref=\"([^\"]+)\"", in: configuration)
            return elements.map { rename($0, to: Self.wrongCase($0.text), kind: kind, withEndTag: true) }
                + names.map { rename($0, to: Self.wrongCase($0.text), kind: kind) }
        case .extensionAdded:
            return sites("<image[^>]*>([^<]+)</image>", in: configuration).flatMap { site in
                [rename(site, to: site.text + ".png", kind: kind), rename(site, to: site.text + "@2x.png", kind: kind)]
            }
        case .wrongType:
            return wrongTypes()
        case .outOfRange:
            return sites("<integer>([^<]+)</integer>", in: configuration).map {
                rename($0, to: "99999999999999999999", kind: kind)
            }
                + sites("<rect>([^<]+)</rect>", in: configuration).map { site in
                    var parts = site.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    parts[2] = "-" + parts[2]
                    return rename(site, to: parts.joined(separator: ","), kind: kind)
                }
                + sites("<font [^>]* size=\"([^\"]+)\"", in: configuration).map { rename($0, to: "0", kind: kind) }
                + sites("format=\"rgba?\">([^,<]+),", in: configuration).map { rename($0, to: "1.5", kind: kind) }
                + sites("max-size=\"([^\"]+)\"", in: configuration).map { rename($0, to: "1", kind: kind) }
        case .unescapedCharacter:
            let texts =
                sites("<string>([^<]+)</string>", in: configuration)
                + sites("<description>([^<]+)</description>", in: infoFiles)
            let attributes = sites(" family=\"([^\"]+)\"", in: configuration)
            return (texts + attributes).flatMap { site in
                [rename(site, to: site.text + " < 2", kind: kind), rename(site, to: site.text + " & more", kind: kind)]
            }
        case .duplicatedThemeID:
            return duplicatedIDs()
        case .selfParent:
            return themes.keys.sorted().map { folder in
                setParent(of: folder, to: themes[folder]!.id, kind: kind, cycle: [folder])
            }
        case .mutualParent:
            return themes.keys.sorted().flatMap { folder in
                ancestors(of: folder).map { ancestor in
                    let cycle = [folder] + ancestorsPath(from: folder, to: ancestor)
                    return setParent(of: ancestor, to: themes[folder]!.id, kind: kind, cycle: cycle)
                }
            }
        case .renamedFile:
            let infos = infoFiles.map { path in
                let (folder, _) = split(path)
                return Mutation(
                    kind: kind, summary: "\(path) -> info.xml",
                    changes: [.rename(from: path, to: folder + "/info.xml")],
                    places: [.init(file: folder + "/info.xml", line: nil)])
            }
            let configurations = configuration.map { path in
                let renamed = String(path.dropLast(4)) + ".xlm"
                return Mutation(
                    kind: kind, summary: "\(path) -> \(renamed)", changes: [.rename(from: path, to: renamed)],
                    places: [.init(file: renamed, line: nil)])
            }
            return infos + configurations
        case .nestedComment:
            // a line holding a comment, commented out whole: `<!-- <param>...</param> <!-- note --> -->`
            return configuration.flatMap { file in
                lines(of: file).enumerated().compactMap { index, line -> Mutation? in
                    guard line.contains("<!--"), !line.trimmingCharacters(in: .whitespaces).hasPrefix("<!--") else {
                        return nil
                    }
                    return lineEdit(file, index, "<!-- " + line + " -->", kind: kind)
                }
            }
        case .unclosedComment:
            // `<!--` before an instance after which the file has no comment
            return configuration.flatMap { file in
                let all = lines(of: file)
                return all.enumerated().compactMap { index, line -> Mutation? in
                    guard line.range(of: "^ *<[a-z][A-Za-z0-9]* id=\"", options: .regularExpression) != nil,
                        !all[index...].joined().contains("<!--")
                    else { return nil }
                    return lineEdit(file, index, "<!--" + line, kind: kind)
                }
            }
        case .cssLineHeight:
            return sites(" line-height=\"([^\"]+)\"", in: configuration).flatMap { site -> [Mutation] in
                let value = Double(site.text)!
                return [
                    rename(site, to: String(format: "%g%%", value * 100), kind: kind),
                    rename(site, to: site.text + "em", kind: kind),
                ]
            }
        case .constantInInstances:
            return constantsMovedToInstances()
        case .parentNamedByFolder:
            return sites(" parent=\"([^\"]+)\"", in: infoFiles).compactMap { site in
                guard let folder = themes.first(where: { $0.value.id == site.text })?.key else { return nil }
                return rename(site, to: folder, kind: kind)
            }
        case .unquotedAttribute:
            return sites(" ([a-z-]+=\"[^\" <>&]+\")", in: configuration).map { site in
                rename(site, to: site.text.replacingOccurrences(of: "\"", with: ""), kind: kind)
            }
        case .smartQuotes:
            return sites(" [a-z-]+=(\"[^\" <>&]+\")", in: configuration).map { site in
                rename(site, to: "\u{201C}" + site.text.dropFirst().dropLast() + "\u{201D}", kind: kind)
            }
        case .cssColorFunction:
            return sites("<color>(#[0-9A-Fa-f]{6}(?:[0-9A-Fa-f]{2})?)</color>", in: configuration).map { site in
                let hex = Array(site.text.dropFirst())
                let channels = stride(from: 0, to: hex.count, by: 2).map { Int(String(hex[$0...$0 + 1]), radix: 16)! }
                let css =
                    channels.count == 3
                    ? "rgb(\(channels[0]), \(channels[1]), \(channels[2]))"
                    : "rgba(\(channels[0]), \(channels[1]), \(channels[2]), \(String(format: "%.2f", Double(channels[3]) / 255)))"
                return rename(site, to: css, kind: kind)
            }
        case .hexWithoutHash:
            return sites("<color>#([0-9A-Fa-f]{6}(?:[0-9A-Fa-f]{2})?)</color>", in: configuration).map { site in
                var mutation = rename(site, to: site.text, kind: kind)
                let text = texts[site.file]!
                let hash = text.index(before: site.range.lowerBound)
                mutation.changes = [
                    .write(file: site.file, contents: replacing(site.file, [(hash..<site.range.upperBound, site.text)]))
                ]
                mutation.summary = "\(site.file):\(site.line): #\(site.text) -> \(site.text)"
                return mutation
            }
        case .androidResourceReference:
            return sites("<([a-z]+) ref=\"([^\"]+)\"", in: configuration).compactMap { site in
                referenceSite(site).map {
                    rename($0, to: "@\(site.text == "float" ? "dimen" : site.text)/\($0.text)", kind: kind)
                }
            }
        case .androidThemeAttribute:
            return sites(" ref=\"([^\"]+)\"", in: configuration).map { rename($0, to: "?attr/" + $0.text, kind: kind) }
        case .cssVariable:
            return sites(" ref=\"([^\"]+)\"", in: configuration).map { rename($0, to: "var(--\($0.text))", kind: kind) }
        case .htmlEntity:
            return
                (sites("<string>([^<]+)</string>", in: configuration)
                + sites("<description>([^<]+)</description>", in: infoFiles))
                .flatMap { site in
                    [
                        rename(site, to: site.text + " &mdash; more", kind: kind),
                        rename(site, to: "&nbsp;" + site.text, kind: kind),
                    ]
                }
        case .doubledEndTag:
            return sites(
                "<[a-z]+>[^<]*(</(?:color|float|integer|string|bool|enum|insets|rect|size|point|image)>)",
                in: configuration
            )
            .map { rename($0, to: $0.text + $0.text, kind: kind) }
        case .decimalComma:
            return sites("<float>(-?[0-9]+\\.[0-9]+)</float>", in: configuration).map {
                rename($0, to: $0.text.replacingOccurrences(of: ".", with: ","), kind: kind)
            }
        case .unitOnNumber:
            return sites("<float>([0-9.]+)</float>", in: configuration).map {
                rename($0, to: $0.text + "px", kind: kind)
            }
                + sites("<font [^>]*size=\"([0-9.]+)\"", in: configuration).map {
                    rename($0, to: $0.text + "pt", kind: kind)
                }
        case .cssFontWeight:
            let weights = ["ultralight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"]
            return sites(" weight=\"([a-z]+)\"", in: configuration).compactMap { site in
                weights.firstIndex(of: site.text).map { rename(site, to: String(($0 + 1) * 100), kind: kind) }
            }
        case .boolWord:
            return sites("<bool>(true|false)</bool>", in: configuration).map {
                rename($0, to: $0.text == "true" ? "yes" : "no", kind: kind)
            }
        case .bareParamValue:
            // a value whose text tells its type, written without its typed element
            return sites(
                "<param name=\"[^\"]+\">(<(color|bool|float)>(#[0-9A-Fa-f]+|true|false|-?[0-9]+\\.[0-9]+)</[a-z]+>)</param>",
                in: configuration
            ).map { site in
                rename(site, to: String(site.text.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" }), kind: kind)
            }
        case .instanceNamedWithName:
            return sites("<[a-z][A-Za-z0-9]* (id)=\"", in: configuration).map { rename($0, to: "name", kind: kind) }
        case .parentElement:
            return infoFiles.compactMap { file in
                let text = texts[file]!
                guard let match = text.firstMatch(of: try! Regex(" parent=\"([^\"]*)\"")),
                    let close = text[match.range.upperBound...].firstIndex(of: ">")
                else { return nil }
                let id = String(text[match.output[1].range!])
                var contents = text
                let element = "\n  <parent>\(id)</parent>"
                contents.insert(contentsOf: element, at: contents.index(after: close))
                contents.removeSubrange(match.range)
                let line = Self.line(of: close, in: text) + 1
                return Mutation(
                    kind: kind, summary: "\(file): parent=\"\(id)\" -> <parent>",
                    changes: [.write(file: file, contents: contents)],
                    places: [.init(file: file, line: line)])
            }
        case .childConstantInParent:
            return childConstantsInParents()
        case .cssFontAttribute:
            return sites("<font (?:[^>]* )?(family|size|weight)=\"", in: configuration).map {
                rename($0, to: "font-" + $0.text, kind: kind)
            }
        case .foundryWeightName:
            let names = ["semibold": "demibold", "regular": "normal", "ultralight": "extralight", "heavy": "extrabold"]
            return sites(" weight=\"([a-z]+)\"", in: configuration).compactMap { site in
                names[site.text].map { rename(site, to: $0, kind: kind) }
            }
        case .uikitStateWord:
            let words = ["highlighted": "pressed", "selected": "checked", "disabled": "inactive", "focused": "hover"]
            return sites(" state=\"([a-z]+)\"", in: configuration).compactMap { site in
                words[site.text].map { rename(site, to: $0, kind: kind) }
            }
        case .androidTypeName:
            let words = ["float": "dimen", "integer": "int", "bool": "boolean", "image": "drawable"]
            return sites("<(float|integer|bool|image)[ >/]", in: configuration).map {
                rename($0, to: words[$0.text]!, kind: kind, withEndTag: true)
            }
        case .androidNightQualifier:
            return (texts.keys.sorted() + assets).filter { $0.contains("~dark") }.map { path in
                let (folder, name) = split(path)
                let renamed = name.replacingOccurrences(of: "~dark", with: "~night")
                return Mutation(
                    kind: kind, summary: "\(path) -> \(renamed)",
                    changes: [.rename(from: path, to: folder + "/" + renamed)],
                    places: [.init(file: folder + "/" + renamed, line: nil)])
            }
        case .britishSpelling:
            return sites("<(color)[ >/]", in: configuration).map {
                rename($0, to: "colour", kind: kind, withEndTag: true)
            }
        case .pointsUnit:
            return sites("<float>([0-9.]+)</float>", in: configuration).map {
                rename($0, to: $0.text + "pt", kind: kind)
            }
        case .hyphenQualifier, .underscoreQualifier, .dottedQualifier, .scaleLikeQualifier:
            let separator = [
                .hyphenQualifier: "-", .underscoreQualifier: "_", .dottedQualifier: ".", .scaleLikeQualifier: "@",
            ][kind]!
            return (texts.keys.sorted() + assets).filter { $0.contains("~dark") && !$0.contains("@") }.map { path in
                let (folder, name) = split(path)
                let renamed = name.replacingOccurrences(
                    of: "~dark", with: separator + (kind == .dottedQualifier ? "Dark" : "dark"))
                return Mutation(
                    kind: kind, summary: "\(path) -> \(renamed)",
                    changes: [.rename(from: path, to: folder + "/" + renamed)],
                    places: [.init(file: folder + "/" + renamed, line: nil)])
            }
        case .androidValuesFolder:
            // a dark variant put where Android puts it: values-night/Chat.xml
            return texts.keys.sorted().filter { $0.hasSuffix("~dark.xml") && !$0.contains("~ipad") }.map { path in
                let (folder, name) = split(path)
                let moved = folder + "/values-night/" + name.replacingOccurrences(of: "~dark", with: "")
                return Mutation(
                    kind: kind, summary: "\(path) -> \(moved)", changes: [.rename(from: path, to: moved)],
                    places: [.init(file: folder + "/values-night", line: nil)])
            }
        case .androidStyle:
            return sites("<(class) name=", in: configuration).map {
                rename($0, to: "style", kind: kind, withEndTag: true)
            }
        case .androidItem:
            return sites("<(operation) name=", in: configuration).map {
                rename($0, to: "item", kind: kind, withEndTag: true)
            }
        case .figmaTokenReference:
            return sites(" ref=\"([^\"]+)\"", in: configuration).map { rename($0, to: "{\($0.text)}", kind: kind) }
        case .sassVariable:
            return sites(" ref=\"([^\"]+)\"", in: configuration).map { rename($0, to: "$" + $0.text, kind: kind) }
        case .boolDigit:
            return sites("<bool>(true|false)</bool>", in: configuration).map {
                rename($0, to: $0.text == "true" ? "1" : "0", kind: kind)
            }
        case .cssColorKeyword:
            return sites(">(#FFFFFF|#000000)</color>", in: configuration).map {
                rename($0, to: $0.text == "#FFFFFF" ? "white" : "black", kind: kind)
            }
        case .cssShortHexAlpha:
            return sites(">(#FFFFFF|#000000)</color>", in: configuration).map {
                rename($0, to: $0.text == "#FFFFFF" ? "#FFFF" : "#000F", kind: kind)
            }
        case .androidUnit:
            return sites("<float>([0-9.]+)</float>", in: configuration).map {
                rename($0, to: $0.text + "dp", kind: kind)
            }
        }
    }

    /// The lines of `file`.
    func lines(of file: String) -> [String] {
        texts[file]!.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Line `index` (0-based) of `file` replaced by `line`; the finding is expected there.
    func lineEdit(_ file: String, _ index: Int, _ line: String, kind: MutationKind) -> Mutation {
        var all = lines(of: file)
        let old = all[index]
        all[index] = line
        return Mutation(
            kind: kind,
            summary:
                "\(file):\(index + 1): \(old.trimmingCharacters(in: .whitespaces)) -> \(line.trimmingCharacters(in: .whitespaces))",
            changes: [.write(file: file, contents: all.joined(separator: "\n"))],
            places: [.init(file: file, line: index + 1)])
    }

    /// The ref value's site of a `<type ref="...">` match (whose first group is the type).
    func referenceSite(_ site: Site) -> Site? {
        let text = texts[site.file]!
        guard let open = text[site.range.upperBound...].range(of: "ref=\"") else { return nil }
        let start = open.upperBound
        guard let end = text[start...].firstIndex(of: "\"") else { return nil }
        return Site(file: site.file, range: start..<end, text: String(text[start..<end]), line: site.line)
    }

    /// A root theme's reference renamed to a constant that only its first child defines (added
    /// to the child's `<constants>`, with the value of the constant it replaces): a designer
    /// defining a colour in the theme they are working on and using it from the parent. Only a
    /// constant defined once, as a literal, and referenced elsewhere too, so that every theme
    /// sees the values it saw and no constant becomes unused.
    func childConstantsInParents() -> [Mutation] {
        let all = texts.keys.sorted().map { texts[$0]! }.joined(separator: "\n")
        let ordered = themes.sorted { $0.key < $1.key }
        var result: [Mutation] = []
        for (folder, theme) in ordered where theme.parent == nil {
            guard let child = ordered.first(where: { $0.value.parent == theme.id })?.key,
                let childFile = texts.keys.sorted().first(where: {
                    $0.hasPrefix(child + "/") && !$0.contains("~") && texts[$0]!.contains("<constants>")
                }),
                let open = texts[childFile]!.range(of: "<constants>")
            else { continue }
            let meant = child.prefix { $0 != "." }.lowercased() + "Only"
            for site in sites("<[a-z]+ ref=\"([^\"]+)\"", in: configurationFiles.filter { $0.hasPrefix(folder + "/") })
            {
                let name = NSRegularExpression.escapedPattern(for: site.text)
                let definitions = all.matches(of: try! Regex("<(?!param|operation)[a-z]+ name=\"\(name)\"[ >/]")).count
                let uses = all.matches(of: try! Regex("ref=\"\(name)\"")).count
                guard definitions == 1, uses >= 2,
                    let literal = all.firstMatch(of: try! Regex("<[a-z]+ name=\"\(name)\"[^>/]*>[^<]*</[a-z]+>"))
                else { continue }
                let definition = String(all[literal.range]).replacingOccurrences(
                    of: "name=\"\(site.text)\"", with: "name=\"\(meant)\"")
                var childText = texts[childFile]!
                childText.insert(contentsOf: "\n    " + definition, at: open.upperBound)
                result.append(
                    Mutation(
                        kind: .childConstantInParent,
                        summary: "\(site.file):\(site.line): \(site.text) -> \(meant) (defined in \(childFile))",
                        changes: [
                            .write(file: site.file, contents: replacing(site.file, [(site.range, meant)])),
                            .write(file: childFile, contents: childText),
                        ],
                        places: [.init(file: site.file, line: site.line)]))
            }
        }
        return result
    }

    /// A constant taken out of `<constants>` and written as the first child of `<instances>` in
    /// the same file: the finding is at its new line.
    func constantsMovedToInstances() -> [Mutation] {
        configurationFiles.filter { texts[$0]!.contains("<instances>") && texts[$0]!.contains("<constants>") }.flatMap {
            file -> [Mutation] in
            let all = lines(of: file)
            guard let instancesLine = all.firstIndex(where: { $0.contains("<instances>") }) else { return [] }
            return all.enumerated().compactMap { index, line -> Mutation? in
                guard index < instancesLine,
                    line.range(of: "^ *<[a-z]+ name=\"[^\"]+\".*(/>|</[a-z]+>) *$", options: .regularExpression) != nil
                else { return nil }
                var moved = all
                moved.remove(at: index)
                // after the removal, <instances> is one line up; the constant goes right below it
                moved.insert(line, at: instancesLine)
                return Mutation(
                    kind: .constantInInstances,
                    summary: "\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces)) -> <instances>",
                    changes: [.write(file: file, contents: moved.joined(separator: "\n"))],
                    places: [.init(file: file, line: instancesLine + 1)])
            }
        }
    }

    func split(_ path: String) -> (folder: String, name: String) {
        let slash = path.lastIndex(of: "/")!
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// Folder names of the theme's ancestors, nearest first.
    func ancestors(of folder: String) -> [String] {
        var result: [String] = []
        var current = themes[folder]?.parent
        while let id = current, let parent = themes.first(where: { $0.value.id == id })?.key, !result.contains(parent) {
            result.append(parent)
            current = themes[parent]?.parent
        }
        return result
    }

    func ancestorsPath(from folder: String, to ancestor: String) -> [String] {
        let all = ancestors(of: folder)
        return Array(all[...all.firstIndex(of: ancestor)!])
    }

    /// The theme's Info.xml with its parent set to `id` (added where it has none). Every theme of
    /// the cycle is a place the finding may be.
    func setParent(of folder: String, to id: String, kind: MutationKind, cycle: [String]) -> Mutation {
        let file = folder + "/Info.xml"
        let text = texts[file]!
        let contents: String
        if let range = text.firstMatch(of: try! Regex(" parent=\"[^\"]*\""))?.range {
            contents = text.replacingCharacters(in: range, with: " parent=\"\(id)\"")
        } else {
            let tag = text.range(of: "<theme-info ")!
            contents = text.replacingCharacters(in: tag, with: "<theme-info parent=\"\(id)\" ")
        }
        let places = cycle.map { member -> Mutation.Place in
            let info = member + "/Info.xml"
            return .init(
                file: info, line: Self.line(of: texts[info]!.range(of: "<theme-info")!.lowerBound, in: texts[info]!))
        }
        return Mutation(
            kind: kind, summary: "\(file): parent=\"\(id)\"", changes: [.write(file: file, contents: contents)],
            places: places.sorted { $0.file == file && $1.file != file })
    }

    /// A theme that no other theme names as its parent takes the id of another theme. (Taking
    /// the id of a theme that is a parent would also orphan its children: that mistake is a
    /// misspelled parent id, seen from the other side.)
    func duplicatedIDs() -> [Mutation] {
        let parents = Set(themes.values.compactMap(\.parent))
        return themes.keys.sorted().filter { !parents.contains(themes[$0]!.id) }.flatMap { folder in
            themes.keys.sorted().filter { $0 != folder }.map { other -> Mutation in
                let site = sites(" id=\"([^\"]+)\"", in: [folder + "/Info.xml"])[0]
                let otherSite = sites(" id=\"([^\"]+)\"", in: [other + "/Info.xml"])[0]
                var mutation = rename(site, to: themes[other]!.id, kind: .duplicatedThemeID)
                mutation.places.append(.init(file: otherSite.file, line: otherSite.line))
                return mutation
            }
        }
    }

    /// A typed object replaced by one of another type (a literal of that type, or the same
    /// reference under the other type's element).
    func wrongTypes() -> [Mutation] {
        let other: [String: (String, String)] = [
            "float": ("integer", "1"), "integer": ("float", "1.5"), "bool": ("integer", "1"), "color": ("float", "1"),
            "rect": ("size", "1,1"), "insets": ("rect", "1,1,1,1"), "enum": ("string", "left"),
            "string": ("integer", "1"),
            "font": ("color", "#FFFFFF"), "image": ("string", ""), "size": ("point", "1,1"), "point": ("size", "1,1"),
        ]
        let types = other.keys.sorted().joined(separator: "|")
        let literal = sites("<param name=\"[^\"]+\">(<(?:\(types))(?: [^>/]*)?>[^<]*</[a-z]+>)", in: configurationFiles)
        let references = sites("<param name=\"[^\"]+\"><(\(types)) ref=", in: configurationFiles)
        return literal.map { site in
            let type = String(site.text.dropFirst().prefix { $0.isLetter })
            let (replacement, value) = other[type]!
            // an image written as a string keeps its name: the asset is still meant
            let text = value.isEmpty ? String(site.text.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" }) : value
            return rename(site, to: "<\(replacement)>\(text)</\(replacement)>", kind: .wrongType)
        }
            + references.map { site in
                rename(site, to: other[site.text]!.0, kind: .wrongType)
            }
    }

    /// An operation of the same role from another component: `titleColor` on a label, whose text
    /// colour is `textColor`.
    func operationsOfOtherComponents() -> [Mutation] {
        var mutations: [Mutation] = []
        let instances = sites("<([a-z][A-Za-z0-9]*) id=\"", in: configurationFiles)
        for site in sites("<operation name=\"([^\"]+)\"", in: configurationFiles) {
            // the instance the operation belongs to: the nearest instance start tag above it
            guard
                let owner = instances.last(where: {
                    $0.file == site.file && $0.range.lowerBound < site.range.lowerBound
                }),
                !texts[site.file]![owner.range.lowerBound..<site.range.lowerBound].contains("</\(owner.text)>"),
                let role = OperationRoles.role(of: site.text, on: owner.text, in: schema)
            else { continue }
            let available = Set(schema.operationNames(of: owner.text))
            let foreign = schema.components.keys.sorted().flatMap { component in
                schema.operationNames(of: component).filter { name in
                    !available.contains(name) && OperationRoles.role(of: name, on: component, in: schema) == role
                }
            }
            guard let replacement = Array(Set(foreign)).sorted().first else { continue }
            mutations.append(rename(site, to: replacement, kind: .operationOfAnotherComponent))
        }
        return mutations
    }
}
