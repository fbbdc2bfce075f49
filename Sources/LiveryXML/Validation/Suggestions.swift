/// "did you mean ...?" for names a designer mistyped.
enum Suggestions {
    /// The closest candidate within a small edit distance, as a sentence ending, or "".
    static func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String {
        guard let best = closest(to: name, in: candidates) else { return "" }
        return "; did you mean '\(best)'?"
    }

    static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        let lowered = Array(name.lowercased())
        var best: (distance: Int, name: String)?
        for candidate in candidates {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            let limit = max(1, min(3, candidate.count / 3))
            if distance <= limit, best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.name) {
                best = (distance, candidate)
            }
        }
        return best?.name
    }

    /// Levenshtein distance with one row of memory.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = a[i - 1] == b[j - 1] ? diagonal : 1 + min(diagonal, above, row[j - 1])
                diagonal = above
            }
        }
        return row[b.count]
    }
}
