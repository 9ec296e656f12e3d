#!/usr/bin/env python3
"""Score a folder of documents drawn elsewhere against its truth.json, as a new user would meet them.

    python3 tools/score_truth.py SHOEBOX DIR [--out OUT] [--today 2026-12-07] [--jobs 2] [--keep]

DIR holds the images and truth.json, a list of {"file", "merchant", "merchantLegal", "date", "total", "currency"}
(total a dot-decimal string). The folder is run with no settings at all (`shoebox run DIR --out OUT`), and each
record is compared with its truth: total and date exactly, currency by code, the merchant right when its
normalised form equals the trading name's or the legal name's, or one holds the other whole. Prints one line a
document (the fields wrong, the status, the reasons) and the sums: right, held, and wrong but accepted (the failure
that matters most). Exit 0; 2 on a usage error.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata


def norm(text):
    if not text:
        return ""
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("ß", "ss")
    return re.sub(r"[^a-z0-9]+", "", text)


def merchant_right(found, truth):
    got = norm(found)
    if not got:
        return False
    for name in (truth.get("merchant"), truth.get("merchantLegal")):
        want = norm(name)
        if want and (got == want or (len(got) >= 3 and got in want) or (len(want) >= 3 and want in got)):
            return True
    return False


def total_text(record):
    total = record.get("total")
    if not total:
        return None
    if isinstance(total, dict):
        return total.get("amount") or total.get("value")
    return str(total)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("shoebox")
    p.add_argument("dir")
    p.add_argument("--out")
    p.add_argument("--today", default="2026-12-07")
    p.add_argument("--jobs", default="2")
    p.add_argument("--keep", action="store_true", help="keep the output folder's store (a second run reads nothing again)")
    a = p.parse_args()
    truth_path = os.path.join(a.dir, "truth.json")
    if not os.path.isfile(truth_path):
        print(f"no truth.json in {a.dir}", file=sys.stderr)
        return 2
    truth = {t["file"]: t for t in json.load(open(truth_path, encoding="utf-8"))}
    out = a.out or os.path.join("/tmp", "score-" + os.path.basename(os.path.normpath(a.dir)))
    if not a.keep:
        shutil.rmtree(out, ignore_errors=True)
    # Only the images and PDFs the truth names: the HTML sources and scripts stay out of the run.
    scans = os.path.join(out, "scans")
    os.makedirs(scans, exist_ok=True)
    for name in truth:
        dest = os.path.join(scans, name)
        if not os.path.exists(dest):
            shutil.copyfile(os.path.join(a.dir, name), dest)
    subprocess.run([a.shoebox, "run", scans, "--out", out, "--today", a.today, "--jobs", a.jobs], check=False,
                   stdout=subprocess.DEVNULL)
    records = {}
    with open(os.path.join(out, "records.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            records[os.path.basename(r["source"])] = r
    sums = {"total": 0, "date": 0, "merchant": 0, "currency": 0, "all": 0, "accepted": 0, "acceptedWrong": 0}
    for name, t in sorted(truth.items()):
        r = records.get(name)
        if r is None:
            print(f"{name}: no record")
            continue
        wrong = []
        if total_text(r) != t["total"]:
            wrong.append(f"total {total_text(r)} (want {t['total']})")
        else:
            sums["total"] += 1
        if r.get("date") != t["date"]:
            wrong.append(f"date {r.get('date')} (want {t['date']})")
        else:
            sums["date"] += 1
        if not merchant_right(r.get("merchant"), t):
            wrong.append(f"merchant {r.get('merchant')!r} (want {t['merchant']!r})")
        else:
            sums["merchant"] += 1
        if r.get("currency") != t.get("currency", "EUR"):
            wrong.append(f"currency {r.get('currency')}")
        else:
            sums["currency"] += 1
        if not wrong:
            sums["all"] += 1
        if r["status"] == "accepted":
            sums["accepted"] += 1
            if wrong:
                sums["acceptedWrong"] += 1
        mark = "ok " if not wrong else ("BAD" if r["status"] == "accepted" else "-- ")
        print(f"{mark} {name}: {r['status']} {', '.join(wrong) or 'all right'}; reasons {','.join(r.get('reasons', []))}")
    n = len(truth)
    print(f"{n} documents: total {sums['total']}, date {sums['date']}, merchant {sums['merchant']}, "
          f"currency {sums['currency']}, all four {sums['all']}; accepted {sums['accepted']} "
          f"({sums['acceptedWrong']} of them wrong)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
