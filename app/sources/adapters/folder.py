"""`folder`: the supported files under a directory of the server, inside the roots the
operator allows (`ARBOR_SOURCE_ROOTS`; none by default, so no folder source works until one
is named). A path with `..`, outside the roots, or a symlink whose target leaves them is
refused; symlinked directories are not followed."""

from __future__ import annotations

import asyncio
import fnmatch
import os
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from app.config import Settings
from app.ingestion.detect import EXTENSIONS
from app.kit.errors import ValidationFailed
from app.kit.schemas import RequestModel
from app.sources.adapters.base import (
    Health,
    ItemContent,
    ItemError,
    ItemRef,
    Known,
    SourceUnavailable,
)

Globs = list[str]


class FolderConfig(RequestModel):
    path: str = Field(min_length=1, max_length=4000, description="An absolute directory path.")
    include: Globs = Field(
        default_factory=lambda: ["*"],
        max_length=100,
        description="fnmatch patterns on the path relative to `path` (`*` crosses `/`).",
    )
    exclude: Globs = Field(default_factory=list, max_length=100)


def _within(path: str, roots: list[Path]) -> bool:
    return any(path == str(root) or path.startswith(str(root).rstrip("/") + "/") for root in roots)


def _roots(settings: Settings) -> list[Path]:
    return [Path(os.path.realpath(root)) for root in settings.source_roots]


def resolved_folder(config: dict[str, Any], settings: Settings) -> Path:
    """The folder's real path, once it is known to lie inside an allowed root."""
    raw = str(config["path"])
    if not raw.startswith("/"):
        raise ValidationFailed("`path` must be an absolute path.")
    if ".." in PurePosixPath(raw).parts:
        raise ValidationFailed("`path` may not contain `..`.")
    roots = _roots(settings)
    if not roots:
        raise ValidationFailed(
            "Folder sources are off: the operator allows no folder (ARBOR_SOURCE_ROOTS)."
        )
    real = os.path.realpath(raw)
    if not _within(real, roots):
        raise ValidationFailed(
            f"`path` {raw!r} is outside the folders this instance allows (ARBOR_SOURCE_ROOTS)."
        )
    return Path(real)


def _matches(relative: str, include: Globs, exclude: Globs) -> bool:
    if not any(fnmatch.fnmatchcase(relative, pattern) for pattern in include):
        return False
    return not any(fnmatch.fnmatchcase(relative, pattern) for pattern in exclude)


def _supported(name: str) -> bool:
    dot = name.rfind(".")
    return dot > 0 and name[dot:].lower() in EXTENSIONS


def _walk(folder: Path, include: Globs, exclude: Globs) -> list[ItemRef]:
    items: list[ItemRef] = []
    for directory, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            if not _supported(name):
                continue
            full = os.path.join(directory, name)
            relative = os.path.relpath(full, folder).replace(os.sep, "/")
            if not _matches(relative, include, exclude):
                continue
            try:
                stat = os.lstat(full)
            except OSError:
                continue  # deleted while listed
            items.append(ItemRef(key=relative, version=f"{stat.st_mtime_ns}-{stat.st_size}"))
    return items


def _read(folder: Path, key: str, roots: list[Path], max_bytes: int) -> ItemContent:
    full = folder / key
    real = os.path.realpath(full)
    if not _within(real, roots):
        raise ItemError("a symlink whose target is outside the allowed folders")
    try:
        stat = os.stat(real)
        if stat.st_size > max_bytes:
            raise ItemError(f"larger than the upload limit ({max_bytes} bytes)")
        with open(real, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except PermissionError as exc:
        raise ItemError("unreadable (permission denied)") from exc
    except FileNotFoundError as exc:
        raise ItemError("gone (deleted while syncing)") from exc
    except IsADirectoryError as exc:
        raise ItemError("a directory") from exc
    except OSError as exc:
        raise ItemError(f"unreadable ({exc.strerror or type(exc).__name__})") from exc
    if len(data) > max_bytes:
        raise ItemError(f"larger than the upload limit ({max_bytes} bytes)")
    lstat = os.lstat(full)
    return ItemContent(
        data=data,
        version=f"{lstat.st_mtime_ns}-{lstat.st_size}",
        source_uri=Path(full).as_uri(),
        filename=full.name,
    )


class FolderAdapter:
    kind: ClassVar[str] = "folder"
    pushed: ClassVar[bool] = False
    config_model: ClassVar[type[BaseModel]] = FolderConfig

    def check(self, config: dict[str, Any], settings: Settings) -> None:
        folder = resolved_folder(config, settings)
        if not folder.is_dir():
            raise ValidationFailed(f"`path` {config['path']!r} is not a directory.")

    async def list_items(self, config: dict[str, Any], settings: Settings) -> list[ItemRef]:
        try:
            folder = resolved_folder(config, settings)
        except ValidationFailed as exc:
            raise SourceUnavailable(exc.detail) from exc
        if not folder.is_dir():
            raise SourceUnavailable(f"{config['path']!r} is not a directory (any more).")
        return await asyncio.to_thread(_walk, folder, config["include"], config["exclude"])

    async def fetch(
        self, config: dict[str, Any], settings: Settings, item: ItemRef, known: Known | None
    ) -> ItemContent:
        try:
            folder = resolved_folder(config, settings)
        except ValidationFailed as exc:
            raise ItemError(exc.detail) from exc
        return await asyncio.to_thread(
            _read, folder, item.key, _roots(settings), settings.max_upload_bytes
        )

    async def health(self, config: dict[str, Any], settings: Settings) -> Health:
        try:
            folder = resolved_folder(config, settings)
        except ValidationFailed as exc:
            return Health(ok=False, detail=exc.detail)
        if not folder.is_dir():
            return Health(ok=False, detail=f"{config['path']!r} is not a directory.")
        if not os.access(folder, os.R_OK | os.X_OK):
            return Health(ok=False, detail=f"{config['path']!r} cannot be read.")
        return Health(ok=True, detail=f"{config['path']!r} is a readable directory.")
