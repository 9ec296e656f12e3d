#!/usr/bin/env python3
"""The merchant memory, measured with a simulated person (`make regress-memory`).

The SROIE receipts of ../shared/devset go through Shoebox in a fixed order (by name), in nightly batches: each batch
is copied into a scan folder (the devset itself is never written) and read by `shoebox run` (pages from the regress
OCR cache, .build/ocr-cache, when it is there). Then a simulated person works through the batch, record by record,
as a person would: a record with a wrong merchant, total, date or currency is corrected from the ground truth and
accepted through `shoebox review --apply`; a right record waiting in review is accepted; a right accepted record is
left alone. With the memory on, `shoebox rescore` runs after each decision, so the rest of the batch is judged with
what the person just taught.

Every record is scored as the person first sees it (before they touch it): merchant, total and date right or not
(compared as `shoebox regress` compares them: `regress --expected`), and whether it was accepted without them.
The figures are given for the receipts from shops seen before (not the first receipt of their shop, by the ground
truth's company name) and for all, with the memory on and off (pipeline key "merchantMemory": false); the
difference is the memory's.

Usage: tools/regress_memory.py [--shoebox PATH] [--devset DIR] [--batch N] [--limit N] [--today YYYY-MM-DD]
                               [--accept-precision P] [--report FILE]
"""
import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shoebox(args, *rest, check=True):
    r = subprocess.run([args.shoebox, *rest], capture_output=True, text=True)
    if check and r.returncode not in (0, 1):
        sys.exit(f"regress-memory: shoebox {' '.join(rest[:2])} failed ({r.returncode}): {r.stderr[-600:]}")
    return r


def suggestions(out):
    """Each source's stored record (the pipeline's suggestion, before any decision), by path."""
    db = sqlite3.connect(f"file:{os.path.join(out, 'store.sqlite')}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT s.path, r.json FROM records r JOIN sources s ON s.id = r.source_id").fetchall()
    finally:
        db.close()
    return {path: json.loads(text) for path, text in rows}


def compared_merchant(record):
    # `shoebox regress` compares merchants folded, without case, punctuation and spaces: the record's merchantNormalized
    # without its spaces is that form.
    return (record.get("merchantNormalized") or "").replace(" ", "")


def arm(args, docs, expected, memory):
    work = tempfile.mkdtemp(prefix="shoebox-memory-")
    try:
        scans = os.path.join(work, "scans", "sroie")
        os.makedirs(scans)
        if args.folder_currency:
            # What the user's folder of Malaysian receipts says, as baselines/devset-folders.json says it for regress.
            with open(os.path.join(scans, ".shoebox.json"), "w") as f:
                json.dump({"currency": args.folder_currency}, f)
        out = os.path.join(work, "out")
        cache = os.path.join(ROOT, ".build/ocr-cache")
        if os.path.isdir(cache):
            shutil.copytree(cache, os.path.join(out, "cache/ocr"))
        pipeline = os.path.join(work, "pipeline.json")
        with open(pipeline, "w") as f:
            settings = {"version": 1, "merchantMemory": memory}
            if args.accept_precision is not None:
                settings["acceptPrecision"] = args.accept_precision
            json.dump(settings, f)
        decisions = os.path.join(work, "decision.jsonl")
        seen_shops = set()
        rows = []
        taught = False
        for start in range(0, len(docs), args.batch):
            batch = docs[start:start + args.batch]
            for name in batch:
                shutil.copy(os.path.join(args.devset, "sroie", name), scans)
            shoebox(args, "run", os.path.dirname(scans), "--out", out, "--today", args.today, "--pipeline", pipeline)
            for name in batch:
                path = "sroie/" + name
                if memory and taught:
                    shoebox(args, "rescore", "--out", out, "--pipeline", pipeline)
                    taught = False
                record = suggestions(out).get(path)
                truth = expected["sroie/" + name]
                shop = truth["merchantCompared"]
                row = {"document": name, "repeat": shop in seen_shops, "status": record["status"] if record else "missing"}
                seen_shops.add(shop)
                if record is None or record["status"] in ("failed", "duplicate"):
                    rows.append(row)
                    continue
                want = truth["expected"]
                right = {
                    "merchant": compared_merchant(record) == shop,
                    "total": record.get("total") == want.get("total"),
                    "date": record.get("date") == want.get("date"),
                    "currency": record.get("currency") == want.get("currency"),
                }
                row.update(right)
                row["fromMemory"] = ((record.get("evidence") or {}).get("merchant") or {}).get("source") == "memory"
                row["merchantRead"] = record.get("merchant")
                row["reasons"] = record.get("reasons")
                rows.append(row)
                # The person: corrects what is wrong, from the ground truth, and accepts; accepts what waits and is right.
                fields = {f: want[f] for f, ok in right.items() if not ok and want.get(f)}
                if fields or record["status"] == "review":
                    taught = person(args, out, decisions, path, fields) or taught
        return rows
    finally:
        shutil.rmtree(work, ignore_errors=True)


def person(args, out, decisions, path, fields):
    """Accepts the record with the fields corrected; a value Shoebox refuses (the ground truth holds a few a person
    could not type, a negative total on a receipt) is left as the record has it, as a person would. True when
    the record was accepted."""
    fields = dict(fields)
    for _ in range(len(fields) + 1):
        with open(decisions, "w") as f:
            f.write(json.dumps({"source": path, "action": "accept", "fields": fields}) + "\n")
        r = shoebox(args, "review", "--out", out, "--apply", decisions, "--today", args.today, check=False)
        if r.returncode == 0:
            return True
        refused = [k for k in fields if f": {k}:" in r.stderr]
        if not refused:
            sys.exit(f"regress-memory: review --apply refused {path}: {r.stderr[-600:]}")
        for k in refused:
            del fields[k]
    return False


def figures(rows):
    scored = [r for r in rows if "merchant" in r]
    n = len(scored)
    accepted = [r for r in scored if r["status"] == "accepted"]

    def pct(k, of):
        return round(100.0 * k / of, 1) if of else None

    all_right = [r for r in accepted if r["merchant"] and r["total"] and r["date"] and r["currency"]]
    money_right = [r for r in accepted if r["total"] and r["date"] and r["currency"]]
    return {
        "documents": n,
        "merchant": pct(sum(r["merchant"] for r in scored), n),
        "total": pct(sum(r["total"] for r in scored), n),
        "date": pct(sum(r["date"] for r in scored), n),
        "autoAccepted": len(accepted),
        "autoAcceptedShare": pct(len(accepted), n),
        "autoAcceptedAllRight": pct(len(all_right), len(accepted)),
        "autoAcceptedMoneyRight": pct(len(money_right), len(accepted)),
        "merchantFromMemory": sum(r.get("fromMemory", False) for r in scored),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shoebox", default=os.path.join(ROOT, ".build/release/shoebox"))
    p.add_argument("--devset", default=os.path.join(ROOT, "../shared/devset"))
    p.add_argument("--batch", type=int, default=20, help="receipts per nightly run (default 20)")
    p.add_argument("--limit", type=int, default=0, help="only the first N receipts (0: all)")
    p.add_argument("--today", default="2026-12-02")
    p.add_argument("--accept-precision", type=float, default=None, help="the pipeline's acceptPrecision (default: the built-in 0.99)")
    p.add_argument("--report", default=os.path.join(ROOT, ".build/regress-memory.json"))
    p.add_argument("--folder-currency", default="MYR", help="the currency the scan folder's .shoebox.json says (default MYR; '' for none)")
    args = p.parse_args()
    args.shoebox = os.path.abspath(args.shoebox)
    if not os.path.isdir(os.path.join(args.devset, "sroie")):
        sys.exit(f"regress-memory: {args.devset}/sroie is not here (the devset lives beside the project, not in it)")
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
        shoebox(args, "regress", args.devset, "--expected", f.name)
        expected = {}
        for line in open(f.name):
            e = json.loads(line)
            if e["format"] == "sroie":
                expected[e["document"]] = e
    docs = sorted(d.split("/", 1)[1] for d in expected)
    if args.limit:
        docs = docs[:args.limit]
    report = {"batch": args.batch, "documents": len(docs), "acceptPrecision": args.accept_precision, "arms": {}}
    for name, memory in (("memory", True), ("page alone", False)):
        started = time.time()
        rows = arm(args, docs, expected, memory)
        report["arms"][name] = {
            "repeat": figures([r for r in rows if r["repeat"]]),
            "all": figures(rows),
            "seconds": round(time.time() - started),
            "records": rows,
        }
    os.makedirs(os.path.dirname(args.report), exist_ok=True)
    with open(args.report, "w") as f:
        json.dump(report, f, indent=2, sort_keys=True)
    gate = "built-in" if args.accept_precision is None else args.accept_precision
    print(f"regress-memory: {len(docs)} SROIE receipts, {args.batch} a night, acceptPrecision {gate}, each scored as the person first sees it")
    header = f"{'':34}{'docs':>6}{'merchant':>10}{'total':>8}{'date':>8}{'auto-accepted':>15}{'all right':>11}{'money right':>13}"
    print(header)
    for scope, label in (("repeat", "from a shop seen before"), ("all", "all receipts")):
        for name in report["arms"]:
            f = report["arms"][name][scope]
            line = f"{label + ', ' + name:34}{f['documents']:>6}{f['merchant']:>9}%{f['total']:>7}%{f['date']:>7}%"
            line += f"{f['autoAccepted']:>6} ({f['autoAcceptedShare']}%){'':1}{f['autoAcceptedAllRight']!s:>9}%{f['autoAcceptedMoneyRight']!s:>11}%"
            print(line)
    m, o = report["arms"]["memory"]["repeat"], report["arms"]["page alone"]["repeat"]
    if m["autoAcceptedShare"] is not None and o["autoAcceptedShare"] is not None:
        print(f"on repeat shops the memory moves merchant {o['merchant']}% → {m['merchant']}%, auto-accepted "
              f"{o['autoAcceptedShare']}% → {m['autoAcceptedShare']}% ({m['merchantFromMemory']} merchants from memory); "
              f"report: {args.report}")


if __name__ == "__main__":
    main()
