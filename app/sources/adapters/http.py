"""`http`: web pages named by URL, by sitemaps, or found by a same-site crawl from the URLs.

Every request goes through the SSRF-safe fetcher (app/kit/fetch.py). A page's version is its
ETag or Last-Modified, sent back on the next sync so that an unchanged page costs a 304;
robots.txt is honoured unless `robots: false`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from typing import Any, ClassVar
from urllib.parse import urldefrag, urljoin, urlsplit
from urllib.robotparser import RobotFileParser

from pydantic import BaseModel, Field, field_validator

from app.config import Settings
from app.ingestion.webpage import page_content
from app.kit.errors import ValidationFailed
from app.kit.fetch import USER_AGENT, FetchError, fetch, limits_for, policy_for, url_problem
from app.kit.schemas import RequestModel
from app.sources.adapters.base import (
    Health,
    ItemContent,
    ItemError,
    ItemRef,
    Known,
    SourceUnavailable,
)

MAX_SITEMAPS = 20
ROBOTS_BYTES = 512 * 1024


def _checked_urls(values: list[str]) -> list[str]:
    for value in values:
        reason = url_problem(value)
        if reason is not None:
            raise ValueError(f"{value!r} {reason}")
    return values


class Crawl(RequestModel):
    depth: int = Field(default=1, ge=0, le=5, description="Links followed from the URLs.")
    max_pages: int = Field(default=100, ge=1, le=10_000)


class HttpConfig(RequestModel):
    urls: list[str] = Field(default_factory=list, max_length=1000)
    sitemaps: list[str] = Field(default_factory=list, max_length=MAX_SITEMAPS)
    crawl: Crawl | None = Field(
        default=None, description="Follow links to pages of the same host from `urls`."
    )
    robots: bool = Field(default=True, description="Honour robots.txt.")

    _urls = field_validator("urls", "sitemaps")(_checked_urls)


def _version(etag: str | None, last_modified: str | None) -> str | None:
    if etag:
        return f"etag:{etag}"
    if last_modified:
        return f"modified:{last_modified}"
    return None


def _conditional(known: Known | None) -> tuple[str | None, str | None]:
    version = known.version if known is not None else None
    if version is None:
        return None, None
    kind, _, value = version.partition(":")
    return (value, None) if kind == "etag" else (None, value)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)


def _sitemap_locs(data: bytes) -> tuple[list[str], list[str]]:
    """(pages, nested sitemaps) of a sitemap or sitemap index; expat expands no external
    entities and refuses entity bombs."""
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError:
        return [], []
    locs = [(el.text or "").strip() for el in root.iter() if el.tag.endswith("loc")]
    nested = root.tag.endswith("sitemapindex")
    return ([], locs) if nested else (locs, [])


class HttpAdapter:
    kind: ClassVar[str] = "http"
    pushed: ClassVar[bool] = False
    config_model: ClassVar[type[BaseModel]] = HttpConfig

    def check(self, config: dict[str, Any], settings: Settings) -> None:
        if not config.get("urls") and not config.get("sitemaps"):
            raise ValidationFailed("An http source needs `urls` or `sitemaps`.")

    async def list_items(self, config: dict[str, Any], settings: Settings) -> list[ItemRef]:
        cap = settings.source_max_pages
        crawl = config.get("crawl")
        if crawl is not None:
            cap = min(cap, int(crawl["max_pages"]))
        found: dict[str, None] = dict.fromkeys(urldefrag(url)[0] for url in config["urls"])
        sitemap_failures = await self._sitemaps(config["sitemaps"], settings, found, cap)
        if crawl is not None:
            await self._crawl(list(found), int(crawl["depth"]), settings, found, cap)
        if not found and sitemap_failures:
            raise SourceUnavailable("; ".join(sitemap_failures))
        urls = list(found)[:cap]
        if config.get("robots", True):
            urls = await self._allowed(urls, settings)
        return [ItemRef(key=url, version=None) for url in urls]

    async def _sitemaps(
        self, sitemaps: list[str], settings: Settings, found: dict[str, None], cap: int
    ) -> list[str]:
        failures: list[str] = []
        queue, seen = list(sitemaps), set[str]()
        while queue and len(seen) < MAX_SITEMAPS and len(found) < cap:
            url = queue.pop(0)
            if url in seen:
                continue
            seen.add(url)
            try:
                fetched = await fetch(url, policy=policy_for(settings), limits=limits_for(settings))
            except FetchError as exc:
                failures.append(exc.message)
                continue
            pages, nested = _sitemap_locs(fetched.content)
            queue += [loc for loc in nested if url_problem(loc) is None]
            for page in pages:
                if url_problem(page) is None and len(found) < cap:
                    found[urldefrag(page)[0]] = None
        return failures

    async def _crawl(
        self,
        seeds: list[str],
        depth: int,
        settings: Settings,
        found: dict[str, None],
        cap: int,
    ) -> None:
        frontier = seeds
        for _ in range(depth):
            following: list[str] = []
            for url in frontier:
                try:
                    fetched = await fetch(
                        url, policy=policy_for(settings), limits=limits_for(settings)
                    )
                except FetchError:
                    continue  # the sync reports it as the page's error
                if fetched.media_type not in ("text/html", "application/xhtml+xml"):
                    continue
                parser = _Links()
                parser.feed(fetched.content.decode("utf-8", "replace"))
                host = urlsplit(url).hostname
                for href in parser.links:
                    link = urldefrag(urljoin(fetched.url, href))[0]
                    same_host = urlsplit(link).hostname == host
                    if same_host and url_problem(link) is None and link not in found:
                        if len(found) >= cap:
                            return
                        found[link] = None
                        following.append(link)
            frontier = following

    async def _allowed(self, urls: list[str], settings: Settings) -> list[str]:
        robots: dict[str, RobotFileParser | None] = {}
        allowed = []
        for url in urls:
            parts = urlsplit(url)
            origin = f"{parts.scheme}://{parts.netloc}"
            if origin not in robots:
                robots[origin] = await self._robots(origin, settings)
            parser = robots[origin]
            if parser is None or parser.can_fetch(USER_AGENT, url):
                allowed.append(url)
        return allowed

    async def _robots(self, origin: str, settings: Settings) -> RobotFileParser | None:
        try:
            fetched = await fetch(
                f"{origin}/robots.txt",
                policy=policy_for(settings),
                limits=limits_for(settings, max_bytes=ROBOTS_BYTES),
            )
        except FetchError:
            return None  # no robots.txt (or none readable): everything is allowed
        parser = RobotFileParser()
        parser.parse(fetched.content.decode("utf-8", "replace").splitlines())
        return parser

    async def fetch(
        self, config: dict[str, Any], settings: Settings, item: ItemRef, known: Known | None
    ) -> ItemContent:
        etag, last_modified = _conditional(known)
        try:
            fetched = await fetch(
                item.key,
                policy=policy_for(settings),
                limits=limits_for(settings),
                etag=etag,
                last_modified=last_modified,
            )
        except FetchError as exc:
            raise ItemError(exc.message) from exc
        version = _version(fetched.etag, fetched.last_modified)
        if fetched.not_modified:
            return ItemContent(
                data=b"", version=known.version if known else version, source_uri=item.key,
                not_modified=True,
            )  # fmt: skip
        try:
            page = await page_content(fetched)
        except Exception as exc:
            # A page the extractor chokes on is that page's problem, not the run's.
            raise ItemError(f"its content could not be extracted ({type(exc).__name__})") from exc
        return ItemContent(
            data=page.data,
            version=version,
            source_uri=fetched.url,
            filename=page.filename,
            content_type=page.content_type,
            format=page.format,
            title=page.title,
        )

    async def health(self, config: dict[str, Any], settings: Settings) -> Health:
        first = (config.get("urls") or config.get("sitemaps") or [None])[0]
        if first is None:
            return Health(ok=False, detail="The source names no URL.")
        try:
            await fetch(first, policy=policy_for(settings), limits=limits_for(settings))
        except FetchError as exc:
            return Health(ok=False, detail=exc.message)
        return Health(ok=True, detail=f"{first!r} answers.")
