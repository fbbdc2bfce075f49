import Livery
import LiveryModel
import Testing

@MainActor @Suite struct DiagnosticHookTests {
    func finding(_ n: Int) -> Diagnostic {
        .error(.runtimeUnknownIdentifier, "no instance 'view_\(n)'", at: nil)
    }

    @Test func aFindingIsDeliveredOncePerKey() {
        let hook = DiagnosticHook(capacity: 10)
        var delivered: [String] = []
        let token = hook.observe { delivered.append($0.message) }
        for _ in 0..<3 { hook.report(finding(1), key: "identifier|view_1") }
        hook.report(finding(2), key: "identifier|view_2")
        #expect(delivered == ["no instance 'view_1'", "no instance 'view_2'"])
        #expect(hook.reported.count == 2)
        token.cancel()
    }

    /// The hook remembers at most `capacity` keys: after more distinct findings than that, the
    /// oldest is forgotten and delivered again when it recurs, while a recent one is not.
    @Test func itsMemoryIsBounded() {
        let hook = DiagnosticHook(capacity: 4)
        var delivered = 0
        let token = hook.observe { _ in delivered += 1 }
        for n in 0..<1000 { hook.report(finding(n), key: "identifier|view_\(n)") }
        #expect(delivered == 1000)
        #expect(hook.reported.count == 4)
        #expect(hook.reported.last?.message == "no instance 'view_999'")
        hook.report(finding(999), key: "identifier|view_999")
        #expect(delivered == 1000, "a recent finding is not delivered twice")
        hook.report(finding(0), key: "identifier|view_0")
        #expect(delivered == 1001, "a finding older than the memory is delivered again")
        token.cancel()
    }
}
