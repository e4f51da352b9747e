from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_access import DocumentAccess
    from ..models.document_transfer_metadata import DocumentTransferMetadata
    from ..models.parsed_document import ParsedDocument
    from ..models.transferred_chunk import TransferredChunk


T = TypeVar("T", bound="DocumentTransfer")


@_attrs_define
class DocumentTransfer:
    """A document whole: what `GET .../export` answers and `POST .../import` takes.

    Attributes:
        access (DocumentAccess | None | Unset):
        chunks (list[TransferredChunk] | None | Unset): The chunks, with or without vectors (those without are
            embedded). Absent on import: Arbor chunks the tree with the knowledge base's settings.
        embedding_model (None | str | Unset): The model (and variant) the chunks' vectors come from, as an export says:
            an import with vectors into a knowledge base of another model is a 422.
        external_id (None | str | Unset):
        filename (None | str | Unset):
        metadata (DocumentTransferMetadata | Unset):
        source_uri (None | str | Unset):
        title (None | str | Unset):
        tree (None | ParsedDocument | Unset): The extracted `text` and the tree over it (`root`), as parsing makes them;
            every node's text must be `text[start_offset:end_offset]` (docs/ingestion.md).
    """

    access: DocumentAccess | None | Unset = UNSET
    chunks: list[TransferredChunk] | None | Unset = UNSET
    embedding_model: None | str | Unset = UNSET
    external_id: None | str | Unset = UNSET
    filename: None | str | Unset = UNSET
    metadata: DocumentTransferMetadata | Unset = UNSET
    source_uri: None | str | Unset = UNSET
    title: None | str | Unset = UNSET
    tree: None | ParsedDocument | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.parsed_document import ParsedDocument  # noqa: PLC0415

        access: dict[str, Any] | None | Unset
        if isinstance(self.access, Unset):
            access = UNSET
        elif isinstance(self.access, DocumentAccess):
            access = self.access.to_dict()
        else:
            access = self.access

        chunks: list[dict[str, Any]] | None | Unset
        if isinstance(self.chunks, Unset):
            chunks = UNSET
        elif isinstance(self.chunks, list):
            chunks = []
            for chunks_type_0_item_data in self.chunks:
                chunks_type_0_item = chunks_type_0_item_data.to_dict()
                chunks.append(chunks_type_0_item)

        else:
            chunks = self.chunks

        embedding_model: None | str | Unset
        if isinstance(self.embedding_model, Unset):
            embedding_model = UNSET
        else:
            embedding_model = self.embedding_model

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        filename: None | str | Unset
        if isinstance(self.filename, Unset):
            filename = UNSET
        else:
            filename = self.filename

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        source_uri: None | str | Unset
        if isinstance(self.source_uri, Unset):
            source_uri = UNSET
        else:
            source_uri = self.source_uri

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        tree: dict[str, Any] | None | Unset
        if isinstance(self.tree, Unset):
            tree = UNSET
        elif isinstance(self.tree, ParsedDocument):
            tree = self.tree.to_dict()
        else:
            tree = self.tree

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if access is not UNSET:
            field_dict["access"] = access
        if chunks is not UNSET:
            field_dict["chunks"] = chunks
        if embedding_model is not UNSET:
            field_dict["embedding_model"] = embedding_model
        if external_id is not UNSET:
            field_dict["external_id"] = external_id
        if filename is not UNSET:
            field_dict["filename"] = filename
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if source_uri is not UNSET:
            field_dict["source_uri"] = source_uri
        if title is not UNSET:
            field_dict["title"] = title
        if tree is not UNSET:
            field_dict["tree"] = tree

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.document_transfer_metadata import DocumentTransferMetadata  # noqa: PLC0415
        from ..models.parsed_document import ParsedDocument  # noqa: PLC0415
        from ..models.transferred_chunk import TransferredChunk  # noqa: PLC0415

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

        def _parse_chunks(data: object) -> list[TransferredChunk] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                chunks_type_0 = []
                _chunks_type_0 = data
                for chunks_type_0_item_data in _chunks_type_0:
                    chunks_type_0_item = TransferredChunk.from_dict(chunks_type_0_item_data)

                    chunks_type_0.append(chunks_type_0_item)

                return chunks_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[TransferredChunk] | None | Unset, data)

        chunks = _parse_chunks(d.pop("chunks", UNSET))

        def _parse_embedding_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        embedding_model = _parse_embedding_model(d.pop("embedding_model", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("external_id", UNSET))

        def _parse_filename(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        filename = _parse_filename(d.pop("filename", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: DocumentTransferMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = DocumentTransferMetadata.from_dict(_metadata)

        def _parse_source_uri(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_uri = _parse_source_uri(d.pop("source_uri", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_tree(data: object) -> None | ParsedDocument | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tree_type_0 = ParsedDocument.from_dict(data)

                return tree_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ParsedDocument | Unset, data)

        tree = _parse_tree(d.pop("tree", UNSET))

        document_transfer = cls(
            access=access,
            chunks=chunks,
            embedding_model=embedding_model,
            external_id=external_id,
            filename=filename,
            metadata=metadata,
            source_uri=source_uri,
            title=title,
            tree=tree,
        )

        return document_transfer
