"""The garbage collector's view of a long-running process."""

import gc

_frozen: int | None = None


def freeze_startup_heap() -> int:
    """Move everything alive after start-up out of the collector's reach; returns how many
    were frozen then (some may have been freed since).

    Start-up leaves a few hundred thousand objects that live as long as the process (modules,
    onnxruntime, tokenizers, SQLAlchemy's mappers). Left in the oldest generation, each full
    collection walks all of them: 70-100 ms measured in the search benchmark, a pause that
    stalls every request in flight and set the p99 (docs/benchmarks.md). Frozen, a full
    collection walks only what requests allocate.

    Once per process: what a later call would freeze is not start-up's (a test suite starts
    many apps in one process), and frozen objects are never collected, cycles included. The
    count is remembered rather than asked again: `gc.get_freeze_count` walks the frozen list,
    some 35 ms for each app a test process starts.
    """
    global _frozen
    if _frozen is None:
        already = gc.get_freeze_count()
        if not already:
            gc.collect()
            gc.freeze()
        _frozen = gc.get_freeze_count()
    return _frozen
