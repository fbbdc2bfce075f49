#if os(Linux)
    import Glibc

    /// `renameat2(..., RENAME_EXCHANGE)`: swaps two paths in one step (Linux 3.15+, glibc 2.28+).
    /// Looked up at run time because Swift's Glibc module does not import the wrapper; when it is
    /// missing or the file system refuses, callers fall back to two renames.
    enum LiveryStoreExchange {
        private typealias RenameAt2 =
            @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

        private static let function: RenameAt2? = {
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
            return unsafeBitCast(symbol, to: RenameAt2.self)
        }()

        static func exchange(_ first: String, _ second: String) -> Bool {
            guard let function else { return false }
            let renameExchange: UInt32 = 1 << 1
            return function(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0
        }
    }
#endif
