import LiveryModel

/// The names a chain defines of one kind (its constants, its classes), sorted and numbered once
/// per resolver, so that a pass keeps its definitions, and what it works out from them, in
/// arrays indexed by number, not in tables keyed by name that every pass fills and hashes again
/// (bench-brands.py, validate).
struct DefinitionNames {
    /// Every name defined, sorted: a name's number is its index.
    let names: [String]
    private let numbers: [String: Int]
    /// Per file of the chain, the number of each of its definitions, in order.
    let perFile: [[Int]]

    /// Numbers the names each file of a chain defines, given in file order.
    init(perFile fileNames: [[String]]) {
        names = Set(fileNames.joined()).sorted()
        var numbers: [String: Int] = [:]
        numbers.reserveCapacity(names.count)
        for (number, name) in names.enumerated() { numbers[name] = number }
        self.numbers = numbers
        perFile = fileNames.map { names in names.map { numbers[$0]! } }
    }

    /// The number of `name`, or nil when the chain defines nothing of that name.
    func number(of name: String) -> Int? { numbers[name] }
}

/// A pass's final definition of each name of one kind, by number (`DefinitionNames`).
struct DefinitionTable<Definition> {
    let names: DefinitionNames
    private var definitions: [Definition?]

    init(names: DefinitionNames) {
        self.names = names
        definitions = Array(repeating: nil, count: names.names.count)
    }

    subscript(number: Int) -> Definition? {
        get { definitions[number] }
        set { definitions[number] = newValue }
    }

    /// The definition of `name` this pass finds.
    subscript(name: String) -> Definition? {
        names.number(of: name).flatMap { definitions[$0] }
    }

    /// The names this pass finds a definition of, sorted, with their numbers.
    var defined: [(number: Int, name: String)] {
        names.names.indices.compactMap { definitions[$0] == nil ? nil : ($0, names.names[$0]) }
    }

    /// The definitions this pass finds, in the order of their names.
    var all: some Sequence<Definition> { definitions.lazy.compactMap { $0 } }
}
