// Starts `livery lsp` for the XML files of theme folders (`*.theme/*.xml`) with VS Code's
// language client; everything else is the server's.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("livery");
  client = new LanguageClient(
    "livery",
    "Livery",
    { command: settings.get("path", "livery"), args: ["lsp"] },
    {
      documentSelector: [{ scheme: "file", language: "xml", pattern: "**/*.theme/**/*.xml" }],
      initializationOptions: { themes: settings.get("themes", []) },
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.theme/**") },
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
