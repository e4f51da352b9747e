"""Steps a person takes in the console, as selenium calls."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

TIMEOUT_S = 30
INGEST_TIMEOUT_S = 90


def wait(
    driver: WebDriver, condition: Callable[[WebDriver], Any], timeout: float = TIMEOUT_S
) -> Any:
    # A screen redraws its lists after each change: an element read mid-redraw is looked up again.
    return WebDriverWait(
        driver,
        timeout,
        poll_frequency=0.1,
        ignored_exceptions=[NoSuchElementException, StaleElementReferenceException],
    ).until(condition)


def find(driver: WebDriver, css: str, timeout: float = TIMEOUT_S) -> WebElement:
    """The first element matching `css`, once it is displayed."""

    def shown(d: WebDriver) -> WebElement | bool:
        for element in d.find_elements(By.CSS_SELECTOR, css):
            if element.is_displayed():
                return element
        return False

    try:
        found: WebElement = wait(driver, shown, timeout)
    except TimeoutException:
        # Say what the page showed instead: a failure in CI is read from this message.
        page = driver.find_element(By.TAG_NAME, "body").text[:800]
        logs = [entry["message"] for entry in driver.get_log("browser")]
        raise AssertionError(
            f"{css!r} not shown at {driver.current_url}; the page: {page!r}; console: {logs}"
        ) from None
    return found


def absent(driver: WebDriver, css: str) -> bool:
    return not driver.find_elements(By.CSS_SELECTOR, css)


def go(driver: WebDriver, base: str, hash_path: str) -> None:
    """Open a screen by its address, as a bookmark would (the page reloads)."""
    driver.get(f"{base}/ui/#{hash_path}")


def forget_key(driver: WebDriver, base: str) -> None:
    """Empty the origin's session storage from a page without the console, whose start-up
    would otherwise store the key it already read again behind our back."""
    driver.get(f"{base}/healthz")
    driver.execute_script("sessionStorage.clear()")


def sign_in(driver: WebDriver, base: str, key: str) -> None:
    forget_key(driver, base)
    driver.get(f"{base}/ui/")
    find(driver, "#sign-in input[name=key]").send_keys(key)
    find(driver, "#sign-in button[type=submit]").click()
    find(driver, "#who")
    wait(driver, lambda d: "Signed in" in d.find_element(By.ID, "who").text)


def fill(driver: WebDriver, css: str, text: str) -> WebElement:
    element = find(driver, css)
    element.clear()
    element.send_keys(text)
    return element


def click_button(scope: WebDriver | WebElement, text: str) -> None:
    for button in scope.find_elements(By.TAG_NAME, "button"):
        if button.text.strip() == text and button.is_displayed():
            button.click()
            return
    raise AssertionError(f"no button {text!r}")


def screenshot(driver: WebDriver, folder: Path, name: str) -> None:
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(folder / f"{name}.png"))


def severe_console_errors(driver: WebDriver) -> list[str]:
    """Script errors in the page (failed requests the test made on purpose are left out)."""
    return [
        entry["message"]
        for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE" and entry.get("source") != "network"
    ]


def fits_phone(driver: WebDriver, folder: Path, name: str) -> int:
    """At 390 px wide: how many pixels the page is wider than the screen (a screenshot too)."""
    size = driver.get_window_size()
    driver.set_window_size(390, 844)
    try:
        overflow: int = driver.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth"
        )
        screenshot(driver, folder, name)
    finally:
        driver.set_window_size(size["width"], size["height"])
    return overflow


def confirm(driver: WebDriver, row_css: str, label: str) -> None:
    """Click `label` in a row, then its "Yes, ..." confirmation; from the start again when a
    list redraw (a document finishing meanwhile) replaced the row in between."""

    def attempt(d: WebDriver) -> bool:
        row = d.find_element(By.CSS_SELECTOR, row_css)
        try:
            click_button(row, label)
            click_button(row, f"Yes, {label.lower()}")
        except AssertionError:
            return False
        return True

    wait(driver, attempt)
