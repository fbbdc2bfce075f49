/// What the tools need to know about one value type, answered once for every type in
/// `ValueType.descriptor`: its XML element and attributes (which the front end decodes and the
/// language server completes), how its element holds the value, the completion snippet and the
/// studio editor's fields. A new `ValueType` case stops the build at that table, and at each
/// exhaustive switch that answers for a type in code rather than data (docs/Design.md lists them).
public struct ValueTypeDescriptor: Sendable {
    /// How an element of the type holds its value.
    public enum Content: Hashable, Sendable {
        /// Text, white space around it ignored; `kind` says what the text is.
        case text(ValueSlotKind)
        /// Text of which every character counts, white space included (a string).
        case verbatimText
        /// No text: the attributes are the value (a font).
        case attributes
        /// Typed elements, one per item (an array).
        case elements
    }

    /// The type described.
    public let type: ValueType
    /// How the element holds the value.
    public let content: Content
    /// The attributes the element may carry for its value, in the order completion and the
    /// studio offer them. Not `name`, `ref` or `overridable`, which belong to where it is written.
    public let attributes: [ValueAttribute]
    /// The text the completion snippet starts the content with, LSP placeholders included
    /// (`${1:#000000}`); nil for a type whose content is not text or is a choice of words.
    let textPlaceholder: String?
    /// The names of `attributes`.
    public let attributeNames: [String]
    /// The names of the attributes that derive a value from the one written (a colour's
    /// modifiers, format 1.3 section 9.1).
    public let modifierNames: [String]

    init(type: ValueType, content: Content, attributes: [ValueAttribute], textPlaceholder: String?) {
        self.type = type
        self.content = content
        self.attributes = attributes
        self.textPlaceholder = textPlaceholder
        self.attributeNames = attributes.map(\.name)
        self.modifierNames = attributes.filter(\.isModifier).map(\.name)
    }

    /// The XML element (`<color>`), the key of the value's canonical JSON object and of its saved
    /// form: the type's raw value.
    public var elementName: String { type.rawValue }

    /// The attribute named `name`, if the type has it.
    public func attribute(_ name: String) -> ValueAttribute? { attributes.first { $0.name == name } }

    /// Whether white space around the text is part of the value.
    public var keepsWhiteSpace: Bool { content == .verbatimText }

    /// The studio editor's fields, in order: the content, or for a type written as attributes,
    /// each attribute that is not a modifier.
    public var editorFields: [ValueField] {
        switch content {
        case .text(let kind): [ValueField(slot: "content", kind: kind)]
        case .verbatimText, .elements: [ValueField(slot: "content", kind: .text)]
        case .attributes:
            attributes.filter { !$0.isModifier }.map { ValueField(slot: $0.name, kind: $0.kind, presence: $0.presence) }
        }
    }

    /// The completion snippet of an element of this type, from `<` on, with LSP placeholders.
    /// `words` are the values an enum param allows (from the schema), if any.
    public func snippet(words: [String]? = nil) -> String {
        let name = elementName
        switch content {
        case .attributes:
            var number = 0
            let written = attributes.compactMap { attribute -> String? in
                guard let example = attribute.example else { return nil }
                number += 1
                return " \(attribute.name)=\"${\(number):\(example)}\""
            }
            return "<\(name)\(written.joined())/>"
        case .text(.words(let fixed)):
            return "<\(name)>${1|\(fixed.joined(separator: ","))|}</\(name)>"
        case .text(.schemaWords):
            let list = (words ?? []).joined(separator: ",")
            return list.isEmpty ? "<\(name)>$1</\(name)>" : "<\(name)>${1|\(list)|}</\(name)>"
        default:
            return "<\(name)>\(textPlaceholder ?? "$1")</\(name)>"
        }
    }
}

/// What a value's text or one of its attributes takes: what completion offers for it and the
/// studio edits it with.
public enum ValueSlotKind: Hashable, Sendable {
    /// Free text (a font family, a string).
    case text
    /// A number.
    case number
    /// A colour literal.
    case color
    /// A colour literal or a colour constant's name (`mix`, `contrast-with`).
    case colorOperand
    /// One of these words.
    case words([String])
    /// One of the words the param's schema allows (an enum).
    case schemaWords
    /// The name of one of the theme's images.
    case assetName

    /// `true` or `false`.
    public static let flag = ValueSlotKind.words(["true", "false"])
}

/// What leaving an attribute out means.
public enum ValuePresence: Hashable, Sendable {
    /// The element needs it (a font's family).
    case required
    /// Left out, it takes a default value (a font's weight is `regular`).
    case defaulted
    /// Left out, it is absent, kept apart from every value (a font's `scaling`).
    case optional
}

/// An attribute of a typed element that is part of its value.
public struct ValueAttribute: Hashable, Sendable {
    /// The attribute's name as written (`letter-spacing`).
    public let name: String
    /// What its value is.
    public let kind: ValueSlotKind
    /// What leaving it out means.
    public let presence: ValuePresence
    /// Whether it derives the value from the one written rather than describing it.
    public let isModifier: Bool
    /// The value a completion snippet writes for it; nil to leave it out of the snippet.
    public let example: String?

    init(
        _ name: String, _ kind: ValueSlotKind, _ presence: ValuePresence = .optional, modifier: Bool = false,
        example: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.presence = presence
        self.isModifier = modifier
        self.example = example
    }
}

/// One field of the studio's editor for a value: the slot it writes (`content` or an attribute)
/// and what it takes.
public struct ValueField: Hashable, Sendable {
    /// `content`, or the name of the attribute it writes.
    public let slot: String
    /// What the field takes.
    public let kind: ValueSlotKind
    /// Whether the field may be left empty, and what that means.
    public let presence: ValuePresence

    /// A field writing `slot`, taking `kind`; `presence` says whether it may be left empty.
    public init(slot: String, kind: ValueSlotKind, presence: ValuePresence = .required) {
        self.slot = slot
        self.kind = kind
        self.presence = presence
    }
}

extension ValueType {
    /// The type whose element is `name`, or nil when `name` is no typed element.
    public init?(elementName name: String) { self.init(rawValue: name) }

    /// This type's answers (built once).
    public var descriptor: ValueTypeDescriptor { Self.descriptors[self]! }

    private static let descriptors = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.makeDescriptor()) })

    /// Every type's answers, in one exhaustive switch: a new case does not compile until it has one.
    private func makeDescriptor() -> ValueTypeDescriptor {
        switch self {
        case .float: ValueTypeDescriptor(type: self, content: .text(.number), attributes: [], textPlaceholder: nil)
        case .integer: ValueTypeDescriptor(type: self, content: .text(.number), attributes: [], textPlaceholder: nil)
        case .bool: ValueTypeDescriptor(type: self, content: .text(.flag), attributes: [], textPlaceholder: nil)
        case .string: ValueTypeDescriptor(type: self, content: .verbatimText, attributes: [], textPlaceholder: nil)
        case .color:
            ValueTypeDescriptor(
                type: self, content: .text(.color),
                attributes: [
                    ValueAttribute("format", .words(["hex", "rgb", "rgba"]), .defaulted),
                    // The modifiers (format 1.3, section 9.1).
                    ValueAttribute("lighten", .number, modifier: true),
                    ValueAttribute("darken", .number, modifier: true),
                    ValueAttribute("mix", .colorOperand, modifier: true),
                    ValueAttribute("amount", .number, modifier: true),
                    ValueAttribute("alpha", .number, modifier: true),
                    ValueAttribute("contrast-with", .colorOperand, modifier: true),
                    ValueAttribute("min-ratio", .number, modifier: true),
                    ValueAttribute("space", .words(ModifierSpace.allCases.map(\.rawValue)), .defaulted, modifier: true),
                ],
                textPlaceholder: "${1:#000000}")
        case .point:
            ValueTypeDescriptor(type: self, content: .text(.text), attributes: [], textPlaceholder: "${1:0},${2:0}")
        case .size:
            ValueTypeDescriptor(type: self, content: .text(.text), attributes: [], textPlaceholder: "${1:0},${2:0}")
        case .rect:
            ValueTypeDescriptor(
                type: self, content: .text(.text), attributes: [], textPlaceholder: "${1:0},${2:0},${3:0},${4:0}")
        case .insets:
            ValueTypeDescriptor(
                type: self, content: .text(.text), attributes: [], textPlaceholder: "${1:0},${2:0},${3:0},${4:0}")
        case .font:
            // Adding a typography attribute is one entry here (and its field in `Font`).
            ValueTypeDescriptor(
                type: self, content: .attributes,
                attributes: [
                    ValueAttribute("family", .text, .required, example: "System"),
                    ValueAttribute("size", .number, example: "17"),
                    ValueAttribute("weight", .words(FontWeight.allCases.map(\.rawValue)), .defaulted),
                    ValueAttribute("max-size", .number),
                    ValueAttribute("scaling", .words(FontScaling.allCases.map(\.rawValue))),
                    ValueAttribute("letter-spacing", .number),
                    ValueAttribute("line-height", .number),
                ],
                textPlaceholder: nil)
        case .image:
            ValueTypeDescriptor(
                type: self, content: .text(.assetName), attributes: [ValueAttribute("cache", .flag, .defaulted)],
                textPlaceholder: nil)
        case .enumeration:
            ValueTypeDescriptor(type: self, content: .text(.schemaWords), attributes: [], textPlaceholder: nil)
        case .array: ValueTypeDescriptor(type: self, content: .elements, attributes: [], textPlaceholder: nil)
        }
    }
}
