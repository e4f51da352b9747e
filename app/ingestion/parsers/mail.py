"""E-mail (RFC 5322 `.eml`) via the standard library: headers, body, attachments as sections.

The title is the subject; the first paragraph lists From, To, Cc and Date, and the headers
are the document's metadata too (`header_metadata`), so filters can ask for a sender. The
body is the plain-text part, else the HTML part read as HTML. Each attachment in a supported
format is parsed by its own parser and becomes a level-1 section `Attachment: name` holding
its tree's headings and paragraphs one level deeper; one in another format is named and skipped.
Attached e-mails nest at most MAX_DEPTH deep.
"""

from __future__ import annotations

import email
import email.policy
from datetime import UTC
from email.errors import MessageError
from email.headerregistry import AddressHeader, DateHeader
from email.message import EmailMessage
from typing import Any

from app.ingestion import segment
from app.ingestion.builder import TextBuilder
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, finish
from app.ingestion.parsers.html import extract
from app.ingestion.parsers.nesting import append_blocks
from app.ingestion.tree import ParagraphNode, SectionNode, iter_nodes
from app.kit.errors import AppError, UnprocessableDocument

HEADERS = ("From", "To", "Cc", "Date")
MAX_DEPTH = 3
MAX_ATTACHMENTS = 100
# Metadata is copied into every chunk: a header of thousands of recipients is cut short.
MAX_ADDRESSES = 100
MAX_HEADER_CHARS = 1000


def _header(message: EmailMessage, name: str) -> str:
    try:
        value = message.get(name)
    except Exception:  # a malformed header the policy cannot parse
        return ""
    return " ".join(str(value).split()) if value is not None else ""


def _storable(text: str) -> str:
    """`text` without what jsonb cannot hold (NUL, lone surrogates), at most MAX_HEADER_CHARS."""
    cleaned = text.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")
    return cleaned[:MAX_HEADER_CHARS]


def _addresses(message: EmailMessage, name: str) -> list[str]:
    """The header's addresses, lower-cased (as mail systems compare them), in order."""
    try:
        value = message.get(name)
        if not isinstance(value, AddressHeader):
            return []
        found = [a.addr_spec.lower() for a in value.addresses if a.username]
    except Exception:  # a malformed header the policy cannot parse
        return []
    return [_storable(a) for a in dict.fromkeys(found)][:MAX_ADDRESSES]


def _date(message: EmailMessage) -> str:
    """The Date header in ISO 8601, UTC (so that strings compare in time order); as written
    when it does not parse as a date."""
    try:
        value = message.get("Date")
        when = value.datetime if isinstance(value, DateHeader) else None
    except (ValueError, TypeError, IndexError, MessageError):
        # A malformed date in any of the ways the email package reports it: kept as written.
        when = None
    if when is None:
        return _storable(_header(message, "Date"))
    if when.tzinfo is None:  # RFC 5322's "-0000": no zone known; taken as UTC
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat()


def header_metadata(message: EmailMessage) -> dict[str, Any]:
    """From, To, Cc, Date, Subject and Message-ID as metadata keys (`from`, `to`, `cc`,
    `date`, `subject`, `message_id`): addresses, lists of addresses, an ISO 8601 date, text.
    Headers the message lacks are left out."""
    senders = _addresses(message, "From")
    found: dict[str, Any] = {
        "from": senders[0] if senders else _storable(_header(message, "From")),
        "to": _addresses(message, "To"),
        "cc": _addresses(message, "Cc"),
        "date": _date(message),
        "subject": _storable(_header(message, "Subject")),
        "message_id": _storable(_header(message, "Message-ID")),
    }
    return {key: value for key, value in found.items() if value}


def _body(message: EmailMessage, out: TextBuilder) -> None:
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return
    try:
        content = part.get_content()
    except (LookupError, ValueError, AssertionError):
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    if not isinstance(content, str):
        return
    content = content.replace("\r\n", "\n").replace("\x00", "")
    if part.get_content_subtype() == "html":
        inner, _ = extract(content)
        append_blocks(out, inner, shift=0)
        return
    for start, end in segment.blocks(content):
        out.add(content[start:end])


def _tree_builder(parsed: ParsedDocument) -> TextBuilder:
    """A parsed attachment's headings and paragraphs again, as blocks."""
    inner = TextBuilder()
    for node in iter_nodes(parsed.root):
        if isinstance(node, SectionNode):
            inner.add(node.title, kind="heading", level=node.level, title=node.title)
        elif isinstance(node, ParagraphNode):
            inner.add(node.text, split_sentences=bool(node.children), confidence=node.confidence)
    return inner


def _attachments(message: EmailMessage, out: TextBuilder, limits: ParseLimits, depth: int) -> None:
    from app.ingestion.parse import parse_document  # the registry imports this module

    for count, part in enumerate(message.iter_attachments()):
        name = part.get_filename() or f"attachment {count + 1}"
        if count >= MAX_ATTACHMENTS:
            break
        heading = f"Attachment: {name}"
        out.add(heading, kind="heading", level=1, title=heading)
        if part.get_content_type() == "message/rfc822" and depth < MAX_DEPTH:
            inner_message = part.get_payload(0) if part.is_multipart() else None
            if isinstance(inner_message, EmailMessage):
                inner = TextBuilder()
                _message(inner_message, inner, limits, depth + 1)
                append_blocks(out, inner, shift=1)
            continue
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes) or not payload.strip():
            continue
        try:
            parsed = parse_document(
                payload, filename=name, content_type=part.get_content_type(), limits=limits
            )
        except AppError as exc:
            out.add(f"({name} was not read: {exc.detail})")
            continue
        append_blocks(out, _tree_builder(parsed), shift=1)


def _message(message: EmailMessage, out: TextBuilder, limits: ParseLimits, depth: int) -> None:
    lines = [f"{name}: {value}" for name in HEADERS if (value := _header(message, name))]
    if lines:
        out.add("\n".join(lines), split_sentences=False)
    _body(message, out)
    _attachments(message, out, limits, depth)


class EmlParser:
    """Parses e-mail messages (MIME, `.eml`)."""

    format = "eml"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Headers, the body, then each attachment as a section."""
        try:
            message = email.message_from_bytes(data, policy=email.policy.default)
        except Exception as exc:  # the parser is lenient; this is a defect it gave up on
            raise UnprocessableDocument(f"corrupt e-mail: {exc}") from exc
        if not isinstance(message, EmailMessage):
            raise UnprocessableDocument("not an e-mail message")
        out = TextBuilder()
        try:
            _message(message, out, limits, 0)
        except RecursionError as exc:  # MIME parts nested thousands deep
            raise UnprocessableDocument("e-mail parts are nested too deeply") from exc
        if not any(block.kind == "paragraph" for block in out.blocks):
            raise UnprocessableDocument("empty document: the e-mail has no text")
        subject = _header(message, "Subject") or None
        return finish(
            out.text(),
            out.blocks,
            format=self.format,
            title=title or subject,
            limits=limits,
            metadata=header_metadata(message),
        )
