"""Serves the console's static files at /ui under a strict Content-Security-Policy.

The console is a client of the public API like any other: these routes hand out files only,
never data, so they need no key (the browser's calls to /v1 carry it).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse

from app.kit.errors import NotFound

STATIC_DIR = (Path(__file__).parent / "static").resolve()

# Scripts, styles and calls from this origin only: no inline script or style, no eval, no
# frames, no form posts elsewhere. Document text is inserted with textContent besides.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}

router = APIRouter(include_in_schema=False)


@router.get("/")
async def root() -> RedirectResponse:
    return RedirectResponse("/ui/", status_code=307)


@router.get("/ui")
async def console_root() -> RedirectResponse:
    # With the trailing slash, the page's relative module paths resolve under /ui/.
    return RedirectResponse("/ui/", status_code=307)


@router.get("/ui/{path:path}")
async def console_file(path: str) -> FileResponse:
    """A file of the console; the empty path is its page (screens are chosen by the hash)."""
    target = (STATIC_DIR / (path or "index.html")).resolve()
    media_type = MEDIA_TYPES.get(target.suffix)
    if media_type is None or not target.is_relative_to(STATIC_DIR) or not target.is_file():
        raise NotFound(f"The console has no file {path!r}.")
    return FileResponse(target, media_type=media_type, headers=HEADERS)
