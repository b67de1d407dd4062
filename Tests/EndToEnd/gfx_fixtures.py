"""Photos whose fine detail survives only as real pixels, the session's X
display as a pytest fixture, and the skip for missing terminals.
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

from gfx_processes import *  # noqa: F403
from gfx_display import XDisplay

# --------------------------------------------------------------------------
# Fixtures: photos whose fine detail survives only as real pixels.


def make_stripe_photo(path: Path, width: int = 640, height: int = 480, stripe: int = 1,
                      border: int = 16, border_colour: tuple[int, int, int] = (220, 30, 30)) -> Path:
    """Black and white vertical stripes, `stripe` px each, inside a coloured
    border; written as a quality-95 JPEG without chroma subsampling (so
    the stripes keep their edges and the border its colour), or as a PNG
    when the name ends in .png.

    A photo shown smaller than it is gets scaled first, and stripes of
    `stripe` px become stripe * (shown width / photo width) px on screen:
    below 1 px they blur to grey (itself a useful "no fine detail" control).
    For a 640-px photo shown 128 px wide (xterm, chafa sixels) the scores
    measured were: stripe 5 -> 7.5 (an exact 1-px result), 8 -> 4.6,
    10 -> 3.8, 12 -> 3.1, 15 -> 2.5; block symbols of the same photos
    0, 0, 0, 0.6, 1.1. So pick stripe = 1 or 2 times photo width / shown
    width (whole numbers stay crisp).
    """
    image = Image.new("RGB", (width, height), border_colour)
    draw = ImageDraw.Draw(image)
    for x in range(border, width - border):
        if ((x - border) // stripe) % 2 == 0:
            draw.line([(x, border), (x, height - border - 1)], fill=(255, 255, 255))
        else:
            draw.line([(x, border), (x, height - border - 1)], fill=(0, 0, 0))
    return _save_photo(image, path)


def _save_photo(image, path: Path) -> Path:
    """A lossless PNG when the name ends in .png, else a quality-95 JPEG
    without chroma subsampling."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".png":
        image.save(path, "PNG")
    else:
        image.save(path, "JPEG", quality=95, subsampling=0)
    return path


def make_grey_photo(path: Path, width: int = 640, height: int = 480, grey: int = 128) -> Path:
    image = Image.new("RGB", (width, height), (grey, grey, grey))
    return _save_photo(image, path)


def make_stripe_fixtures(folder: Path) -> dict[str, Path]:
    """stripes-1px.jpg, stripes-2px.jpg (640x480) and grey.jpg in folder."""
    folder = Path(folder)
    return {
        "stripes-1px": make_stripe_photo(folder / "stripes-1px.jpg", stripe=1),
        "stripes-2px": make_stripe_photo(folder / "stripes-2px.jpg", stripe=2),
        "grey": make_grey_photo(folder / "grey.jpg"),
    }


# --------------------------------------------------------------------------
# A pytest fixture for test modules: `from graphics_terminals import xdisplay`.

try:
    import pytest

    @pytest.fixture(scope="session")
    def xdisplay(tmp_path_factory) -> Iterator[XDisplay]:
        """One private X display for the session; skips when tools are
        missing. Screenshots and terminal logs stay in pytest's temporary
        folder (basetemp), so a failure's last screenshot can be looked at."""
        missing = missing_tools()
        if missing:
            pytest.skip("graphics terminal tests need " + ", ".join(missing)
                        + " (scripts/install-deps.sh test installs them)")
        with XDisplay(workdir=tmp_path_factory.mktemp("graphics")) as display:
            yield display
except ImportError:  # pragma: no cover - the module also works without pytest
    pass


def need(*kinds: str, tools: Sequence[str] = ()) -> None:
    """Skips the test unless the terminals `kinds` and the programs `tools`
    are installed."""
    import pytest

    missing = missing_tools(kinds) + [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.skip("needs " + ", ".join(missing) + " (scripts/install-deps.sh test installs them)")
