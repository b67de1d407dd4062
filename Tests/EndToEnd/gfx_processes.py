"""The graphics tests' settings, and processes started under `timeout -s KILL`
and stopped by their own PID.
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

TIMEOUT = 10.0  # seconds to wait for a window, a picture or a reply
POLL = 0.05
TERMINAL_LIFETIME = 300  # seconds before `timeout` kills a terminal that was never stopped
DISPLAY_LIFETIME = 3600  # the same for Xvfb, which may serve a whole pytest session
KINDS = ("xterm-sixel", "kitty", "mlterm", "konsole", "foot")

# One font for every terminal, so cell sizes are comparable and known. DejaVu
# Sans Mono is in fonts-dejavu-core (fontconfig's own default font set).
FONT = "DejaVu Sans Mono"
FONT_POINTS = 10  # xterm and kitty take points; Xvfb runs at 100 dpi
MLTERM_FONT_PIXELS = 14  # mlterm takes pixels

# Executables each part needs.
XTOOLS = ("Xvfb", "xdotool", "import", "timeout")
TERMINAL_PROGRAMS = {"xterm-sixel": "xterm", "kitty": "kitty", "mlterm": "mlterm", "konsole": "konsole", "foot": "foot"}
# foot is a Wayland terminal: it runs inside weston, whose x11 backend is an
# X window on the virtual display (weston's headless backend has no seat,
# and foot will not start without one).
WESTON_TITLE = "Weston Compositor - screen0"


def missing_tools(kinds: Sequence[str] = ()) -> list[str]:
    """What is missing to run the given terminal kinds (empty: all there)."""
    missing = [tool for tool in XTOOLS if shutil.which(tool) is None]
    missing += [TERMINAL_PROGRAMS[kind] for kind in kinds if shutil.which(TERMINAL_PROGRAMS[kind]) is None]
    if "foot" in kinds and shutil.which("weston") is None:
        missing.append("weston")
    if Image is None:
        missing.append("Pillow (python3-pil)")
    return missing


# --------------------------------------------------------------------------
# Processes: started under `timeout -s KILL`, stopped by PID.


def _children(pid: int) -> list[int]:
    """Direct children of pid (Linux /proc), for stopping what timeout runs."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(word) for word in text.split()]


def stop_process(process: subprocess.Popen, grace: float = 2.0) -> None:
    """Stops a `timeout -s KILL N program` started here, and that program.

    SIGTERM to timeout is passed on to the program, which can then close its
    window cleanly; whatever is still alive after `grace` is killed, by the
    PIDs read before the signal, while timeout still held them.
    """
    if process.poll() is not None:
        return
    inner = _children(process.pid)
    try:
        process.send_signal(signal.SIGTERM)
        process.wait(grace)
        return
    except subprocess.TimeoutExpired:
        pass
    for pid in inner:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.kill()
    process.wait(grace)


def _run(args: Sequence[str], env: Mapping[str, str], timeout: float = TIMEOUT, check: bool = True) -> str:
    """A short tool run (xdotool, import): bounded twice, by timeout and here."""
    result = subprocess.run(
        ["timeout", "-s", "KILL", str(int(timeout) + 1), *args],
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout + 5,
        stdin=subprocess.DEVNULL,
    )
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout
