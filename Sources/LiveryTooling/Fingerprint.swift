import LiveryModel

/// A finding's identity that does not depend on its line number: the code, the file, the message
/// with places in it (`Chat.xml:3:5`) removed, and the text of the line it points at. Stable when
/// lines are inserted above; changes when the finding's own line or message changes. Baselines
/// match on it and SARIF carries it as a partial fingerprint.
public enum Fingerprint {
    public static func of(_ diagnostic: Diagnostic, lines: SourceLines) -> String {
        var text =
            diagnostic.code.rawValue + "\u{0}" + (diagnostic.location?.file ?? "") + "\u{0}"
            + withoutPlaces(diagnostic.message) + "\u{0}"
        if let location = diagnostic.location, let line = location.line,
            let source = lines.line(line, of: location.file)
        {
            text += source.trimmingWhitespace()
        }
        // FNV-1a, 64 bits: not a security boundary, only a stable name for a finding.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `:12` and `:12:5` after a file name are dropped: a message that cites another place
    /// ("first at Chat.xml:3:5") keeps its fingerprint when that place moves.
    static func withoutPlaces(_ message: String) -> String {
        var result = ""
        var characters = Array(message)[...]
        while let character = characters.first {
            characters = characters.dropFirst()
            if character == ":", let digit = characters.first, digit.isASCII, digit.isNumber {
                characters = characters.drop { $0.isASCII && ($0.isNumber || $0 == ":") }
                continue
            }
            result.append(character)
        }
        return result
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
