import Foundation

/// Runs the built `livery` binary, as CI and designers do.
struct LiveryRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum Livery {
    /// The repository root, found from this file's place in `Tests/`.
    static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    /// `livery` is built beside the test bundle (the test target depends on it).
    static let executable: URL = {
        var directory = Bundle.main.bundleURL
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("livery").path),
            directory.pathComponents.count > 1
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("livery")
    }()

    static func run(_ arguments: [String], in directory: String = root) throws -> LiveryRun {
        try run(executable, arguments, in: directory)
    }

    /// Any program (a shell running README lines, a git hook), with `NO_COLOR` and `extra` set.
    static func run(
        _ program: URL, _ arguments: [String], in directory: String, environment extra: [String: String] = [:]
    ) throws -> LiveryRun {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // read both pipes to the end before waiting, so a large dump cannot fill a pipe and block
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return LiveryRun(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }
}
