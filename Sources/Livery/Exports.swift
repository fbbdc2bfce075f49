// An app that imports Livery speaks the model's types in every call (`TraitSet`, `Color`,
// `ThemeInfo`, `Diagnostic`...): re-exporting the module, rather than a typealias per type,
// keeps `import Livery` enough without a second list of names to keep in step. LiveryModel
// has no dependencies, and Livery links it anyway.
@_exported import LiveryModel
