import ArgumentParser

/// `--shard I/N`: the share of a folder's themes one runner of a CI matrix of N builds (I from 1
/// to N). A theme belongs to the shard its folder name hashes to (FNV-1a, 64 bits, of the name's
/// UTF-8 bytes, modulo N): the same on every machine and every run, and a theme never moves to
/// another shard when themes are added or removed, so each runner's cached output folder stays
/// useful. The shards of N are disjoint and together hold every theme.
struct BuildShard: ExpressibleByArgument, Equatable, CustomStringConvertible {
    /// 1...count.
    let index: Int
    let count: Int

    static let all = BuildShard(index: 1, count: 1)

    private init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else { return nil }
        self.init(index: index, count: count)
    }

    var description: String { "\(index)/\(count)" }

    /// Whether the theme in the folder named `folderName` (`Acme.theme`) is this shard's.
    func owns(folderName: String) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in folderName.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(count)) == index - 1
    }
}
