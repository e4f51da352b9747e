"""A `{"url": ...}` upload: the resource fetched by the SSRF-safe fetcher, then uploaded as if
its bytes had been sent (HTML reduced to its main content, app/ingestion/webpage.py)."""

from __future__ import annotations

from dataclasses import replace

from app.config import Settings
from app.documents.upload import Upload
from app.ingestion.webpage import page_content
from app.kit.errors import AppError
from app.kit.fetch import FetchError, fetch, limits_for, policy_for


class UrlUnfetchable(AppError):
    """The URL of an upload could not be fetched: refused, unreachable, too large, an error."""

    status = 422
    type_ = "url-unfetchable"
    title = "URL cannot be fetched"


async def fetched_upload(upload: Upload, settings: Settings) -> Upload:
    """The upload with the URL's content in place of its `url`."""
    assert upload.url is not None
    try:
        fetched = await fetch(
            upload.url,
            policy=policy_for(settings),
            limits=limits_for(
                settings, max_bytes=min(settings.max_upload_bytes, settings.source_max_page_bytes)
            ),
        )
    except FetchError as exc:
        extra = {"reason": exc.kind} | ({"upstream_status": exc.status} if exc.status else {})
        raise UrlUnfetchable(exc.message, extra=extra) from exc
    page = await page_content(fetched)
    return replace(
        upload,
        data=page.data,
        url=None,
        filename=page.filename,
        content_type=page.content_type,
        format=upload.format or page.format,
        title=upload.title or page.title,
        source_uri=upload.source_uri or upload.url,
    )
