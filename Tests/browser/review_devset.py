#!/usr/bin/python3
"""Review 50 real receipts in the browser by keyboard alone, timed.

A store is made from the first 80 SROIE receipts of ../shared/devset (copied to a temporary folder: the devset stays
as it is), reading their pages from the regress OCR cache (.build/ocr-cache, filled by `make regress-dev`). Then
`shoebox serve` serves it, and headless Chromium opens each record in the queue, waits for its page image, and
presses `a` (`r` for every tenth). It prints the time per record and checks the store after.

Usage: Tests/browser/review_devset.py [path/to/shoebox] [devset]   (`make review-dev`)
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from served import chromium, start_serve

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOEBOX = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/shoebox"))
DEVSET = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "../shared/devset")
ITEMS = 50


def main():
    work = tempfile.mkdtemp(prefix="shoebox-review-dev-")
    serve = driver = None
    try:
        scans = os.path.join(work, "scans/sroie")
        os.makedirs(scans)
        for name in sorted(n for n in os.listdir(os.path.join(DEVSET, "sroie")) if n.endswith(".jpg"))[:80]:
            shutil.copy(os.path.join(DEVSET, "sroie", name), scans)
        out = os.path.join(work, "out")
        cache = os.path.join(ROOT, ".build/ocr-cache")
        if os.path.isdir(cache):
            shutil.copytree(cache, os.path.join(out, "cache/ocr"))
        run = subprocess.run([SHOEBOX, "run", os.path.dirname(scans), "--out", out, "--today", "2026-12-02"], capture_output=True, text=True)
        if run.returncode not in (0, 1):
            sys.exit(f"review-dev: shoebox run failed: {run.stderr[-500:]}")
        serve, url, _ = start_serve(SHOEBOX, out, "2026-12-02", os.path.join(work, "serve.txt"))
        if url is None:
            sys.exit("review-dev: shoebox serve printed no address")
        driver = chromium()
        wait = WebDriverWait(driver, 20)
        driver.get(url)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#items li"))

        def count():
            return driver.execute_script("return document.querySelectorAll('#items li').length")

        waiting = count()
        if waiting < ITEMS:
            sys.exit(f"review-dev: only {waiting} records wait in review; {ITEMS} are needed")
        body = driver.find_element(By.TAG_NAME, "body")
        times = []
        for i in range(ITEMS):
            t0 = time.time()
            wait.until(lambda d: d.execute_script("const i = document.querySelector('.sheet img'); return i && i.complete && i.naturalWidth > 0"))
            n = count()
            body.send_keys("r" if i % 10 == 9 else "a")
            wait.until(lambda d: count() == n - 1)
            times.append(time.time() - t0)
        status = subprocess.run([SHOEBOX, "status", "--out", out, "--accuracy"], capture_output=True, text=True).stdout
        decided = re.search(r"decisions: (\d+) in force \(0 in the terminal, (\d+) in the browser", status)
        ok = decided is not None and decided.group(1) == str(ITEMS) and decided.group(2) == str(ITEMS)
        times.sort()
        print(f"review-dev: {ITEMS} of {waiting} records reviewed by keyboard; per record (page image loaded, decision saved): "
              f"median {times[ITEMS // 2] * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms; the store holds {ITEMS} browser decisions: {ok}")
        if not ok:
            sys.exit(f"review-dev: the store does not hold the decisions:\n{status}")
    finally:
        if driver is not None:
            driver.quit()
        if serve is not None:
            serve.send_signal(signal.SIGINT)
            serve.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
