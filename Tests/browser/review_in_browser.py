#!/usr/bin/python3
"""Review in a real browser: headless Chromium driven by Selenium (Debian's chromium, chromium-driver and
python3-selenium; `make test` installs them and runs this after `swift test`).

A store is made from the sample folder by the built binary; `shoebox serve` serves it; the test works through
the queue by keyboard alone (accept, a refused edit, undo, reject), checks each decision with `shoebox status`,
exports and reads the CSV back with Python's csv module, and checks that a request without the token is refused
in the browser too. It saves a screenshot of a record (.build/review.png; docs/review.png is a copy of one).

Usage: Tests/browser/review_in_browser.py [path/to/shoebox]   (default .build/debug/shoebox)
"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from served import check, chromium, report, start_serve, tear_down

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOEBOX = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/shoebox"))
TODAY = "2026-11-30"


def shoebox(*args):
    return subprocess.run([SHOEBOX, *args], capture_output=True, text=True, timeout=600)


def status(out):
    return shoebox("status", "--out", out).stdout


def main():
    work = tempfile.mkdtemp(prefix="shoebox-browser-")
    serve = None
    driver = None
    try:
        scans = os.path.join(work, "scans")
        shutil.copytree(os.path.join(ROOT, "Fixtures/sample-scans"), scans)
        out = os.path.join(work, "out")
        # The queue is made, not left to the calibrated gate (tested elsewhere): the rules alone decide, and two
        # sidecars that disagree with their pages hold those two records in review.
        rules = os.path.join(work, "rules-only.json")
        with open(rules, "w") as f:
            f.write('{"version": 1, "acceptPrecision": 0}')
        with open(os.path.join(scans, "2026-03-berlin-trip/IMG_0412.jpg.json"), "w") as f:
            f.write('{"merchant": "Somewhere Else GmbH"}')
        with open(os.path.join(scans, "office-supplies/scan_2026-02-03_001.pdf.json"), "w") as f:
            f.write('{"total": "1.00 GBP"}')
        run = shoebox("run", scans, "--out", out, "--today", TODAY, "--pipeline", rules)
        check(run.returncode == 0, "shoebox run on the sample folder: " + run.stderr[-300:])
        waiting = re.findall(r"^  review  (\S+):", status(out), re.M)
        check(len(waiting) == 2, f"two records wait in review: {waiting}")

        serve, url, port = start_serve(SHOEBOX, out, TODAY, os.path.join(work, "serve.txt"))
        check(url is not None, "shoebox serve printed its address")
        if url is None:
            return

        driver = chromium()
        wait = WebDriverWait(driver, 20)

        # Without the token: refused, in the browser as with curl.
        driver.get(f"http://127.0.0.1:{port}/")
        check("needs the address with its token" in driver.find_element(By.TAG_NAME, "body").text, "no token: refused")

        driver.get(url)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#items li")) == len(waiting))
        body = driver.find_element(By.TAG_NAME, "body")

        def key(k):
            body.send_keys(k)

        # Read through the page's own DOM at the moment of asking: the record is drawn again after every decision.
        def current():
            return driver.execute_script("const h = document.querySelector('#record h2'); return h ? h.textContent : ''")

        def count():
            return driver.execute_script("return document.querySelectorAll('#items li').length")

        def message():
            return driver.execute_script("return document.getElementById('message').textContent")

        # By keyboard alone in a form: Tab to the field named, replace what it holds (type into a list to pick
        # from it), and save: Enter, or Ctrl+Enter in the note's text area.
        def tab_to(field):
            for _ in range(30):
                active = driver.switch_to.active_element
                if active.get_attribute("name") == field:
                    return active
                active.send_keys(Keys.TAB)
            raise AssertionError(f"Tab never reached the {field} field")

        def fill(field, value, save=True):
            box = tab_to(field)
            if box.tag_name != "select":
                box.send_keys(Keys.CONTROL, "a")
                box.send_keys(Keys.DELETE)
            box.send_keys(value)
            if save:
                box.send_keys(Keys.CONTROL, Keys.ENTER) if box.tag_name == "textarea" else box.send_keys(Keys.ENTER)

        # e: the fields become a form in place, the cursor on the first field.
        def typed(field, value):
            key("e")
            wait.until(lambda d: d.find_elements(By.ID, "edit-form"))
            fill(field, value)

        # The page image and the evidence boxes over it.
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".sheet .box"))
        check(driver.execute_script("return document.querySelector('.sheet img').naturalWidth") > 0, "the page image is shown")
        labels = [b.text for b in driver.find_elements(By.CSS_SELECTOR, ".sheet .box")]
        check(any("total" in l for l in labels), f"a box marks the total's line: {labels}")
        os.makedirs(os.path.join(ROOT, ".build"), exist_ok=True)
        driver.save_screenshot(os.path.join(ROOT, ".build/review.png"))

        # The line items beside the scan, each boxed on it; a row clicked opens its description and amount to correct.
        rows = driver.find_elements(By.CSS_SELECTOR, ".items tr[data-item]")
        check(len(rows) >= 2 and "item-1" in labels and f"item-{len(rows)}" in labels, f"the items are listed and boxed: {len(rows)} rows, {labels}")
        rows[0].click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".item-edit"))
        amount = driver.find_element(By.CSS_SELECTOR, '.item-edit input[name="amount"]')
        amount.clear()
        amount.send_keys("1,25", Keys.ENTER)
        wait.until(lambda d: "item 1:" in message() and not d.find_elements(By.CSS_SELECTOR, ".item-edit"))
        shown = driver.execute_script("return document.querySelector('.items tr[data-item=\"1\"] td.amount').textContent")
        heading = driver.execute_script("return document.querySelector('.items h3').textContent")
        check(shown == "1.25" and "set by a person" in heading, f"an item's amount is corrected: {shown}, {heading}")
        labels = [b.text for b in driver.find_elements(By.CSS_SELECTOR, ".sheet .box")]

        # j / k move through the queue.
        wait.until(lambda d: current() != "")
        first = current()
        key("j")
        wait.until(lambda d: current() != first)
        second = current()
        key("k")
        wait.until(lambda d: current() == first)

        # a: accepted, out of the queue, as `shoebox status` reads the store.
        key("a")
        wait.until(lambda d: count() == len(waiting) - 1)
        check(f"review  {first}:" not in status(out), f"a accepted {first}")

        # e: an amount that is none is refused with the terminal's sentence beside the field, and nothing is saved.
        check(current() == second, "the next record opens by itself")
        typed("total", "12,3x")
        wait.until(lambda d: "is not an amount" in message())
        check("error" in driver.find_element(By.ID, "message").get_attribute("class"), "a bad amount is refused, shown as an error")
        refusal = driver.find_element(By.CSS_SELECTOR, '#edit-form [data-refusal="total"]').text
        check("is not an amount" in refusal, f"the refusal stands beside the total: {refusal}")
        check(driver.switch_to.active_element.get_attribute("name") == "total", "the cursor is back on the refused total")
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        wait.until(lambda d: not d.find_elements(By.ID, "edit-form"))

        # u: the accept is undone; the record is back in the queue.
        key("u")
        wait.until(lambda d: count() == len(waiting))
        check(f"review  {first}:" in status(out), f"u undid the accept of {first}")

        # r on the second record: rejected, never exported.
        driver.find_element(By.CSS_SELECTOR, f'#items li[data-source="{second}"]').click()
        wait.until(lambda d: current() == second)
        key("r")
        wait.until(lambda d: count() == len(waiting) - 1)
        check(f"review  {second}:" not in status(out), f"r rejected {second}")

        # An accepted record corrected: open the accepted list, edit a total; the export shows the correction.
        next(a for a in driver.find_elements(By.CSS_SELECTOR, "#counts a") if a.text.startswith("accepted")).click()
        wait.until(lambda d: current() != "" and current() not in (first, second))
        corrected = current()
        typed("total", "1234.56")
        wait.until(lambda d: "edit total" in message())


        # The category picked from the folder's .shoebox.json list, a note and tax lines, in one form, one Enter.
        check(corrected.startswith("2026-03-berlin-trip/"), f"the accepted list opens on the trip's first record: {corrected}")
        key("e")
        wait.until(lambda d: d.find_elements(By.ID, "edit-form"))
        offered = driver.execute_script("return [...document.querySelectorAll('#edit-form select[name=category] option')].map(o => o.value)")
        check("meals" in offered and "groceries" not in offered, f"the category list is the folder's: {offered}")
        fill("category", "meals", save=False)
        fill("note", "client dinner", save=False)
        fill("tax", "19=3,00")
        wait.until(lambda d: "edit tax" in message() and not d.find_elements(By.ID, "edit-form"))
        shown = driver.execute_script("return document.querySelector('td[data-field=category]').textContent")
        check(shown.startswith("meals"), f"the category is saved and shown: {shown}")
        # x: an expense without a receipt, in a form; refused without a total, then entered, accepted, the person's.
        key("x")
        wait.until(lambda d: d.find_elements(By.ID, "add-form"))
        fill("folder", "office-supplies", save=False)
        fill("date", "2026-03-20", save=False)
        fill("merchant", "Parking Mitte")
        wait.until(lambda d: "needs a total" in message())
        fill("total", "4,50 €", save=False)
        fill("note", "no receipt: ticket machine")
        wait.until(lambda d: "entered by hand" in message())
        accuracy = shoebox("status", "--out", out, "--accuracy").stdout
        check("7 in the browser" in accuracy, f"status --accuracy counts the browser's decisions (an item corrected among them): {accuracy}")

        # Export: the CSV holds the accepted records, neither the one in review nor the rejected one.
        export = shoebox("export", "--out", out)
        check(export.returncode == 0, "shoebox export: " + export.stderr[-300:])
        exported = []
        totals = {}
        filed = {}
        byHand = []
        for name in sorted(os.listdir(os.path.join(out, "exports"))):
            with zipfile.ZipFile(os.path.join(out, "exports", name)) as z:
                rows = list(csv.DictReader(io.StringIO(z.read("summary.csv").decode("utf-8"))))
                exported += [r["original_path"] for r in rows]
                totals.update({r["original_path"]: r["total"] for r in rows})
                filed.update({r["original_path"]: (r["category"], r["note"], r.get("tax_19"), r.get("tax_7") or "") for r in rows})
                byHand += [r for r in rows if "entered-by-hand" in r["original_path"]]
                manifest = z.read("MANIFEST.sha256").decode("utf-8")
                check(all(n in manifest for n in z.namelist() if n != "MANIFEST.sha256"), f"{name}: every entry is in the manifest")
                check(not any("entered-by-hand" in n for n in z.namelist()), f"{name}: no file for an expense entered by hand")
        check(first not in exported and second not in exported, f"neither {first} nor {second} is exported: {exported}")
        check(len(exported) >= 5, f"the accepted records are exported: {exported}")
        check(totals.get(corrected) == "1234.56", f"the corrected total of {corrected} is exported: {totals.get(corrected)}")
        check(filed.get(corrected) == ("meals", "client dinner", "3.00", ""), f"its category, note and tax lines are exported: {filed.get(corrected)}")
        check(len(byHand) == 1 and byHand[0]["total"] == "4.50" and byHand[0]["currency"] == "EUR" and byHand[0]["file"] == ""
              and byHand[0]["reviewed_by"] == "person" and byHand[0]["note"] == "no receipt: ticket machine",
              f"the expense entered by hand is exported, without a file: {byHand}")
    finally:
        tear_down(driver, serve, work)
    report("review_in_browser")


if __name__ == "__main__":
    main()
