"""Signs in through the gateway in headless Chromium as a person would, for every demo user, on a desktop and
a 375 px wide phone screen. Run by the Swift test BrowserSignInTests (which starts the demo upstream and the
gateway); prints one JSON object with a result per walk and writes a screenshot of every page.

    python3 sign_in.py GATEWAY_URL DEMO_URL SCREENSHOT_DIR

Needs Debian's chromium and chromium-driver and Python's selenium (.ci/run installs them).
"""
import json
import os
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

GATEWAY, DEMO, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
os.environ.setdefault("SE_OFFLINE", "true")


def browser(width):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},900"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500})
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
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                self.problems.append(f"{name}: console error {entry['message']}")
        driver.save_screenshot(os.path.join(SHOTS, f"{self.user}-{self.width}-{len(self.pages) + 1:02d}-{name}.png"))
        self.pages.append({"name": name, "h1": h1[0] if h1 else ""})

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

    def password(self, option, user):
        self.driver.get(GATEWAY + "/")
        self.page("selector")
        self.click(option)
        self.page("login")
        self.type_into("input[autocomplete=username]", user)
        self.type_into("input[type=password]", user)
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
        self.submit_first_form()

    def walk_poll(self):
        self.password("Approve on another device", "poll")
        self.page("waiting")
        link = [m["link"] for m in outbox() if "link" in m][0]  # the newest first
        # "Another device": the approval page in a second tab, then back to the waiting page, which moves on by itself.
        waiting = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        self.driver.get(link)
        self.click("Approve")
        time.sleep(0.5)
        self.driver.close()
        self.driver.switch_to.window(waiting)


results = []
started = time.monotonic()
for width in (1280, 375):
    driver = browser(width)
    try:
        for user in ("demo", "otp", "consent", "poll"):
            results.append(Walk(user, width, driver).run())
    finally:
        driver.quit()
print(json.dumps({"walks": results, "seconds": round(time.monotonic() - started, 1)}))
