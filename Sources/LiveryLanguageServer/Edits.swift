import Foundation
import LiveryModel
import LiveryXML

extension LanguageServer {
    // MARK: - Rename

    /// `textDocument/prepareRename`: the range of a constant or class name, or an error.
    func prepareRename(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (_, _, symbols, offset) = try context(params)
        guard let offset, let place = symbols.place(at: offset), place.kind != .instance else {
            throw ResponseError(code: ResponseError.requestFailed, message: "only constants and classes can be renamed")
        }
        return .object([("range", Self.json(symbols.range(place))), ("placeholder", .string(place.name))])
    }

    /// `textDocument/rename`: the constant or class renamed at its definitions and every use, in
    /// every theme it reaches. Refused when the new name is not a valid name or is taken.
    func rename(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (_, theme, symbols, offset) = try context(params)
        guard let offset, let theme, let place = symbols.place(at: offset), place.kind != .instance else {
            throw ResponseError(code: ResponseError.requestFailed, message: "only constants and classes can be renamed")
        }
        guard let newName = params["newName"]?.string else { throw .invalidParams("newName is missing") }
        guard Self.isValidName(newName) else {
            throw ResponseError(
                code: ResponseError.requestFailed,
                message: "'\(newName)' is not a valid name: start with a letter or _, then letters, digits, _, - or .")
        }
        guard newName != place.name else { return .object([("changes", .object([]))]) }
        let occurrences = occurrences(of: place, from: theme)
        let themes = Set(occurrences.compactMap { project?.theme(holding: $0.place.file) })
        for folder in themes {
            if let clash = definitions(place.kind, visibleFrom: folder).first(where: { $0.name == newName }) {
                throw ResponseError(
                    code: ResponseError.requestFailed,
                    message: "a \(place.kind.rawValue) named '\(newName)' already exists at \(displayLocation(clash))")
            }
        }
        var changes: [String: [JSONValue]] = [:]
        for (occurrence, _) in occurrences {
            guard let file = self.symbols(of: occurrence.file) else { continue }
            changes[uri(of: occurrence.file), default: []].append(
                .object([("range", Self.json(file.range(occurrence))), ("newText", .string(newName))]))
        }
        return .object([("changes", .object(changes.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value)) }))])
    }

    /// Names of constants and classes: a letter or `_`, then letters, digits, `_`, `-`, `.`.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
            first.properties.isAlphabetic || first == "_"
        else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_-.".unicodeScalars.contains(scalar))
        }
    }

    // MARK: - Colours

    /// The `<color>` elements of a file written as text (not references), with their colour and
    /// the bytes of the text.
    func colorValues(in symbols: FileSymbols) -> [(color: Color, start: Int, end: Int, format: String)] {
        let scan = symbols.scan
        var result: [(Color, Int, Int, String)] = []
        for (index, element) in scan.elements.enumerated()
        where ValueType(elementName: element.name) == .color && element.attribute("ref") == nil {
            guard var (start, end) = scan.content(of: index) else { continue }
            while start < end, MarkupScan.isSpace(scan.bytes[start]) { start += 1 }
            while end > start, MarkupScan.isSpace(scan.bytes[end - 1]) { end -= 1 }
            let text = String(decoding: scan.bytes[start..<end], as: UTF8.self)
            let format = element.attribute("format")?.value ?? "hex"
            guard !text.contains("<"), let color = ColorNotation.color(text, format: format) else { continue }
            result.append((color, start, end, format))
        }
        return result
    }

    /// `textDocument/documentColor`: every colour written in the file, at its text, and what
    /// each colour that refers to a constant or derives its colour resolves to, at its tag name.
    func documentColors(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (_, theme, symbols, _) = try context(params)
        let written = colorValues(in: symbols).map { ($0.color, $0.start, $0.end) }
        let swatches = (written + resultSwatches(in: symbols, theme: theme)).sorted { $0.1 < $1.1 }
        return .array(
            swatches.map { color, start, end in
                .object([
                    (
                        "range",
                        Self.json(
                            TextRange(
                                start: symbols.document.position(ofOffset: start),
                                end: symbols.document.position(ofOffset: end)))
                    ),
                    (
                        "color",
                        .object([
                            ("red", .number(color.red)), ("green", .number(color.green)),
                            ("blue", .number(color.blue)), ("alpha", .number(color.alpha)),
                        ])
                    ),
                ])
            })
    }

    /// `textDocument/colorPresentation`: the picked colour written in the notation of the colour
    /// it replaces (`ColorNotation`, as the studio writes it): `#RGB` stays short when it can,
    /// hex keeps its letter case, rgb and rgba their separators.
    func colorPresentations(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (_, _, symbols, _) = try context(params)
        guard let range = params["range"].flatMap(Self.range), let color = params["color"],
            let red = color["red"]?.double, let green = color["green"]?.double, let blue = color["blue"]?.double
        else { throw .invalidParams("range and color are required") }
        let picked = Color(red: red, green: green, blue: blue, alpha: color["alpha"]?.double ?? 1)
        let start = symbols.document.offset(of: range.start)
        // a resolved colour is not written where its swatch is: nothing to replace
        if isResultSwatch(at: start, in: symbols) { return .array([]) }
        let value = colorValues(in: symbols).first { $0.start <= start && start <= $0.end }
        let old = value.map { String(decoding: symbols.scan.bytes[$0.start..<$0.end], as: UTF8.self) } ?? "#000000"
        guard let text = ColorNotation.text(picked.hexString, format: value?.format ?? "hex", like: old) else {
            throw .invalidParams("not a colour")
        }
        let editRange =
            value.map {
                TextRange(
                    start: symbols.document.position(ofOffset: $0.start),
                    end: symbols.document.position(ofOffset: $0.end))
            } ?? range
        return .array([
            .object([
                ("label", .string(text)),
                ("textEdit", .object([("range", Self.json(editRange)), ("newText", .string(text))])),
            ])
        ])
    }
}
