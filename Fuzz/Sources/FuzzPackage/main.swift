// libFuzzer entry of fuzz target (4), FuzzPackage; the work is in FuzzPackageEntry.swift.
import Foundation

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    // Warm-up runs (a package that installs, one that is not a zip), so lazily built globals (the
    // standard schema, these paths) are not mistaken for leaks of the first inputs.
    for input in [FuzzPackageEntry.warmUpInput(), Array("not a zip".utf8)] {
        _ = input.withUnsafeBufferPointer { FuzzPackageEntry.run($0) }
    }
    atexit { FuzzPackageEntry.cleanUp() }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPackage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzPackageEntry.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
