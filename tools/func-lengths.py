#!/usr/bin/env python3
"""Lines per Swift function/initializer/computed body: `tools/func-lengths.py FILE... [--min N]`.
Counts from the declaration line to the line of its closing brace (inclusive), by brace depth;
ignores braces inside string literals and // comments (good enough for this code base)."""
import re, sys

DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|final|override|mutating|nonisolated|class)\s+)*(func\s+[^\s(<]+|init[?!]?|subscript|var\s+\w+\s*:[^={]*\{)')

def strip(line):
    out, i, inq = [], 0, False
    while i < len(line):
        c = line[i]
        if inq:
            if c == '\\': i += 2; continue
            if c == '"': inq = False
        else:
            if c == '"': inq = True
            elif line.startswith('//', i): break
            else: out.append(c)
        i += 1
    return ''.join(out)

def measure(path):
    lines = open(path).read().split('\n')
    res = []
    i = 0
    while i < len(lines):
        m = DECL.match(lines[i])
        if m and '{' in strip(''.join(lines[i:i+8])):
            depth, started, j = 0, False, i
            while j < len(lines):
                s = strip(lines[j])
                depth += s.count('{') - s.count('}')
                if s.count('{'): started = True
                if started and depth <= 0: break
                j += 1
            res.append((j - i + 1, path, i + 1, m.group(1).split('{')[0].strip()))
        i += 1
    return res

args = sys.argv[1:]
mn = 0
if '--min' in args:
    k = args.index('--min'); mn = int(args[k+1]); del args[k:k+2]
allr = [r for p in args for r in measure(p)]
for n, p, ln, name in sorted(allr, reverse=True):
    if n >= mn: print(f'{n:5d}  {p}:{ln}  {name}')
