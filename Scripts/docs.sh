#!/usr/bin/env bash
# The API reference: DocC archives of the modules apps use, built by swift-docc-plugin into
# .build/docs/<Module>.doccarchive. Warnings are errors: a broken symbol link or an undocumented
# parameter fails it (the test command runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build/docs
swift package --allow-writing-to-directory .build/docs generate-documentation \
    --target Livery --target LiveryModel --target LiveryHeadless --target LiveryGTK --target LiveryStore \
    --warnings-as-errors --output-path .build/docs
echo "wrote .build/docs/{Livery,LiveryModel,LiveryHeadless,LiveryGTK,LiveryStore}.doccarchive" >&2
