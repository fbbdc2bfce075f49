#!/bin/sh
# Counts heap allocations during warm switches of the chat demo's benchmark.
#   Examples/ChatDemo/Scripts/count-allocations.sh        (from the repository root)
set -e
here=$(dirname "$0")
out=${TMPDIR:-/tmp}/livery-malloc-count.so
cc -O2 -shared -fPIC -o "$out" "$here/malloc-count.c"
swift build -c release --product livery-chat-demo >/dev/null
LD_PRELOAD="$out" .build/release/livery-chat-demo --count-allocations
