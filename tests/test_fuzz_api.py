"""Schemathesis over the served OpenAPI document: every operation, stateful links, time-bounded.

Generated requests, valid and invalid, go to a real uvicorn serving the app; the run fails on
any 5xx, a status code the operation does not declare, a response that breaks its schema, or a
content type the operation does not declare. `scripts/fuzz` runs the same for longer.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

from fastapi import FastAPI

from scripts import fuzz_api
from tests.helpers import serve_in_loop

# The suite's budget: under a minute of generated requests (about 500), 90 s with the seeding.
MAX_TIME_S = int(os.environ.get("ARBOR_FUZZ_TEST_S", "50"))


async def test_the_api_keeps_its_contract_under_generated_requests(
    app: FastAPI, tmp_path: Path
) -> None:
    async with serve_in_loop(app) as port:
        base = f"http://127.0.0.1:{port}"
        (tmp_path / "schemathesis.toml").write_text(await fuzz_api.seed(base))
        # Three runs, each with its share of the budget, so that no phase spends another's:
        # a few generated requests for every operation, then the coverage phase's boundary
        # values (many per operation, as far as its share goes), then chains over the links.
        # The first is bounded by its examples per operation, not its time: it usually ends
        # within its 40 % share, but must reach every operation even on a slow machine, where
        # the share once ran out eight operations short; it may take the whole budget then.
        report = ""
        runs = (("examples,fuzzing", 1.0, 5), ("coverage", 0.3, None), ("stateful", 0.3, None))
        for phases, share, max_examples in runs:
            process = await asyncio.create_subprocess_exec(
                *fuzz_api.command(
                    base,
                    max_time_s=max(1, int(MAX_TIME_S * share)),
                    seed_value=18,
                    phases=phases,
                    max_examples=max_examples,
                ),
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                cwd=tmp_path,
            )
            output, _ = await process.communicate()
            report = output.decode(errors="replace")
            assert process.returncode == 0, report[-20_000:]
            if phases == "examples,fuzzing":
                # Every operation was reached.
                selected = re.search(r"Selected: (\d+)/(\d+)", report)
                tested = re.search(r"Tested: (\d+)", report)
                assert selected, report[-2_000:]
                assert tested, report[-2_000:]
                assert int(tested[1]) == int(selected[2]) > 50, report[-2_000:]
    # The stateful phase ran scenarios over the links.
    scenarios = re.search(r"Scenarios:\s+(\d+)", report)
    assert scenarios, report[-2_000:]
    assert int(scenarios[1]) > 0, report[-2_000:]
