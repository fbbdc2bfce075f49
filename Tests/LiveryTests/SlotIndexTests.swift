import Testing

@testable import Livery

/// The registry's address table against `Dictionary` as the model: insertions, updates and
/// removals in a long random sequence (removal shifts entries back, the part that can break).
@Suite struct SlotIndexTests {
    final class Object {}

    /// Registering a component writes one slot, its originals record included: a slot that
    /// grows past 64 bytes shows in `livery-switch-bench --profile-register`.
    @Test func aSlotIsSixtyFourBytes() {
        #expect(MemoryLayout<SlotStorage.Slot>.stride == 64)
    }

    @Test func agreesWithADictionaryThroughInsertsUpdatesAndRemovals() {
        let objects = (0..<3_000).map { _ in Object() }
        let index = SlotIndex()
        var model: [ObjectIdentifier: ComponentSlot] = [:]
        var generator = SystemRandomNumberGenerator()
        for step in 0..<40_000 {
            let object = ObjectIdentifier(objects[Int.random(in: 0..<objects.count, using: &generator)])
            if Int.random(in: 0..<3, using: &generator) == 0 {
                index.remove(object)
                model[object] = nil
            } else {
                index.set(ComponentSlot(step), for: object)
                model[object] = ComponentSlot(step)
            }
            if step % 1_000 == 0 {
                for candidate in objects.prefix(500) {
                    let id = ObjectIdentifier(candidate)
                    #expect(index[id] == model[id])
                }
            }
        }
        #expect(index.count == model.count)
        for candidate in objects {
            let id = ObjectIdentifier(candidate)
            #expect(index[id] == model[id])
        }
        for (id, _) in model { index.remove(id) }
        #expect(index.count == 0)
        #expect(objects.allSatisfy { index[ObjectIdentifier($0)] == nil })
    }
}
