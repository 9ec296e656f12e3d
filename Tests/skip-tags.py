#!/usr/bin/env python3
"""Prints a regular expression for `swift test --skip` matching every suite and test that carries one of the tags
named on the command line (`python3 Tests/skip-tags.py ocr slow`). Swift Testing's command line selects tests by
name only, so the tagged names are read from the test sources: `@Suite(….tags(.ocr)) struct Name` gives `\\.Name/`,
`@Test(.tags(.ocr)) func name(` gives `/name\\(`."""
import glob, os, re, sys

TESTS = os.path.dirname(os.path.abspath(__file__))
DECLARATION = re.compile(
    r"@(?:Suite|Test)\((?P<traits>[^()]*(?:\([^()]*\)[^()]*)*)\)\s*"  # the attribute and its traits
    r"(?:@\w+(?:\([^()]*\))?\s*)*"  # other attributes
    r"(?:(?:(?:final|public|private|fileprivate|internal)\s+)*(?:struct|class|actor|enum)\s+(?P<suite>\w+)|func\s+(?P<test>\w+)\s*\()"
)


def main():
    tags = sys.argv[1:]
    if not tags:
        sys.exit("usage: skip-tags.py TAG…")
    names = set()
    for path in sorted(glob.glob(os.path.join(TESTS, "*", "*.swift"))):
        with open(path, encoding="utf-8") as f:
            source = f.read()
        for m in DECLARATION.finditer(source):
            if any(re.search(r"\.tags\([^)]*\." + re.escape(t) + r"\b", m.group("traits")) for t in tags):
                names.add(r"\." + m.group("suite") + "/" if m.group("suite") else "/" + m.group("test") + r"\(")
    if not names:
        sys.exit(f"skip-tags.py: no test is tagged {', '.join(tags)}")
    print("|".join(sorted(names)))


if __name__ == "__main__":
    main()
