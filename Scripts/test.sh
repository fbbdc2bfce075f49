#!/usr/bin/env bash
# The test command: installs what is missing, builds and runs the build-tool plugin example, then
# runs every test of the package (unit tests, fixture matrix, CLI end to end, compiled-format
# hostile bytes, runtime, tooling). The test run comes last so its summary closes the output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-dependencies.sh
# GTK windows render on a private Xvfb display, started here and stopped when this script exits.
source Scripts/xvfb.sh

# Documentation checks, quick, so they fail first: measured numbers only through generated
# blocks; every public symbol of the runtime documented (from its symbol graph, built apart so
# the main build keeps its flags).
python3 Scripts/check-doc-numbers.py
# Every Swift file laid out as swift format lays it out (.swift-format).
bash Scripts/format.sh --check
# No source file or function past its size (a file does one job; docs/Design.md).
python3 Scripts/check-sizes.py
swift build --target Livery --scratch-path .build-symbols \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/.build-symbols/symbolgraph" >/dev/null
python3 Scripts/check-doc-comments.py .build-symbols/symbolgraph Livery
# The API reference builds with DocC, its warnings (broken links, undocumented parameters) as errors.
bash Scripts/docs.sh

# Build-tool plugin example: LiveryThemePlugin validates, compiles and turns Examples/PluginExample's
# themes into Swift identifiers at build time; running it styles components with those identifiers
# and opens the compiled files from its bundle.
plugin_log="${TMPDIR:-/tmp}/livery-plugin-example.log"
swift build --package-path Examples/PluginExample 2>&1 | tee "$plugin_log"
# The plugin runs the lean livery-build-tool: an app's build compiles no server (NIO, Hummingbird).
if grep -E '(Compiling|Emitting module) _?C?(NIO|Hummingbird)' "$plugin_log"; then
  echo "building an app with the plugin compiled NIO or Hummingbird (above)" >&2
  exit 1
fi
swift run --skip-build --package-path Examples/PluginExample PluginExample
# A second build after every theme file is touched (bytes unchanged): the plugin's commands run,
# find each compiled theme up to date and rewrite none (same modification times).
compiled_themes() {
  find Examples/PluginExample/.build -name '*.livery' -path '*LiveryThemePlugin*' -exec stat -c '%n %y' {} + | sort
}
before="$(compiled_themes)"
find Examples/PluginExample/Sources -path '*.theme/*' -type f -exec touch {} +
swift build --package-path Examples/PluginExample 2>&1 | tee "$plugin_log"
if [[ -z "$before" || "$(compiled_themes)" != "$before" ]]; then
  echo "a second build of the plugin example rewrote compiled themes (or found none): $before" >&2
  exit 1
fi

# A GTK app as its own package (Examples/GTKApp): depends on the LiveryGTK product alone for GTK,
# builds from its own Package.swift and renders its window once on the test display.
swift build --package-path Examples/GTKApp
swift run --skip-build --package-path Examples/GTKApp GTKApp --screenshot "${TMPDIR:-/tmp}/livery-gtk-app.png"

# An app that links `Livery` alone, built in release, holds nothing of the XML front end, the
# compiler or BoringSSL.
bash Scripts/check-release-app.sh

# --- Benchmarks quick pass ----------------------------------------------------------------------
# Before the test run, whose summary must close the output. Keeps the benchmark package
# building and running: small N, few iterations, every loader
# checked to build the same model as the front end; the ordo-one suite is built, not run.
# Timing numbers from here are not meaningful (CI shares the machine); see docs/Performance.md.
if [[ "${LIVERY_SKIP_BENCHMARKS:-}" != "1" ]]; then
  bench_log="${TMPDIR:-/tmp}/livery-bench-quick.log"
  if (cd Benchmarks && swift build -c release) >"$bench_log" 2>&1 && bash Scripts/bench.sh --quick >>"$bench_log" 2>&1; then
    echo "benchmarks quick pass ok (report: $bench_log)"
  else
    tail -60 "$bench_log"
    echo "benchmarks quick pass FAILED" >&2
    exit 1
  fi
fi

# The GTK demo draws every sample theme in every trait set, and the runtime reports no error on
# the way (a custom binding that lost its parent's setters would).
demo_shots="$(mktemp -d)"
swift build --product livery-gtk-demo >/dev/null
"$(swift build --show-bin-path)/livery-gtk-demo" --screenshots "$demo_shots" >"$demo_shots/log" 2>&1
if grep -F '[error]' "$demo_shots/log"; then echo "livery-gtk-demo reported errors (above)" >&2; exit 1; fi
rm -rf "$demo_shots"

# The README's first command, as a designer runs it (the README test runs the others).
bash Scripts/build-themes.sh >/dev/null

# `livery lsp` end to end: pytest-lsp (and Neovim's own client) drive the built binary as editors
# do. Exit 5 ("no tests collected") is a failure too: the suite must have run.
swift build --product livery >/dev/null
lsp_status=0
(cd Tests/LSP && python3 -m pytest -q -p no:cacheprovider) || lsp_status=$?
if [[ $lsp_status -ne 0 ]]; then echo "livery lsp tests FAILED (pytest exit $lsp_status)" >&2; exit 1; fi

# The store on a hostile network: `livery install` through a fault-injecting proxy in front of nginx
# (cuts, stalls, resets, 503s, a file changed between two ranges, a lying Content-Range), a few
# seeds; each must end with the clean install's files byte for byte or a reported error and nothing
# half-installed. Then once with a clean-install file altered: the comparison must catch it.
# Many seeds: Benchmarks/Scripts/bench-store-faults.py.
# Seeds 100, 104 and 105 between them inject every kind of fault (each seed's line lists them).
python3 Tests/StoreProxy/run_seeds.py "$(swift build --show-bin-path)/livery" --seed 100 --seed 104 --seed 105
if python3 Tests/StoreProxy/run_seeds.py "$(swift build --show-bin-path)/livery" --seeds 1 --sabotage >/dev/null; then
  echo "the store fault check passed with an altered file: it compares nothing" >&2; exit 1
fi
# An app killed in the middle of a download, four times per package, then run to the end: each
# restart resumes where the killed run stopped. Then with Range dropped on the way (a server
# without range support): the installs succeed, and the resume check must fail.
python3 Tests/StoreProxy/run_seeds.py "$(swift build --show-bin-path)/livery" --kills 4 --seed 11
if python3 Tests/StoreProxy/run_seeds.py "$(swift build --show-bin-path)/livery" --kills 4 --seed 11 --sabotage >/dev/null; then
  echo "the kill-and-restart check passed with Range dropped: it proves no resume" >&2; exit 1
fi

# The mutation tests make every kind of mistake at every distinct place of the sample themes
# (a local `swift test` checks a dozen places per kind).
LIVERY_MUTATIONS=all swift test
