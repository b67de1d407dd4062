"""The private Xvfb display the terminals run on.
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
from gfx_processes import _children, _run  # noqa: F401
from gfx_terminal import *  # noqa: F403

# --------------------------------------------------------------------------
# The virtual display.


def _display_in_use(number: int) -> bool:
    """A live X server holds :number (its lock file names a live PID).

    A lock left by a killed server is not in the way: the X server
    replaces a stale lock itself, and refuses a live one (then the next
    number is tried).
    """
    try:
        pid = int(Path(f"/tmp/.X{number}-lock").read_text().strip())
    except (OSError, ValueError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live server
        return True
    return True


@dataclasses.dataclass(frozen=True)
class CellGeometry:
    """Where the character grid is in a terminal window, in pixels."""

    width: int  # one cell
    height: int
    left: int  # the grid's first column starts here (padding, borders)
    top: int


class XDisplay:
    """A private Xvfb display (``:90`` or the next free number) and the
    terminals started on it; a context manager that stops them all.

    Terminals are placed side by side in slots so that none covers another:
    without a window manager or compositor, a screenshot of a covered window
    would show whatever covers it.
    """

    def __init__(self, width: int = 3200, height: int = 2000, first_number: int = 90, workdir: Path | None = None):
        self.width, self.height = width, height
        self.first_number = first_number
        self._own_workdir = workdir is None
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="graphics-e2e-"))
        self.number: int | None = None
        self.process: subprocess.Popen | None = None
        self.terminals: list[Terminal] = []
        self._cells: dict[str, CellGeometry] = {}
        self._home = self.workdir / "home"  # the terminals' own config-free HOME

    @property
    def name(self) -> str:
        return f":{self.number}"

    def environment(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """A clean environment for X clients: nothing of the test runner's
        terminal (TERM, COLORTERM, TMUX, ...) leaks into the terminals."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self._home),
            "LANG": "C.UTF-8",
            "DISPLAY": self.name,
            "XDG_RUNTIME_DIR": str(self._home / "run"),
        }
        env.update(extra or {})
        return env

    # -- life cycle ----------------------------------------------------------

    def __enter__(self) -> "XDisplay":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        (self._home / "run").mkdir(parents=True, exist_ok=True)
        os.chmod(self._home / "run", 0o700)
        errors = []
        for number in range(self.first_number, self.first_number + 40):
            if _display_in_use(number):
                continue
            error = self._try_start(number)
            if error is None:
                return
            errors.append(f":{number}: {error}")
        raise RuntimeError("could not start Xvfb: " + ("; ".join(errors[-3:]) or "no free display number"))

    def _try_start(self, number: int) -> str | None:
        """Starts Xvfb on :number; None when it is ready, else why not.

        -displayfd makes Xvfb write the number on a pipe once it accepts
        clients, which is the readiness signal (no polling of the socket).
        """
        read_end, write_end = os.pipe()
        log = open(self.workdir / f"xvfb-{number}.log", "wb")
        process = subprocess.Popen(
            [
                "timeout", "-s", "KILL", str(DISPLAY_LIFETIME),
                "Xvfb", f":{number}", "-screen", "0", f"{self.width}x{self.height}x24",
                "-nolisten", "tcp", "-noreset", "-displayfd", str(write_end),
            ],
            pass_fds=(write_end,),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        os.close(write_end)
        log.close()
        deadline = time.monotonic() + TIMEOUT
        reply = b""
        try:
            while time.monotonic() < deadline and not reply.endswith(b"\n"):
                ready, _, _ = select.select([read_end], [], [], POLL)
                if ready:
                    chunk = os.read(read_end, 64)
                    if not chunk:  # Xvfb exited (display taken by a racing server)
                        break
                    reply += chunk
        finally:
            os.close(read_end)
        if reply.strip() == str(number).encode():
            self.number, self.process = number, process
            return None
        stop_process(process)
        return (self.workdir / f"xvfb-{number}.log").read_text(errors="replace").strip()[-300:] or "no reply"

    def stop(self) -> None:
        for terminal in list(self.terminals):
            terminal.stop()
        if self.process is not None:
            stop_process(self.process)
            self.process = None
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    # -- terminals -------------------------------------------------------------

    def _free_slot(self) -> tuple[int, int]:
        """Top-left corner of a 1600x1000 slot no live terminal uses."""
        used = {t.origin for t in self.terminals if t.alive()}
        for y in range(0, self.height - 999, 1000):
            for x in range(0, self.width - 1599, 1600):
                if (x, y) not in used:
                    return x, y
        raise RuntimeError("every slot of the display holds a terminal; stop one first")

    def start_terminal(
        self,
        kind: str,
        command: str,
        columns: int = 80,
        rows: int = 24,
        env: Mapping[str, str] | None = None,
        *,
        cwd: Path | None = None,
        hold: bool = True,
        measure: bool = True,
    ) -> "Terminal":
        """Runs `command` under plain ``sh -c`` in a new terminal window.

        kind: "xterm-sixel" (xterm -ti vt340, 256 colour registers), "kitty",
        "mlterm", "konsole" or "foot" (inside its own weston, x11 backend).
        TERM is what the terminal sets (xterm, xterm-kitty, mlterm, foot)
        unless env names it; env is added to a clean environment
        (LANG=C.UTF-8, a private HOME). The command's exit status goes to
        the file `terminal.rc_path`; with hold the window then stays open
        (a held shell sleeping) so the last screen can be photographed.
        With measure, the cell geometry of this kind is known before this
        returns (one calibration window per kind and display, cached).
        """
        if kind not in KINDS:
            raise ValueError(f"unknown terminal kind {kind!r}; one of {KINDS}")
        if measure and kind not in self._cells:
            self._cells[kind] = self._calibrate(kind)
        terminal = Terminal(self, kind, columns, rows)
        terminal.launch(command, env or {}, cwd, hold)
        if measure:
            terminal.cell = self._cells[kind]
        return terminal

    def cell_geometry(self, kind: str) -> CellGeometry:
        if kind not in self._cells:
            self._cells[kind] = self._calibrate(kind)
        return self._cells[kind]

    def _calibrate(self, kind: str) -> CellGeometry:
        """Measures a kind's cells from a screenshot of a known layout.

        A block of 10x4 cells with a red background, drawn from row 3,
        column 5 (1-based), with the cursor hidden: its pixel box gives the
        cell size and, extrapolated back to column 1 and row 1, the grid's
        origin inside the window. This needs no cooperation from the
        terminal (xterm does not answer CSI 14/16 t by default).
        """
        # The red is a 256-colour palette entry (196 = #ff0000) so that no
        # terminal's own idea of "red" (ANSI 1) matters.
        paint = "".join(f"\\033[{row};5H\\033[48;5;196m          \\033[0m" for row in range(3, 7))
        command = f"printf '\\033[?25l\\033[2J{paint}\\033[10;1H'"
        terminal = Terminal(self, kind, 40, 12)
        terminal.launch(command, {}, None, hold=True)
        try:
            def red_box(image):
                # Pixels with red > 200, green < 60 and blue < 60, as a mask.
                r, g, b = image.convert("RGB").split()
                mask = ImageChops.multiply(
                    ImageChops.multiply(r.point(lambda v: 255 if v > 200 else 0), g.point(lambda v: 255 if v < 60 else 0)),
                    b.point(lambda v: 255 if v < 60 else 0),
                )
                box = mask.getbbox()
                if box is None:
                    return None
                # Wait until the block is complete: it fills its bounding box.
                if mask.crop(box).histogram()[255] != (box[2] - box[0]) * (box[3] - box[1]):
                    return None
                return box

            boxes: list = []
            terminal.wait_for(lambda image: boxes.append(red_box(image)) or boxes[-1], "the calibration block")
            left, top, right, bottom = boxes[-1]
            if (right - left) % 10 or (bottom - top) % 4:
                raise RuntimeError(f"{kind}: calibration block {boxes[-1]} is not 10x4 whole cells")
            width, height = (right - left) // 10, (bottom - top) // 4
            return CellGeometry(width, height, left - 4 * width, top - 2 * height)
        finally:
            terminal.stop()
