"""Context building: numbered sources packed into a token budget, and the prompt's data block."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.answers.retrieval import GraphContext
from app.answers.schemas import Source
from app.answers.text import split_sentences
from app.llm import estimate_tokens
from app.search.schemas import SearchHit

# A passage trimmed to fit the budget must keep at least this much to be worth a number.
MIN_TRIMMED_TOKENS = 40
# Chunkers overlap neighbours by a few sentences at most; longer matches are coincidence.
MAX_OVERLAP_CHARS = 1000
# The knowledge graph's definitions and facts may take at most this share of the budget;
# the sources get the rest. Unbounded, a graph's 15 definitions and 20 one-sentence facts
# took most of the default 3,000 tokens: on SciFact the sources per answer fell from 6 to
# 1.8 and their nDCG@10 from 0.73 to 0.45 (docs/graph.md, "Quality").
GRAPH_SHARE = 0.25


@dataclass(slots=True)
class _Passage:
    hits: list[SearchHit]  # in chunk order
    score: float

    @property
    def first(self) -> SearchHit:
        return self.hits[0]

    def adjacent(self, hit: SearchHit) -> bool:
        first = self.first
        if hit.doc_id != first.doc_id or hit.node_path != first.node_path:
            return False
        indexes = [h.chunk_index for h in self.hits]
        return hit.chunk_index in (min(indexes) - 1, max(indexes) + 1)

    def add(self, hit: SearchHit) -> None:
        self.hits.append(hit)
        self.hits.sort(key=lambda h: h.chunk_index)

    def text(self) -> str:
        merged = self.hits[0].text
        for hit in self.hits[1:]:
            merged = _join(merged, hit.text)
        return merged


@dataclass(slots=True)
class BuiltContext:
    sources: list[Source]
    prompt: str
    tokens: int
    duplicates: int
    merged: int
    trimmed: int
    left_out: int
    # Definitions and facts from the knowledge graph, packed beside the sources.
    graph_items: int = 0


def _join(left: str, right: str) -> str:
    """Two neighbouring chunks as one text, the overlap between them said once."""
    longest = min(len(left), len(right), MAX_OVERLAP_CHARS)
    for size in range(longest, 15, -1):
        if left.endswith(right[:size]):
            return left + right[size:]
    return f"{left.rstrip()}\n{right.lstrip()}"


def _normalised(text: str) -> str:
    return " ".join(text.split()).casefold()


def _trim(text: str, budget: int) -> str:
    """The longest run of whole sentences from the start that fits `budget` tokens."""
    kept: list[str] = []
    for sentence in split_sentences(text):
        if estimate_tokens(" ".join([*kept, sentence])) > budget:
            break
        kept.append(sentence)
    return " ".join(kept)


def _escape(text: str) -> str:
    """Document text is data: it cannot open or close the prompt's own tags."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attribute(value: str) -> str:
    return _escape(" ".join(value.split())).replace('"', "&quot;")


def _source_block(source: Source) -> str:
    attributes = [f'n="{source.n}"', f'title="{_attribute(source.doc_title)}"']
    if source.section_titles:
        attributes.append(f'section="{_attribute(" > ".join(source.section_titles))}"')
    if source.page_start is not None:
        pages = str(source.page_start)
        if source.page_end is not None and source.page_end != source.page_start:
            pages += f"-{source.page_end}"
        attributes.append(f'pages="{pages}"')
    return f"<source {' '.join(attributes)}>\n{_escape(source.text)}\n</source>"


def _fit_graph(graph: GraphContext | None, budget: int) -> GraphContext | None:
    """The graph's best definitions and facts (each list is ranked) that fit `budget` tokens,
    taken alternately so that neither crowds out the other."""
    if graph is None:
        return None
    fitted = GraphContext()
    used = 0
    pending = [(fitted.definitions, list(graph.definitions)), (fitted.facts, list(graph.facts))]
    while any(rest for _kept, rest in pending):
        for kept, rest in pending:
            if not rest:
                continue
            item = rest.pop(0)
            cost = estimate_tokens(_escape(item)) + 1
            if used + cost > budget:
                rest.clear()  # ranked: a later item that would fit is a worse one
                continue
            kept.append(item)
            used += cost
    return fitted


def _graph_blocks(graph: GraphContext | None) -> list[str]:
    if graph is None:
        return []
    blocks: list[str] = []
    if graph.definitions:
        lines = "\n".join(_escape(d) for d in graph.definitions)
        blocks.append(f"<definitions>\n{lines}\n</definitions>")
    if graph.facts:
        lines = "\n".join(_escape(f) for f in graph.facts)
        blocks.append(f"<facts>\n{lines}\n</facts>")
    return blocks


def build_context(
    hits: Sequence[SearchHit], *, max_tokens: int, graph: GraphContext | None = None
) -> BuiltContext:
    """Number the passages, best first: duplicates dropped, adjacent chunks of one section
    merged, packed into `max_tokens` (the last one cut at a sentence end if it must be)."""
    passages: list[_Passage] = []
    seen_chunks: set[object] = set()
    seen_texts: set[str] = set()
    duplicates = merged = 0
    for hit in hits:
        key = _normalised(hit.text)
        # A chunk is its id within its knowledge base.
        if (hit.knowledge_base_id, hit.chunk_id) in seen_chunks or key in seen_texts:
            duplicates += 1
            continue
        seen_chunks.add((hit.knowledge_base_id, hit.chunk_id))
        seen_texts.add(key)
        home = next((p for p in passages if p.adjacent(hit)), None)
        if home is not None:
            home.add(hit)
            merged += 1
        else:
            passages.append(_Passage(hits=[hit], score=hit.score))

    graph = _fit_graph(graph, int(max_tokens * GRAPH_SHARE))
    graph_blocks = _graph_blocks(graph)
    budget = max_tokens - sum(estimate_tokens(b) for b in graph_blocks)
    sources: list[Source] = []
    blocks: list[str] = []
    used = trimmed = left_out = 0
    for passage in passages:
        text = passage.text()
        n = len(sources) + 1
        source = _source(n, passage, text)
        cost = estimate_tokens(_source_block(source))
        if used + cost > budget:
            overhead = cost - estimate_tokens(text)
            room = budget - used - overhead
            shorter = _trim(text, room) if room >= MIN_TRIMMED_TOKENS else ""
            if not shorter:
                left_out += 1
                continue
            source = _source(n, passage, shorter)
            cost = estimate_tokens(_source_block(source))
            trimmed += 1
        sources.append(source)
        blocks.append(_source_block(source))
        used += cost
    prompt_parts = [f"<sources>\n{chr(10).join(blocks)}\n</sources>"] if blocks else []
    prompt = "\n".join([*prompt_parts, *graph_blocks])
    return BuiltContext(
        sources=sources,
        prompt=prompt,
        tokens=estimate_tokens(prompt),
        duplicates=duplicates,
        merged=merged,
        trimmed=trimmed,
        left_out=left_out,
        graph_items=len(graph.definitions) + len(graph.facts) if graph_blocks and graph else 0,
    )


def _source(n: int, passage: _Passage, text: str) -> Source:
    hits = passage.hits
    starts = [h.start_offset for h in hits if h.start_offset is not None]
    ends = [h.end_offset for h in hits if h.end_offset is not None]
    page_starts = [h.page_start for h in hits if h.page_start is not None]
    page_ends = [h.page_end for h in hits if h.page_end is not None]
    first = passage.first
    return Source(
        n=n,
        chunk_id=first.chunk_id,
        chunk_ids=[h.chunk_id for h in hits],
        doc_id=first.doc_id,
        knowledge_base_id=first.knowledge_base_id,
        doc_title=first.doc_title,
        section_titles=first.section_titles,
        page_start=min(page_starts) if page_starts else None,
        page_end=max(page_ends) if page_ends else None,
        start_offset=min(starts) if starts else None,
        end_offset=max(ends) if ends else None,
        score=passage.score,
        text=text,
    )
