#!/usr/bin/env python3
"""Source files and functions that do more than one job, by size.

    python3 Scripts/check-sizes.py          # lists every file and function over its limit; exit 1 if any

A Swift source file under Sources/ holds at most 450 lines, one of the runtime (Sources/Livery,
the library every app links) at most 400, and a function, initialiser or subscript at most 100
lines from its declaration to its closing brace. The test command runs this check.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FILE_LIMIT = 450
RUNTIME_FILE_LIMIT = 400
FUNCTION_LIMIT = 100
DECLARATION = re.compile(
    r"^\s*(?:@[\w()\". ,:]+\s+)*(?:(?:public|private|fileprivate|internal|package|open|static|class|final|"
    r"override|mutating|nonmutating|nonisolated|convenience|required|indirect|consuming|borrowing)(?:\([\w]+\))?\s+)*"
    r"(func\s+[^\s(<]+|init[?!]?|deinit|subscript)\b")


def strip(line: str) -> str:
    """The line without string literals and its end-of-line comment, so their braces do not count."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def functions(lines: list[str]):
    """(name, first line, length) of every function whose body's braces can be followed."""
    index = 0
    while index < len(lines):
        match = DECLARATION.match(lines[index])
        if not match:
            index += 1
            continue
        depth, opened, end = 0, False, None
        for number in range(index, len(lines)):
            text = strip(lines[number])
            if not opened and number > index and DECLARATION.match(lines[number]):
                break  # a requirement without a body
            for character in text:
                if character == "{":
                    depth += 1
                    opened = True
                elif character == "}":
                    depth -= 1
            if opened and depth <= 0:
                end = number
                break
        if end is not None:
            yield match.group(1), index + 1, end - index + 1
        index += 1


def main() -> int:
    findings = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        relative = path.relative_to(ROOT)
        lines = path.read_text(encoding="utf-8").splitlines()
        limit = RUNTIME_FILE_LIMIT if relative.parts[:2] == ("Sources", "Livery") else FILE_LIMIT
        if len(lines) > limit:
            findings.append(f"{relative}: {len(lines)} lines (at most {limit})")
        for name, line, length in functions(lines):
            if length > FUNCTION_LIMIT:
                findings.append(f"{relative}:{line}: {name} is {length} lines (at most {FUNCTION_LIMIT})")
    for finding in findings:
        print(finding)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
