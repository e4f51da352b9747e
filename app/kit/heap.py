"""The garbage collector's view of a long-running process."""

import gc


def freeze_startup_heap() -> int:
    """Move everything alive after start-up out of the collector's reach; returns how many.

    Start-up leaves a few hundred thousand objects that live as long as the process (modules,
    onnxruntime, tokenizers, SQLAlchemy's mappers). Left in the oldest generation, each full
    collection walks all of them: 70-100 ms measured in the search benchmark, a pause that
    stalls every request in flight and set the p99 (docs/benchmarks.md). Frozen, a full
    collection walks only what requests allocate.

    Once per process: what a later call would freeze is not start-up's (a test suite starts
    many apps in one process), and frozen objects are never collected, cycles included.
    """
    if not gc.get_freeze_count():
        gc.collect()
        gc.freeze()
    return gc.get_freeze_count()
