import LiveryModel

/// Finds the comment a designer broke, where libxml2 only sees the consequence: a comment
/// holding another (commenting out a block that has a comment in it) ends at the inner
/// comment's `-->`, and libxml2 reports the inner `<!--`'s `--`; a comment never closed is
/// reported past the end of the file. Both are located here at the outer `<!--`, the place
/// to fix, with the other end in a note.
enum CommentCheck {
    enum Problem: Equatable {
        /// The comment opened at `outer` holds a `<!--` at `inner`.
        case nested(outer: Int, inner: Int)
        /// The comment opened at `open` is not closed before the end of the file.
        case unclosed(open: Int)
    }

    /// The first broken comment of the file, scanning as XML does: comments, CDATA sections
    /// and processing instructions are read through; nil when every comment is well formed or
    /// the first problem is of another kind (`--` alone in a comment, libxml2's own message).
    static func firstProblem(in bytes: [UInt8]) -> Problem? {
        let open = Array("<!--".utf8), cdata = Array("<![CDATA[".utf8)
        func starts(_ marker: [UInt8], at index: Int) -> Bool {
            index + marker.count <= bytes.count && bytes[index..<(index + marker.count)].elementsEqual(marker)
        }
        func find(_ marker: [UInt8], from index: Int) -> Int? {
            var index = index
            while index + marker.count <= bytes.count {
                if starts(marker, at: index) { return index }
                index += 1
            }
            return nil
        }
        let dash = UInt8(ascii: "-")
        var index = 0
        while index < bytes.count {
            if starts(open, at: index) {
                let start = index
                var cursor = index + open.count
                while true {
                    guard cursor + 1 < bytes.count else { return .unclosed(open: start) }
                    if bytes[cursor] == dash, bytes[cursor + 1] == dash {
                        if cursor + 2 < bytes.count, bytes[cursor + 2] == UInt8(ascii: ">") {
                            index = cursor + 3
                            break
                        }
                        if cursor >= 2, starts(open, at: cursor - 2) { return .nested(outer: start, inner: cursor - 2) }
                        return nil
                    }
                    cursor += 1
                }
            } else if starts(cdata, at: index) {
                guard let end = find(Array("]]>".utf8), from: index) else { return nil }
                index = end + 3
            } else if bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "?")
            {
                guard let end = find(Array("?>".utf8), from: index) else { return nil }
                index = end + 2
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The finding for `problem`, in the project's words.
    static func diagnostic(_ problem: Problem, in source: SourceText) -> Diagnostic {
        switch problem {
        case .nested(let outer, let inner):
            let innerLocation = source.location(at: inner)
            return .error(
                .xmlSyntax,
                "comments do not nest: this comment holds another <!-- (line \(innerLocation.line ?? 0)), and ends at that comment's -->; remove the inner comment's <!-- and -->, or end this comment before it",
                at: source.location(at: outer),
                notes: [Diagnostic.Note("the inner comment opens here", at: innerLocation)])
        case .unclosed(let open):
            return .error(
                .xmlSyntax,
                "this comment is never closed; end it with --> where the commented-out part ends",
                at: source.location(at: open),
                notes: [
                    Diagnostic.Note(
                        "the file ends here, still inside the comment",
                        at: source.location(at: max(source.bytes.count - 1, 0)))
                ])
        }
    }
}
