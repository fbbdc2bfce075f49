import Foundation
import LiveryModel

// Merging what validation found: one finding per place, the themes and trait sets seen as notes.
extension ThemeWorkspace {
    /// A child whose parent id is one of clashing ids cannot be resolved: that is a consequence
    /// of the clash, a note on its finding, not a finding of its own.
    static func noting(_ clashes: [String: Int], in diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !clashes.isEmpty else { return diagnostics }
        var result = diagnostics
        var dropped: Set<Int> = []
        for (index, finding) in diagnostics.enumerated()
        where finding.code == .themeDuplicate || finding.code == .parentCycle {
            // a child of the id, or a theme that took its own parent's id (a cycle of one)
            for (id, at) in clashes
            where at != index
                && (finding.message.hasPrefix(ambiguousParentPrefix(id))
                    || (finding.code == .parentCycle && finding.message.contains("'\(id)'")))
            {
                let note = Diagnostic.Note(
                    "this theme's parent is '\(id)', so it cannot be resolved until the ids differ",
                    at: finding.location)
                if !result[at].notes.contains(note) { result[at].notes.append(note) }
                dropped.insert(index)
            }
        }
        return result.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    static func ambiguousParentPrefix(_ id: String) -> String { "parent theme id '\(id)' is used by several folders" }

    /// One finding per place: findings at one location are one cause seen several ways (an
    /// operation of a class, unknown for each component that uses the class; a reference of the
    /// wrong type in a param of another type). The first in order (errors first) stands; the
    /// others become its notes.
    static func onePerPlace(_ findings: [Diagnostic]) -> [Diagnostic] {
        var result: [Diagnostic] = []
        var index: [SourceLocation: Int] = [:]
        // Per finding that took notes, the notes it has: a place every theme of a large tree
        // reaches gathers one note per theme (bench-brands.py, the tree with findings).
        var noted: [Int: Set<Diagnostic.Note>] = [:]
        for finding in findings {
            guard let location = finding.location else {
                result.append(finding)
                continue
            }
            if let at = index[location] {
                let note = Diagnostic.Note("also: \(finding.message)")
                if noted[at, default: Set(result[at].notes)].insert(note).inserted { result[at].notes.append(note) }
            } else {
                index[location] = result.count
                result.append(finding)
            }
        }
        return result
    }

    /// What one theme's check found, kept until the findings of every theme are put in order.
    struct ThemeValidation {
        var diagnostics: [Diagnostic]
        /// Nil when the theme's chain could not be formed.
        var findings: TraitSetFindings?
    }

    /// The trait sets each finding of one theme's resolution was seen with, and those resolved.
    struct TraitSetFindings {
        var traitSets: [Diagnostic: Set<TraitSet>]
        var resolved: Set<TraitSet>
        /// The dimensions of the theme's chain, which name its trait sets.
        var dimensions: TraitDimensions = .standard
    }

    /// Where each finding of resolution was seen, over every theme validated: a finding in a
    /// parent's file is found once per child theme and per trait set, and reported once, with
    /// the themes and trait sets in notes.
    struct ResolutionFindings {
        var themes: [Diagnostic: [String]] = [:]
        var traitSets: [Diagnostic: Set<TraitSet>] = [:]
        /// The dimensions the trait sets of each finding are named with (its first theme's).
        var dimensions: [Diagnostic: TraitDimensions] = [:]
        /// Seen in only some of the trait sets of some theme.
        var partial: Set<Diagnostic> = []

        mutating func add(_ findings: TraitSetFindings, theme: String) {
            for (diagnostic, sets) in findings.traitSets {
                themes[diagnostic, default: []].append(FileSystem.lastComponent(of: theme))
                traitSets[diagnostic, default: []].formUnion(sets)
                if dimensions[diagnostic] == nil { dimensions[diagnostic] = findings.dimensions }
                if !findings.resolved.isSubset(of: sets) { partial.insert(diagnostic) }
            }
        }

        func noted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
            diagnostics.map { diagnostic in
                guard let sets = traitSets[diagnostic] else { return diagnostic }
                var noted =
                    partial.contains(diagnostic)
                    ? ThemeResolver.noting(sets, on: diagnostic, dimensions: dimensions[diagnostic] ?? .standard)
                    : diagnostic
                let names = themes[diagnostic] ?? []
                if names.count > 1 {
                    noted.notes.append(Diagnostic.Note("applies to themes \(names.sorted().joined(separator: ", "))"))
                }
                return noted
            }
        }
    }
}
