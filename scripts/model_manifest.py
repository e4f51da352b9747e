"""The built model's manifest: constants and the cache check, standard library only.

`python scripts/model_manifest.py DIR` exits 0 when DIR holds a complete, verified build, so
scripts/build-model can skip the build venv (and torch) entirely on the cached path.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSIONS = 384
MAX_TOKENS = 256  # sentence-transformers max_seq_length for this model
MANIFEST_VERSION = 1
ONNX_FILES = {"fp32": "model-fp32.onnx", "int8": "model-int8.onnx"}


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_cached(out_dir: Path) -> bool:
    """True when the manifest passed verification and its file hashes match the files."""
    try:
        manifest = json.loads((out_dir / "manifest.json").read_text())
        if manifest["manifest_version"] != MANIFEST_VERSION:
            return False
        if manifest["verification"]["passed"] is not True:
            return False
        entries = [*manifest["files"].values(), manifest["tokenizer"]]
        return all(sha256_file(out_dir / e["path"]) == e["sha256"] for e in entries)
    except (OSError, ValueError, KeyError, TypeError):
        return False


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: model_manifest.py MODEL_DIR")
    raise SystemExit(0 if check_cached(Path(sys.argv[1])) else 1)
