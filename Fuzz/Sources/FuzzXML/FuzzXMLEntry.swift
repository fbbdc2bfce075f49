// The whole of fuzz target (1), FuzzXML, as a function: Fuzz/Sources/FuzzXML/main.swift calls it for
// libFuzzer and Tests/LiveryBinaryTests/FuzzRegressionTests.swift replays Tests/Fixtures/Regressions/FuzzXML
// through it (this file is linked there), so a crash found once stays fixed.
//
// bytes as a theme file through the whole XML front end.
//
// The bytes are written into a theme folder in memory-backed storage (`/dev/shm` when there is one):
// as `Info.xml` when they mention `<theme-info`, else as `Chat.xml` (whose root may also be
// `<components>`, a schema file). The folder is then validated for every trait set and resolved.
// Invariants checked besides "no crash, no hang":
// - every diagnostic names a file inside the theme folder (nothing outside is read);
// - a theme that validates compiles, and its compiled file materialises as exactly the model.
import Foundation
import LiveryBinary
import LiveryModel
import LiveryXML

enum FuzzXMLEntry {
    static let root: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = base + "/livery-fuzz-xml-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.removeItem(atPath: path)
        try! FileManager.default.createDirectory(atPath: path + "/Fuzz.theme", withIntermediateDirectories: true)
        return path
    }()
    static let folder = root + "/Fuzz.theme"

    // Arrays, not Data: LeakSanitizer does not see through Data's representation and would report
    // these process-lifetime globals as leaked at exit.
    static let defaultInfo: [UInt8] = Array(#"<theme-info id="fuzz.theme" name="Fuzz"/>"#.utf8)
    static let defaultChat: [UInt8] = Array(
        """
        <theme><instances><uiview id="v"><operation name="alpha"><param name="value"><float>0.5</float></param></operation></uiview></instances></theme>
        """.utf8)
    static let marker = Array("<theme-info".utf8)

    /// Smaller than the defaults so one input cannot take seconds; the same code paths.
    static let limits: FrontEndLimits = {
        var limits = FrontEndLimits()
        limits.maxFileBytes = 1 << 20
        return limits
    }()

    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Removes the temporary folder (call at exit).
    static func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

    static func run(_ buffer: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(buffer)
        let asInfo = contains(buffer, marker)
        try! Data(asInfo ? bytes : defaultInfo).write(to: URL(fileURLWithPath: folder + "/Info.xml"))
        try! Data(asInfo ? defaultChat : bytes).write(to: URL(fileURLWithPath: folder + "/Chat.xml"))

        let workspace = ThemeWorkspace(limits: limits)
        let diagnostics = workspace.validate(paths: [folder])
        for diagnostic in diagnostics {
            if let file = diagnostic.location?.file {
                FuzzCheck.require(file.hasPrefix(folder), "a diagnostic outside the theme folder: \(diagnostic)")
            }
        }
        let variants = workspace.variants(ofThemeAt: folder)
        _ = workspace.resolve(themeAt: folder, traits: TraitSet(idiom: .ipad, appearance: .dark))
        guard let theme = variants.value else { return }
        FuzzCheck.require(!diagnostics.hasErrors, "validate found errors but variants(ofThemeAt:) succeeded")
        // The fuzzed folder has no assets, so a valid theme names no image: nothing to supply.
        guard let compiled = try? ThemeWriter.encode(CompiledThemeContents(theme: theme)) else { return }
        do {
            let readBack = try CompiledTheme(bytes: compiled).materialize()
            FuzzCheck.require(
                readBack == theme, "the compiled file does not read back as the model it was written from")
        } catch {
            fatalError("a compiled file written by the writer fails to load: \(error)")
        }
    }
}
