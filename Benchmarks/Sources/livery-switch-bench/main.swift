import Foundation

// livery-switch-bench: registers 10,000 headless components and switches themes under them,
// printing timings (built in release by Scripts/bench.sh's callers; numbers depend on the machine).
//
//   livery-switch-bench                        # 100 and 10,000 identifiers, with and without preload
//   livery-switch-bench --profile-register     # registration of 100 identifiers, for a profiler
//   livery-switch-bench --profile-register-many  # one identifier per component
//   livery-switch-bench --profile-switch       # many warm switches and little else
//   livery-switch-bench --profile-switch-many  # the same, one identifier per component
//   livery-switch-bench --choice               # a personal choice changed on 10,000 components,
//                                              # 1,000 of which depend on it, beside the warm switch
//   livery-switch-bench --profile-choice       # the same, 2,000 changes of each kind, for a profiler
//   livery-switch-bench --count-allocations    # heap allocations per warm switch
//                                              # (Benchmarks/Scripts/count-allocations.sh preloads the counter)
// `--preload` prepares both themes ahead (`Applicator.preload`) in the profiling modes, as an
// app does at launch.

let arguments = CommandLine.arguments.dropFirst()
let preload = arguments.contains("--preload")
if arguments.contains("--profile-register") {
    await SwitchBenchmark.run(identifiers: 100, rounds: 8, switches: 1, preload: preload)
} else if arguments.contains("--profile-register-many") {
    await SwitchBenchmark.run(identifiers: 10_000, rounds: 1, switches: 1, preload: preload)
} else if arguments.contains("--profile-switch") {
    await SwitchBenchmark.run(identifiers: 100, rounds: 1, switches: 401, preload: preload)
} else if arguments.contains("--profile-switch-many") {
    await SwitchBenchmark.run(identifiers: 10_000, rounds: 1, switches: 41, preload: preload)
} else if arguments.contains("--profile-choice") {
    SwitchBenchmark.choice(changes: 2_000)
} else if arguments.contains("--choice") {
    SwitchBenchmark.choice()
} else if arguments.contains("--count-allocations") {
    await SwitchBenchmark.countAllocations(identifiers: 100)
    await SwitchBenchmark.countAllocations(identifiers: 10_000)
} else {
    await SwitchBenchmark.run(identifiers: 100)
    await SwitchBenchmark.run(identifiers: 10_000)
    await SwitchBenchmark.run(identifiers: 100, preload: true)
    await SwitchBenchmark.run(identifiers: 10_000, preload: true)
}
