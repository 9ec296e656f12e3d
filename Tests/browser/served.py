"""What the browser scripts need: `shoebox serve` started on a free port (its address read from what it prints),
headless Chromium (Debian's chromium and chromium-driver), checks that are printed and counted, and the tear-down."""
import re
import shutil
import signal
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def start_serve(shoebox, out, today, printed):
    """(the process, its address with the token, its port); the address is None when it printed none in 10 s."""
    process = subprocess.Popen([shoebox, "serve", "--out", out, "--port", "0", "--today", today],
                               stdout=open(printed, "w"), stderr=subprocess.STDOUT)
    for _ in range(200):
        time.sleep(0.05)
        m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=[0-9a-f]{64}", open(printed).read())
        if m:
            return process, m.group(0), m.group(1)
    return process, None, None


def chromium():
    options = Options()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,860", "--disable-dev-shm-usage"]:
        options.add_argument(a)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


failures = []


def check(condition, what):
    """One check: printed as it is made, remembered when it fails."""
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def tear_down(driver, serve, work):
    """The browser closed, `shoebox serve` stopped by Ctrl-C (checked to exit 0), the work folder removed."""
    if driver is not None:
        driver.quit()
    if serve is not None:
        serve.send_signal(signal.SIGINT)
        try:
            check(serve.wait(timeout=10) == 0, "shoebox serve stops on Ctrl-C")
        except subprocess.TimeoutExpired:
            serve.kill()
            check(False, "shoebox serve stops on Ctrl-C")
    shutil.rmtree(work, ignore_errors=True)


def report(name):
    """Exit 1 when a check failed."""
    if failures:
        print(f"{name}: {len(failures)} failed", flush=True)
        sys.exit(1)
    print(f"{name}: all passed", flush=True)
