"""The tools: each one a pydantic model of its arguments and the REST calls it makes.

Shared by the MCP server (`app/mcp`) and function calling (`/v1/tools`): both list the same
definitions and run the same code through a `Dispatcher`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
from pydantic import BaseModel, ValidationError

from app.kit.errors import NotFound, ValidationFailed
from app.tools.dispatch import Dispatcher, segment
from app.tools.schemas import (
    AnswerArgs,
    Citation,
    FunctionDefinition,
    GetChunkContextArgs,
    GetDocumentArgs,
    ListKnowledgeBasesArgs,
    SearchKnowledgeArgs,
    ToolCallResult,
    ToolDefinition,
)

# A chunk's text in a tool's text answer; the full text stays in `result`.
MAX_TEXT_CHARS_PER_PASSAGE = 4000


class ToolFailed(Exception):
    """The REST call behind a tool answered an error: its problem, passed on unchanged."""

    def __init__(self, problem: dict[str, Any], status: int) -> None:
        super().__init__(str(problem.get("detail") or problem.get("title") or "Tool call failed"))
        self.problem = problem
        self.status = status


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    description: str
    arguments: type[BaseModel]
    run: Callable[[Dispatcher, Any], Awaitable[tuple[dict[str, Any], str]]]

    def definition(self) -> ToolDefinition:
        return ToolDefinition(
            function=FunctionDefinition(
                name=self.name, description=self.description, parameters=self.parameters()
            )
        )

    def parameters(self) -> dict[str, Any]:
        schema = self.arguments.model_json_schema()
        # The description is the tool's; the title only repeats the class name.
        schema.pop("title", None)
        schema.pop("description", None)
        return schema


async def _json(response: httpx.Response) -> dict[str, Any]:
    if response.status_code >= 400:
        try:
            problem = response.json()
        except ValueError:
            problem = {"title": response.reason_phrase, "status": response.status_code}
        raise ToolFailed(problem, response.status_code)
    body = response.json()
    assert isinstance(body, dict)
    return body


def citations_of(hits: list[dict[str, Any]]) -> list[Citation]:
    return [
        Citation(
            n=n,
            chunk_id=hit["chunk_id"],
            doc_id=hit["doc_id"],
            knowledge_base_id=hit["knowledge_base_id"],
            document_title=hit["doc_title"],
            section_path=hit["section_titles"],
            page_start=hit.get("page_start"),
            page_end=hit.get("page_end"),
            score=hit["score"],
        )
        for n, hit in enumerate(hits, start=1)
    ]


def _where(citation: Citation) -> str:
    parts = [citation.document_title, *citation.section_path]
    where = " > ".join(part for part in parts if part)
    if citation.page_start is not None:
        end = citation.page_end
        pages = (
            f"p. {citation.page_start}"
            if end in (None, citation.page_start)
            else f"pp. {citation.page_start}-{end}"
        )
        where += f" ({pages})"
    return where


async def search_knowledge(
    dispatcher: Dispatcher, args: SearchKnowledgeArgs
) -> tuple[dict[str, Any], str]:
    body = await _json(
        await dispatcher.request(
            "POST",
            "/v1/search",
            json={
                "knowledge_bases": args.knowledge_bases,
                "query": args.query,
                "top_k": args.top_k,
                "filter": args.filter,
                "mode": args.mode,
            },
        )
    )
    citations = citations_of(body["hits"])
    lines = [
        f"[{c.n}] {_where(c)} (chunk {c.chunk_id})\n{hit['text'][:MAX_TEXT_CHARS_PER_PASSAGE]}"
        for c, hit in zip(citations, body["hits"], strict=True)
    ]
    text = "\n\n".join(lines) if lines else "No passage found."
    body["citations"] = [c.model_dump(mode="json") for c in citations]
    return body, text


async def answer(dispatcher: Dispatcher, args: AnswerArgs) -> tuple[dict[str, Any], str]:
    body = await _json(
        await dispatcher.request(
            "POST",
            "/v1/answer",
            json={
                "query": args.question,
                "knowledge_bases": args.knowledge_bases,
                "top_k": args.top_k,
                "filter": args.filter,
                "stream": False,
            },
        )
    )
    cited = [
        f"[{c['n']}] "
        + " > ".join(part for part in (c["doc_title"], *c["section_titles"]) if part)
        + (f" (p. {c['page_start']})" if c.get("page_start") is not None else "")
        + f" (chunk {c['chunk_id']})"
        for c in body["citations"]
    ]
    text = body["answer"] + ("\n\nSources:\n" + "\n".join(cited) if cited else "")
    return body, text


async def list_knowledge_bases(
    dispatcher: Dispatcher, args: ListKnowledgeBasesArgs
) -> tuple[dict[str, Any], str]:
    params: dict[str, str | int] = {"limit": args.limit}
    if args.cursor is not None:
        params["cursor"] = args.cursor
    body = await _json(await dispatcher.request("GET", "/v1/knowledge-bases", params=params))
    lines = [
        f"- {kb['name']} ({kb['id']}): {kb.get('title') or kb['name']}"
        + (f" - {kb['description']}" if kb.get("description") else "")
        for kb in body["items"]
    ]
    if body.get("next_cursor"):
        lines.append(f"(more: cursor {body['next_cursor']})")
    return body, "\n".join(lines) if lines else "No knowledge base."


async def get_document(dispatcher: Dispatcher, args: GetDocumentArgs) -> tuple[dict[str, Any], str]:
    base = f"/v1/knowledge-bases/{segment(args.knowledge_base)}"
    document = await _json(
        await dispatcher.request("GET", f"{base}/documents/{segment(args.document)}")
    )
    result: dict[str, Any] = {"document": document}
    text = f"{document['title']} ({document['id']}), status {document['status']}"
    if args.include_text:
        chunks = await _json(
            await dispatcher.request(
                "GET", f"{base}/chunks", params={"doc_id": document["id"], "limit": 200}
            )
        )
        items = sorted(chunks["items"], key=lambda chunk: chunk.get("chunk_index", 0))
        result["chunks"] = items
        result["chunks_truncated"] = chunks.get("next_cursor") is not None
        text += "\n\n" + "\n\n".join(str(chunk.get("text", "")) for chunk in items)
    return result, text


async def get_chunk_context(
    dispatcher: Dispatcher, args: GetChunkContextArgs
) -> tuple[dict[str, Any], str]:
    body = await _json(
        await dispatcher.request(
            "POST",
            f"/v1/knowledge-bases/{segment(args.knowledge_base)}/chunks/context",
            json={"chunk_ids": [str(chunk_id) for chunk_id in args.chunk_ids]},
        )
    )
    parts = []
    for item in body["items"]:
        context = item["context"]
        path = " > ".join(node.get("title") or node["node_id"] for node in context["ancestors"])
        parent = context.get("parent") or {}
        parts.append(f"chunk {item['chunk_id']}: {path}\n{parent.get('text', '')}".rstrip())
    if body["missing"]:
        parts.append("not found: " + ", ".join(str(chunk_id) for chunk_id in body["missing"]))
    return body, "\n\n".join(parts)


TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool(
            "search_knowledge",
            "Search knowledge bases for passages relevant to a question. Returns the passages "
            "with citations (document title, section path, page, chunk id); cite them as [n].",
            SearchKnowledgeArgs,
            search_knowledge,
        ),
        Tool(
            "answer",
            "Answer a question from knowledge bases: a written answer citing its sources as "
            "[n], with each source's document title, section path, page and chunk id.",
            AnswerArgs,
            answer,
        ),
        Tool(
            "list_knowledge_bases",
            "List the knowledge bases you can search, with their names and descriptions.",
            ListKnowledgeBasesArgs,
            list_knowledge_bases,
        ),
        Tool(
            "get_document",
            "Read one document of a knowledge base: its title, metadata and text.",
            GetDocumentArgs,
            get_document,
        ),
        Tool(
            "get_chunk_context",
            "The context of chunks found by search_knowledge: the section titles above them, "
            "the enclosing section's text, and the chunks before and after.",
            GetChunkContextArgs,
            get_chunk_context,
        ),
    )
}


def definitions() -> list[ToolDefinition]:
    return [tool.definition() for tool in TOOLS.values()]


def arguments_of(name: str, arguments: dict[str, Any] | None) -> tuple[Tool, BaseModel]:
    """The tool and its validated arguments; 404 for no such tool, 422 for bad arguments."""
    tool = TOOLS.get(name)
    if tool is None:
        raise NotFound(f"No tool {name!r}; GET /v1/tools lists them.")
    try:
        return tool, tool.arguments.model_validate(arguments or {})
    except ValidationError as exc:
        errors = [
            {"loc": ["body", *error["loc"]], "msg": error["msg"], "type": error["type"]}
            for error in exc.errors(include_url=False, include_input=False)
        ]
        raise ValidationFailed(f"Invalid arguments for {name}.", extra={"errors": errors}) from None


async def call(
    dispatcher: Dispatcher, name: str, arguments: dict[str, Any] | None
) -> ToolCallResult:
    tool, args = arguments_of(name, arguments)
    result, text = await tool.run(dispatcher, args)
    return ToolCallResult(tool=name, result=result, text=text)
