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

    /// The first broken comment of the file, reading the markup as XML does (`MarkupTokens`:
    /// CDATA sections and processing instructions are read through); nil when every comment is
    /// well formed or the first problem is of another kind (`--` alone in a comment, libxml2's
    /// own message).
    static func firstProblem(in bytes: [UInt8]) -> Problem? {
        let dash = UInt8(ascii: "-")
        for token in MarkupTokens(bytes) where token.kind == .comment {
            // the first `--` after `<!--` other than the closing `-->`
            let closing = token.closed ? token.range.upperBound - 3 : bytes.count
            var cursor = token.range.lowerBound + 4
            while cursor + 1 < token.range.upperBound {
                if bytes[cursor] == dash, bytes[cursor + 1] == dash, cursor != closing {
                    if cursor >= 2, bytes[(cursor - 2)..<cursor].elementsEqual("<!".utf8) {
                        return .nested(outer: token.range.lowerBound, inner: cursor - 2)
                    }
                    return nil
                }
                cursor += 1
            }
            if !token.closed { return .unclosed(open: token.range.lowerBound) }
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
