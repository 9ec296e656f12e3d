#!/usr/bin/python3
"""Deadlines and recurring charges in a real browser (headless Chromium driven by Debian's Selenium; `make test`
runs this after review_in_browser.py).

A folder of fines (its preset in the pipeline file names the kind) and four monthly receipts of one shop rendered by
the fixture generator are read by the built binary with real OCR. In the browser, by keyboard: the fine waits for the
day its letter arrived; `e` puts the cursor on that field; the day typed makes its windows, each with a "settled"
button, which settles one. Then the shop's receipt shows its series, which is marked cancelled from a day; the store
says so (`shoebox recurring --json`, `shoebox deadlines --json`).

Usage: Tests/browser/deadlines_in_browser.py [path/to/shoebox]   (default .build/debug/shoebox)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from served import check, chromium, report, start_serve, tear_down

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOEBOX = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/shoebox"))
FIXTURES_TOOL = os.path.join(os.path.dirname(SHOEBOX), "shoebox-fixtures")
TODAY = "2026-12-20"
SHOP = "Kedai Buku Cahaya Ilmu SDN BHD"


def shoebox(*args, stdin=None):
    return subprocess.run([SHOEBOX, *args], capture_output=True, text=True, timeout=600, input=stdin)


def main():
    work = tempfile.mkdtemp(prefix="shoebox-deadlines-")
    serve = None
    driver = None
    try:
        series = os.path.join(work, "series")
        made = subprocess.run([FIXTURES_TOOL, "--shop-series", series], capture_output=True, text=True, timeout=600)
        check(made.returncode == 0, "the fixture generator renders the shop's monthly receipts: " + made.stderr[-300:])
        books = os.path.join(work, "scans/books")
        fines = os.path.join(work, "scans/fines")
        os.makedirs(books)
        os.makedirs(fines)
        for month in range(1, 5):
            shutil.copy(os.path.join(series, f"kedai-logo-{month:02d}.png"), books)
        shutil.copy(os.path.join(ROOT, "Fixtures/receipts/deu-baeckerei.jpg"), os.path.join(fines, "bescheid.jpg"))
        # A contract among the fines: its sidecar says so.
        shutil.copy(os.path.join(ROOT, "Fixtures/receipts/fra-boulangerie.png"), os.path.join(fines, "vertrag.png"))
        with open(os.path.join(fines, "vertrag.png.json"), "w") as f:
            f.write('{"documentKind": "contract"}')
        pipeline = os.path.join(work, "p.json")
        with open(pipeline, "w") as f:
            f.write('{"version": 1, "acceptPrecision": 0, "deadlines": {"fines": '
                    '{"documentKind": "fine", "payReducedDays": 14, "objectionDays": 28}}}')
        out = os.path.join(work, "out")
        run = shoebox("run", os.path.join(work, "scans"), "--out", out, "--today", TODAY, "--pipeline", pipeline)
        check(run.returncode == 0, "shoebox run: " + run.stderr[-300:])
        # A person confirmed the shop's receipts (its name is a logo the page does not print).
        decisions = os.path.join(work, "d.jsonl")
        with open(decisions, "w") as f:
            for month in range(1, 5):
                f.write(json.dumps({"source": f"books/kedai-logo-{month:02d}.png", "action": "accept",
                                    "fields": {"merchant": SHOP}}) + "\n")
        applied = shoebox("review", "--out", out, "--apply", decisions, "--today", TODAY)
        check(applied.returncode == 0, "the shop's receipts confirmed: " + applied.stderr[-300:])
        check("review  fines/bescheid.jpg: fine-received-on-missing" in shoebox("status", "--out", out).stdout,
              "the fine waits for the day it was received")

        serve, url, port = start_serve(SHOEBOX, out, TODAY, os.path.join(work, "serve.txt"))
        check(url is not None, "shoebox serve printed its address")
        if url is None:
            return
        driver = chromium()
        wait = WebDriverWait(driver, 20)
        driver.get(url)
        wait.until(lambda d: d.execute_script("const h = document.querySelector('#record h2'); return h && h.textContent")
                   == "fines/bescheid.jpg")
        body = driver.find_element(By.TAG_NAME, "body")

        def record_text():
            return driver.execute_script("return document.querySelector('#record .fields').textContent")

        check("fine" in driver.execute_script("return document.querySelector('#record .fields p').textContent"), "the record shows its kind")

        # e: the cursor starts on the field the record waits for; the day typed as the letter's date before it is
        # refused with the sentence beside it, the right one saved.
        body.send_keys("e")
        wait.until(lambda d: d.find_elements(By.ID, "edit-form"))
        box = driver.switch_to.active_element
        check(box.get_attribute("name") == "receivedOn", f"the cursor starts on receivedOn: {box.get_attribute('name')}")
        box.send_keys("2026-01-01", Keys.ENTER)
        wait.until(lambda d: d.execute_script(
            "const r = document.querySelector('[data-refusal=\"receivedOn\"]'); return r && r.textContent"))
        refusal = driver.find_element(By.CSS_SELECTOR, '[data-refusal="receivedOn"]').text
        check("before the letter's own date" in refusal, f"a day before the letter is refused beside the field: {refusal}")
        box = driver.switch_to.active_element
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.DELETE)
        box.send_keys("16.03.2026", Keys.ENTER)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.deadlines li[data-kind="pay-reduced"]'))
        text = record_text()
        check("2026-03-29 pay-reduced" in text and "2026-04-12 objection" in text, "the fine's windows are counted from the day typed")
        check("fine-received-on-missing" not in text, "its reason is gone")

        # A deadline settled by its button: it leaves `shoebox deadlines`.
        driver.find_element(By.CSS_SELECTOR, '.deadlines li[data-kind="pay-reduced"] button').click()
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, '.deadlines li[data-kind="pay-reduced"] button'))
        listed = json.loads(shoebox("deadlines", "--out", out, "--today", "2026-03-20", "--json").stdout)
        check([d["kind"] for d in listed] == ["objection"], f"the settled one has left the list: {listed}")

        # j: the contract. Its terms were not read; e puts the cursor on the end of term, and both typed give the last
        # day to cancel.
        body.send_keys("j")
        wait.until(lambda d: d.execute_script("const h = document.querySelector('#record h2'); return h && h.textContent")
                   == "fines/vertrag.png")
        check("contract" in driver.execute_script("return document.querySelector('#record .fields p').textContent"),
              "the contract shows its kind")
        body.send_keys("e")
        wait.until(lambda d: d.find_elements(By.ID, "edit-form"))
        box = driver.switch_to.active_element
        check(box.get_attribute("name") == "endOfTerm", f"the cursor starts on endOfTerm: {box.get_attribute('name')}")
        box.send_keys("31.12.2027", Keys.TAB)
        for _ in range(5):
            box = driver.switch_to.active_element
            if box.get_attribute("name") == "noticePeriod":
                break
            box.send_keys(Keys.TAB)
        box.send_keys("3 Monate", Keys.ENTER)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.deadlines li[data-kind="cancellation"]'))
        check("2027-09-30 cancellation" in record_text() and "3 months" in record_text(),
              f"the contract's terms typed give its cancellation day: {record_text()}")

        # The shop's receipt shows its series; marked cancelled from a day, the store has it.
        next(a for a in driver.find_elements(By.CSS_SELECTOR, "#counts a") if a.text.startswith("accepted")).click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '#items li[data-source="books/kedai-logo-04.png"]'))
        driver.find_element(By.CSS_SELECTOR, '#items li[data-source="books/kedai-logo-04.png"]').click()
        # The first accepted record opened by itself shows the same series: wait for this one's, read through the DOM
        # at the moment of asking (the record is drawn again when it opens).
        wait.until(lambda d: d.execute_script(
            "const h = document.querySelector('#record h2'); return h && h.textContent === 'books/kedai-logo-04.png'"
            " && !!document.querySelector('#series form')"))
        shown = driver.execute_script("return document.getElementById('series').textContent")
        check(SHOP in shown and "monthly" in shown and "4 charges" in shown, f"the record shows its series: {shown}")
        driver.execute_script("document.getElementById('cancelled-on').value = '2026-04-20'")
        driver.find_element(By.CSS_SELECTOR, "#series form button").click()
        wait.until(lambda d: "marked cancelled on 2026-04-20" in d.execute_script(
            "return document.getElementById('message').textContent"))
        found = json.loads(shoebox("recurring", "--out", out, "--today", TODAY, "--json").stdout)["series"]
        check(len(found) == 1 and found[0]["cancelledOn"] == "2026-04-20" and found[0]["merchant"] == SHOP,
              f"the series is marked cancelled in the store: {found}")
    finally:
        tear_down(driver, serve, work)
    report("deadlines_in_browser")


if __name__ == "__main__":
    main()
