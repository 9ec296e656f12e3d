#!/usr/bin/env python3
"""What each kind of OCR pass still buys, on the devset: docs/benchmarks.md's per-pass table.

For every pass kind (the language re-read, each further segmentation mode, the upscaled pass, the faint-page
retry), `shoebox regress` runs the devset with that kind turned off and everything else as in the pipeline given
(default: the default pipeline), cross-validated (--folds 5), with the OCR cache; the fields that pass turns from
wrong to right and from right to wrong are those the run without it gets wrong and right against the full run.
A pass that is off by default (the faint retry) is measured by turning it on. The CPU each kind costs is read from a timed `shoebox run --log-json` of the same devset (--cpu-log): the
`pass-<kind>` tallies of tesseract's CPU per pass purpose.

    python3 tools/pass_value.py --shoebox .build/release/shoebox --devset ../shared/devset [--cpu-log run.jsonl]
"""
import argparse, json, os, subprocess, sys

FIELDS = ("total", "date", "currency", "merchant")
# (name, what it is, the pipeline keys that turn it off)
VARIANTS = [
    ("language", "the language re-read (whole pages again in the detected language)", {"languagePass": False}),
    # Off by default (issue 35): measured by turning it on.
    ("faint", "the faint-page retry (adaptive threshold), turned on", {"faintPass": True}),
    ("psm3", "further pass, segmentation mode 3", {"extraPassSegmentationModes": [11]}),
    ("psm11", "further pass, segmentation mode 11", {"extraPassSegmentationModes": [3]}),
    ("upscale", "further pass, small print scaled up", {"textHeightTarget": 0}),
    ("further", "all further passes (modes 3 and 11, upscale)", {"extraPassSegmentationModes": [], "textHeightTarget": 0}),
    ("all", "every pass after the first (language, further)",
     {"languagePass": False, "extraPassSegmentationModes": [], "textHeightTarget": 0}),
]


def regress(args, name, overrides, work):
    pipeline = dict(args.base)
    pipeline.update(overrides)
    path = os.path.join(work, f"{name}.json")
    with open(path, "w") as f:
        json.dump(pipeline, f)
    report = os.path.join(work, f"{name}-report.json")
    cmd = [args.shoebox, "regress", args.devset, "--today", "2026-11-30", "--ocr-cache", args.ocr_cache, "--quiet",
           "--folds", "5", "--folders", args.folders, "--pipeline", path, "--report", report]
    r = subprocess.run(cmd, env=dict(os.environ, OMP_THREAD_LIMIT="1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not os.path.exists(report):
        sys.exit(f"pass_value: regress failed for {name} ({r.returncode}): {r.stderr[-600:]}")
    with open(report) as f:
        return json.load(f)


def wrong(report):
    """(document, field) pairs read wrong, for the four fields."""
    return {(m["document"], m["field"]) for m in report["misses"] if m["field"] in FIELDS}


def gate(report):
    cv = report["crossValidated"]
    g = cv.get("gate") or {}
    return cv.get("cut"), g


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shoebox", required=True)
    p.add_argument("--devset", required=True)
    p.add_argument("--ocr-cache", default=".build/ocr-cache")
    p.add_argument("--folders", default="baselines/devset-folders.json")
    p.add_argument("--pipeline", help="the pipeline the variants change (default: the default pipeline)")
    p.add_argument("--cpu-log", help="--log-json of a timed `shoebox run` of the devset: CPU per pass kind")
    p.add_argument("--only", help="comma-separated variant names")
    p.add_argument("--work", default=".build/pass-value")
    args = p.parse_args()
    args.base = {"version": 1}
    if args.pipeline:
        with open(args.pipeline) as f:
            args.base = json.load(f)
    os.makedirs(args.work, exist_ok=True)
    cpu, pages = {}, {}
    if args.cpu_log:
        with open(args.cpu_log) as f:
            finished = [json.loads(l) for l in f if '"finished"' in l][-1]
        cpu = {k[5:]: v for k, v in finished.get("cpuSeconds", {}).items() if k.startswith("pass-")}
        pages = {k[11:]: v for k, v in finished.get("counts", {}).items() if k.startswith("pass-pages-")}
        cpu["second-reader"] = finished["cpuSeconds"].get("second-reader", 0) + finished["cpuSeconds"].get("second-reader-detect", 0)
    full = regress(args, "full", {}, args.work)
    full_wrong = wrong(full)
    checked = {f: full["fields"][f]["checked"] for f in FIELDS}
    print("| pass kind | pages read | CPU s | wrong → right | right → wrong | accuracy without it (with it, for a pass turned on): total, date, currency, merchant | CV accepted (right) so |")
    print("|---|---|---|---|---|---|---|")
    cut, g = gate(full)

    def accuracy(report):
        return ", ".join(f"{report['fields'][f]['normalised']}/{checked[f]}" for f in FIELDS)

    def accepted(report):
        c, g = gate(report)
        return f"{g.get('accepted', '?')} ({g.get('right', '?')}) at P ≥ {c}"

    every = sum(v for k, v in cpu.items() if k != "second-reader")
    print(f"| (every pass) | {sum(pages.values()) or '–'} | {f'{every:.1f}' if every else '–'} | – | – | {accuracy(full)} | {accepted(full)} |")
    only = set(args.only.split(",")) if args.only else None
    for name, what, overrides in VARIANTS:
        if only and name not in only:
            continue
        r = regress(args, name, overrides, args.work)
        w = wrong(r)
        adds = overrides.get("faintPass") is True  # this variant turns a pass on, the others turn one off
        gained = sorted(full_wrong - w if adds else w - full_wrong)  # wrong without the pass, right with it
        lost = sorted(w - full_wrong if adds else full_wrong - w)  # right without it, wrong with it
        by = lambda pairs: ", ".join(f"{f} {sum(1 for _, g in pairs if g == f)}" for f in FIELDS if any(g == f for _, g in pairs)) or "0"
        kinds = {"language": ["language"], "faint": ["faint", "upright"], "psm3": ["mode"], "psm11": ["mode"], "upscale": ["upscale"],
                 "further": ["mode", "upscale"], "all": ["language", "faint", "upright", "mode", "upscale"]}[name]
        c = sum(cpu.get(k, 0) for k in kinds)
        n = sum(pages.get(k, 0) for k in kinds)
        label = f"{name}: {what}" + (" (modes 3 and 11 together)" if name in ("psm3", "psm11") else "")
        print(f"| {label} | {n or '–'} | {c:.1f} | {by(gained)} | {by(lost)} | {accuracy(r)} | {accepted(r)} |", flush=True)
        with open(os.path.join(args.work, f"{name}-diff.json"), "w") as f:
            json.dump({"gained": gained, "lost": lost}, f, indent=1)
    if cpu:
        print(f"second reader CPU in the timed run: {cpu['second-reader']:.1f} s")


if __name__ == "__main__":
    main()
