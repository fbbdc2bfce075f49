import LiveryModel

/// The constant names of a chain, sorted and numbered once per resolver, so that a pass keeps
/// its constants, their values and what computing them read in arrays indexed by number, not in
/// tables keyed by name that every pass fills and hashes again (bench-brands.py, validate).
struct ConstantNames {
    /// Every constant name the chain defines, sorted: a name's number is its index.
    let names: [String]
    private let numbers: [String: Int]
    /// Per file of the chain, the number of each of its constants, in order.
    let perFile: [[Int]]

    init(files: [ConfigurationFile]) {
        names = Set(files.lazy.flatMap(\.constants).map(\.name)).sorted()
        var numbers: [String: Int] = [:]
        numbers.reserveCapacity(names.count)
        for (number, name) in names.enumerated() { numbers[name] = number }
        self.numbers = numbers
        perFile = files.map { file in file.constants.map { numbers[$0.name]! } }
    }

    /// The number of `name`, or nil when the chain defines no constant of that name.
    func number(of name: String) -> Int? { numbers[name] }
}

/// A pass's final definition of each constant of the chain, by number (`ConstantNames`).
struct ConstantTable {
    let names: ConstantNames
    private var definitions: [ConstantSyntax?]

    init(names: ConstantNames) {
        self.names = names
        definitions = Array(repeating: nil, count: names.names.count)
    }

    subscript(number: Int) -> ConstantSyntax? {
        get { definitions[number] }
        set { definitions[number] = newValue }
    }

    /// The definition of `name` this pass finds.
    subscript(name: String) -> ConstantSyntax? {
        names.number(of: name).flatMap { definitions[$0] }
    }

    /// The names this pass finds a definition of, sorted, with their numbers.
    var defined: [(number: Int, name: String)] {
        names.names.indices.compactMap { definitions[$0] == nil ? nil : ($0, names.names[$0]) }
    }

    /// The definitions this pass finds, in the order of their names.
    var all: some Sequence<ConstantSyntax> { definitions.lazy.compactMap { $0 } }
}
