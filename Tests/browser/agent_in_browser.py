#!/usr/bin/python3
"""A record an agent filed, in the review desk (headless Chromium, as review_in_browser.py): a receipt dropped into the
inbox with a sidecar whose total the page contradicts waits in review, and the desk says who entered it ("entered by
agent NAME"), with the agent's total among the alternates, said as the agent's. Saves .build/agent-review.png
(docs/agent-review.png is a copy of one).

Usage: Tests/browser/agent_in_browser.py [path/to/shoebox]   (default .build/debug/shoebox)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from served import check, chromium, report, start_serve, tear_down

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOEBOX = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/shoebox"))
TODAY = "2026-12-07"


def main():
    work = tempfile.mkdtemp(prefix="shoebox-agent-desk-")
    out = os.path.join(work, "out")
    driver = serve = None
    try:
        inbox = os.path.join(out, "inbox", "trip")
        os.makedirs(inbox)
        os.makedirs(os.path.join(work, "scans"))
        shutil.copy(os.path.join(ROOT, "Fixtures/sample-scans/2026-03-berlin-trip/IMG_0412.jpg"), inbox)
        with open(os.path.join(inbox, "IMG_0412.jpg.json"), "w") as f:
            json.dump({"agent": "Claude Code", "confirmedByPerson": True, "merchant": "Currywurst am Tor GmbH", "total": "61.60 EUR"}, f)
        run = subprocess.run([SHOEBOX, "run", os.path.join(work, "scans"), "--out", out, "--today", TODAY], capture_output=True, text=True)
        check("review  trip/IMG_0412.jpg: sources-disagree" in run.stdout, f"the drop waits in review: {run.stdout[-300:]}")
        serve, url, port = start_serve(SHOEBOX, out, TODAY, os.path.join(work, "serve.txt"))
        check(url is not None, "shoebox serve prints its address")
        driver = chromium()
        driver.get(url)
        WebDriverWait(driver, 15).until(lambda d: "entered by agent" in d.find_element(By.TAG_NAME, "body").text)
        body = driver.find_element(By.TAG_NAME, "body").text
        check("entered by agent Claude Code, confirmed by the person" in body, "the desk says the agent entered it, and that the person confirmed")
        check("total: 61.60 (agent Claude Code)" in body, "the agent's total is an alternate, said as the agent's")
        driver.save_screenshot(os.path.join(ROOT, ".build/agent-review.png"))
    finally:
        tear_down(driver, serve, work)
    report("agent in browser")


if __name__ == "__main__":
    main()
