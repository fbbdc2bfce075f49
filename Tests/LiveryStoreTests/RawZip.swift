import Foundation

/// A minimal zip writer (stored entries only) for hostile packages that a well-behaved library
/// refuses to write: `..` paths, symbolic links, duplicates, lying sizes.
struct RawZip {
    struct Entry {
        var name: String
        var data: Data
        var symlink = false
        /// Overrides the uncompressed size written in both headers.
        var declaredSize: UInt32?
    }

    var entries: [Entry] = []

    mutating func add(_ name: String, _ data: Data, symlink: Bool = false, declaredSize: UInt32? = nil) {
        entries.append(Entry(name: name, data: data, symlink: symlink, declaredSize: declaredSize))
    }

    mutating func add(_ name: String, _ text: String) { add(name, Data(text.utf8)) }

    func bytes() -> Data {
        var out = Data()
        var central = Data()
        for entry in entries {
            let offset = UInt32(out.count)
            let name = Data(entry.name.utf8)
            let crc = Self.crc32(entry.data)
            let size = UInt32(entry.data.count)
            let declared = entry.declaredSize ?? size
            // Local file header.
            out.append(le32(0x0403_4B50))
            out.append(le16(20))
            out.append(le16(0x0800))
            out.append(le16(0))
            out.append(le16(0))
            out.append(le16(0x21))
            out.append(le32(crc))
            out.append(le32(size))
            out.append(le32(declared))
            out.append(le16(UInt16(name.count)))
            out.append(le16(0))
            out.append(name)
            out.append(entry.data)
            // Central directory header: made by Unix (3) so the mode bits count.
            let mode: UInt32 = entry.symlink ? 0o120777 : 0o100644
            central.append(le32(0x0201_4B50))
            central.append(le16(0x0314))
            central.append(le16(20))
            central.append(le16(0x0800))
            central.append(le16(0))
            central.append(le16(0))
            central.append(le16(0x21))
            central.append(le32(crc))
            central.append(le32(size))
            central.append(le32(declared))
            central.append(le16(UInt16(name.count)))
            central.append(le16(0))
            central.append(le16(0))
            central.append(le16(0))
            central.append(le16(0))
            central.append(le32(mode << 16))
            central.append(le32(offset))
            central.append(name)
        }
        let centralOffset = UInt32(out.count)
        out.append(central)
        out.append(le32(0x0605_4B50))
        out.append(le16(0))
        out.append(le16(0))
        out.append(le16(UInt16(entries.count)))
        out.append(le16(UInt16(entries.count)))
        out.append(le32(UInt32(central.count)))
        out.append(le32(centralOffset))
        out.append(le16(0))
        return out
    }

    private func le16(_ value: UInt16) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    private func le32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
