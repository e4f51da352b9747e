"""sdk/python is what scripts/generate-sdk makes of the spec, keeping every operation."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SDK = ROOT / "sdk" / "python"
SPEC = ROOT / "openapi" / "openapi.json"


def differences(left: Path, right: Path) -> list[str]:
    compared = filecmp.dircmp(left, right)
    found = [
        f"{left.name}/{name}"
        for name in compared.left_only + compared.right_only + compared.diff_files
    ]
    for sub in compared.subdirs.values():
        found += [f"{left.name}/{item}" for item in differences(Path(sub.left), Path(sub.right))]
    return found


def test_checked_in_sdk_matches_spec(tmp_path: Path) -> None:
    bin_dir = Path(sys.executable).parent
    out = tmp_path / "python"
    generated = subprocess.run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(SPEC),
            "--config",
            str(ROOT / "sdk" / "config.yaml"),
            "--meta",
            "uv",
            "--fail-on-warning",
            "--output-path",
            str(out),
        ],
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    # --fail-on-warning: a schema the generator cannot read would drop its operations.
    assert generated.returncode == 0, generated.stdout + generated.stderr
    shutil.copy(ROOT / "sdk" / "streaming.py", out / "arbor_client" / "streaming.py")
    assert differences(SDK, out) == [], "run scripts/generate-sdk"


def test_every_operation_has_a_client_function() -> None:
    spec = json.loads(SPEC.read_text())
    modules = {path.stem for path in (SDK / "arbor_client" / "api").rglob("*.py")}
    for operations in spec["paths"].values():
        for operation in operations.values():
            name = operation["operationId"].replace("-", "_").lower()
            assert name in modules, operation["operationId"]
    # FastAPI names two models of one name by their module path; generators then drop both.
    assert not [name for name in spec["components"]["schemas"] if name.startswith("app__")]
