/// The versions `livery --version` prints, shared by every executable built from these commands.
package enum LiveryVersion {
    /// The tool's version: `livery --version`, and the SARIF driver's version.
    package static let tool = "0.1.0"
    /// The version of the theme format contract the tools implement.
    package static let format = "1.2"
}
