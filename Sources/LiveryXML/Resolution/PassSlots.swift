import LiveryModel

/// Per operation slot, the params one pass resolved and what reading them read. The storage
/// goes from pass to pass of a resolver without being cleared: each entry is stamped with the
/// pass that wrote it, and an entry another pass wrote reads as absent (bench-brands.py,
/// validate: an array filled afresh for each pass cost the most of starting one, with two jobs).
struct PassSlots {
    typealias Entry = (params: [Param]?, reads: ResolutionReads)
    private var entries: [(pass: Int, entry: Entry)] = []
    /// The pass reading and writing, counted by this storage (entries stamped 0 were never
    /// written).
    private var pass = 0

    /// The storage for the next pass, with `count` slots: every entry reads as absent.
    mutating func startPass(count: Int) {
        if entries.count != count { entries = Array(repeating: (0, (nil, ResolutionReads())), count: count) }
        pass += 1
    }

    subscript(slot: Int) -> Entry? {
        get { entries[slot].pass == pass ? entries[slot].entry : nil }
        set {
            guard let newValue else { preconditionFailure("a pass's slot is set, never cleared") }
            entries[slot] = (pass, newValue)
        }
    }
}
