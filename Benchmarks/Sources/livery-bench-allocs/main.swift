import BenchmarkSupport
import Foundation
import MallocInterposerSwift

// livery-bench-allocs COMPONENTS FOLDER: heap allocations of the runtime scenario, counted by
// ordo-one's malloc interposer (linked here, preloaded by livery-bench), printed as JSON. Kept
// out of livery-bench so the interposer's per-allocation cost never touches the timings.

let arguments = CommandLine.arguments
guard arguments.count == 3, let instances = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: livery-bench-allocs COMPONENTS FOLDER\n".utf8))
    exit(64)
}

/// Allocations made by `body`.
func allocations(_ body: () -> Void) -> Int {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.hook()
    body()
    MallocInterposerSwift.unhook()
    return MallocInterposerSwift.getStatistics().mallocCount
}

let active = allocations { keepAlive([Int](repeating: 1, count: 100)) } > 0
MainActor.assumeIsolated {
    do {
        let scenario = try RuntimeScenario(instances: instances, folder: arguments[2])
        var result: [String: Int] = ["active": active ? 1 : 0]
        _ = scenario.lookUpAll()
        result["lookups"] = allocations { keepAlive(scenario.lookUpAll()) }
        result["first_application"] = allocations { _ = scenario.applyFirstTime() }
        result["components"] = scenario.applicator.liveComponentCount()
        for kind in RuntimeScenario.Switch.allCases {
            scenario.warm(kind)
            result["switch_" + kind.rawValue] = allocations { scenario.perform(kind, forth: true) }
            scenario.perform(kind, forth: false)
        }
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    } catch {
        FileHandle.standardError.write(Data("livery-bench-allocs: \(error)\n".utf8))
        exit(1)
    }
}
