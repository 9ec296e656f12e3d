#!/usr/bin/env python3
"""Whether two shoebox binaries write the same outputs (issue 53: a restructuring must change no byte).

    python3 tools/same_outputs.py OLD_SHOEBOX NEW_SHOEBOX [--work DIR] [--devset ../shared/devset] [--ocr-cache DIR]

Each binary runs, into an output folder of its own, on the sample folder (Fixtures/sample-scans), the fixtures
(Fixtures/receipts, Fixtures/screens, Fixtures/items) and, when it is there, the devset (its SROIE receipts and
ZUGFeRD invoices); then `export` and `export --format json`. The records (records.jsonl), the review queue
(review/queue.jsonl), every zip of exports/ and the store's JSON are compared byte for byte. The store's JSON
names when each run started and ended, and the zips are stamped with the day given by --today, so runs with the
same --today compare alike. `--ocr-cache DIR` seeds each output folder's OCR cache with DIR's files
(`make regress-dev`'s cache, .build/ocr-cache): the pages are not read again, and the comparison is of what the
code after reading does. Exit 0 when every file is the same, 1 when one differs (each named), 2 on a usage error.
"""
import argparse
import functools
import hashlib
import os
import shutil
import subprocess
import sys

TODAY = "2026-12-07"
print = functools.partial(print, flush=True)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run(binary, scans, out, cache):
    shutil.rmtree(out, ignore_errors=True)
    if cache:
        os.makedirs(os.path.join(out, "cache"), exist_ok=True)
        shutil.copytree(cache, os.path.join(out, "cache", "ocr"))
    env = dict(os.environ)
    for args in (
        ["run", scans, "--out", out, "--today", TODAY, "--jobs", "2"],
        ["export", "--out", out],
        ["export", "--format", "json", "--out", out, "--file", os.path.join(out, "store.json")],
    ):
        p = subprocess.run([binary] + args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        # run: 0 all accepted, 1 some in review or failed; anything else is an error of its own.
        if p.returncode > 1:
            sys.exit(f"{binary} {' '.join(args)}: exit {p.returncode}\n{p.stderr[-2000:]}")


def outputs(out):
    files = {}
    for name in ("records.jsonl", "review/queue.jsonl", "store.json"):
        path = os.path.join(out, name)
        if os.path.exists(path):
            files[name] = path
    exports = os.path.join(out, "exports")
    if os.path.isdir(exports):
        for name in sorted(os.listdir(exports)):
            files["exports/" + name] = os.path.join(exports, name)
    return files


def normalised_store(path):
    """The store's JSON without the times each run started and finished (the one thing two runs differ in)."""
    import json

    with open(path, "rb") as f:
        data = json.load(f)
    for run in data.get("runs", []):
        for key in ("started", "finished"):
            run.pop(key, None)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--work", default="/tmp/shoebox-same-outputs")
    ap.add_argument("--devset", default="../shared/devset")
    ap.add_argument("--ocr-cache", default=None)
    a = ap.parse_args()
    corpora = [("sample", "Fixtures/sample-scans"), ("receipts", "Fixtures/receipts"), ("screens", "Fixtures/screens"), ("items", "Fixtures/items")]
    for part in ("sroie", "zugferd"):
        if os.path.isdir(os.path.join(a.devset, part)):
            corpora.append((part, os.path.join(a.devset, part)))
    differ = 0
    compared = 0
    for name, scans in corpora:
        if not os.path.isdir(scans):
            continue
        outs = []
        for which, binary in (("old", a.old), ("new", a.new)):
            out = os.path.join(a.work, name, which)
            run(os.path.abspath(binary), scans, out, a.ocr_cache)
            outs.append(outputs(out))
        old, new = outs
        for key in sorted(set(old) | set(new)):
            if key not in old or key not in new:
                print(f"{name}: {key} only in {'new' if key not in old else 'old'}")
                differ += 1
                continue
            compared += 1
            same = digest(old[key]) == digest(new[key])
            if not same and key == "store.json":
                same = normalised_store(old[key]) == normalised_store(new[key])
            if not same:
                print(f"{name}: {key} differs")
                differ += 1
        print(f"{name}: {len(new)} files compared" + ("" if differ == 0 else f", {differ} differing so far"))
    print(f"{compared} files compared, {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
