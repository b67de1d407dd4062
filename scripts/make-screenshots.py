#!/usr/bin/env python3
"""Screenshots of the real binary for the README, made in kitty on a
private virtual X display (scripts/install-deps.sh test installs what it
needs): Photos on the demo library (day headers, the scale), a stack
opened, the loupe with its mini-map, compare, the preview with its facts
panel, and the album's grid as block symbols.

Usage:  scripts/make-screenshots.py [OUTDIR]   (default docs/screenshots)
"""

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))

from graphics_terminals import XDisplay  # noqa: E402

BINARY = REPO / ".build" / "release" / "picker-tui"
ALBUM = REPO / "demo" / "album"
LIBRARY = REPO / "demo" / "library"


def settle(terminal, seconds=1.5):
    """Until two screenshots a moment apart are the same (all drawn)."""
    deadline = time.monotonic() + 10
    previous = None
    while time.monotonic() < deadline:
        time.sleep(seconds / 3)
        current = terminal.image().tobytes()
        if current == previous:
            return
        previous = current


def shoot(display, out: Path, name: str, mode: str, keys=(), arguments=None, size=(100, 34)):
    cache = tempfile.mkdtemp(prefix="picker-shots-")
    arguments = arguments or str(ALBUM)
    terminal = display.start_terminal(
        "kitty",
        f"{BINARY} --thumbnails {mode} {arguments} > /dev/null",
        *size,
        env={"XDG_CACHE_HOME": cache, "XDG_STATE_HOME": cache},
    )
    try:
        settle(terminal)
        for key in keys:
            terminal.send_keys(key)
            settle(terminal, 0.6)
        terminal.screenshot(out / f"{name}.png")
        print(out / f"{name}.png")
        terminal.send_keys("Escape", "Escape", "Escape")
    finally:
        terminal.stop()


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    if not BINARY.exists():
        sys.exit(f"build first: {BINARY} is missing (make build)")
    photos = f"--timeline {LIBRARY}"
    with XDisplay() as display:
        shoot(display, out, "timeline-kitty", "auto", arguments=photos, size=(120, 36))
        # December 2022 in New York: a clip (▶ and its length) and a Live Photo.
        shoot(
            display, out, "videos-kitty", "auto", keys=["colon", "2", "0", "2", "2", "minus", "1", "2", "Return"],
            arguments=photos, size=(120, 36))
        # The burst's tile is the first of the second row.
        shoot(display, out, "stack-kitty", "auto", keys=["Down", "Return"], arguments=photos, size=(120, 36))
        shoot(display, out, "loupe-kitty", "auto", keys=["Right", "v", "plus", "plus"], arguments=photos)
        shoot(
            display, out, "compare-kitty", "auto", keys=["Down", "Right", "space", "Right", "space", "c"],
            arguments=photos, size=(120, 36))
        shoot(display, out, "grid-kitty", "auto", keys=["Right", "Right", "Right", "space", "Right", "Right"])
        shoot(display, out, "preview-kitty", "auto", keys=["Right", "Right", "Right", "v", "i"])
        shoot(display, out, "grid-symbols", "symbols", keys=["Right", "Right", "Right", "space", "Right", "Right"])


if __name__ == "__main__":
    main()
