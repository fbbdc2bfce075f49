/// Text for XML and HTML documents.
public enum MarkupText {
    /// `text` with the five characters markup gives meaning to (`&`, `<`, `>`, `"`, `'`) written
    /// as entities: safe in element content and in attribute values quoted either way.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
