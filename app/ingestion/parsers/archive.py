"""Zip containers (XLSX, PPTX, ODS, ODT, EPUB): refused from the central directory when hostile.

Every such library reads parts into memory, so a zip bomb must fail on its declared sizes before
one is opened; zipfile also enforces them while reading (it stops at the declared size and then
fails the CRC check), so a lie in the directory cannot get past it either.
"""

from __future__ import annotations

import io
import zipfile

from app.ingestion.parsers.base import ParseLimits
from app.kit.errors import UnprocessableDocument

# Below this size a high ratio is harmless (a run of empty cells compresses very well).
RATIO_FLOOR_BYTES = 1024 * 1024
ODF_MIMETYPES = {
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.text": "odt",
    "application/epub+zip": "epub",
}


def inspect_archive(
    data: bytes, limits: ParseLimits, *, what: str, required: str | None = None
) -> dict[str, zipfile.ZipInfo]:
    """The archive's members by name, read from its central directory before anything is
    inflated; UnprocessableDocument for a corrupt or hostile zip."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as exc:
        raise UnprocessableDocument(f"corrupt {what}: not a readable zip archive ({exc})") from exc
    if len(entries) > limits.max_zip_entries:
        raise UnprocessableDocument(
            f"{what} has {len(entries)} zip entries; the limit is {limits.max_zip_entries}"
        )
    total = sum(entry.file_size for entry in entries)
    if total > limits.max_zip_uncompressed_bytes:
        raise UnprocessableDocument(
            f"{what} expands to {total} bytes; the limit is {limits.max_zip_uncompressed_bytes}"
        )
    for entry in entries:
        ratio = entry.file_size / max(entry.compress_size, 1)
        if entry.file_size > RATIO_FLOOR_BYTES and ratio > limits.max_zip_ratio:
            raise UnprocessableDocument(
                f"{what} part {entry.filename!r} expands {ratio:.0f}-fold: refused as a zip bomb"
            )
    members = {entry.filename: entry for entry in entries}
    if required is not None and required not in members:
        raise UnprocessableDocument(f"not a {what} document: {required} is missing")
    return members


def odf_mimetype(data: bytes) -> str | None:
    """The format named by an OpenDocument or EPUB zip's `mimetype` member, if any."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            info = archive.getinfo("mimetype")
            if info.file_size > 256:
                return None
            declared = archive.read(info).decode("ascii", "replace").strip()
    except (KeyError, zipfile.BadZipFile, OSError, ValueError, RuntimeError):
        return None
    return ODF_MIMETYPES.get(declared)
