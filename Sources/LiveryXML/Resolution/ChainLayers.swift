import LiveryModel

/// The layers of a chain as bits, so that a kept reading is checked against another pass with
/// one comparison rather than a lookup per name it read, and a reading records a word rather
/// than the definitions it found (bench-brands.py, validate).
///
/// Which definition of a name a pass finds depends only on which of the files defining it apply:
/// so a reading holds in every pass where the same files, among those defining what it read,
/// apply as in the pass that made it. (Which constants are overridable, on which personal
/// choices and contrast guards depend, is decided by the files defining them: a reading depends
/// on a constant's overridability only by reading it.)
///
/// Files are numbered by their qualifier set (files with the same qualifiers apply together; a
/// file without qualifiers applies in every pass and needs no bit). A chain with more than 64
/// qualifier sets numbers the passes' sets of applying files instead, and every name reads every
/// bit: a reading then holds only where the same files apply.
struct ChainLayers {
    /// Per file of the chain, in order: its qualifier set's bit (0 for a file without qualifiers).
    private let fileBits: [UInt64]
    /// Per constant and per class number (`DefinitionNames`): the bits of the files defining it.
    private let constantBits: [UInt64]
    private let classBits: [UInt64]
    /// False when the chain has more than 64 qualifier sets (see the type's rule).
    let exact: Bool
    /// The numbers given to sets of applying files, when not `exact`.
    private var passNumbers: [[Bool]: UInt64] = [:]

    init(files: [ConfigurationFile], constants: DefinitionNames, classes: DefinitionNames) {
        var numbers: [TraitSet: UInt64] = [:]
        for file in files where file.qualifiers != TraitSet() && numbers[file.qualifiers] == nil {
            numbers[file.qualifiers] = UInt64(numbers.count)
        }
        exact = numbers.count <= 64
        let exact = exact
        let fileBits = files.map { file -> UInt64 in
            guard exact else { return ~0 }
            return numbers[file.qualifiers].map { 1 << $0 } ?? 0
        }
        self.fileBits = fileBits
        func bits(_ names: DefinitionNames) -> [UInt64] {
            var bits = Array(repeating: UInt64(0), count: names.names.count)
            for (file, numbers) in zip(fileBits, names.perFile) {
                for number in numbers { bits[number] |= file }
            }
            return bits
        }
        constantBits = bits(constants)
        classBits = bits(classes)
    }

    /// The bits of a pass where the files marked in `applies` apply.
    mutating func bits(applying applies: [Bool]) -> UInt64 {
        guard exact else {
            if let known = passNumbers[applies] { return known }
            let number = UInt64(passNumbers.count)
            passNumbers[applies] = number
            return number
        }
        var bits: UInt64 = 0
        for (file, applying) in zip(fileBits, applies) where applying { bits |= file }
        return bits
    }

    /// The bits of the files defining the constant numbered `number`.
    func bits(ofConstant number: Int) -> UInt64 { constantBits[number] }

    /// The bits of the files defining the class numbered `number`.
    func bits(ofClass number: Int) -> UInt64 { classBits[number] }
}
