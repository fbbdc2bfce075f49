#!/usr/bin/env bash
# Runs the tests under the sanitizers (docs/Security.md):
#   bash Scripts/sanitizers.sh address   # the whole suite under AddressSanitizer
#   bash Scripts/sanitizers.sh thread    # the concurrent parts under ThreadSanitizer: background
#                                        # loading while the main actor applies, themes prepared ahead
#                                        # (Applicator.preload), and the runtime tests
#   bash Scripts/sanitizers.sh           # both
# Each sanitizer builds into its own folder (.build-asan, .build-tsan) so the normal build stays warm.
# Exit status is non-zero if any test fails or a sanitizer reports (sanitizer reports abort the run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-dependencies.sh
which=${1:-all}
status=0
# The GTK tests render on a private Xvfb display (started here, stopped on exit).
source Scripts/xvfb.sh

if [ "$which" = all ] || [ "$which" = address ]; then
    echo "== AddressSanitizer: swift test --sanitize=address"
    # LeakSanitizer is off: Swift's runtime metadata caches and lazily built globals read as leaks
    # at exit. Leaks in the front end are checked by the FuzzXML target (libFuzzer's per-input
    # leak check), which is how the libxml2 document leak was found.
    # G_SLICE=always-malloc: GLib's slice allocator would hide a use after free of a GTK widget
    # from ASan (GTKPixelTests' destroyed widget, which a later switch must never touch). The large
    # quarantine keeps freed blocks poisoned for the whole run, so a pointer GLib keeps past the
    # call that handed it over (a quark's name, object data read by name: GTKMemoryTests, which
    # styles every standard widget kind) is reported however late it is read.
    ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:quarantine_size_mb=1024 G_SLICE=always-malloc \
        swift test --sanitize=address --scratch-path .build-asan || status=1
fi

if [ "$which" = all ] || [ "$which" = thread ]; then
    echo "== ThreadSanitizer: swift test --sanitize=thread (concurrency and runtime tests)"
    TSAN_OPTIONS=halt_on_error=1 \
        swift test --sanitize=thread --scratch-path .build-tsan \
        --filter 'ConcurrencyTests|ApplicatorTests|ScopeTests|SampleThemeTests|StandardBindingTests|PreloadTests|PreparationTests' || status=1
fi
exit $status
