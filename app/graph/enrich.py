"""Node enrichment from the local pipeline: extractive summaries, keywords, entities.

Summaries are LexRank (Erkan and Radev, 2004): sentences are bags of content lemmas, the
sentence graph is weighted by cosine similarity, and the summary is the most central sentences
in reading order. Keywords are YAKE's (statistical, no model). Entities are the pipeline's
mentions, most frequent first. Every text is analysed once: the tree's paragraphs (and other
leaves) are the units, and a section or the document gathers the sentences of the units
inside its range.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from app.graph.extraction import clip
from app.graph.local import Sentence, analyse
from app.graph.settings import EnrichmentSettings
from app.ingestion.tree import (
    DocumentNode,
    Entity,
    Node,
    NodeEnrichment,
    SentenceNode,
    children_of,
    iter_nodes,
)

MAX_SUMMARY_CHARS = 1500
MAX_SUMMARY_SENTENCES = 3
MAX_NODE_KEYWORDS = 8
MAX_NODE_ENTITIES = 20
# LexRank's matrix is quadratic in sentences; past this a node ranks by similarity to its
# centroid (degree centrality against the mean), which is linear.
LEXRANK_MAX_SENTENCES = 200
# YAKE reads the whole text; a section of a book is ranked from its beginning.
KEYWORD_TEXT_CHARS = 20_000
DAMPING = 0.85


def _vectors(sentences: Sequence[Sentence]) -> np.ndarray:
    """Sentences as L2-normalised TF-IDF rows over their content lemmas."""
    vocabulary: dict[str, int] = {}
    for sentence in sentences:
        for lemma in sentence.lemmas:
            vocabulary.setdefault(lemma, len(vocabulary))
    matrix = np.zeros((len(sentences), max(1, len(vocabulary))), dtype=np.float32)
    for row, sentence in enumerate(sentences):
        for lemma, count in Counter(sentence.lemmas).items():
            matrix[row, vocabulary[lemma]] = count
    documents_with = (matrix > 0).sum(axis=0)
    idf = np.log((1 + len(sentences)) / (1 + documents_with)) + 1.0
    matrix *= idf
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def centrality(sentences: Sequence[Sentence]) -> list[float]:
    """Each sentence's centrality: LexRank's stationary distribution, or for long nodes the
    cosine to the centroid."""
    vectors = _vectors(sentences)
    if len(sentences) > LEXRANK_MAX_SENTENCES:
        centroid = vectors.mean(axis=0)
        return [float(x) for x in vectors @ centroid]
    similarity = vectors @ vectors.T
    np.fill_diagonal(similarity, 0.0)
    sums = similarity.sum(axis=1, keepdims=True)
    n = len(sentences)
    transition = np.where(sums == 0, 1.0 / n, similarity / np.where(sums == 0, 1.0, sums))
    scores = np.full(n, 1.0 / n)
    for _ in range(100):
        updated = (1 - DAMPING) / n + DAMPING * (transition.T @ scores)
        if np.abs(updated - scores).sum() < 1e-6:
            break
        scores = updated
    return [float(x) for x in scores]


def summarise(sentences: Sequence[Sentence]) -> str | None:
    """The most central sentences in reading order, about a third of them (1-3); None for a
    node of fewer than two sentences (it is its own summary)."""
    if len(sentences) < 2:
        return None
    scores = centrality(sentences)
    wanted = max(1, min(MAX_SUMMARY_SENTENCES, math.ceil(len(sentences) / 3)))
    ranked = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))[:wanted]
    return clip(" ".join(sentences[i].text.strip() for i in sorted(ranked)), MAX_SUMMARY_CHARS)


def keywords(text: str) -> list[str]:
    import yake

    extractor = yake.KeywordExtractor(lan="en", n=2, top=MAX_NODE_KEYWORDS)
    found = extractor.extract_keywords(text[:KEYWORD_TEXT_CHARS])
    return [clip(str(word), 200) for word, _score in found if str(word).strip()]


def entities(sentences: Sequence[Sentence]) -> list[Entity]:
    counts: Counter[str] = Counter()
    first: dict[str, tuple[str, str]] = {}
    for sentence in sentences:
        for mention in sentence.mentions:
            counts[mention.key] += 1
            first.setdefault(mention.key, (mention.name, mention.type))
    return [
        Entity(text=clip(first[key][0], 500), type=first[key][1])
        for key, _ in counts.most_common(MAX_NODE_ENTITIES)
    ]


def _units(root: DocumentNode) -> list[Node]:
    """The nodes analysed: those whose children, if any, are all sentences."""
    return [
        node
        for node in iter_nodes(root)
        if not isinstance(node, SentenceNode)
        and all(isinstance(child, SentenceNode) for child in children_of(node))
        and node.text.strip()
    ]


def enrich_tree(root: DocumentNode, settings: EnrichmentSettings) -> dict[str, NodeEnrichment]:
    """The enrichment of every node that is not a sentence, as the settings ask for it
    (CPU-bound: run it in a thread). Nodes with nothing to say are left out."""
    units = _units(root)
    placed: list[tuple[int, Sentence]] = []
    for unit, sentences in zip(units, analyse([u.text for u in units]), strict=True):
        placed += [(unit.range.start_offset + s.start, s) for s in sentences]
    placed.sort(key=lambda item: item[0])
    result: dict[str, NodeEnrichment] = {}
    for node in iter_nodes(root):
        if isinstance(node, SentenceNode):
            continue
        start, end = node.range.start_offset, node.range.end_offset
        inside = [s for offset, s in placed if start <= offset < end]
        fields: dict[str, Any] = {}
        if settings.summaries:
            fields["summary"] = summarise(inside)
        if settings.keywords and node.text.strip():
            fields["keywords"] = keywords(node.text)
        if settings.entities:
            fields["entities"] = entities(inside)
        if any(fields.values()):
            result[node.node_id] = NodeEnrichment(**fields)
    return result
