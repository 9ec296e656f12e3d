#!/usr/bin/env python3
"""make bench: Shoebox against the tools a user would run instead, on the same scanned corpus, in one run.

Corpus (built under .build/bench/corpus): the synthetic fixtures as images and as image-only PDFs (img2pdf),
plus devset receipts wrapped as PDFs when ../shared/devset is there. Measured, one after another:

  shoebox      `shoebox run` (release build), two workers: first, and again into a new folder after the other
               tools; the ratios use the mean of the two
  cli-loop     `pdftoppm -r 300 -gray` for the PDFs, then the tesseract CLI on every page (psm 6), two at a
               time, OMP_THREAD_LIMIT=1
  ocrmypdf     `ocrmypdf --jobs 2 --output-type none --sidecar`, one document after another
  rerun        `shoebox run` again on the unchanged folder (the cache)
  engine limit tesseract's own CPU time per page (the CLI loop's, summed) divided by the two cores; and
               Shoebox's own: the CPU time its run spent in tesseract's recognition (all passes), over two
               cores, against its wall time, with the CPU of every other phase (--log-json)

Prints pages per second, peak RSS, and the ratios. Timing is wall clock on a shared VM: compare the ratios,
which are measured minutes apart on the same inputs.
"""
import os, shutil, subprocess, sys, time, glob, resource, json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".build", "bench")
CORPUS = os.path.join(WORK, "corpus")
SHOEBOX = os.path.join(ROOT, ".build", "release", "shoebox")
DEVSET = os.path.normpath(os.path.join(ROOT, "..", "shared", "devset", "sroie"))
ENV = dict(os.environ, OMP_THREAD_LIMIT="1")
DEVSET_RECEIPTS = int(os.environ.get("BENCH_DEVSET_RECEIPTS", "45"))


def run(cmd, **kw):
    return subprocess.run(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def timed(cmd):
    """Wall seconds and peak RSS (KiB, from GNU time) of one command."""
    start = time.monotonic()
    r = run(["/usr/bin/time", "-f", "%M", *cmd])
    wall = time.monotonic() - start
    if r.returncode not in (0, 1):
        sys.exit(f"bench: {' '.join(cmd[:3])} failed ({r.returncode}): {r.stderr[-800:]}")
    rss = int(r.stderr.strip().splitlines()[-1])
    return wall, rss, r


def pdf_pages(path):
    out = run(["pdfinfo", path]).stdout
    for line in out.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return 1


def build_corpus():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(os.path.join(CORPUS, "fixtures"))
    os.makedirs(os.path.join(CORPUS, "devset"))
    fixtures = sorted(glob.glob(os.path.join(ROOT, "Fixtures", "receipts", "*.png")) + glob.glob(os.path.join(ROOT, "Fixtures", "receipts", "*.jpg")))
    for f in fixtures:
        name = os.path.basename(f)
        shutil.copy(f, os.path.join(CORPUS, "fixtures", name))
        stem = os.path.splitext(name)[0]
        run(["img2pdf", f, "-o", os.path.join(CORPUS, "fixtures", f"{stem}-scanned.pdf")])
    for f in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "receipts", "*.pdf"))):
        shutil.copy(f, os.path.join(CORPUS, "fixtures", os.path.basename(f)))
    devset = []
    if os.path.isdir(DEVSET):
        devset = sorted(glob.glob(os.path.join(DEVSET, "*.jpg")))[:DEVSET_RECEIPTS]
        for f in devset:
            stem = os.path.splitext(os.path.basename(f))[0]
            run(["img2pdf", f, "-o", os.path.join(CORPUS, "devset", f"{stem}.pdf")])
    docs = sorted(glob.glob(os.path.join(CORPUS, "*", "*")))
    pages = sum(pdf_pages(d) if d.endswith(".pdf") else 1 for d in docs)
    return docs, pages, len(devset)


def cli_loop(docs):
    """pdftoppm + tesseract CLI, two at a time; returns wall, peak RSS, pages, tesseract CPU seconds."""
    pages_dir = os.path.join(WORK, "cli-pages")
    os.makedirs(pages_dir, exist_ok=True)
    start = time.monotonic()
    images = []
    peak = 0
    for d in docs:
        stem = os.path.join(pages_dir, os.path.basename(d).replace(".", "_"))
        if d.endswith(".pdf"):
            _, rss, _ = timed(["pdftoppm", "-r", "300", "-gray", "-png", d, stem])
            peak = max(peak, rss)
            images += sorted(glob.glob(stem + "*.png"))
        else:
            images.append(d)
    # Two tesseract processes at a time.
    cpu = 0.0
    running = []
    queue = list(images)

    def reap(block):
        nonlocal cpu, peak
        for p in list(running):
            if block or p.poll() is not None:
                p.wait()
                running.remove(p)
                lines = p.stderr.read().strip().splitlines()
                u, s, m = lines[-1].split()
                cpu += float(u) + float(s)
                peak = max(peak, int(m))
                if not block:
                    return

    while queue or running:
        while queue and len(running) < 2:
            img = queue.pop(0)
            running.append(subprocess.Popen(["/usr/bin/time", "-f", "%U %S %M", "tesseract", img, "-", "--psm", "6"],
                                            env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
        if running:
            time.sleep(0.02)
            reap(False)
    return time.monotonic() - start, peak, len(images), cpu


def ocrmypdf(docs):
    exe = shutil.which("ocrmypdf")
    if not exe:
        return None
    start = time.monotonic()
    peak = 0
    out = os.path.join(WORK, "ocrmypdf")
    os.makedirs(out, exist_ok=True)
    for d in docs:
        sidecar = os.path.join(out, os.path.basename(d) + ".txt")
        cmd = [exe, "--jobs", "2", "--output-type", "none", "--sidecar", sidecar, "--force-ocr", "--quiet"]
        if not d.endswith(".pdf"):
            cmd += ["--image-dpi", "300"]
        _, rss, r = timed(cmd + [d, "-"])
        peak = max(peak, rss)
    return time.monotonic() - start, peak


def accuracy(scanned_dir, out):
    """Field accuracy of the timed run itself: `shoebox regress` over the corpus's known fields (the fixtures'
    expectations, SROIE's keys), reading the run's own OCR cache, so it OCRs nothing and scores what was timed."""
    truth = os.path.join(WORK, "truth")
    shutil.rmtree(truth, ignore_errors=True)
    os.makedirs(os.path.join(truth, "fixtures"))
    for f in glob.glob(os.path.join(ROOT, "Fixtures", "receipts", "*.expected.json")):
        with open(f) as fh:
            expected = json.load(fh)
        for name in (expected["file"], os.path.splitext(expected["file"])[0] + "-scanned.pdf"):
            if os.path.exists(os.path.join(scanned_dir, "fixtures", name)):
                with open(os.path.join(truth, "fixtures", name + ".expected.json"), "w") as fh:
                    json.dump(dict(expected, file=name), fh)
    if os.path.isdir(os.path.join(scanned_dir, "devset")):
        os.makedirs(os.path.join(truth, "devset"))
        for pdf in glob.glob(os.path.join(scanned_dir, "devset", "*.pdf")):
            stem = os.path.splitext(os.path.basename(pdf))[0]
            shutil.copy(os.path.join(DEVSET, stem + ".json"), os.path.join(truth, "devset", stem + ".json"))
    report = os.path.join(WORK, "accuracy.json")
    r = run([SHOEBOX, "regress", truth, "--scans", scanned_dir, "--ocr-cache", os.path.join(out, "cache", "ocr"),
             "--today", "2026-11-30", "--quiet", "--report", report])
    if not os.path.exists(report):  # a run with misses exits non-zero and still writes its report
        return None
    with open(report) as fh:
        return json.load(fh)


def main():
    if not os.access(SHOEBOX, os.X_OK):
        sys.exit("bench: build first (make release)")
    docs, pages, devset = build_corpus()
    # Every tool gets every document (the one born-digital fixture PDF included: a user would feed it too).
    scanned = docs
    scanned_pages = pages
    print(f"corpus: {len(docs)} documents, {pages} pages (fixtures as images and image-only PDFs; "
          f"{devset} devset receipts wrapped as PDFs{'' if devset else ': ../shared/devset is not here'})")

    scanned_dir = os.path.join(WORK, "scanned")
    for d in scanned:
        dest = os.path.join(scanned_dir, os.path.relpath(d, CORPUS))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy(d, dest)
    def shoebox_run(name):
        """A first run into a new output folder: wall seconds, peak RSS, CPU seconds per phase, the folder."""
        out = os.path.join(WORK, name)
        shutil.rmtree(out, ignore_errors=True)
        log = out + ".jsonl"
        wall, rss, _ = timed([SHOEBOX, "run", scanned_dir, "--out", out, "--jobs", "2", "--today", "2026-11-30", "--log-json", log])
        with open(log) as f:
            finished = [json.loads(l) for l in f if '"finished"' in l][-1]
        return wall, rss, finished.get("cpuSeconds", {}), out

    # Shoebox runs first and again last, and its mean is compared: this VM's speed drifts by a quarter within
    # minutes (the same Shoebox run took 58 s and 77 s an hour apart), and the other tools run in between.
    first = shoebox_run("shoebox-out")
    out = first[3]
    re_wall, re_rss, _ = timed([SHOEBOX, "run", scanned_dir, "--out", out, "--jobs", "2", "--today", "2026-11-30"])
    cli_wall, cli_rss, cli_pages, tess_cpu = cli_loop(scanned)
    ocr = ocrmypdf(scanned)
    last = shoebox_run("shoebox-out-last")
    sb_wall, sb_rss = (first[0] + last[0]) / 2, max(first[1], last[1])
    cpu = {k: (first[2].get(k, 0) + last[2].get(k, 0)) / 2 for k in set(first[2]) | set(last[2])}

    def pps(wall):
        return scanned_pages / wall if wall > 0 else 0

    limit = scanned_pages / (tess_cpu / 2) if tess_cpu > 0 else 0
    rows = [("shoebox run (2 workers), first", first[0], first[1]), ("shoebox run (2 workers), last", last[0], last[1]),
            ("shoebox run (2 workers), mean of the two", sb_wall, sb_rss), ("pdftoppm + tesseract CLI, 2 at a time", cli_wall, cli_rss)]
    if ocr:
        rows.append(("ocrmypdf --jobs 2 --output-type none --sidecar", ocr[0], ocr[1]))
    rows.append(("shoebox run again, unchanged folder (cache)", re_wall, re_rss))
    print()
    print("| tool | seconds | pages/s | peak RSS MiB |")
    print("|---|---|---|---|")
    for name, wall, rss in rows:
        print(f"| {name} | {wall:.1f} | {pps(wall):.2f} | {rss / 1024:.0f} |")
    print(f"| engine-bound limit (tesseract CPU {tess_cpu:.1f} s over {cli_pages} pages / 2 cores) | {tess_cpu / 2:.1f} | {limit:.2f} | – |")
    print()
    print(f"shoebox / CLI loop: {cli_wall / sb_wall:.2f}×   (target ≥ 1.5×)")
    if ocr:
        print(f"shoebox / ocrmypdf: {ocr[0] / sb_wall:.2f}×   (target ≥ 1.5×)")
    else:
        print("shoebox / ocrmypdf: not measured (ocrmypdf is not installed: pip install ocrmypdf)")
    # For reference only: the CLI loop's tesseract does other work (one psm-6 pass on 300-dpi renders) minutes
    # apart from Shoebox on a VM whose speed drifts; the target is measured on Shoebox's own recognition below.
    print(f"shoebox against the CLI loop's engine-bound limit: {pps(sb_wall) / limit:.3f}   (reference: another workload, "
          "measured minutes apart)" if limit else "")
    # The same limit from Shoebox's own run: tesseract's recognition CPU time in that run (every pass it made)
    # over the two cores, against its wall time: how busy it kept the engine.
    recognition = cpu.get("recognition", 0)
    if recognition:
        print(f"shoebox's own engine-bound limit (mean of its two runs): recognition CPU {recognition:.1f} s / 2 cores = "
              f"{recognition / 2:.1f} s; wall {sb_wall:.1f} s: {recognition / 2 / sb_wall:.3f}   (target ≥ 0.95; first run "
              f"{first[2].get('recognition', 0) / 2 / first[0]:.3f}, last {last[2].get('recognition', 0) / 2 / last[0]:.3f})")
        other = {k: v for k, v in sorted(cpu.items(), key=lambda kv: -kv[1]) if k not in ("recognition", "process") and v > 0}
        print(f"  CPU seconds: process {cpu.get('process', 0):.1f}, recognition {recognition:.1f}, "
              + ", ".join(f"{k} {v:.1f}" for k, v in other.items()))
    print(f"cached rerun: {first[0] / re_wall:.0f}× faster than the first run   (target ≥ 50×)")
    scores = accuracy(scanned_dir, out)
    if scores:
        fields = scores["fields"]
        print(f"field accuracy of the timed run ({scores['documents']} documents with known fields, default pipeline, "
              "every pass; `make regress-dev` gates the same reading on the devset): "
              + ", ".join(f"{k} {fields[k]['normalised']}/{fields[k]['checked']}" for k in ("merchant", "date", "total", "currency") if k in fields))
    print("note: shoebox reads a page again (another segmentation mode, scaled, adaptive threshold) only where a field came out"
          " uncertain; the CLI loop and ocrmypdf read every page once.")


if __name__ == "__main__":
    main()
