"""The console's screens for the graph, sources and URL uploads, in headless chromium against a
real server: a graph-enabled knowledge base's entities, an entity's relations and provenance,
graph search drawn as SVG; a page uploaded by URL and an unfetchable one's problem; an http
source's dry run and sync, and a record pushed to a records source."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.auth.helpers import ADMIN_KEY, bearer
from tests.sources.pages import serve
from tests.ui.console import (
    INGEST_TIMEOUT_S,
    absent,
    click_button,
    fill,
    find,
    fits_phone,
    go,
    screenshot,
    severe_console_errors,
    sign_in,
    wait,
)

CURIE = (
    "# Curie\n\nMarie Curie worked at the University of Paris with Pierre Curie. "
    "Marie Curie was born in Warsaw and studied radioactivity in Paris."
)


def api(base: str, method: str, path: str, **kwargs: object) -> httpx.Response:
    return httpx.request(method, f"{base}{path}", headers=bearer(ADMIN_KEY), timeout=60, **kwargs)  # type: ignore[arg-type]


def wait_for_graph(base: str, kb: str) -> dict[str, object]:
    """The graph status once the document's graph job has run (it follows `ready`)."""
    deadline = time.monotonic() + INGEST_TIMEOUT_S
    status: dict[str, object] = {}
    while time.monotonic() < deadline:
        status = api(base, "GET", f"/v1/knowledge-bases/{kb}/graph/status").json()
        jobs = status["jobs"]
        assert isinstance(jobs, dict)
        if status["entities"] and not jobs.get("queued") and not jobs.get("running"):
            return status
        time.sleep(0.5)
    raise AssertionError(f"the graph of {kb} was not built in time: {status}")


def test_graph_screen_lists_entities_and_draws_search_results(
    browser: WebDriver, console_url: str, screenshots: Path
) -> None:
    driver, base = browser, console_url
    graph_kb = {"name": "science", "graph": {"enabled": True}}
    made = api(base, "POST", "/v1/knowledge-bases", json=graph_kb)
    assert made.status_code == 201, made.text
    doc = api(
        base,
        "POST",
        "/v1/knowledge-bases/science/documents",
        params={"wait": "true"},
        json={"text": CURIE, "title": "Curie"},
    )
    assert doc.status_code in (200, 201), doc.text
    status = wait_for_graph(base, "science")

    sign_in(driver, base, ADMIN_KEY)
    go(driver, base, "/kb/science")
    # The tab appears because this knowledge base has its graph on.
    find(driver, 'a[href="#/kb/science/graph"]').click()
    wait(
        driver,
        lambda d: d.find_element(By.ID, "graph-entities-count").text == str(status["entities"]),
    )
    find(driver, "#entity-list button.entity")
    fill(driver, "input[name=entity-q]", "marie")
    click_button(find(driver, "#entity-form"), "Find")
    wait(
        driver,
        lambda d: (
            all("Marie" in b.text for b in d.find_elements(By.CSS_SELECTOR, "#entity-list .entity"))
            and bool(d.find_elements(By.CSS_SELECTOR, "#entity-list .entity"))
        ),
    )
    find(driver, "#entity-list .entity").click()
    heading = find(driver, "#entity-detail h3")
    assert "Marie Curie" in heading.text
    # Its relations drawn around it and listed, and the passage that mentions it linked.
    assert len(driver.find_elements(By.CSS_SELECTOR, "#entity-detail svg .graph-node")) >= 2
    assert find(driver, "#entity-detail table caption").text.startswith("Relations")
    mention = find(driver, "#entity-detail .mentions a")
    assert "?chunk=" in (mention.get_attribute("href") or "")

    fill(driver, "input[name=graph-q]", "Where did Marie Curie work?")
    click_button(find(driver, "#graph-search"), "Search the graph")
    svg = find(driver, "#graph-result svg.diagram")
    nodes = svg.find_elements(By.CSS_SELECTOR, ".graph-node")
    assert len(nodes) >= 2
    assert svg.find_elements(By.CSS_SELECTOR, ".edge path")
    labels = [t.text for t in svg.find_elements(By.CSS_SELECTOR, ".node-label")]
    assert any("Marie Curie" in label for label in labels)
    svg.location_once_scrolled_into_view  # noqa: B018 (selenium scrolls when asked for it)
    driver.save_screenshot(str(screenshots / "graph-search.png"))
    # A node is focusable and opens its entity with Enter (a click does the same).
    other = next(n for n in nodes if "Marie Curie" not in n.text)
    driver.execute_script("arguments[0].focus()", other)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait(driver, lambda d: other.text in d.find_element(By.CSS_SELECTOR, "#entity-detail h3").text)
    screenshot(driver, screenshots, "graph")
    assert fits_phone(driver, screenshots, "graph-phone") <= 1
    assert severe_console_errors(driver) == []


def test_url_upload_and_sources(browser: WebDriver, console_url: str, screenshots: Path) -> None:
    driver, base = browser, console_url
    assert api(base, "POST", "/v1/knowledge-bases", json={"name": "web"}).status_code == 201
    with serve() as site:
        site.article("/guide", "Basalt guide", "Basalt columns form as thick lava flows cool.")
        site.article("/pumice", "Pumice notes", "Pumice is so full of gas bubbles it floats.")
        sign_in(driver, base, ADMIN_KEY)
        go(driver, base, "/kb/web")
        fill(driver, "#upload-url input[name=url]", f"{site.base}/guide")
        click_button(find(driver, "#upload-url"), "Add URL")
        wait(
            driver,
            lambda d: (
                "Basalt guide" in d.find_element(By.CSS_SELECTOR, 'tr[data-status="ready"]').text
            ),
            INGEST_TIMEOUT_S,
        )
        # A page the site does not have: the 422 problem's title and detail in its row.
        fill(driver, "#upload-url input[name=url]", f"{site.base}/missing")
        click_button(find(driver, "#upload-url"), "Add URL")
        problem = find(driver, '.upload[data-status="failed"] .problem')
        assert "URL cannot be fetched" in problem.find_element(By.CLASS_NAME, "problem-title").text
        assert problem.find_element(By.CLASS_NAME, "problem-detail").text

        # An http source of both pages: a dry run plans two additions, a sync makes them.
        find(driver, 'a[href="#/kb/web/sources"]').click()
        fill(driver, "#create-source input[name=source-name]", "site")
        fill(
            driver,
            "#create-source textarea[name=source-urls]",
            f"{site.base}/guide\n{site.base}/pumice",
        )
        click_button(find(driver, "#create-source"), "Create source")
        row = find(driver, 'tr[data-name="site"]')
        click_button(row, "Dry run")
        assert "add 2" in find(driver, ".dry-run-counts").text
        assert len(driver.find_elements(By.CSS_SELECTOR, 'tr[data-action="add"]')) == 2
        click_button(find(driver, 'tr[data-name="site"]'), "Sync")
        done = find(driver, '#source-detail tr[data-status="succeeded"]', INGEST_TIMEOUT_S)
        assert "add 2" in done.text

        # A records source, and a record pushed to it from its runs panel.
        fill(driver, "#create-source input[name=source-name]", "crm")
        find(driver, "#create-source select[name=source-kind]").send_keys("records")
        click_button(find(driver, "#create-source"), "Create source")
        click_button(find(driver, 'tr[data-name="crm"]'), "Runs")
        fill(driver, "#push-record input[name=record-id]", "acct-1")
        fill(driver, "#push-record textarea[name=record-content]", "Acme renews in May.")
        click_button(find(driver, "#push-record"), "Push")
        wait(driver, lambda d: "acct-1: created" in d.find_element(By.ID, "push-record").text)
        go(driver, base, "/kb/web/sources")
        click_button(find(driver, 'tr[data-name="site"]'), "Runs")
        find(driver, '#source-detail tr[data-status="succeeded"]')
        screenshot(driver, screenshots, "sources")
        assert fits_phone(driver, screenshots, "sources-phone") <= 1
    assert severe_console_errors(driver) == []

    # A read-only key sees the sources and their runs, and is offered no create or sync.
    viewer = {"name": "web-viewer", "scopes": ["read"]}
    made = api(base, "POST", "/v1/projects/default/api-keys", json=viewer)
    assert made.status_code == 201, made.text
    sign_in(driver, base, made.json()["key"])
    go(driver, base, "/kb/web/sources")
    row = find(driver, 'tr[data-name="site"]')
    assert absent(driver, "#create-source")
    assert [b.text for b in row.find_elements(By.TAG_NAME, "button")] == ["Runs"]
    click_button(row, "Runs")
    find(driver, '#source-detail tr[data-status="succeeded"]')
