import LiveryModel

/// One operation of a resolved theme with its setter looked up in advance, so an apply pass
/// does no string lookups per component.
@MainActor
final class PreparedOperation {
    let operation: ResolvedOperation
    /// The interned identity (name, state): diffs compare numbers, not strings.
    let key: Int32
    let state: ControlState
    /// Nil when the binding has no setter for the operation (reported when applied).
    let setter: OperationSetter?
    /// The files the operation's images resolve to (nil without images): an image whose name
    /// is unchanged may still be another file after a theme, trait or scale change.
    let imageFiles: String?

    /// A hash of the params and image files: different hashes mean different effects.
    let valueHash: Int
    /// The setter with the value already decoded (nil for images and values that do not decode).
    let preparedCall: (@MainActor (AnyObject) -> Void)?

    init(operation: ResolvedOperation, key: Int32, setter: OperationSetter?, imageFiles: String?) {
        self.operation = operation
        self.key = key
        self.state = ControlState(rawValue: operation.state)
        self.setter = setter
        self.imageFiles = imageFiles
        var hasher = Hasher()
        hasher.combine(operation.params)
        hasher.combine(imageFiles)
        self.valueHash = hasher.finalize()
        self.preparedCall = imageFiles == nil ? setter?.prepare(operation) : nil
    }

    /// Whether applying `self` after `other` would change nothing.
    func sameEffect(as other: PreparedOperation) -> Bool {
        valueHash == other.valueHash && operation.params == other.operation.params && imageFiles == other.imageFiles
    }
}

@MainActor
final class PreparedInstance {
    let id: String
    let component: String
    let binding: ResolvedBinding?
    let operations: ContiguousArray<PreparedOperation>
    /// The operations' interned keys and value hashes, in the same order: a diff scans these
    /// plain numbers and touches an operation only when its key matches.
    let keys: ContiguousArray<Int32>
    let hashes: ContiguousArray<Int>
    /// The last diff computed towards this instance and the instance it started from.
    /// Prepared themes are cached, so toggling between two themes or trait sets (dark mode on,
    /// off, on) finds the diff here instead of recomputing it for every identifier.
    weak var diffSource: PreparedInstance?
    var diff: [Applicator.PendingChange] = []

    init(id: String, component: String, binding: ResolvedBinding?, operations: ContiguousArray<PreparedOperation>) {
        self.id = id
        self.component = component
        self.binding = binding
        self.operations = operations
        self.keys = ContiguousArray(operations.map(\.key))
        self.hashes = ContiguousArray(operations.map(\.valueHash))
    }
}

/// A resolved theme in the shape apply passes want: instances indexed by interned identifier
/// number, setters resolved. Built once per (theme, traits, scale, bindings) and cached, so
/// switching back and forth costs only the diff.
@MainActor
final class PreparedTheme {
    struct Key: Hashable {
        var themeID: String
        var traits: TraitSet
        var scale: Int
        var themeGeneration: Int
        var bindingGeneration: Int
    }

    let key: Key
    let theme: ResolvedTheme
    let images: ImageLoader
    private let instances: [PreparedInstance]
    /// Identifier number -> index into `instances`, or -1.
    private let instanceByIdentifier: [Int32]

    init(key: Key, theme: ResolvedTheme, images: ImageLoader, bindings: BindingTable,
         intern: (String) -> Int32, internOperation: (String, String) -> Int32) {
        self.key = key
        self.theme = theme
        self.images = images
        var prepared: [PreparedInstance] = []
        prepared.reserveCapacity(theme.instances.count)
        var numbers: [Int32] = []
        numbers.reserveCapacity(theme.instances.count)
        var bindingCache: [String: ResolvedBinding?] = [:]
        for instance in theme.instances {
            let binding: ResolvedBinding?
            if let cached = bindingCache[instance.component] {
                binding = cached
            } else {
                binding = bindings.binding(for: instance.component)
                bindingCache[instance.component] = binding
            }
            var operations = ContiguousArray<PreparedOperation>()
            operations.reserveCapacity(instance.operations.count)
            for operation in instance.operations {
                operations.append(PreparedOperation(
                    operation: operation,
                    key: internOperation(operation.name, operation.state),
                    setter: binding?.setters[operation.name],
                    imageFiles: Self.imageFiles(of: operation, images: images)))
            }
            prepared.append(PreparedInstance(id: instance.id, component: instance.component,
                                             binding: binding, operations: operations))
            numbers.append(intern(instance.id))
        }
        var table = [Int32](repeating: -1, count: Int(numbers.max() ?? -1) + 1)
        for (index, number) in numbers.enumerated() { table[Int(number)] = Int32(index) }
        self.instances = prepared
        self.instanceByIdentifier = table
    }

    func instance(identifier number: Int32) -> PreparedInstance? {
        guard number >= 0, Int(number) < instanceByIdentifier.count else { return nil }
        let index = instanceByIdentifier[Int(number)]
        return index < 0 ? nil : instances[Int(index)]
    }

    private static func imageFiles(of operation: ResolvedOperation, images: ImageLoader) -> String? {
        var files: [String] = []
        func collect(_ value: Value) {
            switch value {
            case .image(let reference):
                let variant = images.variant(reference)
                files.append(variant.map { "\($0.themeID):\($0.file)" } ?? "-")
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        operation.params.forEach { collect($0.value) }
        return files.isEmpty ? nil : files.joined(separator: "|")
    }
}
