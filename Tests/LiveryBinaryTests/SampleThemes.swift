import LiveryBinary
import LiveryModel

/// Model values built in code: every value type, a parent chain, qualified assets, and variants
/// that share most instances (so deduplication has something to do).
enum SampleThemes {
    static let base = ThemeInfo(id: "com.acme.base", name: "Base", version: "2.0.1", description: "The root.")
    static let dark = ThemeInfo(id: "com.acme.dark", name: "Dark \u{1F319}", version: "1.2.0", parent: "com.acme.base")

    static func button(_ color: Color, title: String = "Cancel") -> ResolvedInstance {
        ResolvedInstance(
            id: "button_cancel_action", component: "uibutton",
            operations: [
                ResolvedOperation(name: "cornerRadius", params: [Param(name: "radius", value: .float(8))]),
                ResolvedOperation(name: "backgroundColor", params: [Param(name: "color", value: .color(color))]),
                ResolvedOperation(
                    name: "title", state: "highlighted", params: [Param(name: "text", value: .string(title))]),
                ResolvedOperation(
                    name: "image",
                    params: [Param(name: "image", value: .image(ImageReference(name: "bubble", cache: true)))]),
                ResolvedOperation(
                    name: "contentEdgeInsets",
                    params: [
                        Param(name: "insets", value: .insets(Insets(top: 1, left: 2.5, bottom: -3, right: 0.1)))
                    ]),
            ])
    }

    static let label = ResolvedInstance(
        id: "title_label", component: "uilabel",
        operations: [
            ResolvedOperation(
                name: "font",
                params: [
                    Param(
                        name: "font",
                        value: .font(
                            Font(
                                family: "Inter", size: 17, weight: .semibold,
                                letterSpacing: -0.4, lineHeight: 1.25)))
                ]),
            ResolvedOperation(name: "textAlignment", params: [Param(name: "alignment", value: .enumeration("center"))]),
            ResolvedOperation(
                name: "numberOfLines", params: [Param(name: "count", value: .integer(-9_223_372_036_854_775_807))]),
            ResolvedOperation(name: "hidden", params: [Param(name: "value", value: .bool(true))]),
            ResolvedOperation(
                name: "frame",
                params: [Param(name: "rect", value: .rect(Rect(x: 0, y: 1e-300, width: 320, height: 44)))]),
            ResolvedOperation(
                name: "text", params: [Param(name: "text", value: .string("  spaced\n\"quoted\" \u{0} é "))]),
        ])

    static let custom = ResolvedInstance(
        id: "chat_bubble", component: "chatbubble",
        operations: [
            ResolvedOperation(
                name: "layout",
                params: [
                    Param(name: "origin", value: .point(Point(x: -1.5, y: 2))),
                    Param(name: "size", value: .size(Size(width: 10, height: 20))),
                    Param(name: "fallbackFont", value: .font(Font(family: "System", size: nil, letterSpacing: 0))),
                    Param(
                        name: "steps",
                        value: .array([
                            .float(0.25), .array([.integer(1), .array([.bool(false)]), .string("x")]), .array([]),
                            .image(ImageReference(name: "icon")),
                        ])),
                ]),
            ResolvedOperation(name: "empty", state: "disabled", params: []),
        ])

    static let ipadOnly = ResolvedInstance(
        id: "sidebar", component: "uiview",
        operations: [
            ResolvedOperation(name: "alpha", params: [Param(name: "value", value: .float(0.5))])
        ])

    static let assets = AssetCatalog(
        searchOrder: ["com.acme.dark", "com.acme.base"],
        variants: [
            AssetVariant(name: "bubble", themeID: "com.acme.base", file: "assets/bubble.png"),
            AssetVariant(name: "bubble", themeID: "com.acme.base", file: "assets/bubble@2x.png", scale: 2),
            AssetVariant(
                name: "bubble", themeID: "com.acme.dark", file: "assets/bubble@3x~ipad.png",
                qualifiers: TraitSet(idiom: .ipad), scale: 3),
            AssetVariant(
                name: "icon", themeID: "com.acme.dark", file: "assets/icon~dark~highcontrast.png",
                qualifiers: TraitSet(appearance: .dark, contrast: .highcontrast)),
            AssetVariant(name: "icon", themeID: "com.acme.base", file: "assets/icon.png"),
        ])

    static let theme: ThemeVariants = {
        let axes = TraitAxes(idioms: [.ipad], appearances: [.dark], contrasts: [.highcontrast])
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        for traits in axes.traitSets {
            var instances = [custom, label]
            let red = Color(red: 1, green: 0, blue: 0)
            let darkRed = Color(red: 0.5, green: 0.1, blue: 0.2, alpha: 0.75)
            instances.append(
                button(
                    traits.appearance == .dark ? darkRed : red,
                    title: traits.contrast == nil ? "Cancel" : "CANCEL"))
            if traits.idiom == .ipad { instances.append(ipadOnly) }
            variants[traits] = instances.sorted { $0.id < $1.id }
        }
        var uses: [TraitSet: [ChoiceUse]] = [:]
        for traits in axes.traitSets where traits.contrast == nil {
            uses[traits] = choiceUses(dark: traits.appearance == .dark)
        }
        return ThemeVariants(
            info: dark, ancestors: [base], axes: axes, variants: variants, assets: assets,
            choices: ChoiceTable(
                constants: [
                    ChoiceConstant(name: "radius", type: .float), ChoiceConstant(name: "accent", type: .color),
                    ChoiceConstant(name: "alignment", type: .enumeration),
                ],
                uses: uses))
    }()

    /// Personal choices of every kind of node: a constant, a colour derived from one with every
    /// modifier, an array holding one, an enumeration with allowed values. (Their values do not
    /// follow from the instances: the format stores what it is given.)
    static func choiceUses(dark: Bool) -> [ChoiceUse] {
        let radius = ChoiceExpression.constant(name: "radius", type: .float, otherwise: .literal(.float(8)))
        let accent = ChoiceExpression.constant(
            name: "accent", type: .color,
            otherwise: .literal(
                .color(dark ? Color(red: 0.5, green: 0.1, blue: 0.2) : Color(red: 1, green: 0, blue: 0))))
        return [
            ChoiceUse(id: "button_cancel_action", operation: 0, param: "radius", expression: radius),
            ChoiceUse(
                id: "button_cancel_action", operation: 1, param: "color",
                expression: .derived(
                    base: accent,
                    modifiers: ChoiceModifiers(
                        shift: .mix(.literal(.color(Color(red: 1, green: 1, blue: 1))), amount: 0.25), alpha: 0.75,
                        contrast: .init(background: accent, minimumRatio: 4.5), space: .lch))),
            ChoiceUse(
                id: "chat_bubble", operation: 0, param: "steps",
                expression: .array([.literal(.float(0.25)), radius, .literal(.array([.integer(1)]))]),
                elementType: nil),
            ChoiceUse(
                id: "title_label", operation: 1, param: "alignment",
                expression: .constant(
                    name: "alignment", type: .enumeration, otherwise: .literal(.enumeration("center"))),
                allowedValues: ["left", "center", "right"]),
            ChoiceUse(
                id: "title_label", operation: 0, param: "tint",
                expression: .derived(base: accent, modifiers: ChoiceModifiers(shift: .darken(0.1), space: .hsl))),
        ]
    }

    static let contents: CompiledThemeContents = {
        var bytes: [AssetFileKey: [UInt8]] = [:]
        for (index, variant) in assets.variants.enumerated() {
            bytes[variant.fileKey] =
                Array("PNG \(variant.file)".utf8) + [UInt8](repeating: UInt8(index), count: index * 3)
        }
        let digest = SourceDigest(bytes: (0..<32).map { UInt8($0 * 7 % 256) })!
        return CompiledThemeContents(theme: theme, sourceDigests: ["com.acme.dark": digest], assetBytes: bytes)
    }()

    /// Every trait set an app could run with, including values the theme never mentions.
    static let allTraitSets: [TraitSet] = TraitAxes.all.traitSets

    /// The smallest theme: one variant, one instance, no parent, no assets.
    static let tiny = CompiledThemeContents(
        theme: ThemeVariants(
            info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: TraitAxes(),
            variants: [
                .none: [
                    ResolvedInstance(
                        id: "a", component: "uiview",
                        operations: [
                            ResolvedOperation(name: "alpha", params: [Param(name: "value", value: .float(1))])
                        ])
                ]
            ],
            assets: .empty))

    /// `instances` instances of two operations each, every value different: big enough that one
    /// instance's records are a small part of the file (`wide_000000`, `wide_000001`, ...).
    static func wide(instances: Int) -> ThemeVariants {
        let list = (0..<instances).map { index -> ResolvedInstance in
            let number = String(index)
            let id = "wide_" + String(repeating: "0", count: max(0, 6 - number.count)) + number
            return ResolvedInstance(
                id: id, component: "uilabel",
                operations: [
                    ResolvedOperation(
                        name: "textColor",
                        params: [
                            Param(
                                name: "color",
                                value: .color(
                                    Color(red: Double(index % 256) / 255, green: 0.5, blue: Double(index / 256) / 255)))
                        ]),
                    ResolvedOperation(name: "text", params: [Param(name: "value", value: .string("text " + number))]),
                ])
        }
        return ThemeVariants(
            info: ThemeInfo(id: "wide", name: "Wide"), ancestors: [], axes: TraitAxes(),
            variants: [.none: list], assets: .empty)
    }
}
