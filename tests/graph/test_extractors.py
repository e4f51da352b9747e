"""Extractors and merging without a database: the local pipeline, the LLM's JSON handling."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.graph.context import ContextEdge, ContextNode, build
from app.graph.extraction import ChunkInput, entity_key
from app.graph.llm import ChatMessage, LlmExtractor
from app.graph.local import extract_sync
from app.graph.stage import merge


def test_entity_keys_merge_spelling_variants() -> None:
    assert entity_key("The University of Paris") == entity_key("university  of paris")
    assert entity_key("Curie's") == entity_key("curie")
    assert entity_key("\uff23\uff55\uff52\uff49\uff45") == "curie"  # full-width, NFKC


def test_local_extraction_types_entities_and_relations() -> None:
    chunk = ChunkInput(uuid.uuid4(), "Marie Curie worked at the University of Paris in 1903.")
    [found] = extract_sync([chunk])
    types = {e.name: e.type for e in found.entities}
    assert types["Marie Curie"] == "PERSON"
    assert types["University of Paris"] == "ORG"
    assert "1903" not in types  # dates are values, not nodes
    [relation] = [r for r in found.relations if r.target == "University of Paris"]
    assert relation.source == "Marie Curie"
    assert relation.type == "work"
    assert relation.fact == chunk.text


def test_merge_keeps_one_entity_and_a_mention_per_chunk() -> None:
    first, second = uuid.uuid4(), uuid.uuid4()
    found = extract_sync(
        [
            ChunkInput(first, "Sea otters eat crabs. The sea otter sleeps in kelp."),
            ChunkInput(second, "Sea otters live in the Pacific Ocean."),
        ]
    )
    merged = merge(found)
    assert list(merged.entities).count("sea otter") == 1
    otter_chunks = [m[1] for m in merged.entity_mentions if m[0] == "sea otter"]
    assert sorted(otter_chunks) == sorted([first, second])


@dataclass
class Usage:
    prompt_tokens: int
    completion_tokens: int


@dataclass
class Reply:
    text: str
    usage: Usage


@dataclass
class ScriptedChat:
    """Answers from a script, in order; records what it was asked and how many at once."""

    script: list[str]
    asked: list[Sequence[ChatMessage]] = field(default_factory=list)
    running: int = 0
    most: int = 0

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        json_mode: bool = False,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> Reply:
        assert json_mode
        self.running += 1
        self.most = max(self.most, self.running)
        await asyncio.sleep(0.01)
        self.running -= 1
        self.asked.append(messages)
        return Reply(self.script.pop(0), Usage(100, 20))


GOOD = json.dumps(
    {
        "chunks": [
            {
                "index": 0,
                "entities": [
                    {"name": "Ada Lovelace", "type": "person", "description": "A poet's daughter."}
                ],
                "relations": [
                    {
                        "source": "Ada Lovelace",
                        "target": "Analytical Engine",
                        "type": "wrote about",
                        "fact": "Ada wrote notes on the Engine.",
                    }
                ],
            }
        ]
    }
)


async def test_llm_answers_become_entities_and_relations() -> None:
    chat = ScriptedChat([GOOD])
    chunk = ChunkInput(uuid.uuid4(), "Ada wrote notes on the Analytical Engine.")
    result = await LlmExtractor(chat).extract([chunk])
    [found] = result.chunks
    assert found.warning is None
    assert found.entities[0].type == "PERSON"
    assert found.relations[0].type == "wrote_about"
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (100, 20)
    # The endpoint the model did not list becomes an entity when merged.
    assert "analytical engine" in merge(result.chunks).entities


async def test_malformed_answers_are_retried_once_then_a_warning() -> None:
    chunk = ChunkInput(uuid.uuid4(), "Ada wrote notes.")
    recovered = await LlmExtractor(ScriptedChat(["not json", GOOD])).extract([chunk])
    assert recovered.chunks[0].warning is None
    assert recovered.usage.prompt_tokens == 200  # both calls counted
    failed = await LlmExtractor(ScriptedChat(["{}", '{"chunks": "no"}'])).extract([chunk])
    assert failed.chunks[0].entities == []
    assert "malformed twice" in (failed.chunks[0].warning or "")
    assert failed.warnings == [f"chunk {chunk.chunk_id}: {failed.chunks[0].warning}"]


async def test_llm_batches_and_limits_concurrency() -> None:
    chunks = [ChunkInput(uuid.uuid4(), f"Text {i}.") for i in range(10)]
    empty = json.dumps({"chunks": [{"index": i} for i in range(3)]})
    chat = ScriptedChat([empty] * 4)
    result = await LlmExtractor(chat, batch_size=3, concurrency=2).extract(chunks)
    assert len(chat.asked) == 4  # 3 + 3 + 3 + 1 chunks
    assert chat.most == 2
    assert len(result.chunks) == 10
    assert "Chunk 2:" in chat.asked[0][1]["content"]


def test_context_definitions_facts_and_mermaid() -> None:
    a, b = uuid.uuid4(), uuid.uuid4()
    nodes = [
        ContextNode(a, "Marie Curie", "PERSON", "A physicist.", 4.0),
        ContextNode(
            b, '1898 "polonium" discovery and everything that came after it', "CONCEPT", None, 1.0
        ),
    ]
    edges = [ContextEdge(uuid.uuid4(), a, b, "discover", "She discovered polonium.", 6.0)]
    built = build(nodes, edges)
    assert built.definitions.startswith("Marie Curie: A physicist., 1898")
    assert built.facts == (
        'Marie Curie discover 1898 "polonium" discovery and everything that came after it, '
        "She discovered polonium."
    )
    lines = built.mermaid.splitlines()
    assert lines[0] == "graph TD"
    assert '  Marie_Curie["Marie Curie"]' in lines
    assert any(line.startswith("  n_1898_polonium_discovery") and "…" in line for line in lines)
    assert 'Marie_Curie -->|"discover"| n_1898' in built.mermaid
    assert "<definitions>" in built.text


def test_a_sentence_without_a_verb_still_extracts() -> None:
    # The root of a verbless fragment is its own head: the verb search must end there.
    [found] = extract_sync([ChunkInput(uuid.uuid4(), "Marie Curie and Pierre Curie, Paris.")])
    [relation] = [r for r in found.relations if r.target == "Pierre Curie"]
    assert relation.source == "Marie Curie"
