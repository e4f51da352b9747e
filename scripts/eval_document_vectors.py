"""Does a short document retrieve better as one vector than as its chunks? Offline, on a BEIR
folder: each document parsed and chunked as an upload is (JSON text, default chunking, the
built-in int8 model, chunks embedded under their context header), and also embedded whole
(truncated to the model's window). Exact cosine search ranks documents by

- their best chunk (what the service does today),
- their whole text, truncated (what one chunk per document through the chunk API gives),
- the mean of their chunks' vectors (a whole document without truncation),
- the mean of their best chunk's score and their whole text's,

and each beside a BM25 text side (bm25s, stemmed; a document's best chunk, or the whole
document), fused per document (min-max over the union of each side's top 100, weight 0.5).
nDCG@10 as trec_eval computes it. The BM25 side stands in for Postgres' text score, so
compare rows with each other, not with the service's own figures (docs/benchmarks.md,
"Search quality").

Usage: scripts/eval-document-vectors [--data DIR]   (about 8 minutes for SciFact on 2 cores)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import bm25s
import numpy as np
import Stemmer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.chunks.embedding import embedding_input  # noqa: E402
from app.config import Settings  # noqa: E402
from app.documents.ingest_work import token_counter  # noqa: E402
from app.embeddings.registry import DEFAULT_LOCAL, build_provider  # noqa: E402
from app.ingestion.chunking import ChunkingConfig, chunk_document  # noqa: E402
from app.ingestion.parse import parse_document  # noqa: E402
from app.terminal.metrics import ndcg_at  # noqa: E402
from scripts import eval as beir  # noqa: E402

FUSION_CANDIDATES = 100
BATCH = 64


def bm25_scores(texts: list[str], queries: list[str]) -> np.ndarray:
    """BM25 (Lucene, k1 1.2, b 0.75, English stop words, Snowball stemmer) of each query
    against each text: queries x texts."""
    stemmer = Stemmer.Stemmer("english")
    index = bm25s.BM25(method="lucene", k1=1.2, b=0.75)
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    index.index(tokens, show_progress=False)
    asked = bm25s.tokenize(
        queries, stopwords="en", stemmer=stemmer, show_progress=False, return_ids=False
    )
    return np.vstack([index.get_scores(words) for words in asked]).astype(np.float32)


def fused(vector: np.ndarray, text: np.ndarray, weight: float = 0.5) -> np.ndarray:
    """Min-max fusion over the union of each side's top candidates; others score -inf."""
    out = np.full_like(vector, -np.inf)
    for row in range(vector.shape[0]):
        union = np.union1d(
            np.argsort(-vector[row])[:FUSION_CANDIDATES], np.argsort(-text[row])[:FUSION_CANDIDATES]
        )
        parts = []
        for side in (vector[row, union], text[row, union]):
            low, high = side.min(), side.max()
            parts.append((side - low) / (high - low) if high > low else np.zeros(len(union)))
        out[row, union] = weight * parts[0] + (1 - weight) * parts[1]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=beir.DATA, help="a BEIR folder (test split)")
    args = parser.parse_args()
    beir.DATA = args.data
    documents, qrels = beir.load_corpus(), beir.load_qrels()
    titles = {d["_id"]: d["title"] for d in documents}
    corpus = {d["_id"]: f"{d['title']} {d['text']}".strip() for d in documents}
    queries = {q["_id"]: q["text"] for q in beir.load_queries() if q["_id"] in qrels}
    doc_ids = list(corpus)
    query_ids = list(queries)

    provider = build_provider(DEFAULT_LOCAL, model_dir=Settings().model_dir)
    assert provider is not None
    counter, window = token_counter(provider)
    chunk_inputs: list[str] = []
    chunk_texts: list[str] = []
    owner: list[int] = []
    whole: list[str] = []
    for position, doc_id in enumerate(doc_ids):
        title, text = titles[doc_id], corpus[doc_id]
        parsed = parse_document(text.encode(), format="text", title=title or None)
        for draft in chunk_document(parsed, ChunkingConfig(), counter, embedder_window=window):
            chunk_inputs.append(
                embedding_input(draft.text, title=parsed.title, section_titles=draft.section_titles)
            )
            # The text index holds the title with every chunk (docs/search.md).
            chunk_texts.append(
                draft.text if draft.text.startswith(title) else f"{title} {draft.text}"
            )
            owner.append(position)
        whole.append(text)
    over = sum(counter.count_tokens(text) > window for text in whole)
    print(f"{len(doc_ids)} documents, {len(chunk_inputs)} chunks, {over} documents past the window")

    def embed(texts: list[str]) -> np.ndarray:
        return np.vstack(
            [provider.embed_documents(texts[s : s + BATCH]) for s in range(0, len(texts), BATCH)]
        )

    chunk_vectors, whole_vectors = embed(chunk_inputs), embed(whole)
    query_vectors = np.vstack([provider.embed_query(queries[q]) for q in query_ids])
    owners = np.asarray(owner)

    def best_of_chunks(scores: np.ndarray) -> np.ndarray:
        out = np.full((scores.shape[0], len(doc_ids)), -np.inf, dtype=np.float32)
        for row in range(scores.shape[0]):
            np.maximum.at(out[row], owners, scores[row])
        return out

    mean_vectors = np.zeros_like(whole_vectors)
    np.add.at(mean_vectors, owners, chunk_vectors)
    mean_vectors /= np.linalg.norm(mean_vectors, axis=1, keepdims=True)

    by_chunk = best_of_chunks(query_vectors @ chunk_vectors.T)
    truncated = query_vectors @ whole_vectors.T
    views = {
        "best chunk (the service)": by_chunk,
        "whole document, truncated": truncated,
        "mean of the chunks' vectors": query_vectors @ mean_vectors.T,
        "best chunk and whole, averaged": (by_chunk + truncated) / 2,
    }
    text_by_chunk = best_of_chunks(bm25_scores(chunk_texts, [queries[q] for q in query_ids]))
    text_whole = bm25_scores(whole, [queries[q] for q in query_ids])

    def ndcg(scores: np.ndarray) -> float:
        return float(
            np.mean(
                [
                    ndcg_at([doc_ids[j] for j in np.argsort(-scores[row])[:10]], qrels[q])
                    for row, q in enumerate(query_ids)
                ]
            )
        )

    print("| document vector | vector nDCG@10 | + BM25 per chunk | + BM25 per document |")
    print("| --- | --- | --- | --- |")
    for name, scores in views.items():
        print(
            f"| {name} | {ndcg(scores):.4f} | {ndcg(fused(scores, text_by_chunk)):.4f} "
            f"| {ndcg(fused(scores, text_whole)):.4f} |"
        )


if __name__ == "__main__":
    main()
