"""Pairs dropped into the inbox while `shoebox inbox --watch` is killed -9 again and again: nothing is lost and
nothing is read twice. Each drop is a different synthetic receipt (Fixtures/receipts) with a sidecar an agent
wrote (to a temporary name, then renamed), dropped between kills; after the last kill one `shoebox inbox` finishes.
Then every drop has exactly one result, in processed/ (none refused), whose record the store holds once under the
name it was taken as; the inbox holds nothing but its own folders, no intent or temporary file is left, and the
store has one record per drop (none a duplicate of another drop: each was read once).

Usage: python3 Tests/agents/inbox_kill.py [path/to/shoebox]   (default .build/debug/shoebox)
"""
import glob
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOEBOX = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/shoebox"))
FAILURES = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        FAILURES.append(what)


def drop(inbox, folder, source, name):
    """As an agent drops a pair: the document, then its sidecar, each written to a hidden name and renamed."""
    d = os.path.join(inbox, folder)
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{name}.tmp")
    shutil.copy(source, tmp)
    os.rename(tmp, os.path.join(d, name))
    with open(tmp, "w") as f:
        json.dump({"agent": "kill test", "note": f"dropped as {name}"}, f)
    os.rename(tmp, os.path.join(d, name + ".json"))


def main():
    random.seed(7)
    sources = sorted(p for p in glob.glob(os.path.join(ROOT, "Fixtures/receipts/*")) if p.endswith((".png", ".jpg")))[:12]
    work = tempfile.mkdtemp(prefix="shoebox-inbox-kill-")
    out = os.path.join(work, "out")
    inbox = os.path.join(out, "inbox")
    env = dict(os.environ, SHOEBOX_INBOX_WAIT_SECONDS="3600")
    dropped = []
    try:
        os.makedirs(inbox)
        kills = 0
        queue = list(enumerate(sources))
        while queue or kills < 6:
            for _ in range(random.randint(1, 3)):
                if queue:
                    i, src = queue.pop(0)
                    name = f"receipt-{i:02d}{os.path.splitext(src)[1]}"
                    folder = "trip" if i % 2 else "office"
                    drop(inbox, folder, src, name)
                    dropped.append(f"{folder}/{name}")
            p = subprocess.Popen([SHOEBOX, "inbox", "--out", out, "--watch", "--every", "1", "--today", "2026-12-07"],
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(random.uniform(0.3, 4.0))
            p.send_signal(signal.SIGKILL)
            p.wait()
            kills += 1
        finish = subprocess.run([SHOEBOX, "inbox", "--out", out, "--today", "2026-12-07"], env=env, capture_output=True, text=True)
        print(finish.stdout[-2000:])
        check(finish.returncode == 0, f"the last pass ends cleanly (exit {finish.returncode}) after {kills} kills")

        results = {}
        for path in glob.glob(os.path.join(inbox, "**/*.result.json"), recursive=True):
            with open(path) as f:
                r = json.load(f)
            results.setdefault(r["dropped"], []).append((os.path.relpath(path, inbox), r))
        check(sorted(results) == sorted(dropped), f"every one of the {len(dropped)} drops has a result ({len(results)})")
        check(all(len(v) == 1 for v in results.values()), "no drop has two results")
        check(all(v[0][0].startswith("processed/") for v in results.values()), "every drop was taken, none refused")
        check(all(v[0][1]["status"] in ("accepted", "review") for v in results.values()),
              "each drop is a record accepted or in review: " + ", ".join(sorted({v[0][1]['status'] for v in results.values()})))
        left = [os.path.relpath(p, inbox) for p in glob.glob(os.path.join(inbox, "**/*"), recursive=True)
                if not os.path.relpath(p, inbox).startswith(("processed", "failed")) and os.path.isfile(p)]
        check(left == [], f"nothing is left waiting in the inbox: {left}")
        hidden = [p for p in glob.glob(os.path.join(inbox, "**/.*"), recursive=True)]
        check(hidden == [], f"no intent or temporary file is left: {hidden}")
        with open(os.path.join(out, "records.jsonl")) as f:
            records = [json.loads(line) for line in f]
        sources_in_store = sorted(r["source"] for r in records)
        check(sources_in_store == sorted(v[0][1]["record"] for v in results.values()), "the store holds one record per drop, by the name it was taken as")
        check(all(r["status"] != "duplicate" for r in records), "no drop was stored twice")
        check(all(r.get("enteredBy") == "agent" and r.get("agent") == "kill test" for r in records), "every record says the agent entered it")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} failed")
        sys.exit(1)
    print("inbox kill -9: all passed")


if __name__ == "__main__":
    main()
