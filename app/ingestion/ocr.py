"""OCR with RapidOCR (PP-OCR models in ONNX, shipped inside the `rapidocr-onnxruntime` wheel).

Nothing is downloaded: the engine loads the models from its package directory. One engine per
process, loaded on first use and shared under a lock: OCR is CPU-bound and its memory grows
with the image, so pages are read one at a time, each scaled down to at most MAX_SIDE pixels.
Lines come back with boxes and scores; `paragraphs` groups them by layout.
"""

from __future__ import annotations

import os
import statistics
import threading
import time
from dataclasses import dataclass
from typing import Any

from app.ingestion.parsers.base import ParseLimits
from app.kit.errors import PayloadTooLarge

# Longest side an image is read at: enough for body text on a scanned A4 page at ~180 dpi.
MAX_SIDE = 2000
# A vertical gap above this many line heights starts a new paragraph.
PARAGRAPH_GAP = 0.8

_lock = threading.Lock()
_engine: Any = None


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One recognised line: its text, box (left, top, right, bottom in pixels) and score."""

    text: str
    left: float
    top: float
    right: float
    bottom: float
    confidence: float


@dataclass(frozen=True, slots=True)
class OcrParagraph:
    """Lines grouped into a paragraph, with their mean confidence."""

    text: str
    confidence: float


def _get_engine() -> Any:
    global _engine
    if _engine is None:
        from rapidocr_onnxruntime import RapidOCR

        # `max` scaling: the defaults scale the *short* side up to 736 px, which makes a
        # wide strip of text cost as much as a poster. The angle classifier is skipped:
        # upside-down scans are rare and it costs a third of the time.
        _engine = RapidOCR(
            det_limit_type="max",
            det_limit_side_len=1280,
            use_cls=False,
            intra_op_num_threads=min(4, os.cpu_count() or 1),
            inter_op_num_threads=1,
        )
    return _engine


class OcrClock:
    """The OCR time and page budget of one document."""

    def __init__(self, limits: ParseLimits) -> None:
        self.limits = limits
        self.started = time.monotonic()
        self.pages = 0

    def next_page(self) -> None:
        """Count a page about to be read; PayloadTooLarge past the page or time limit."""
        self.pages += 1
        if self.pages > self.limits.max_ocr_pages:
            raise PayloadTooLarge(
                f"more than {self.limits.max_ocr_pages} pages need OCR; that is the limit"
            )
        elapsed = time.monotonic() - self.started
        if elapsed > self.limits.max_ocr_seconds:
            raise PayloadTooLarge(
                f"OCR took over {self.limits.max_ocr_seconds:.0f} s after {self.pages - 1} pages"
            )


def read_lines(image: Any) -> list[OcrLine]:
    """Recognise the lines of a PIL image (any mode), top to bottom."""
    import numpy as np
    from PIL import Image

    picture = image.convert("RGB")
    scale = 1.0
    if max(picture.size) > MAX_SIDE:
        scale = MAX_SIDE / max(picture.size)
        size = (max(1, round(picture.width * scale)), max(1, round(picture.height * scale)))
        picture = picture.resize(size, Image.Resampling.LANCZOS)
    with _lock:
        found, _ = _get_engine()(np.asarray(picture))
    lines: list[OcrLine] = []
    for box, text, score in found or []:
        if not str(text).strip():
            continue
        xs = [point[0] / scale for point in box]
        ys = [point[1] / scale for point in box]
        lines.append(OcrLine(str(text).strip(), min(xs), min(ys), max(xs), max(ys), float(score)))
    lines.sort(key=lambda line: (line.top, line.left))
    return lines


def paragraphs(lines: list[OcrLine]) -> list[OcrParagraph]:
    """Group lines into paragraphs: a new one where the gap above a line is wider than
    PARAGRAPH_GAP line heights, or where it starts clearly left of or right of the last."""
    if not lines:
        return []
    height = statistics.median(line.bottom - line.top for line in lines) or 1.0
    groups: list[list[OcrLine]] = [[lines[0]]]
    for line in lines[1:]:
        last = groups[-1][-1]
        gap = line.top - last.bottom
        shifted = abs(line.left - groups[-1][0].left) > 3 * height
        if gap > PARAGRAPH_GAP * height or shifted:
            groups.append([line])
        else:
            groups[-1].append(line)
    return [
        OcrParagraph(
            " ".join(line.text for line in group),
            round(statistics.fmean(line.confidence for line in group), 4),
        )
        for group in groups
    ]
