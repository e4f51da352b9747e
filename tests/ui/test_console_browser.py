"""The console end to end in headless chromium against a real server: sign in, create a
knowledge base, upload Markdown and a PDF and watch them become ready, open the tree, search,
open a hit's context, manage keys; a document's markup never runs; a read-only key is offered
no upload; with auth off the console opens without a key."""

from __future__ import annotations

from pathlib import Path

import httpx
from fpdf import FPDF
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.auth.helpers import ADMIN_KEY, bearer
from tests.ui.conftest import ANSWER
from tests.ui.console import (
    INGEST_TIMEOUT_S,
    absent,
    click_button,
    confirm,
    fill,
    find,
    fits_phone,
    forget_key,
    go,
    screenshot,
    severe_console_errors,
    sign_in,
    wait,
)

MARKDOWN = """# Field guide to volcanic rock

## Basalt

Basalt is a fine-grained rock that forms when lava rich in iron and magnesium cools quickly
at the surface. Columnar jointing appears as thick flows shrink while they cool.

Most of the ocean floor is basalt, made at mid-ocean ridges.

## Obsidian

Obsidian is volcanic glass. It forms when felsic lava cools so fast that crystals cannot grow,
and it breaks with sharp conchoidal edges that people used for blades.

## Pumice

Pumice is so full of gas bubbles that it floats on water.
"""

XSS = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'


def make_pdf(path: Path) -> None:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for text in (
        "Tuff is rock made of volcanic ash that settled and hardened into layers.",
        "Andesite is an intermediate volcanic rock common at subduction zones.",
    ):
        pdf.add_page()
        pdf.multi_cell(0, 10, text)
    path.write_bytes(bytes(pdf.output()))


def api(base: str, method: str, path: str, **kwargs: object) -> httpx.Response:
    return httpx.request(method, f"{base}{path}", headers=bearer(ADMIN_KEY), timeout=60, **kwargs)  # type: ignore[arg-type]


def test_console_scenario(
    browser: WebDriver, console_url: str, screenshots: Path, tmp_path: Path
) -> None:
    driver, base = browser, console_url
    driver.get(f"{base}/")
    find(driver, "#sign-in")
    # A wrong key is refused with the API's problem title, and the form stays.
    fill(driver, "#sign-in input[name=key]", "arb_not-a-key")
    click_button(driver, "Sign in")
    assert "Authentication required" in find(driver, "#sign-in .problem").text
    screenshot(driver, screenshots, "sign-in")
    sign_in(driver, base, ADMIN_KEY)
    assert "Signed in · admin" in driver.find_element(By.ID, "who").text

    # Create a knowledge base; a second of the same name shows the problem's title and detail.
    fill(driver, "#create-kb input[name=name]", "handbook")
    fill(driver, "#create-kb input[name=title]", "Field handbook")
    click_button(find(driver, "#create-kb"), "Create")
    find(driver, 'a[href="#/kb/handbook"]')
    fill(driver, "#create-kb input[name=name]", "handbook")
    click_button(find(driver, "#create-kb"), "Create")
    problem = find(driver, "#create-kb .problem")
    assert "handbook" in problem.find_element(By.CLASS_NAME, "problem-detail").text
    assert problem.find_element(By.CLASS_NAME, "problem-title").text
    screenshot(driver, screenshots, "knowledge-bases")

    # Upload a Markdown file and a PDF at once; both are followed until ready.
    find(driver, 'a[href="#/kb/handbook"]').click()
    markdown, pdf = tmp_path / "volcanic.md", tmp_path / "more-rocks.pdf"
    markdown.write_text(MARKDOWN)
    make_pdf(pdf)
    find(driver, "#upload")
    driver.find_element(By.CSS_SELECTOR, "#upload input[name=files]").send_keys(
        f"{markdown}\n{pdf}"
    )
    wait(
        driver,
        lambda d: len(d.find_elements(By.CSS_SELECTOR, '.upload[data-status="ready"]')) == 2,
        INGEST_TIMEOUT_S,
    )
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, 'tr[data-status="ready"]')) == 2)
    # A file that is no PDF: its error in place, with a retry.
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not a real PDF")
    driver.find_element(By.CSS_SELECTOR, "#upload input[name=files]").send_keys(str(broken))
    failed = find(driver, '.upload[data-status="failed"]', INGEST_TIMEOUT_S)
    assert failed.find_elements(By.CSS_SELECTOR, ".error-text, .problem")
    click_button(failed, "Retry")
    find(driver, '.upload[data-status="failed"]', INGEST_TIMEOUT_S)
    screenshot(driver, screenshots, "documents")
    assert fits_phone(driver, screenshots, "documents-phone") <= 1

    # The Markdown document: tree beside the text, chunks marked, a section's details on click.
    upload = next(
        u for u in driver.find_elements(By.CSS_SELECTOR, ".upload") if "volcanic.md" in u.text
    )
    upload.find_element(By.LINK_TEXT, "Open").click()
    find(driver, "#doc-text .chunk")
    text = driver.find_element(By.ID, "doc-text").text
    assert "Columnar jointing" in text
    sections = driver.find_elements(By.CSS_SELECTOR, ".tree .node-section")
    assert len(sections) >= 3
    obsidian = next(s for s in sections if "Obsidian" in s.text)
    obsidian.click()
    detail = find(driver, "#detail h3")
    assert "Obsidian" in detail.text
    selected = driver.find_elements(By.CSS_SELECTOR, "#doc-text .selected")
    assert any("volcanic glass" in span.text for span in selected)
    driver.find_elements(By.CSS_SELECTOR, "#doc-text .chunk")[0].click()
    wait(driver, lambda d: "Chunk" in d.find_element(By.CSS_SELECTOR, "#detail h3").text)
    find(driver, "#detail .lineage li")
    screenshot(driver, screenshots, "document")
    # Phone width: one column, nothing wider than the screen.
    assert fits_phone(driver, screenshots, "document-phone") <= 1

    # Search: hits with highlights and explain bars; a hit's tree context on demand.
    find(driver, 'a[href="#/kb/handbook/search"]').click()
    fill(driver, "input[type=search][name=q]", "volcanic glass blades")
    click_button(find(driver, "#search-form"), "Search")
    first = find(driver, ".hit")
    assert "Obsidian" in first.text
    assert first.find_elements(By.CSS_SELECTOR, "mark")
    assert first.find_elements(By.CSS_SELECTOR, ".explain meter")
    click_button(first, "Context")
    context = find(driver, ".hit-context")
    assert "Obsidian" in context.text
    # A bad filter: the API's validation message, not a blank screen.
    fill(driver, "textarea[name=filter]", '{"metadata.team": {"$nope": 1}}')
    click_button(find(driver, "#search-form"), "Search")
    assert "Validation" in find(driver, ".problem").text
    fill(driver, "textarea[name=filter]", "")
    click_button(find(driver, "#search-form"), "Search")
    find(driver, ".hit .hit-head")
    click_button(find(driver, ".hit"), "Context")
    find(driver, ".hit-context")
    screenshot(driver, screenshots, "search")
    assert fits_phone(driver, screenshots, "search-phone") <= 1
    # Ask: the streamed answer (from the fake LLM), its steps, its sources and citations; a
    # citation opens the cited passage highlighted in its document.
    find(driver, 'a[href="#/kb/handbook/answer"]').click()
    fill(driver, "input[name=question]", "What is obsidian?")
    click_button(find(driver, "#ask-form"), "Ask")
    find(driver, ".citations li a")
    wait(driver, lambda d: ANSWER.split(" [")[0] in d.find_element(By.ID, "answer").text)
    assert len(driver.find_elements(By.CSS_SELECTOR, ".timeline li")) >= 3
    assert "Obsidian" in find(driver, ".sources li").text
    screenshot(driver, screenshots, "answer")
    find(driver, "#answer a").click()
    selected = find(driver, "#doc-text .selected")
    assert "volcanic glass" in selected.text or "Obsidian" in selected.text

    # API keys: one created (shown once), one revoked.
    find(driver, 'a[href="#/admin/keys"]').click()
    for name in ("reader", "temporary"):
        fill(driver, "#create-key input[name=key-name]", name)
        click_button(find(driver, "#create-key"), "Create key")
        wait(
            driver,
            lambda d, n=name: f"Key {n} created" in d.find_element(By.CSS_SELECTOR, ".once").text,
        )
        assert find(driver, "#new-key").text.startswith("arb_")
    row = find(driver, 'tr[data-name="temporary"]')
    key_id = row.get_attribute("data-key")
    confirm(driver, 'tr[data-name="temporary"]', "Revoke")
    wait(
        driver,
        lambda d: "revoked" in d.find_element(By.CSS_SELECTOR, f'tr[data-key="{key_id}"]').text,
    )
    screenshot(driver, screenshots, "keys")

    # The other admin screens open and show what the API holds.
    find(driver, 'a[href="#/admin/webhooks"]').click()
    fill(driver, "#create-webhook input[name=url]", "http://127.0.0.1:9/arbor")
    click_button(find(driver, "#create-webhook"), "Create webhook")
    assert find(driver, ".once .secret").text.startswith("whsec_")
    find(driver, "table caption")
    screenshot(driver, screenshots, "webhooks")
    find(driver, 'a[href="#/admin/projects"]').click()
    wait(driver, lambda d: "default" in d.find_element(By.TAG_NAME, "table").text)
    screenshot(driver, screenshots, "projects")
    find(driver, 'a[href="#/admin/audit"]').click()
    wait(driver, lambda d: "search-knowledge_base" in d.find_element(By.TAG_NAME, "table").text)
    screenshot(driver, screenshots, "audit")
    find(driver, 'a[href="#/events"]').click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".event-document-ready")) == 2)
    screenshot(driver, screenshots, "events")
    assert severe_console_errors(driver) == []


def test_document_markup_never_runs(browser: WebDriver, console_url: str) -> None:
    base = console_url
    assert api(base, "POST", "/v1/knowledge-bases", json={"name": "xss"}).status_code == 201
    created = api(
        base,
        "POST",
        "/v1/knowledge-bases/xss/documents",
        params={"wait": "true"},
        json={"text": f"# Trap\n\nA pwned paragraph {XSS} ends here.", "title": XSS},
    )
    assert created.status_code in (200, 201), created.text
    doc_id = created.json()["id"]
    sign_in(browser, base, ADMIN_KEY)
    go(browser, base, f"/kb/xss/doc/{doc_id}")
    find(browser, "#doc-text .chunk")
    assert "<script>window.__pwned = 1</script>" in browser.find_element(By.ID, "doc-text").text
    assert browser.find_element(By.ID, "doc-title").text == XSS
    go(browser, base, "/kb/xss")
    find(browser, 'tr[data-status="ready"]')
    go(browser, base, "/kb/xss/search")
    fill(browser, "input[type=search][name=q]", "pwned paragraph")
    select = browser.find_element(By.CSS_SELECTOR, "select[name=mode]")
    select.send_keys("text")
    click_button(find(browser, "#search-form"), "Search")
    hit = find(browser, ".hit")
    assert "window.__pwned" in hit.text
    click_button(hit, "Context")
    find(browser, ".hit-context")
    assert browser.execute_script("return window.__pwned") is None
    assert (
        browser.execute_script("return document.querySelectorAll('main script, main img').length")
        == 0
    )

    # Reindex it (followed to ready like an upload), delete it, then its knowledge base.
    go(browser, base, "/kb/xss")
    row = find(browser, 'tr[data-status="ready"]')
    click_button(row, "Reindex")
    find(browser, '.upload[data-status="ready"]', INGEST_TIMEOUT_S)
    find(browser, 'tr[data-status="ready"]')
    confirm(browser, 'tr[data-status="ready"]', "Delete")
    wait(browser, lambda d: "No documents." in d.find_element(By.TAG_NAME, "main").text)
    go(browser, base, "/")
    find(browser, 'tr[data-name="xss"]')
    confirm(browser, 'tr[data-name="xss"]', "Delete")
    wait(browser, lambda d: absent(d, 'tr[data-name="xss"]'))
    assert api(base, "GET", "/v1/knowledge-bases/xss").status_code == 404


def test_read_only_key_is_offered_no_upload(browser: WebDriver, console_url: str) -> None:
    base = console_url
    api(base, "POST", "/v1/knowledge-bases", json={"name": "shelf"})
    made = api(
        base,
        "POST",
        "/v1/projects/default/api-keys",
        json={"name": "viewer", "scopes": ["read"]},
    )
    assert made.status_code == 201, made.text
    sign_in(browser, base, made.json()["key"])
    assert "read only" in browser.find_element(By.ID, "who").text
    find(browser, 'a[href="#/kb/shelf"]')
    assert absent(browser, "#create-kb")
    assert absent(browser, 'a[href="#/admin/keys"]')
    find(browser, 'a[href="#/kb/shelf"]').click()
    find(browser, "#docs-title")
    assert absent(browser, "#upload")
    assert absent(browser, "input[type=file]")
    assert not [
        b for b in browser.find_elements(By.TAG_NAME, "button") if b.text in ("Delete", "Reindex")
    ]
    # The search playground is still there for it.
    find(browser, 'a[href="#/kb/shelf/search"]').click()
    find(browser, "input[type=search]")
    # Revoked meanwhile: the next call brings the sign-in form back, saying why.
    key_id = made.json()["id"]
    assert api(base, "DELETE", f"/v1/projects/default/api-keys/{key_id}").status_code == 204
    fill(browser, "input[type=search][name=q]", "anything")
    click_button(find(browser, "#search-form"), "Search")
    assert "Authentication required" in find(browser, "#sign-in .problem").text


def test_console_opens_without_a_key_when_auth_is_off(
    browser: WebDriver, open_console_url: str
) -> None:
    forget_key(browser, open_console_url)
    browser.get(f"{open_console_url}/")
    find(browser, "#create-kb")
    assert "Auth off" in browser.find_element(By.ID, "who").text
    assert absent(browser, "#sign-in")


def test_key_limited_to_a_knowledge_base_uploads_but_creates_none(
    browser: WebDriver, console_url: str
) -> None:
    base = console_url
    api(base, "POST", "/v1/knowledge-bases", json={"name": "desk"})
    desk = api(base, "GET", "/v1/knowledge-bases/desk").json()
    made = api(
        base,
        "POST",
        "/v1/projects/default/api-keys",
        json={"name": "desk-writer", "scopes": ["write"], "knowledge_bases": [desk["id"]]},
    )
    assert made.status_code == 201, made.text
    sign_in(browser, base, made.json()["key"])
    assert "read and write" in browser.find_element(By.ID, "who").text
    # By keyboard alone: Tab to the knowledge base's link (focus drawn), Enter opens it.
    find(browser, 'a[href="#/kb/desk"]')
    for _ in range(30):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        focused = browser.switch_to.active_element
        if (focused.get_attribute("href") or "").endswith("#/kb/desk"):
            break
    else:
        raise AssertionError("Tab never reached the knowledge base's link")
    outline = browser.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"
    focused.send_keys(Keys.ENTER)
    find(browser, "#upload")
    # The title follows the knowledge base's own read, which may land after the form.
    assert wait(browser, lambda b: b.title == "desk · Arbor")
    go(browser, base, "/")
    find(browser, 'a[href="#/kb/desk"]')
    assert absent(browser, "#create-kb")
