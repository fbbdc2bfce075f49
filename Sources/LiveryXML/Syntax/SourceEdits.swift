import LiveryModel

/// Edits of a source file for fixes, made from byte offsets the parser knows.
extension SourceText {
    /// An edit removing the bytes `range`. When they stand alone on their lines, the blanks before
    /// them and the line end after them go too, so that no empty line is left behind.
    func removal(of range: Range<Int>) -> Diagnostic.Fix.Edit {
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var lower = range.lowerBound
        var upper = range.upperBound
        var start = lower
        while start > 0, isBlank(bytes[start - 1]) { start -= 1 }
        var end = upper
        while end < bytes.count, isBlank(bytes[end]) { end += 1 }
        let startsLine = start == 0 || bytes[start - 1] == UInt8(ascii: "\n")
        let endsLine = end == bytes.count || bytes[end] == UInt8(ascii: "\n") || bytes[end] == UInt8(ascii: "\r")
        if startsLine, endsLine {
            lower = start
            upper = end
            if upper < bytes.count, bytes[upper] == UInt8(ascii: "\r") { upper += 1 }
            if upper < bytes.count, bytes[upper] == UInt8(ascii: "\n") { upper += 1 }
        }
        return Diagnostic.Fix.Edit(
            at: location(at: lower), replacing: String(decoding: bytes[lower..<upper], as: UTF8.self), with: "")
    }

    /// An edit inserting `text` at a byte offset.
    func insertion(_ text: String, at offset: Int) -> Diagnostic.Fix.Edit {
        Diagnostic.Fix.Edit(at: location(at: offset), replacing: "", with: text)
    }

    /// The blanks that start the line holding a byte offset.
    func indentation(ofLineAt offset: Int) -> String {
        var start = min(offset, bytes.count)
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Whether only blanks stand between the start of its line and a byte offset.
    func startsItsLine(_ offset: Int) -> Bool {
        var index = min(offset, bytes.count)
        while index > 0, bytes[index - 1] == UInt8(ascii: " ") || bytes[index - 1] == UInt8(ascii: "\t") { index -= 1 }
        return index == 0 || bytes[index - 1] == UInt8(ascii: "\n")
    }
}
