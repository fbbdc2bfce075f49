import Foundation

/// The deterministic benchmark theme: `instances` instances over four standard components,
/// 1,000 per file, each resolving to 8 operations through constants, classes that use classes,
/// and its own operations; a `~dark` and a `~ipad` constants layer, and a `~ipad` layer per
/// screen overriding the frame of every tenth instance (so 4 variants). Values vary per
/// instance, so deduplication has no unfair advantage. `flavor` changes every constant and
/// every per-instance value: the theme to switch to when "everything changes".
public enum ThemeGenerator {
    public static func theme(instances: Int, flavor: Int = 0, id: String = "com.livery.bench") -> SourceTheme {
        var files: [SourceFile] = []
        files.append(constantsFile(flavor: flavor))
        files.append(
            SourceFile(
                name: "Constants~dark.xml",
                constants: [
                    SourceConstant(name: "textPrimary", value: .literal("color", flavor == 0 ? "#F2F2F7" : "#E5E5EA")),
                    SourceConstant(name: "surface", value: .literal("color", flavor == 0 ? "#1C1C1E" : "#2C2C2E")),
                    SourceConstant(name: "accent", value: .literal("color", flavor == 0 ? "#0A84FF" : "#30D158")),
                    SourceConstant(
                        name: "shadow", value: SourceValue(type: "color", text: "0,0,0,0.6", format: "rgba")),
                ]))
        files.append(
            SourceFile(
                name: "Constants~ipad.xml",
                constants: [
                    SourceConstant(
                        name: "body", value: SourceValue(type: "font", family: "Inter", size: flavor == 0 ? "17" : "18")
                    ),
                    SourceConstant(
                        name: "title",
                        value: SourceValue(
                            type: "font", family: "Inter", size: flavor == 0 ? "24" : "26", weight: "semibold")),
                    SourceConstant(name: "radius", value: .literal("float", flavor == 0 ? "12" : "14")),
                ]))
        var start = 0
        var file = 0
        while start < instances {
            let end = min(start + 1000, instances)
            let generic = (start..<end).map { instance($0, flavor: flavor) }
            let ipad = stride(from: start, to: end, by: 10).map { index in
                SourceInstance(
                    id: identifier(index), component: component(index), classes: [],
                    operations: [
                        .op(
                            "frame", "rect",
                            .literal("rect", "\(index % 512 + flavor * 3),\(index / 512 * 6),\(160 + index % 80),52"))
                    ])
            }
            let stem = String(format: "Screen%03d", file)
            files.append(SourceFile(name: stem + ".xml", instances: generic))
            files.append(SourceFile(name: stem + "~ipad.xml", instances: ipad))
            start = end
            file += 1
        }
        files.sort { $0.name < $1.name }
        return SourceTheme(id: id, name: "Benchmark \(flavor)", parent: nil, files: files)
    }

    /// A child of `parent` that changes one operation of every tenth instance: the 10% switch,
    /// through theme inheritance.
    public static func child(of parent: SourceTheme, instances: Int, id: String = "com.livery.bench.child")
        -> SourceTheme
    {
        let overrides = stride(from: 0, to: instances, by: 10).map { index in
            SourceInstance(
                id: identifier(index), component: component(index), classes: [],
                operations: [.op("alpha", "value", .literal("float", "0.5"))])
        }
        return SourceTheme(
            id: id, name: "Benchmark child", parent: parent.id,
            files: [SourceFile(name: "Overrides.xml", instances: overrides)])
    }

    static func constantsFile(flavor: Int) -> SourceFile {
        let f = flavor == 0
        return SourceFile(
            name: "Constants.xml",
            constants: [
                SourceConstant(name: "textPrimary", value: .literal("color", f ? "#1C1C1E" : "#3A3A3C")),
                SourceConstant(name: "accent", value: .literal("color", f ? "#0A84FF" : "#34C759")),
                SourceConstant(
                    name: "surface",
                    value: SourceValue(type: "color", text: f ? "0.96,0.96,0.97,1" : "0.9,0.92,0.95,1", format: "rgba")),
                SourceConstant(
                    name: "shadow",
                    value: SourceValue(type: "color", text: f ? "0,0,0,0.2" : "0,0,0,0.3", format: "rgba")),
                SourceConstant(name: "radius", value: .literal("float", f ? "8" : "10")),
                SourceConstant(
                    name: "body", value: SourceValue(type: "font", family: f ? "Inter" : "Roboto", size: "15")),
                SourceConstant(
                    name: "title",
                    value: SourceValue(type: "font", family: f ? "Inter" : "Roboto", size: "20", weight: "semibold")),
            ],
            classes: [
                SourceClass(
                    name: "rounded", classes: [],
                    operations: [
                        .op("cornerRadius", "radius", .ref("float", "radius")),
                        .op("clipsToBounds", "value", .literal("bool", "true")),
                    ]),
                SourceClass(
                    name: "card", classes: ["rounded"],
                    operations: [
                        .op("backgroundColor", "color", .ref("color", "surface")),
                        .op("borderWidth", "width", .literal("float", f ? "1" : "2")),
                    ]),
                SourceClass(
                    name: "body", classes: [],
                    operations: [
                        .op("font", "font", .ref("font", "body")),
                        .op("textAlignment", "alignment", .literal("enum", f ? "natural" : "left")),
                    ]),
                SourceClass(
                    name: "headline", classes: ["body"],
                    operations: [
                        .op("font", "font", .ref("font", "title")),
                        .op("textColor", "color", .ref("color", "textPrimary")),
                    ]),
            ])
    }

    public static func identifier(_ index: Int) -> String {
        let number = String(format: "%06d", index)
        switch index % 4 {
        case 0: return "label_" + number
        case 1: return "button_" + number
        case 2: return "view_" + number
        default: return "field_" + number
        }
    }

    public static func component(_ index: Int) -> String {
        ["uilabel", "uibutton", "uiview", "uitextfield"][index % 4]
    }

    static func instance(_ index: Int, flavor: Int) -> SourceInstance {
        let frame = SourceOperation.op(
            "frame", "rect", .literal("rect", "\(index % 320 + flavor),\(index / 320 * 4),\(100 + index % 50),44"))
        let suffix = flavor == 0 ? "" : " (\(flavor))"
        let id = identifier(index)
        switch index % 4 {
        case 0:
            return SourceInstance(
                id: id, component: "uilabel", classes: ["headline"],
                operations: [
                    frame,
                    .op("text", "text", .literal("string", "Item \(index)\(suffix)")),
                    .op("numberOfLines", "count", .literal("integer", "\((index + flavor) % 3)")),
                    .op("alpha", "value", .literal("float", "0.\((index + flavor) % 10)5")),
                    .op(
                        "backgroundColor", "color",
                        .literal("color", String(format: "#%06X", (index * 2_654_435 + flavor * 77) & 0xFFFFFF))),
                ])
        case 1:
            return SourceInstance(
                id: id, component: "uibutton", classes: ["card"],
                operations: [
                    frame,
                    .op("title", "text", .literal("string", "Action \(index)\(suffix)")),
                    .op("titleColor", "color", .ref("color", "accent"), state: "highlighted"),
                    .op("contentEdgeInsets", "insets", .literal("insets", "4,\(8 + flavor),4,\(8 + index % 5)")),
                ])
        case 2:
            return SourceInstance(
                id: id, component: "uiview", classes: ["card"],
                operations: [
                    frame,
                    .op("alpha", "value", .literal("float", "0.\((index + flavor) % 10)")),
                    .op("shadowColor", "color", .ref("color", "shadow")),
                    .op("shadowOffset", "offset", .literal("size", "\(flavor),\(2 + index % 3)")),
                ])
        default:
            return SourceInstance(
                id: id, component: "uitextfield", classes: ["body"],
                operations: [
                    frame,
                    .op("textColor", "color", .ref("color", "textPrimary")),
                    .op(
                        "placeholderColor", "color",
                        SourceValue(type: "color", text: flavor == 0 ? "#8E8E93" : "#AEAEB2", format: "hex")),
                    .op("borderStyle", "style", .literal("enum", flavor == 0 ? "roundedRect" : "line")),
                    .op("tintColor", "color", .ref("color", "accent")),
                    .op("borderWidth", "width", .literal("float", "\(index % 4)")),
                ])
        }
    }
}

// MARK: - Writing

extension SourceTheme {
    /// Writes the theme as a `.theme` folder (`<folder>/<name>.theme`, replaced) and returns its path.
    @discardableResult
    public func writeXML(into folder: String, name: String) throws -> String {
        let path = folder + "/" + name + ".theme"
        let manager = FileManager.default
        try? manager.removeItem(atPath: path)
        try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        var info =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<theme-info id=\"\(id)\" name=\"\(name)\" version=\"1.0.0\""
        if let parent { info += " parent=\"\(parent)\"" }
        info += "/>\n"
        try Data(info.utf8).write(to: URL(fileURLWithPath: path + "/Info.xml"))
        for file in files {
            try Data(file.xml().utf8).write(to: URL(fileURLWithPath: path + "/" + file.name))
        }
        return path
    }

    /// The XML files' bytes, Info.xml included (what "the XML size" means in ratios).
    public var xmlByteCount: Int {
        files.reduce(0) { $0 + $1.xml().utf8.count } + 100
    }

    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    public func plistData() throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode(self)
    }
}

extension SourceFile {
    public func xml() -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<theme>\n"
        if !constants.isEmpty {
            text += "  <constants>\n"
            for constant in constants { text += "    " + constant.value.xml(name: constant.name) + "\n" }
            text += "  </constants>\n"
        }
        if !classes.isEmpty {
            text += "  <classes>\n"
            for definition in classes {
                let uses = definition.classes.isEmpty ? "" : " class=\"\(definition.classes.joined(separator: " "))\""
                text += "    <class name=\"\(definition.name)\"\(uses)>\n"
                for operation in definition.operations { text += "      " + operation.xml() + "\n" }
                text += "    </class>\n"
            }
            text += "  </classes>\n"
        }
        if !instances.isEmpty {
            text += "  <instances>\n"
            for instance in instances {
                let uses = instance.classes.isEmpty ? "" : " class=\"\(instance.classes.joined(separator: " "))\""
                text += "    <\(instance.component) id=\"\(instance.id)\"\(uses)>\n"
                for operation in instance.operations { text += "      " + operation.xml() + "\n" }
                text += "    </\(instance.component)>\n"
            }
            text += "  </instances>\n"
        }
        return text + "</theme>\n"
    }
}

extension SourceOperation {
    func xml() -> String {
        let state = self.state.map { " state=\"\($0)\"" } ?? ""
        let params = self.params.map { "<param name=\"\($0.name)\">\($0.value.xml(name: nil))</param>" }.joined()
        return "<operation name=\"\(name)\"\(state)>\(params)</operation>"
    }
}

extension SourceValue {
    func xml(name: String?) -> String {
        var attributes = name.map { " name=\"\($0)\"" } ?? ""
        if let ref { return "<\(type)\(attributes) ref=\"\(ref)\"/>" }
        if let format { attributes += " format=\"\(format)\"" }
        if type == "font" {
            if let family { attributes += " family=\"\(family)\"" }
            if let size { attributes += " size=\"\(size)\"" }
            if let weight { attributes += " weight=\"\(weight)\"" }
            return "<font\(attributes)/>"
        }
        return "<\(type)\(attributes)>\(text ?? "")</\(type)>"
    }
}
