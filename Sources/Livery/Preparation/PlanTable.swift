import LiveryModel

/// Apply plans towards the instances of one prepared theme, computed lazily: per instance from
/// one other prepared theme (a switch), or per shape from nothing (a full apply to a new
/// component; see `PreparedInstance.shape`).
/// Prepared themes are cached, so toggling between two themes or trait sets finds its plans
/// here instead of diffing every identifier again.
@MainActor
final class PlanTable {
    /// The token of the theme the plans start from; nil for full-apply plans and once that
    /// theme is gone. (A weak reference to the theme itself would give it a side table, and
    /// every retain and release of it would take the runtime's slow path.)
    weak var from: PreparedTheme.Token?
    let isFullApply: Bool
    // Invariant that makes the unchecked accesses safe: appended to while plans are computed,
    // read by index in apply passes (never through a pointer kept across a setter call, which
    // may re-enter the applicator), on the main actor: no access here overlaps another.
    /// Where each plan starts in `steps`, by instance (shape), `PlanTable.none` where none is
    /// computed yet; `plan(_:)` is the typed view.
    @exclusivity(unchecked) private var start: ContiguousArray<Int32> = []
    @exclusivity(unchecked) private var count: ContiguousArray<Int32> = []
    @exclusivity(unchecked) var steps: ContiguousArray<PlanStep> = []
    /// Full-apply plans: the layout of the originals each plan records, by shape
    /// (`PlanTable.none`: none).
    @exclusivity(unchecked) private var layouts: ContiguousArray<Int32> = []

    /// The stored value of a plan not computed, or of a missing layout.
    nonisolated static let none: Int32 = -1

    init(from: PreparedTheme?, isFullApply: Bool) {
        self.from = from?.token
        self.isFullApply = isFullApply
    }

    /// The plan of a prepared instance, if computed.
    @inline(__always)
    func plan(_ instance: PreparedInstanceID) -> Range<Int>? { plan(number: instance.rawValue) }

    /// The full-apply plan of an instance shape (`PreparedInstance.shape`), if computed.
    func plan(shape: ShapeNumber) -> Range<Int>? { plan(number: shape.rawValue) }

    @inline(__always)
    private func plan(number: Int32) -> Range<Int>? {
        guard Int(number) < start.count, start[Int(number)] != Self.none else { return nil }
        let first = Int(start[Int(number)])
        return first..<first + Int(count[Int(number)])
    }

    /// The layout of originals of a full-apply plan that is computed.
    func layout(shape: ShapeNumber) -> LayoutID? {
        let layout = layouts[shape.index]
        return layout == Self.none ? nil : LayoutID(rawValue: layout)
    }

    /// Takes plans computed on another thread, their keys mapped through `keyMap` to the
    /// applicator's (nil: they are the applicator's already).
    func adopt(_ contents: PlanContents, keyMap: ContiguousArray<OperationKeyNumber>?) {
        start = contents.start
        count = contents.count
        layouts = ContiguousArray(repeating: Self.none, count: contents.start.count)
        steps = contents.steps
        guard let keyMap else { return }
        steps.withUnsafeMutableBufferPointer { steps in
            for index in steps.indices { steps[index].key = keyMap[steps[index].key.index] }
        }
    }

    /// Records the steps appended since `first` as the plan of `instance`.
    func finish(_ instance: PreparedInstanceID, first: Int) -> Range<Int> {
        finish(number: instance.rawValue, first: first, layout: nil)
    }

    /// Records the steps appended since `first` as the full-apply plan of `shape`, recording
    /// originals in `layout`.
    func finish(shape: ShapeNumber, first: Int, layout: LayoutID?) -> Range<Int> {
        finish(number: shape.rawValue, first: first, layout: layout)
    }

    private func finish(number: Int32, first: Int, layout: LayoutID?) -> Range<Int> {
        let index = Int(number)
        if index >= start.count {
            // Geometric: plans are mostly made for instances in the order they were prepared.
            let missing = max(index + 1 - start.count, start.count, 16)
            start.append(contentsOf: repeatElement(Self.none, count: missing))
            count.append(contentsOf: repeatElement(0, count: missing))
            layouts.append(contentsOf: repeatElement(Self.none, count: missing))
        }
        start[index] = Int32(first)
        count[index] = Int32(steps.count - first)
        layouts[index] = layout?.rawValue ?? Self.none
        return first..<steps.count
    }
}

/// The plan tables towards one prepared theme's instances: one per theme switched from, and
/// the full-apply plans.
@MainActor
struct PlanCache {
    private var tables: [PlanTable] = []
    let fullApply = PlanTable(from: nil, isFullApply: true)

    /// The plans from `other`, created on first use with room for `capacity` steps: when
    /// everything changes, a table gets about a step per operation of the theme (reverts may
    /// add more, and then the array grows as usual).
    mutating func table(from other: PreparedTheme, reserving capacity: Int) -> PlanTable {
        for table in tables where table.from === other.token { return table }
        tables.removeAll { $0.from == nil }  // themes evicted from the cache
        let table = PlanTable(from: other, isFullApply: false)
        table.steps.reserveCapacity(capacity)
        tables.append(table)
        return table
    }
}
