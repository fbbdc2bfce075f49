import ArgumentParser
import LiveryModel
import LiveryXML

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a theme resolved for a trait set as canonical JSON.")

    @Argument(help: ArgumentHelp("A theme folder.", valueName: "SOURCE"))
    var source: String

    @Option(help: ArgumentHelp("Active traits, comma-separated (e.g. ipad,dark).", valueName: "T,T"))
    var traits: String?

    @Option(help: "Screen scale used to choose image files (1, 2 or 3...).")
    var scale: Int = 1

    @OptionGroup var themes: ThemeOptions

    func validate() throws {
        _ = try traitSet()
        guard (1...9).contains(scale) else { throw ValidationError("--scale must be between 1 and 9") }
    }

    func traitSet() throws -> TraitSet {
        let tags = (traits ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        do {
            return try TraitSet(tags: tags)
        } catch .unknown(let tag) {
            throw ValidationError("unknown trait '\(tag)'; use idioms (iphone, ipad, tv, mac, watch, car, vision), light or dark, highcontrast")
        } catch .conflict(let first, let second) {
            throw ValidationError("traits '\(first)' and '\(second)' are of one dimension; give at most one of each")
        }
    }

    func run() throws {
        let result = themes.workspace().resolve(themeAt: source, traits: try traitSet())
        DiagnosticPrinter().print(result.diagnostics)
        guard let theme = result.value else { throw ExitCode.failure }
        print(CanonicalJSON.dump(theme, scale: scale), terminator: "")
    }
}
