import Foundation
import LiveryLanguageServer

// `livery lsp` without the rest of the CLI: the same `LanguageServer` on stdin and stdout, built
// in release here without compiling the CLI's network stack (NIO, Hummingbird) first.
// Benchmarks/Scripts/bench-lsp.py --server runs it.
exit(LanguageServer().run())
