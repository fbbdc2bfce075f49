// The sizes, layout and codes of the optional `CHOI` section, which the writer, verifier and reader share.
// `CHOI` holds what a theme's personal choices change (format 1.3, section 9.2), so that a theme
// launched from its compiled file takes a user's value with the same result as from its folder.
// docs/BinaryFormat.md describes every byte; keep the two in step.
import LiveryModel

extension Format {
    static let choicesHeaderSize = 32
    static let choiceConstantSize = 8
    static let choiceNodeSize = 48
    static let choiceVariantSize = 8
    static let choiceEntrySize = 12
    static let choiceUseSize = 24
    /// Deepest expression a reader accepts: evaluation recurses once per level.
    static let maxChoiceDepth = 512
}

/// Where the parts of `CHOI` are (absolute offsets), once verified.
struct ChoiceLayout {
    var present = false
    var constantCount = 0
    var constants = 0
    var literalCount = 0
    var literals = 0
    var nodeCount = 0
    var nodes = 0
    var childCount = 0
    var children = 0
    var variants = 0
    var entryCount = 0
    var entries = 0
    var useCount = 0
    var uses = 0
    var allowedCount = 0
    var allowed = 0
}

/// Node kinds, each written down.
enum ChoiceNodeKind: UInt8 {
    case literal = 1
    case constant = 2
    case array = 3
    case derived = 4
}

extension ModifierSpace {
    var diskCode: UInt8 {
        switch self {
        case .srgb: 0
        case .hsl: 1
        case .lch: 2
        }
    }

    init?(diskCode: UInt8) {
        switch diskCode {
        case 0: self = .srgb
        case 1: self = .hsl
        case 2: self = .lch
        default: return nil
        }
    }
}
