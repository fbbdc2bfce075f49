// libFuzzer entry of fuzz target (3), FuzzRoundTrip; the work is in FuzzRoundTripEntry.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzRoundTripEntry.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
