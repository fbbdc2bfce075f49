// libFuzzer entry of fuzz target (2), FuzzCompiled; the work is in FuzzCompiledEntry.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompiled(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzCompiledEntry.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
