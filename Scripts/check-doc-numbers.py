#!/usr/bin/env python3
"""Fails when the README or a page of docs/ quotes a measured number by hand.

Measured numbers come from one benchmark run (Scripts/bench.sh writes Benchmarks/results/);
a page includes a generated file between

    <!-- generated: Benchmarks/results/summary.md -->
    ...
    <!-- end generated -->

and this check fails when (1) such a copy differs from the file, or (2) a duration (a number
followed by s, ms, µs, us or ns) appears outside a generated block, a code block or inline code
(where it is a setting, such as a timeout, not a measurement). So no number can appear
twice with different values. Run by Scripts/test.sh.
"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
pages = [os.path.join(root, "README.md")] + sorted(
    os.path.join(root, "docs", name) for name in os.listdir(os.path.join(root, "docs")) if name.endswith(".md"))
begin = re.compile(r"<!-- generated: (\S+) -->")
end = "<!-- end generated -->"
duration = re.compile(r"(?<![\w.@])\d[\d,]*(\.\d+)?\s?(ms|µs|us|ns|s)\b")
failures = []
for page in pages:
    relative = os.path.relpath(page, root)
    lines = open(page, encoding="utf-8").read().split("\n")
    i = 0
    in_code = False
    while i < len(lines):
        line = lines[i]
        match = begin.search(line)
        if match:
            source = os.path.join(root, match.group(1))
            j = i + 1
            while j < len(lines) and end not in lines[j]:
                j += 1
            if j == len(lines):
                failures.append(f"{relative}:{i + 1}: a generated block without '{end}'")
                break
            copy = "\n".join(lines[i + 1:j]).strip("\n")
            if not os.path.exists(source):
                failures.append(f"{relative}:{i + 1}: {match.group(1)} does not exist")
            elif copy != open(source, encoding="utf-8").read().strip("\n"):
                failures.append(f"{relative}:{i + 1}: the copy of {match.group(1)} differs from the file "
                                f"(run: python3 Scripts/check-doc-numbers.py --update)")
                if "--update" in sys.argv:
                    lines[i + 1:j] = open(source, encoding="utf-8").read().strip("\n").split("\n")
                    open(page, "w", encoding="utf-8").write("\n".join(lines))
                    failures.pop()
                    j = i + 1
                    while end not in lines[j]:
                        j += 1
            i = j + 1
            continue
        if line.lstrip().startswith("```"):
            in_code = not in_code
        elif not in_code:
            # A duration in inline code is a setting (`--timeout 20 s`), not a measurement.
            found = duration.search(re.sub(r"`[^`]*`", "", line))
            if found:
                failures.append(f"{relative}:{i + 1}: a measured duration outside a generated block: '{found.group(0)}'")
        i += 1
for failure in failures:
    print(failure, file=sys.stderr)
if failures:
    print(f"check-doc-numbers: {len(failures)} problem(s); quote measurements only through generated blocks", file=sys.stderr)
    sys.exit(1)
print(f"check-doc-numbers: {len(pages)} pages, every measured number comes from a generated block")
