"""The local ONNX embedder on the real model built by scripts/build-model."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from app.embeddings import (
    DEFAULT_LOCAL,
    EmbedderUnavailable,
    EmbeddingSpec,
    LocalOnnxEmbedder,
    build_provider,
    count_tokens,
    embed_query_async,
    get_provider,
)

REPO = Path(__file__).resolve().parents[2]
MODELS = Path(os.environ.get("ARBOR_MODEL_DIR", REPO / "models"))
MODEL_DIR = MODELS / "all-MiniLM-L6-v2"

TEXTS = [
    "A man is eating food.",
    "Vitamin D supplementation reduces the risk of fractures in elderly women.",
    "hello",
    "How do I reset my password if I no longer have access to my email account? "
    "I tried the recovery link twice and it expired both times before I could use it.",
    "東京は日本の首都です。",
    "Café naïve résumé",
    "The mitochondrion is the powerhouse of the cell. " * 20,
    "",
]


@pytest.fixture(scope="module")
def int8() -> LocalOnnxEmbedder:
    # No skip when the model is missing: scripts/test builds it first, so absence is a bug.
    return LocalOnnxEmbedder(MODEL_DIR, variant="int8")


@pytest.fixture(scope="module")
def fp32() -> LocalOnnxEmbedder:
    return LocalOnnxEmbedder(MODEL_DIR, variant="fp32")


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.mark.parametrize("variant", ["int8", "fp32"])
def test_vectors_have_384_dimensions_and_unit_norm(
    variant: str, int8: LocalOnnxEmbedder, fp32: LocalOnnxEmbedder
) -> None:
    embedder = int8 if variant == "int8" else fp32
    vectors = embedder.embed_documents(TEXTS)

    assert embedder.dimensions == 384
    assert embedder.max_tokens == 256
    assert embedder.model == "all-MiniLM-L6-v2"
    assert embedder.variant == variant
    assert vectors.shape == (len(TEXTS), 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_similar_sentences_are_closer_than_unrelated_ones(int8: LocalOnnxEmbedder) -> None:
    anchor, near, far = int8.embed_documents(
        [
            "A man is eating food.",
            "A man is eating a piece of bread.",
            "The stock market fell sharply on Monday.",
        ]
    )
    query = int8.embed_query("Which vitamin helps prevent bone fractures in older people?")
    docs = int8.embed_documents(
        [
            "Vitamin D supplementation reduces the risk of fractures in elderly women.",
            "The Eiffel Tower is located in Paris.",
            "Neural networks are trained with gradient descent.",
        ]
    )

    assert cosine(anchor, near) > 0.6
    assert cosine(anchor, near) > cosine(anchor, far) + 0.4
    assert int(np.argmax(docs @ query)) == 0


@pytest.mark.parametrize("variant", ["int8", "fp32"])
def test_batch_equals_one_at_a_time(
    variant: str, int8: LocalOnnxEmbedder, fp32: LocalOnnxEmbedder
) -> None:
    embedder = int8 if variant == "int8" else fp32
    batched = embedder.embed_documents(TEXTS)
    alone = np.stack([embedder.embed_query(text) for text in TEXTS])

    np.testing.assert_allclose(batched, alone, atol=1e-5)


def test_parallel_runs_give_each_text_the_vector_of_a_serial_run() -> None:
    serial = LocalOnnxEmbedder(MODEL_DIR, variant="int8", threads=1)
    parallel = LocalOnnxEmbedder(MODEL_DIR, variant="int8", threads=3)
    texts = [f"{n}: {text}" for n in range(4) for text in TEXTS]

    np.testing.assert_allclose(
        parallel.embed_documents(texts), serial.embed_documents(texts), atol=1e-6
    )


def test_int8_runs_one_text_at_a_time_and_fp32_batches(
    int8: LocalOnnxEmbedder, fp32: LocalOnnxEmbedder
) -> None:
    # Dynamic int8 scales activations per batch, so batching would tie a vector to its
    # neighbours; this pins the defaults that keep int8 exact per text.
    assert int8.batch_size == 1
    assert fp32.batch_size == 16


def test_order_is_kept_although_batches_are_sorted_by_length(fp32: LocalOnnxEmbedder) -> None:
    fp32.batch_size = 3  # several batches, each reordered by length
    try:
        forward = fp32.embed_documents(TEXTS)
        backward = fp32.embed_documents(TEXTS[::-1])
    finally:
        fp32.batch_size = 16

    np.testing.assert_allclose(forward, backward[::-1], atol=1e-5)
    assert cosine(forward[0], fp32.embed_query(TEXTS[0])) > 0.99999


def test_text_past_256_tokens_is_truncated(fp32: LocalOnnxEmbedder) -> None:
    head = " ".join(f"sentence {i} talks about proteins and cells." for i in range(60))
    longer = head + " Then it changes topic entirely to medieval castle architecture." * 200

    assert fp32.tokenizer.count_tokens(head) > 256
    assert fp32.tokenizer.count_tokens(longer) > 2000
    same = fp32.embed_documents([head, longer])
    np.testing.assert_allclose(same[0], same[1], atol=1e-6)
    assert np.isfinite(same).all()


def test_empty_list_gives_an_empty_matrix(int8: LocalOnnxEmbedder) -> None:
    vectors = int8.embed_documents([])

    assert vectors.shape == (0, 384)
    assert vectors.dtype == np.float32


def test_int8_agrees_with_fp32(int8: LocalOnnxEmbedder, fp32: LocalOnnxEmbedder) -> None:
    quantised = int8.embed_documents(TEXTS)
    exact = fp32.embed_documents(TEXTS)

    assert min(cosine(q, e) for q, e in zip(quantised, exact, strict=True)) >= 0.97


def test_tokenizer_counts_what_the_model_sees(int8: LocalOnnxEmbedder) -> None:
    tokenizer = int8.tokenizer

    assert tokenizer.encode_ids("hello world") == [7592, 2088]
    assert tokenizer.count_tokens("hello world") == 4  # [CLS] hello world [SEP]
    assert tokenizer.count_tokens("") == 2
    assert count_tokens(int8, "word " * 1000) == 1002  # counting never truncates


def test_a_missing_model_says_how_to_build_it(tmp_path: Path) -> None:
    with pytest.raises(EmbedderUnavailable, match="scripts/build-model"):
        LocalOnnxEmbedder(tmp_path / "all-MiniLM-L6-v2")


def test_a_corrupt_model_file_is_refused(tmp_path: Path) -> None:
    for name in ("manifest.json", "tokenizer.json"):
        shutil.copy(MODEL_DIR / name, tmp_path / name)
    (tmp_path / "model-int8.onnx").write_bytes(b"half a model")

    with pytest.raises(EmbedderUnavailable, match="does not match its manifest"):
        LocalOnnxEmbedder(tmp_path)


def test_an_unverified_build_is_refused(tmp_path: Path) -> None:
    manifest = json.loads((MODEL_DIR / "manifest.json").read_text())
    manifest["verification"]["passed"] = False
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))

    with pytest.raises(EmbedderUnavailable, match="did not pass verification"):
        LocalOnnxEmbedder(tmp_path)


def test_registry_loads_the_default_model_once() -> None:
    first = get_provider(DEFAULT_LOCAL, model_dir=MODELS)
    second = get_provider(DEFAULT_LOCAL, model_dir=MODELS)

    assert isinstance(first, LocalOnnxEmbedder)
    assert first is second
    assert (first.name, first.variant, first.dimensions) == ("local", "int8", 384)


@pytest.mark.parametrize(
    "spec",
    [
        EmbeddingSpec(provider="local", model="bge-small", dimensions=384),
        EmbeddingSpec(provider="local", model="all-MiniLM-L6-v2", dimensions=768),
        EmbeddingSpec(provider="local", model="all-MiniLM-L6-v2", dimensions=384, variant="int4"),
    ],
)
def test_registry_refuses_what_the_local_provider_cannot_serve(spec: EmbeddingSpec) -> None:
    with pytest.raises(EmbedderUnavailable):
        build_provider(spec, model_dir=MODELS)


async def test_async_query_matches_sync(int8: LocalOnnxEmbedder) -> None:
    vector = await embed_query_async(int8, "a question about cells")

    np.testing.assert_array_equal(vector, int8.embed_query("a question about cells"))


def test_idle_runs_do_not_spin_wait(int8: LocalOnnxEmbedder) -> None:
    # A spinning intra-op pool burns a core after every query that the event loop needs.
    for session in (int8._session, int8._query_session):
        options = session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
