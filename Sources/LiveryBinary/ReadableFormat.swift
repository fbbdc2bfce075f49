extension CompiledTheme {
    /// The major format version this reader reads (a file of another major version is refused);
    /// what a store compares with the versions a package offers before downloading it.
    public static var readableFormatVersion: Int { Int(Format.major) }

    /// The major format version written in the header of `bytes`, read without verifying
    /// anything else; nil when `bytes` do not start like a compiled file.
    public static func formatVersion(ofFileStarting bytes: [UInt8]) -> Int? {
        guard bytes.count >= Format.magic.count + 2, Array(bytes.prefix(Format.magic.count)) == Format.magic else {
            return nil
        }
        return Int(UInt16(bytes[Format.magic.count]) | UInt16(bytes[Format.magic.count + 1]) << 8)
    }
}
