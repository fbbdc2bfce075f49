// libFuzzer entry of fuzz target (1), FuzzXML; the work is in FuzzXMLEntry.swift.
import Foundation

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    // One warm-up run, so lazily built globals (the standard schema, these paths) are not
    // mistaken for leaks of the first input.
    let warmUp = Array("<theme/>".utf8)
    warmUp.withUnsafeBufferPointer { FuzzXMLEntry.run($0) }
    atexit { FuzzXMLEntry.cleanUp() }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzXMLEntry.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
