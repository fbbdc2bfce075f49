// libFuzzer entry of fuzz target (5), FuzzTokens; the work is in FuzzTokensEntry.swift.
import Foundation

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    // Warm-up runs (a token file, a resolver), so lazily built globals are not mistaken for leaks
    // of the first inputs.
    for input in FuzzTokensEntry.warmUpInputs {
        input.withUnsafeBufferPointer { FuzzTokensEntry.run($0) }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokens(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTokensEntry.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
