"""What a screenshot shows, measured: fine detail per cell, blank regions,
pixels of a colour; and the thresholds that tell pixels from symbols.
"""

from __future__ import annotations

import dataclasses
import fcntl
import os
import pty
import re
import select
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import unicodedata
import uuid
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

try:  # Pillow is optional for importing this module; the analysis needs it.
    from PIL import Image, ImageChops, ImageDraw
except ImportError:  # pragma: no cover - reported by missing_tools()
    Image = ImageChops = None  # type: ignore[assignment]
    ImageDraw = None  # type: ignore[assignment]

# --------------------------------------------------------------------------
# Picture analysis.

Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom excluded)


def _luminance_rows(image, box: Box) -> list[bytes]:
    if not hasattr(image, "crop"):
        with Image.open(image) as opened:
            image = opened.convert("RGB")
    region = image.crop(box).convert("L")
    width, height = region.size
    data = region.tobytes()
    return [data[y * width:(y + 1) * width] for y in range(height)]


def detail_score(image, box: Box, cell_width: int, dark: int = 96, light: int = 160) -> float:
    """Fine horizontal detail in box: how often each pixel row goes from
    dark (luminance below `dark`) to light (above `light`) or back, averaged
    over the rows, per cell width.

    Real pixels of 1-2 px black and white stripes cross once per stripe
    edge: about 8 (1 px) or 4 (2 px) times per cell of 8 px. Block and
    quadrant symbols change colour at most once inside a cell and once at
    its edge, so they stay at or under ~2 however fine the photo is (and
    stripes finer than a symbol's halves average to grey: near 0). The two
    thresholds (a Schmitt trigger) count an anti-aliased glyph edge, dark
    then grey then light, as one crossing, not two.
    image: a PIL image or a PNG path.
    """
    rows = _luminance_rows(image, box)
    if not rows or not rows[0]:
        return 0.0
    # Each pixel becomes d (dark), l (light) or nothing (in between, which
    # keeps the previous state); then every "dl" or "ld" is one crossing.
    # (Done with bytes methods: a Python loop per pixel is slow.)
    levels = bytes(ord("d") if v < dark else ord("l") if v > light else ord("m") for v in range(256))
    crossings = 0
    for row in rows:
        states = row.translate(levels).replace(b"m", b"")
        crossings += states.count(b"dl") + states.count(b"ld")
    cells = len(rows[0]) / cell_width
    return crossings / len(rows) / cells


def region_is_blank(image, box: Box, tolerance: int = 24, background: tuple[int, int, int] | None = None,
                    allowed_fraction: float = 0.0) -> bool:
    """True when (nearly) every pixel of box is within `tolerance` of the
    background colour (default: the region's most common colour), so no
    stale picture or text is left. allowed_fraction lets a few pixels (a
    cursor) differ."""
    if not hasattr(image, "crop"):
        with Image.open(image) as opened:
            image = opened.convert("RGB")
    region = image.crop(box).convert("RGB")
    colours = region.getcolors(maxcolors=region.size[0] * region.size[1] + 1)
    if not colours:
        return True
    if background is None:
        background = max(colours)[1]
    off = sum(count for count, colour in colours
              if max(abs(a - b) for a, b in zip(colour, background)) > tolerance)
    return off <= allowed_fraction * region.size[0] * region.size[1]


def count_colour(image, box: Box, low: tuple[int, int, int], high: tuple[int, int, int]) -> int:
    """How many pixels of box have every channel within [low, high]
    (inclusive), e.g. a photo's red border: low (150, 0, 0), high (255, 90, 90)."""
    if not hasattr(image, "crop"):
        with Image.open(image) as opened:
            image = opened.convert("RGB")
    channels = image.crop(box).convert("RGB").split()
    mask = None
    for channel, lo, hi in zip(channels, low, high):
        band = channel.point(lambda v, lo=lo, hi=hi: 255 if lo <= v <= hi else 0)
        mask = band if mask is None else ImageChops.multiply(mask, band)
    return mask.histogram()[255]


# --------------------------------------------------------------------------
# Shared by the tests: thresholds and skips.

# Fine detail per cell width: 2-px stripes as pixels give ~4 (1-px ~8);
# block symbols give at most ~2 whatever the photo. The symbols are limited
# to blocks and spaces, as picker-tui draws them: chafa's default set also
# has line-drawing symbols (a bar in mid-cell), which reach ~2.5 on
# coarser stripes.
PIXELS_AT_LEAST = 3.0
SYMBOLS_AT_MOST = 2.2


