"""The SSRF-safe fetcher against a loopback server: conditional requests, redirects to
refused addresses, size and time limits."""

from __future__ import annotations

import pytest

from app.kit.fetch import AddressPolicy, FetchError, FetchLimits, fetch, networks
from tests.sources.pages import serve

# Loopback allowed (the test server), every other private address refused.
LOOPBACK_ONLY = AddressPolicy(allow_private=False, allowed_networks=networks(["127.0.0.0/8"]))
LIMITS = FetchLimits(max_bytes=16 * 1024, timeout_s=1.0, max_redirects=3)


async def test_etag_answers_not_modified_the_second_time() -> None:
    with serve() as site:
        site.article("/a", "A", "Alpha text.", etag='"v1"')
        first = await fetch(f"{site.base}/a", policy=LOOPBACK_ONLY, limits=LIMITS)
        assert first.etag == '"v1"'
        assert b"Alpha text." in first.content
        again = await fetch(f"{site.base}/a", policy=LOOPBACK_ONLY, limits=LIMITS, etag='"v1"')
        assert again.not_modified
        assert again.content == b""
        assert site.requests[-1][1].get("If-None-Match") == '"v1"'


@pytest.mark.parametrize(
    "target", ["http://10.0.0.1/", "http://169.254.169.254/latest/meta-data", "http://[::1]/"]
)
async def test_redirect_to_a_private_address_is_refused(target: str) -> None:
    with serve() as site:
        site.pages["/go"] = (302, {"Location": target}, b"")
        with pytest.raises(FetchError) as caught:
            await fetch(f"{site.base}/go", policy=LOOPBACK_ONLY, limits=LIMITS)
        assert caught.value.kind == "refused"
        assert len(site.requests) == 1  # nothing was sent to the second hop


async def test_loopback_is_refused_unless_allowed() -> None:
    with serve() as site:
        site.article("/a", "A", "Alpha.")
        with pytest.raises(FetchError) as caught:
            await fetch(f"{site.base}/a", policy=AddressPolicy(), limits=LIMITS)
        assert caught.value.kind == "refused"
        assert site.requests == []


async def test_metadata_address_is_refused_even_with_private_allowed() -> None:
    with pytest.raises(FetchError) as caught:
        await fetch(
            "http://169.254.169.254/", policy=AddressPolicy(allow_private=True), limits=LIMITS
        )
    assert caught.value.kind == "refused"


async def test_oversize_and_slow_pages_and_redirect_loops_fail() -> None:
    with serve() as site:
        with pytest.raises(FetchError) as big:
            await fetch(f"{site.base}/big", policy=LOOPBACK_ONLY, limits=LIMITS)
        assert big.value.kind == "too-large"
        with pytest.raises(FetchError) as slow:
            await fetch(f"{site.base}/slow", policy=LOOPBACK_ONLY, limits=LIMITS)
        assert slow.value.kind == "timeout"
        site.pages["/loop"] = (302, {"Location": "/loop"}, b"")
        with pytest.raises(FetchError) as loop:
            await fetch(f"{site.base}/loop", policy=LOOPBACK_ONLY, limits=LIMITS)
        assert loop.value.kind == "redirects"
        with pytest.raises(FetchError) as missing:
            await fetch(f"{site.base}/nope", policy=LOOPBACK_ONLY, limits=LIMITS)
        assert (missing.value.kind, missing.value.status) == ("http-status", 404)
