import ArgumentParser
import LiveryBinary
import LiveryCompiler
import LiveryModel

package struct Inspect: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Summarise a compiled theme: version, sections, counts, parent chain, digests, checksums.",
        discussion: "Exits 1 when the file fails verification or its checksums, or (with --source) when it is stale.")

    @Argument(help: ArgumentHelp("A compiled theme file.", valueName: "FILE"))
    var file: String

    @Option(
        help: ArgumentHelp(
            "The theme folder it was compiled from: also report whether the file is up to date.",
            valueName: "THEME"))
    var source: String?

    @OptionGroup var themes: ThemeOptions

    package func run() throws {
        let theme = try CompiledFile.open(file)
        let version = theme.formatVersion
        var lines = [
            "\(file): Livery compiled theme, format \(version.major).\(version.minor), \(theme.fileSize) bytes, flags 0x\(String(theme.flags, radix: 16))",
            "theme: \(theme.info.id) \"\(theme.info.name)\" \(theme.info.version)",
            "sections:",
        ]
        for section in theme.sections {
            let note = section.known ? "" : (section.required ? " (unknown, required)" : " (unknown, skipped)")
            lines.append(
                "  \(section.kind)  offset \(pad(section.offset))  length \(pad(section.length))  crc32 \(hex(section.checksum))\(note)"
            )
        }
        lines += [
            "counts: \(theme.idCount) ids, \(theme.variantCount) variants, \(theme.instanceRecordCount) instance records, \(theme.operationRecordCount) operations (\(theme.operationListLength) references, \(theme.listPatchCount) patches), \(theme.valueSlotCount) values, \(theme.stringCount) strings, \(theme.assets.count) assets",
            "hash table: \(theme.bucketCount) buckets, longest probe \(theme.maxProbeLength)",
            "blocks: \(theme.blockCount) of \(theme.blockSize) bytes, a CRC-32 each (the runtime checks a block when a read first needs it)",
            "dimensions: " + theme.dimensions.description,
            "variants: "
                + theme.variantTraits.map {
                    let tags = theme.dimensions.tags(of: $0)
                    return tags.isEmpty ? "(no traits)" : tags.joined(separator: ",")
                }.joined(separator: "; "),
            "parent chain (root first):",
        ]
        for entry in theme.chain {
            lines.append(
                "  \(entry.info.id) \(entry.info.version)  source sha256 \(entry.sourceDigest?.description ?? "none")")
        }
        var failed = false
        do {
            try theme.verifyContents()
            lines.append("checksums: ok")
        } catch {
            lines.append("checksums: FAILED: \(error)")
            failed = true
        }
        if let source {
            if let reason = ThemeCompiler.staleness(of: theme, themeAt: source, workspace: themes.workspace()) {
                lines.append("up to date: no, \(reason)")
                failed = true
            } else {
                lines.append("up to date: yes")
            }
        }
        print(lines.joined(separator: "\n"))
        if failed { throw ExitCode.failure }
    }

    private func pad(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, 8 - text.count)) + text
    }

    private func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - text.count) + text
    }
}

/// Opening compiled files the same way in every command: a file that fails verification is
/// reported as `FILE: error: message [compiled-invalid]` and exits 1.
package enum CompiledFile {
    static func open(_ path: String) throws -> CompiledTheme {
        do {
            return try CompiledTheme(contentsOf: path)
        } catch {
            let message: String
            if case .io(_, let text) = error { message = text } else { message = error.description }
            DiagnosticPrinter().print([.error(.compiledInvalid, message, at: SourceLocation(file: path))])
            throw ExitCode.failure
        }
    }
}
