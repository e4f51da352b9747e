from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.crawl import Crawl
    from ..models.document_access import DocumentAccess
    from ..models.schedule import Schedule
    from ..models.source_update_metadata_type_0 import SourceUpdateMetadataType0


T = TypeVar("T", bound="SourceUpdate")


@_attrs_define
class SourceUpdate:
    """Only the fields given change; `schedule: null` stops the schedule, `access: null`
    lets everyone read. Changed fields apply from the next sync.

        Attributes:
            access (DocumentAccess | None | Unset):
            crawl (Crawl | None | Unset): http: a same-host crawl from `urls`.
            exclude (list[str] | None | Unset): folder: patterns to skip.
            include (list[str] | None | Unset): folder: fnmatch patterns of the relative paths to take.
            metadata (None | SourceUpdateMetadataType0 | Unset):
            name (None | str | Unset):
            path (None | str | Unset): folder: an absolute directory path.
            robots (bool | None | Unset): http: honour robots.txt (default).
            schedule (None | Schedule | Unset):
            sitemaps (list[str] | None | Unset): http: sitemap URLs.
            urls (list[str] | None | Unset): http: pages.
    """

    access: DocumentAccess | None | Unset = UNSET
    crawl: Crawl | None | Unset = UNSET
    exclude: list[str] | None | Unset = UNSET
    include: list[str] | None | Unset = UNSET
    metadata: None | SourceUpdateMetadataType0 | Unset = UNSET
    name: None | str | Unset = UNSET
    path: None | str | Unset = UNSET
    robots: bool | None | Unset = UNSET
    schedule: None | Schedule | Unset = UNSET
    sitemaps: list[str] | None | Unset = UNSET
    urls: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.crawl import Crawl  # noqa: PLC0415
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.schedule import Schedule  # noqa: PLC0415
        from ..models.source_update_metadata_type_0 import SourceUpdateMetadataType0  # noqa: PLC0415

        access: dict[str, Any] | None | Unset
        if isinstance(self.access, Unset):
            access = UNSET
        elif isinstance(self.access, DocumentAccess):
            access = self.access.to_dict()
        else:
            access = self.access

        crawl: dict[str, Any] | None | Unset
        if isinstance(self.crawl, Unset):
            crawl = UNSET
        elif isinstance(self.crawl, Crawl):
            crawl = self.crawl.to_dict()
        else:
            crawl = self.crawl

        exclude: list[str] | None | Unset
        if isinstance(self.exclude, Unset):
            exclude = UNSET
        elif isinstance(self.exclude, list):
            exclude = self.exclude

        else:
            exclude = self.exclude

        include: list[str] | None | Unset
        if isinstance(self.include, Unset):
            include = UNSET
        elif isinstance(self.include, list):
            include = self.include

        else:
            include = self.include

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, SourceUpdateMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        path: None | str | Unset
        if isinstance(self.path, Unset):
            path = UNSET
        else:
            path = self.path

        robots: bool | None | Unset
        if isinstance(self.robots, Unset):
            robots = UNSET
        else:
            robots = self.robots

        schedule: dict[str, Any] | None | Unset
        if isinstance(self.schedule, Unset):
            schedule = UNSET
        elif isinstance(self.schedule, Schedule):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule

        sitemaps: list[str] | None | Unset
        if isinstance(self.sitemaps, Unset):
            sitemaps = UNSET
        elif isinstance(self.sitemaps, list):
            sitemaps = self.sitemaps

        else:
            sitemaps = self.sitemaps

        urls: list[str] | None | Unset
        if isinstance(self.urls, Unset):
            urls = UNSET
        elif isinstance(self.urls, list):
            urls = self.urls

        else:
            urls = self.urls

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if access is not UNSET:
            field_dict["access"] = access
        if crawl is not UNSET:
            field_dict["crawl"] = crawl
        if exclude is not UNSET:
            field_dict["exclude"] = exclude
        if include is not UNSET:
            field_dict["include"] = include
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if name is not UNSET:
            field_dict["name"] = name
        if path is not UNSET:
            field_dict["path"] = path
        if robots is not UNSET:
            field_dict["robots"] = robots
        if schedule is not UNSET:
            field_dict["schedule"] = schedule
        if sitemaps is not UNSET:
            field_dict["sitemaps"] = sitemaps
        if urls is not UNSET:
            field_dict["urls"] = urls

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.crawl import Crawl  # noqa: PLC0415
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.schedule import Schedule  # noqa: PLC0415
        from ..models.source_update_metadata_type_0 import SourceUpdateMetadataType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_access(data: object) -> DocumentAccess | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                access_type_0 = DocumentAccess.from_dict(data)

                return access_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentAccess | None | Unset, data)

        access = _parse_access(d.pop("access", UNSET))

        def _parse_crawl(data: object) -> Crawl | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                crawl_type_0 = Crawl.from_dict(data)

                return crawl_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Crawl | None | Unset, data)

        crawl = _parse_crawl(d.pop("crawl", UNSET))

        def _parse_exclude(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                exclude_type_0 = cast(list[str], data)

                return exclude_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        exclude = _parse_exclude(d.pop("exclude", UNSET))

        def _parse_include(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                include_type_0 = cast(list[str], data)

                return include_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        include = _parse_include(d.pop("include", UNSET))

        def _parse_metadata(data: object) -> None | SourceUpdateMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = SourceUpdateMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceUpdateMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_path(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        path = _parse_path(d.pop("path", UNSET))

        def _parse_robots(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        robots = _parse_robots(d.pop("robots", UNSET))

        def _parse_schedule(data: object) -> None | Schedule | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = Schedule.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Schedule | Unset, data)

        schedule = _parse_schedule(d.pop("schedule", UNSET))

        def _parse_sitemaps(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                sitemaps_type_0 = cast(list[str], data)

                return sitemaps_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        sitemaps = _parse_sitemaps(d.pop("sitemaps", UNSET))

        def _parse_urls(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                urls_type_0 = cast(list[str], data)

                return urls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        urls = _parse_urls(d.pop("urls", UNSET))

        source_update = cls(
            access=access,
            crawl=crawl,
            exclude=exclude,
            include=include,
            metadata=metadata,
            name=name,
            path=path,
            robots=robots,
            schedule=schedule,
            sitemaps=sitemaps,
            urls=urls,
        )

        return source_update
