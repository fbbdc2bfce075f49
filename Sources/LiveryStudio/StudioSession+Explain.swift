import Foundation
import LiveryModel
import LiveryTooling
import LiveryXML

// Explaining an instance: its operations, their provenance, and the places an edit of each can go.
extension StudioSession {
    // MARK: - Explain

    /// The effective operations of instance `id` with their provenance and the places an edit of each can go.
    public func explain(themeID: String, traits: String, id: String) throws -> StudioExplanation {
        let folder = try folder(ofTheme: themeID)
        let traitSet: TraitSet
        do { traitSet = try ThemeSource.traits(traits, dimensions: workspace.dimensions(forThemeAt: folder)) } catch {
            throw StudioEditError(.invalid, error.message)
        }
        let result = workspace.explain(themeAt: folder, identifier: id, traits: traitSet)
        guard let explanation = result.value else {
            throw StudioEditError(
                .notFound,
                result.diagnostics.first(where: { $0.severity == .error }).map { relativeText($0.description) }
                    ?? "no instance '\(id)' in \(themeID) with these traits")
        }
        let schema = workspace.schema(forThemeAt: folder)
        let theme = workspace.resolve(themeAt: folder, traits: traitSet, keepingWhatResolves: true).value
        var operations: [StudioOperation] = []
        var background: Color?
        var foreground: Color?
        var font: Font?
        var constantsByName: [String: ResolvedConstant]?
        for explained in explanation.operations {
            let operation = explained.operation
            let role = schema?.operation(operation.name, of: explanation.component)?.params.first?.role
            for param in operation.params {
                if operation.state == .normal, case .color(let color) = param.value {
                    if role == .backgroundColor { background = background ?? color }
                    if role == .textColor { foreground = foreground ?? color }
                }
                if operation.state == .normal, case .font(let value) = param.value,
                    operation.name == "font" || operation.name == "titleFont"
                {
                    font = value
                }
                let trail = explained.constants.first { $0.param == param.name }
                var choices: [String]?
                if case .enumeration = param.value,
                    let declared = schema?.operation(operation.name, of: explanation.component)?.params.first(where: {
                        $0.name == param.name
                    })
                {
                    choices = declared.allowedValues
                }
                let targets = targets(
                    for: explained, param: param, trail: trail, instance: explanation, themeID: themeID,
                    themeFolder: folder, traits: traitSet)
                var fields = Self.fields(param.value)
                if case .color(let color) = param.value {
                    fields["content"] = targets.first.flatMap(writtenColor) ?? Self.hex(color)
                }
                var studioOperation = StudioOperation(
                    name: operation.name, state: operation.state.rawValue, param: param.name,
                    type: param.value.type,
                    value: ValueText.describe(param.value), fields: fields,
                    origin: origin(explained.origin),
                    constants: trail?.steps.map(\.constant) ?? [],
                    overridden: explained.overridden.map { origin($0.origin) },
                    targets: targets,
                    choices: choices)
                if constantsByName == nil, param.value.type == .color {
                    let constants =
                        workspace.constants(
                            ofThemeAt: folder, traits: traitSet, keepingWhatResolves: true, checkingWholeTheme: false
                        ).value ?? []
                    constantsByName = Dictionary(constants.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
                }
                studioOperation.derived = derivation(
                    of: param, in: explained, instance: explanation, trail: trail, themeFolder: folder,
                    themeID: themeID, traits: traitSet, constants: constantsByName ?? [:])
                if let step = trail?.steps.last {
                    studioOperation.definedAt = StudioOrigin(
                        themeID: step.themeID, file: display(step.location.file), line: step.location.line,
                        layer: (step.location.file as NSString).lastPathComponent, source: "constant \(step.constant)")
                }
                operations.append(studioOperation)
            }
        }
        let assets = Array(Set(theme?.assets.variants.map(\.name) ?? [])).sorted()
        return StudioExplanation(
            themeID: themeID, traits: explanation.dimensions.tags(of: traitSet).joined(separator: ","), id: id,
            component: explanation.component,
            background: background?.hexString, textColor: foreground?.hexString,
            largeText: ContrastRatio.isLargeText(font), highContrast: traitSet.contrast != nil,
            operations: operations, assets: assets)
    }

    /// A colour as the hex field shows it when its file does not write it in hex: `#RRGGBB`, with
    /// the alpha pair only when it is not opaque.
    static func hex(_ color: Color) -> String {
        let text = color.hexString
        return text.hasSuffix("FF") ? String(text.dropLast(2)) : text
    }

    /// A colour's text as its file writes it (`#0062CC`, `#fff`), when the target's value is a hex
    /// literal; nil for a reference or another notation.
    func writtenColor(_ target: StudioTarget) -> String? {
        guard target.kind == .value, let path = try? absolute(target.file), let outline = outline(path),
            let value = find(target, in: outline), !value.isReference, let content = value.spans.content
        else { return nil }
        if let format = value.spans.attribute("format"),
            String(decoding: outline.bytes[format.range], as: UTF8.self) != "hex"
        {
            return nil
        }
        let text = String(decoding: outline.bytes[content.range], as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        return text.hasPrefix("#") && [4, 5, 7, 9].contains(text.count) ? text : nil
    }

    /// A value slot by slot, as the editors start from it.
    static func fields(_ value: Value) -> [String: String] {
        switch value {
        case .font(let font):
            var fields = ["family": font.family, "weight": font.weight.rawValue]
            if let size = font.size { fields["size"] = ValueText.number(size) }
            if let maxSize = font.maxSize { fields["max-size"] = ValueText.number(maxSize) }
            if let scaling = font.scaling { fields["scaling"] = scaling.rawValue }
            if let spacing = font.letterSpacing { fields["letter-spacing"] = ValueText.number(spacing) }
            if let lineHeight = font.lineHeight { fields["line-height"] = ValueText.number(lineHeight) }
            return fields
        case .string(let text): return ["content": text]
        case .image(let image): return ["content": image.name]
        case .float, .integer, .bool, .color, .point, .size, .rect, .insets, .enumeration, .array:
            return ["content": ValueText.describe(value)]
        }
    }

    func origin(_ origin: OperationOrigin) -> StudioOrigin {
        let source: String =
            switch origin.source {
            case .instance: "instance"
            case .class(let name, _): "class \(name)"
            }
        return StudioOrigin(
            themeID: origin.themeID, file: display(origin.location.file), line: origin.location.line,
            layer: origin.layer, source: source)
    }

    /// Where an edit of one param can go, the place that gave the value first.
    func targets(
        for explained: ExplainedOperation, param: Param, trail: ConstantTrail?, instance: InstanceExplanation,
        themeID: String, themeFolder: String, traits: TraitSet
    ) -> [StudioTarget] {
        var targets: [StudioTarget] = []
        let operation = explained.operation
        // The constant the value comes through (its final definition): every use follows.
        if let step = trail?.steps.last {
            let path = step.location.file
            var target = StudioTarget(
                kind: .value, label: "constant \(step.constant) (every use follows)", file: display(path),
                themeID: step.themeID, layer: (path as NSString).lastPathComponent,
                readOnly: readOnlyReason(path), ownerKind: "constant", ownerName: step.constant)
            target.version = version(path)
            targets.append(target)
        }
        // The place the operation is written, as explain shows it.
        let path = explained.origin.location.file
        var written = StudioTarget(
            kind: .value, label: "", file: display(path), themeID: explained.origin.themeID,
            layer: explained.origin.layer, readOnly: readOnlyReason(path),
            operation: operation.name, state: operation.state.rawValue, param: param.name)
        switch explained.origin.source {
        case .instance:
            written.ownerKind = "instance"
            written.ownerName = instance.id
            written.label = "this instance in \(explained.origin.themeID), \(explained.origin.layer)"
        case .class(let name, _):
            written.ownerKind = "class"
            written.ownerName = name
            written.label =
                "class \(name) in \(explained.origin.themeID), \(explained.origin.layer) (every instance of the class follows)"
        }
        written.version = version(path)
        if trail == nil {
            targets.insert(written, at: 0)
        } else if case .instance = explained.origin.source {
            targets.append(written)
        }
        // Overrides in the theme shown: its generic layer and the layers of the active traits.
        let base =
            ((instance.definitions.last?.layer ?? explained.origin.layer) as NSString).deletingPathExtension
            .split(separator: "~").first.map(String.init) ?? "Chat"
        var layers = [base + ".xml"]
        let tags = workspace.dimensions(forThemeAt: themeFolder).tags(of: traits).filter {
            $0 != traits.idiom?.rawValue
        }
        for tag in tags { layers.append(base + "~" + tag + ".xml") }
        if let idiom = traits.idiom?.rawValue { layers.append(base + "~" + idiom + ".xml") }
        for layer in layers {
            let file = themeFolder + "/" + layer
            if file == path, case .instance = explained.origin.source { continue }
            var override = StudioTarget(
                kind: .override, label: "override in \(themeID), \(layer)", file: display(file), themeID: themeID,
                layer: layer, readOnly: readOnlyReason(file), operation: operation.name,
                state: operation.state.rawValue, param: param.name, instanceID: instance.id,
                component: instance.component, valueType: param.value.type)
            override.version = version(file)
            targets.append(override)
        }
        return targets
    }

    /// Whether `path` is, or lies in, a folder given as PATH: a theme given as PATH is editable
    /// wherever else (a `--themes` folder) it is also found.
    func isWritable(_ path: String) -> Bool {
        roots.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    func readOnlyReason(_ path: String) -> String? {
        if !isWritable(path), readOnlyRoots.contains(where: { path.hasPrefix($0 + "/") }) {
            return "\(display(path)) is in a folder given with --themes (read-only)"
        }
        if let owner = generatedOwner(ofFile: path) { return "\(display(path)) is \(owner)" }
        if !roots.contains(where: { path.hasPrefix($0 + "/") }) {
            return "\(display(path)) is outside the studio's folders"
        }
        return nil
    }

    func version(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { ThemeFiles.version(of: [UInt8]($0)) }
    }
}
