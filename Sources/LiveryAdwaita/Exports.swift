// libadwaita for apps through LiveryAdwaita: `import LiveryAdwaita` gives an app libadwaita's C
// API (`adw_init`, `AdwApplication`...), so its package depends on the LiveryAdwaita product alone.
@_exported import CAdwaita
