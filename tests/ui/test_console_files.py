"""The console's files: served at /ui under a strict Content-Security-Policy, nothing else."""

from __future__ import annotations

import httpx

from app.ui.router import STATIC_DIR


async def test_root_redirects_to_the_console(client: httpx.AsyncClient) -> None:
    for path in ("/", "/ui"):
        response = await client.get(path)
        assert response.status_code == 307
        assert response.headers["location"] == "/ui/"


async def test_console_page_has_a_strict_content_security_policy(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/ui/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    # Nothing from another origin: every script and style the page names is its own.
    assert "http" not in response.text.replace("http-equiv", "")
    script = await client.get("/ui/app.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["content-security-policy"] == policy


async def test_every_screen_module_is_served(client: httpx.AsyncClient) -> None:
    for path in sorted((STATIC_DIR / "screens").glob("*.js")):
        response = await client.get(f"/ui/screens/{path.name}")
        assert response.status_code == 200, path.name


async def test_console_never_inserts_markup(client: httpx.AsyncClient) -> None:
    """Text goes in as text: no innerHTML, outerHTML, insertAdjacentHTML or document.write."""
    for path in STATIC_DIR.rglob("*.js"):
        source = path.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in source, f"{path.name} uses {sink}"


async def test_paths_outside_the_console_are_not_found(client: httpx.AsyncClient) -> None:
    for path in ("/ui/%2e%2e/router.py", "/ui/..%2frouter.py", "/ui/nope.js", "/ui/screens"):
        response = await client.get(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"] == "application/problem+json"
