import Foundation
import LiveryModel

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The loaders a Swift developer would write without Livery's front end, used as baselines.
/// Each decodes a `SourceTheme` its own way, then `SourceResolver` applies the same layering
/// and reference rules as our front end, so all of them end at the same `[ResolvedInstance]`.
/// They do not check the schema and report no located diagnostics: they do less work than ours.
public enum AlternativeLoaders {
    /// Foundation's `XMLParser` (SAX-style delegate) over every XML file of the folder.
    public static func xmlParser(folder: String) throws -> SourceTheme {
        let manager = FileManager.default
        let names = try manager.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xml") }.sorted()
        var theme = SourceTheme(id: "", name: "", parent: nil, files: [])
        for name in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let delegate = ThemeXMLDelegate(fileName: name)
            let parser = XMLParser(data: data)
            parser.delegate = delegate
            guard parser.parse() else {
                throw LoaderError.invalid(name, parser.parserError.map { "\($0)" } ?? "parse failed")
            }
            if let info = delegate.info {
                theme.id = info.id
                theme.name = info.name
                theme.parent = info.parent
            } else {
                theme.files.append(delegate.file)
            }
        }
        return theme
    }

    /// The theme as one JSON document, through `JSONDecoder`.
    public static func json(_ data: Data) throws -> SourceTheme {
        try JSONDecoder().decode(SourceTheme.self, from: data)
    }

    /// The theme as one binary property list, through `PropertyListDecoder`.
    public static func plist(_ data: Data) throws -> SourceTheme {
        try PropertyListDecoder().decode(SourceTheme.self, from: data)
    }
}

public enum LoaderError: Error, CustomStringConvertible {
    case invalid(String, String)
    public var description: String {
        switch self {
        case .invalid(let file, let why): "\(file): \(why)"
        }
    }
}

/// Builds a `SourceFile` from `XMLParser` events.
final class ThemeXMLDelegate: NSObject, XMLParserDelegate {
    var file: SourceFile
    var info: (id: String, name: String, parent: String?)?
    private enum Section { case none, constants, classes, instances }
    private var section = Section.none
    private var currentClass: SourceClass?
    private var currentInstance: SourceInstance?
    private var currentOperation: SourceOperation?
    private var currentParamName: String?
    private var currentConstantName: String?
    private var currentValue: SourceValue?
    private var text = ""

    init(fileName: String) {
        file = SourceFile(name: fileName)
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        switch name {
        case "theme-info":
            info = (attributes["id"] ?? "", attributes["name"] ?? "", attributes["parent"])
        case "theme":
            break
        case "constants": section = .constants
        case "classes": section = .classes
        case "instances": section = .instances
        case "class" where section == .classes:
            currentClass = SourceClass(
                name: attributes["name"] ?? "", classes: Self.words(attributes["class"]), operations: [])
        case "operation":
            currentOperation = SourceOperation(name: attributes["name"] ?? "", state: attributes["state"], params: [])
        case "param":
            currentParamName = attributes["name"]
        default:
            if section == .instances, currentInstance == nil {
                currentInstance = SourceInstance(
                    id: attributes["id"] ?? "", component: name,
                    classes: Self.words(attributes["class"]), operations: [])
            } else {
                if section == .constants { currentConstantName = attributes["name"] }
                currentValue = SourceValue(
                    type: name, ref: attributes["ref"], text: nil, format: attributes["format"],
                    family: attributes["family"], size: attributes["size"], weight: attributes["weight"])
                text = ""
            }
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if currentValue != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "constants", "classes", "instances":
            section = .none
        case "class" where section == .classes:
            if let currentClass { file.classes.append(currentClass) }
            currentClass = nil
        case "operation":
            guard let operation = currentOperation else { return }
            if currentInstance != nil {
                currentInstance!.operations.append(operation)
            } else {
                currentClass?.operations.append(operation)
            }
            currentOperation = nil
        case "param":
            currentParamName = nil
        default:
            if var value = currentValue, value.type == name {
                if value.ref == nil, value.type != "font" { value.text = text }
                currentValue = nil
                if let constant = currentConstantName {
                    file.constants.append(SourceConstant(name: constant, value: value))
                    currentConstantName = nil
                } else if let param = currentParamName {
                    currentOperation?.params.append(SourceParam(name: param, value: value))
                }
            } else if let instance = currentInstance, instance.component == name {
                file.instances.append(instance)
                currentInstance = nil
            }
        }
    }

    static func words(_ text: String?) -> [String] {
        text.map { $0.split(separator: " ").map(String.init) } ?? []
    }
}

/// Layering and references for `SourceTheme`s: the rules of section 4 of the format, without
/// schema checks (the baselines' resolution step).
public enum SourceResolver {
    /// `chain` is root first.
    public static func resolve(_ chain: [SourceTheme], traits: TraitSet) throws -> [ResolvedInstance] {
        var layers: [SourceFile] = []
        for theme in chain {
            var applicable: [(TraitSet, SourceFile)] = []
            for file in theme.files {
                let tags = file.name.dropLast(4).split(separator: "~").dropFirst()
                let qualifiers = try TraitSet(tags: tags)
                if qualifiers.applies(in: traits) { applicable.append((qualifiers, file)) }
            }
            applicable.sort { ($0.0.specificity, $0.1.name) < ($1.0.specificity, $1.1.name) }
            layers += applicable.map(\.1)
        }
        var constants: [String: SourceValue] = [:]
        var classes: [String: SourceClass] = [:]
        var definitions: [String: [SourceInstance]] = [:]
        for file in layers {
            for constant in file.constants { constants[constant.name] = constant.value }
            for definition in file.classes { classes[definition.name] = definition }
            for instance in file.instances { definitions[instance.id, default: []].append(instance) }
        }
        var context = Context(constants: constants, classes: classes)
        var result: [ResolvedInstance] = []
        result.reserveCapacity(definitions.count)
        for id in definitions.keys.sorted() {
            let list = definitions[id]!
            var merged = MergedOperations()
            for definition in list {
                for name in definition.classes { try merged.add(context.classOperations(name)) }
                merged.add(definition.operations)
            }
            var resolved: [ResolvedOperation] = []
            let ordered = merged.ordered
            resolved.reserveCapacity(ordered.count)
            for operation in ordered {
                let params = try operation.params.map { Param(name: $0.name, value: try context.value($0.value)) }
                resolved.append(ResolvedOperation(name: operation.name, state: operation.key.state, params: params))
            }
            result.append(ResolvedInstance(id: id, component: list[0].component, operations: resolved))
        }
        return result
    }

    /// Operations merged in definition order: a later one with the same (name, state) replaces
    /// the earlier and moves to the end, as the front end's identity override does.
    struct MergedOperations {
        private var order: [OperationKey] = []
        private var operations: [OperationKey: SourceOperation] = [:]

        mutating func add(_ list: [SourceOperation]) {
            for operation in list {
                let key = operation.key
                if operations[key] != nil { order.removeAll { $0 == key } }
                order.append(key)
                operations[key] = operation
            }
        }

        var ordered: [SourceOperation] { order.map { operations[$0]! } }
    }

    struct Context {
        var constants: [String: SourceValue]
        var classes: [String: SourceClass]
        var constantCache: [String: Value] = [:]
        var classCache: [String: [SourceOperation]] = [:]

        mutating func classOperations(_ name: String) throws -> [SourceOperation] {
            if let cached = classCache[name] { return cached }
            guard let definition = classes[name] else { throw LoaderError.invalid(name, "unknown class") }
            var merged = MergedOperations()
            for inner in definition.classes { try merged.add(classOperations(inner)) }
            merged.add(definition.operations)
            let result = merged.ordered
            classCache[name] = result
            return result
        }

        mutating func value(_ source: SourceValue) throws -> Value {
            if let ref = source.ref {
                if let cached = constantCache[ref] { return cached }
                guard let constant = constants[ref] else { throw LoaderError.invalid(ref, "unknown constant") }
                let value = try self.value(constant)
                constantCache[ref] = value
                return value
            }
            return try SourceResolver.literal(source)
        }
    }

    static func literal(_ source: SourceValue) throws -> Value {
        let text = (source.text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        func numbers(_ count: Int) throws -> [Double] {
            let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == count else { throw LoaderError.invalid(text, "expected \(count) numbers") }
            return parts
        }
        switch source.type {
        case "float":
            guard let value = Double(text) else { throw LoaderError.invalid(text, "not a number") }
            return .float(value)
        case "integer":
            guard let value = Int64(text) else { throw LoaderError.invalid(text, "not an integer") }
            return .integer(value)
        case "bool":
            return .bool(text == "true")
        case "string":
            return .string(source.text ?? "")
        case "enum":
            return .enumeration(text)
        case "image":
            return .image(ImageReference(name: text))
        case "point":
            let n = try numbers(2)
            return .point(Point(x: n[0], y: n[1]))
        case "size":
            let n = try numbers(2)
            return .size(Size(width: n[0], height: n[1]))
        case "rect":
            let n = try numbers(4)
            return .rect(Rect(x: n[0], y: n[1], width: n[2], height: n[3]))
        case "insets":
            let n = try numbers(4)
            return .insets(Insets(top: n[0], left: n[1], bottom: n[2], right: n[3]))
        case "font":
            let weight = source.weight.flatMap(FontWeight.init(rawValue:)) ?? .regular
            return .font(Font(family: source.family ?? "", size: source.size.flatMap(Double.init), weight: weight))
        case "color":
            if source.format == "rgba" || source.format == "rgb" {
                let n = try numbers(source.format == "rgba" ? 4 : 3)
                return .color(Color(red: n[0], green: n[1], blue: n[2], alpha: n.count == 4 ? n[3] : 1))
            }
            let digits = Array(text.utf8.dropFirst()).map { byte -> Int in
                switch byte {
                case 0x30...0x39: Int(byte - 0x30)
                case 0x41...0x46: Int(byte - 0x41 + 10)
                case 0x61...0x66: Int(byte - 0x61 + 10)
                default: 0
                }
            }
            let channels: [Int] =
                digits.count <= 4
                ? digits.map { $0 * 17 } + (digits.count == 3 ? [255] : [])
                : stride(from: 0, to: digits.count, by: 2).map { digits[$0] * 16 + digits[$0 + 1] }
                    + (digits.count == 6 ? [255] : [])
            guard channels.count == 4 else { throw LoaderError.invalid(text, "not a colour") }
            let unit = channels.map { Double($0) / 255 }
            return .color(Color(red: unit[0], green: unit[1], blue: unit[2], alpha: unit[3]))
        default:
            throw LoaderError.invalid(source.type, "unknown value type")
        }
    }
}
