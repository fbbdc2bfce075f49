/// Small pieces of English the messages share.
enum Phrasing {
    /// The word with its indefinite article: "a float", "an integer", "an image". Initial 'u' takes
    /// "a" ("a uilabel", said "you-eye"); names and types here have no other such case.
    static func a(_ word: String) -> String {
        guard let first = word.lowercased().first else { return word }
        return ("aeio".contains(first) ? "an " : "a ") + word
    }
}
