// Checks for the fuzz entries that keep their message in optimised builds (`precondition` drops it
// under -O, which the fuzzers use). Linked into Tests/LiveryTokensTests/Fuzz as well.
enum FuzzCheck {
    static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError(message()) }
    }
}
