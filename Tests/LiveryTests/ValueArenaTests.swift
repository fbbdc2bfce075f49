import LiveryModel
import Testing

@testable import Livery

/// A prepared theme's value storage: values that need deinitialising are destroyed exactly once
/// when the arena goes, through one destroyer per setter; trivial values record nothing.
@MainActor
@Suite struct ValueArenaTests {
    final class Counter: @unchecked Sendable {
        var destroyed = 0
    }

    final class Tracked {
        let counter: Counter
        init(_ counter: Counter) { self.counter = counter }
        deinit { counter.destroyed += 1 }
    }

    final class Target {
        var tracked: Tracked?
        var title = ""
        var width = 0.0
    }

    static func setters(counter: Counter) -> [String: OperationSetter] {
        var binding = ComponentBinding<Target>("target")
        // The general form: values stored with their state, so never trivial.
        binding.bind(
            "tracked", decode: { _, _ in Tracked(counter) }, get: { target, _ in target.tracked ?? Tracked(counter) },
            set: { target, value, _ in target.tracked = value })
        binding.bind("title", get: { $0.title }, set: { $0.title = $1 })
        binding.bind("width", get: { $0.width }, set: { $0.width = $1 })
        return binding.setters
    }

    static func operation(_ name: String, _ value: Value) -> ResolvedOperation {
        ResolvedOperation(name: name, params: [Param(name: "value", value: value)])
    }

    @Test func trivialValuesNeedNoDestroyer() {
        let setters = Self.setters(counter: Counter())
        #expect(setters["width"]!.destroyStored == nil)
        #expect(setters["title"]!.destroyStored != nil)
        #expect(setters["tracked"]!.destroyStored != nil)
        let arena = ValueArena()
        #expect(arena.destroyer(for: setters["width"]!) == nil)
    }

    @Test func oneDestroyerPerSetter() {
        let setters = Self.setters(counter: Counter())
        let arena = ValueArena()
        let title = arena.destroyer(for: setters["title"]!)
        let tracked = arena.destroyer(for: setters["tracked"]!)
        #expect(title != nil && tracked != nil && title != tracked)
        #expect(arena.destroyer(for: setters["title"]!) == title)
        #expect(arena.destroyer(for: setters["tracked"]!) == tracked)
    }

    @Test func destroysEveryAdoptedValueOnceWhenReleased() {
        let counter = Counter()
        let setters = Self.setters(counter: counter)
        var arena: ValueArena? = ValueArena()
        let count = 5_000  // several chunks
        var pointers: [UnsafeMutableRawPointer] = []
        for index in 0..<count {
            let (name, value): (String, Value) =
                switch index % 3 {
                case 0: ("tracked", .string("ignored"))
                case 1: ("title", .string("title \(index)"))
                default: ("width", .float(Double(index)))
                }
            let setter = setters[name]!
            let memory = arena!.allocate(size: setter.valueSize, alignment: setter.valueAlignment)
            #expect(Int(bitPattern: memory) % setter.valueAlignment == 0)
            #expect(setter.decodeInto(Self.operation(name, value), memory))
            arena!.adopt(memory, destroyer: arena!.destroyer(for: setter))
            pointers.append(memory)
        }
        // Values do not overlap and stay where they were written.
        for (index, memory) in pointers.enumerated() where index % 3 == 1 {
            #expect(memory.assumingMemoryBound(to: String.self).pointee == "title \(index)")
        }
        #expect(counter.destroyed == 0)
        arena = nil
        #expect(counter.destroyed == (count + 2) / 3)
    }
}
