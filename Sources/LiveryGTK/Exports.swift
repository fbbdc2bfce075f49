// GTK for apps through LiveryGTK: `import LiveryGTK` gives an app GTK 4's C API (the `CGTK`
// module, with the cast helpers `livery_widget`, `livery_window`...), which every call of
// LiveryGTK's API takes, so an app's package depends on the `LiveryGTK` product alone.
@_exported import CGTK
