"""One terminal window on the virtual display: started with a command,
keys typed through XTEST, screenshots polled until they show what is
wanted; and a terminal's replies to a query.
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
from gfx_metrics import *  # noqa: F403

# --------------------------------------------------------------------------
# One terminal window.


class Terminal:
    def __init__(self, display: XDisplay, kind: str, columns: int, rows: int):
        self.display = display
        self.kind = kind
        self.columns, self.rows = columns, rows
        self.title = f"gfx-{kind}-{uuid.uuid4().hex[:10]}"
        self.workdir = display.workdir / self.title
        self.workdir.mkdir(parents=True)
        self.process: subprocess.Popen | None = None
        self.window: str | None = None
        self.origin = display._free_slot()
        self.cell: CellGeometry | None = None
        self.shots = 0
        display.terminals.append(self)

    # -- starting and stopping -------------------------------------------------

    def _argv(self, script: Path) -> list[str]:
        x, y = self.origin
        geometry = f"{self.columns}x{self.rows}+{x}+{y}"
        if self.kind == "xterm-sixel":
            return [
                "xterm", "-ti", "vt340",
                # decTerminalID makes the DA1 reply list sixel (attribute 4);
                # 256 registers instead of the VT340's 16 keep photos photos.
                "-xrm", "XTerm*decTerminalID: vt340",
                "-xrm", "XTerm*numColorRegisters: 256",
                # The title stays ours whatever the program sets.
                "-xrm", "XTerm*allowTitleOps: false",
                "-fa", FONT, "-fs", str(FONT_POINTS),
                "-b", "0", "+sb", "-bg", "black", "-fg", "white",
                "-geometry", geometry, "-title", self.title,
                "-e", "/bin/sh", str(script),
            ]
        if self.kind == "kitty":
            options = {
                "font_family": FONT,
                "font_size": str(FONT_POINTS),
                "remember_window_size": "no",
                "initial_window_width": f"{self.columns}c",
                "initial_window_height": f"{self.rows}c",
                "window_padding_width": "0",
                "hide_window_decorations": "yes",
                "placement_strategy": "top-left",  # no centring of the grid in spare pixels
                "allow_remote_control": "no",
                "confirm_os_window_close": "0",
                "enable_audio_bell": "no",
                "cursor_blink_interval": "0",  # a steady cursor: screenshots comparable
                "update_check_interval": "0",
                "linux_display_server": "x11",
                "background": "#000000",
                "foreground": "#ffffff",
            }
            # kitty 0.26 has no option for the window's position: it is
            # moved to its slot once it shows (see launch).
            argv = ["kitty", "--config", "NONE", "--title", self.title]
            for key, value in options.items():
                argv += ["-o", f"{key}={value}"]
            return argv + ["/bin/sh", str(script)]
        if self.kind == "mlterm":
            return [
                "mlterm", "--geometry", geometry, "--title", self.title,
                "--fontsize", str(MLTERM_FONT_PIXELS), "--deffont", FONT, "--aa=true",
                "--border", "0", "--sb=false", "--im", "none", "--bel", "none",
                "--bg", "black", "--fg", "white",
                "-e", "/bin/sh", str(script),
            ]
        if self.kind == "konsole":
            # Konsole keeps a tool bar and a minimum width: the size is a
            # request (the calibration finds where the cells are).
            profile = {
                "TerminalColumns": str(self.columns), "TerminalRows": str(self.rows),
                "Font": f"{FONT},{FONT_POINTS}", "ColorScheme": "WhiteOnBlack",
                "LocalTabTitleFormat": self.title, "RemoteTabTitleFormat": self.title,
                "TerminalMargin": "0", "ScrollBarPosition": "2", "BlinkingCursorEnabled": "false",
            }
            argv = ["konsole", "--separate", "--hide-menubar", "--hide-tabbar", "--notransparency"]
            for key, value in profile.items():
                argv += ["-p", f"{key}={value}"]
            return argv + ["-e", "/bin/sh", str(script)]
        if self.kind == "foot":
            # One weston per window, kiosk shell: foot fills its output, sized
            # for the cells asked (8x17 px cells: the font at size 10 on the
            # display's 100 dpi, as foot logs it).
            socket = f"wl-{self.title}"
            foot = " ".join(shlex.quote(part) for part in [
                "foot", "--font", f"{FONT}:size={FONT_POINTS}", "--override", "pad=0x0",
                "--override", "colors.background=000000", "--override", "colors.foreground=ffffff",
                "--title", self.title, "/bin/sh", str(script),
            ])
            wrapper = "\n".join([
                'export XDG_RUNTIME_DIR="$(mktemp -d)"',
                f"weston --backend=x11-backend.so --shell=kiosk-shell.so --socket={socket} "
                f"--width={self.columns * 8} --height={self.rows * 17} --idle-time=0 &",
                f'while [ ! -S "$XDG_RUNTIME_DIR/{socket}" ]; do sleep 0.05; done',
                f"WAYLAND_DISPLAY={socket} {foot}",
                "kill %1",
            ])
            return ["sh", "-c", wrapper]
        raise ValueError(kind)

    def launch(self, command: str, env: Mapping[str, str], cwd: Path | None, hold: bool) -> None:
        q = shlex.quote
        rc = q(str(self.rc_path))
        lines = [
            "#!/bin/sh",
            # The caller's variables are set here, in the shell the terminal
            # runs, so the terminal program itself keeps its clean settings.
            *(f"export {key}={q(value)}" for key, value in env.items()),
            f"cd {q(str(cwd or self.workdir))} || exit 99",
            f"sh -c {q(command)}",
            f"echo $? > {rc}.tmp; mv {rc}.tmp {rc}",
        ]
        if hold:
            # Bounded like the terminal; killed by the hang-up when the window closes.
            lines.append(f"exec sleep {TERMINAL_LIFETIME}")
        script = self.workdir / "run.sh"
        script.write_text("\n".join(lines) + "\n")
        extra = {"LIBGL_ALWAYS_SOFTWARE": "1"} if self.kind == "kitty" else {}
        log = open(self.workdir / "terminal.log", "wb")
        self.process = subprocess.Popen(
            ["timeout", "-s", "KILL", str(TERMINAL_LIFETIME), *self._argv(script)],
            env=self.display.environment(extra),
            cwd=self.workdir,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        try:
            self.window = self._find_window()
            if self.kind in ("kitty", "foot"):
                self._move_to_slot()
            if self.kind == "foot":
                # weston draws the pointer in its output, where it last was:
                # into the bottom-right corner, off the cells tests look at.
                env = self.display.environment()
                geometry = _run(["xdotool", "getwindowgeometry", "--shell", self.window], env)
                size = dict(line.split("=", 1) for line in geometry.split() if "=" in line)
                _run(["xdotool", "mousemove", "--window", self.window, str(int(size["WIDTH"]) - 2),
                      str(int(size["HEIGHT"]) - 2)], env)
        except BaseException:
            self.stop()
            raise

    def _move_to_slot(self) -> None:
        x, y = self.origin
        _run(["xdotool", "windowmove", self.window, str(x), str(y)], self.display.environment())
        deadline = time.monotonic() + TIMEOUT
        while self.window_position() != (x, y):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.kind} window stays at {self.window_position()}, not {(x, y)}")
            time.sleep(POLL)

    def _find_window(self) -> str:
        """The window's id, once it is mapped (a screenshot needs that)."""
        deadline = time.monotonic() + TIMEOUT
        env = self.display.environment()
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} exited {self.process.returncode} before showing a window{self.log_tail()}")
            if self.kind == "foot":
                # weston's window has a fixed name: the one not taken yet
                # becomes ours (windows are started one at a time).
                # (xdotool finds weston's window by its class, not its name;
                # the newest unclaimed one of the size asked for is ours.)
                windows = _run(["xdotool", "search", "--class", "weston"], env, check=False).split()
                for window in sorted(windows, key=int, reverse=True):
                    if _run(["xdotool", "getwindowname", window], env, check=False).strip() != WESTON_TITLE:
                        continue
                    geometry = _run(["xdotool", "getwindowgeometry", "--shell", window], env, check=False)
                    size = dict(line.split("=", 1) for line in geometry.split() if "=" in line)
                    if (size.get("WIDTH"), size.get("HEIGHT")) == (str(self.columns * 8), str(self.rows * 17)):
                        _run(["xdotool", "set_window", "--name", self.title, window], env)
                        return window
            # Konsole adds " — Konsole" (xdotool's pattern does not take the dash).
            pattern = f"^{self.title}" if self.kind == "konsole" else f"^{self.title}$"
            found = _run(["xdotool", "search", "--onlyvisible", "--name", pattern], env, check=False).split()
            if found:
                return found[0]
            time.sleep(POLL)
        raise RuntimeError(f"no {self.kind} window titled {self.title} within {TIMEOUT:.0f}s{self.log_tail()}")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
        if self in self.display.terminals:
            self.display.terminals.remove(self)

    def log_tail(self) -> str:
        path = self.workdir / "terminal.log"
        text = path.read_text(errors="replace").strip() if path.exists() else ""
        return f"\n{self.kind} log:\n{text[-1500:]}" if text else ""

    # -- the command's exit status ---------------------------------------------

    @property
    def rc_path(self) -> Path:
        return self.workdir / "rc"

    def exited(self) -> bool:
        return self.rc_path.exists()

    def wait_exit(self, timeout: float = TIMEOUT) -> int:
        deadline = time.monotonic() + timeout
        while not self.exited():
            if time.monotonic() > deadline:
                raise AssertionError(f"the command in {self.kind} did not exit within {timeout:.0f}s")
            time.sleep(POLL)
        return int(self.rc_path.read_text().strip())

    # -- screenshots -----------------------------------------------------------

    def screenshot(self, path: Path | str | None = None) -> Path:
        """The window as a PNG (ImageMagick import); returns its path."""
        if path is None:
            self.shots += 1
            path = self.workdir / f"shot-{self.shots:03d}.png"
        # /usr/bin/import: the ImageMagick one, not a same-named script on PATH.
        importer = "/usr/bin/import" if os.access("/usr/bin/import", os.X_OK) else "import"
        _run([importer, "-window", self.window, f"png:{path}"], self.display.environment())
        return Path(path)

    def image(self, path: Path | str | None = None):
        """A screenshot as a PIL image (RGB)."""
        with Image.open(self.screenshot(path)) as image:
            return image.convert("RGB")

    def grab(self):
        """A screenshot as a PIL image (RGB), taken as an uncompressed BMP:
        twice as fast as a PNG, for polling; not kept."""
        path = self.workdir / "grab.bmp"
        importer = "/usr/bin/import" if os.access("/usr/bin/import", os.X_OK) else "import"
        _run([importer, "-window", self.window, f"bmp:{path}"], self.display.environment())
        with Image.open(path) as image:
            return image.convert("RGB")

    def wait_for(self, condition: Callable[[object], object], what: str, timeout: float = TIMEOUT):
        """Screenshots until condition(image) is truthy; returns that image.

        Each try overwrites one file, so a failure names the last screenshot
        (kept in the work folder) for a look.
        """
        path = self.workdir / "waiting.png"
        deadline = time.monotonic() + timeout
        while True:
            image = self.image(path)
            if condition(image):
                return image
            if time.monotonic() > deadline:
                status = f"; the command exited {self.rc_path.read_text().strip()}" if self.exited() else ""
                raise AssertionError(
                    f"{self.kind}: timed out after {timeout:.0f}s waiting for {what}; last screenshot {path}{status}"
                )
            time.sleep(POLL)

    def wait_settled(self, check: Callable[[object], str | None], what: str, timeout: float = TIMEOUT):
        """Screenshots until check(image) finds nothing wrong (returns None)
        in two screenshots in a row, so a picture caught half-drawn or a
        stale one about to be removed does not pass; returns the last image.

        check returns None when the screen is as wanted, else a short
        description of what is wrong, which a timeout reports together with
        the last screenshot's path.
        """
        deadline = time.monotonic() + timeout
        passed = 0
        while True:
            image = self.grab()
            problem = check(image)
            passed = passed + 1 if problem is None else 0
            if passed >= 2:
                return image
            if time.monotonic() > deadline:
                self.shots += 1
                kept = self.workdir / f"failed-{self.shots:03d}.png"
                image.save(kept, "PNG")
                status = f"; the command exited {self.rc_path.read_text().strip()}" if self.exited() else ""
                raise AssertionError(
                    f"{self.kind}: timed out after {timeout:.0f}s waiting for {what}; "
                    f"last screenshot {kept}{status}; what it shows: {problem}"
                )
            if problem is not None:
                time.sleep(POLL)

    def cell_box(self, column: int, row: int, columns: int, rows: int) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom) of a block of cells,
        0-based, in this window's screenshots."""
        c = self.cell or self.display.cell_geometry(self.kind)
        return (c.left + column * c.width, c.top + row * c.height,
                c.left + (column + columns) * c.width, c.top + (row + rows) * c.height)

    # -- input and size ----------------------------------------------------------

    def send_keys(self, *keys: str) -> None:
        """X key names: Page_Down, Right, space, Return, Escape, q, ctrl+c.

        Without a window manager nothing gives the window the focus, and
        xterm ignores synthetic (XSendEvent) keys; so focus the window, then
        type through XTEST, which every terminal takes as real keys.
        """
        env = self.display.environment()
        _run(["xdotool", "windowfocus", self.window, "key", "--delay", "20", *keys], env)

    def type_text(self, text: str) -> None:
        env = self.display.environment()
        _run(["xdotool", "windowfocus", self.window, "type", "--delay", "20", text], env)

    def resize(self, columns: int, rows: int) -> None:
        """Resizes the window to columns x rows cells (plus its padding);
        the program inside gets SIGWINCH as from a user's drag."""
        c = self.cell or self.display.cell_geometry(self.kind)
        width, height = 2 * c.left + columns * c.width, 2 * c.top + rows * c.height
        env = self.display.environment()
        _run(["xdotool", "windowsize", self.window, str(width), str(height)], env)
        deadline = time.monotonic() + TIMEOUT
        while self.window_size() != (width, height):
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.kind}: window is {self.window_size()}, not {(width, height)}, after resizing")
            time.sleep(POLL)
        self.columns, self.rows = columns, rows

    def _geometry(self) -> dict[str, int]:
        out = _run(["xdotool", "getwindowgeometry", "--shell", self.window], self.display.environment())
        return {key: int(value) for key, value in (line.split("=", 1) for line in out.split() if "=" in line)}

    def window_size(self) -> tuple[int, int]:
        g = self._geometry()
        return g["WIDTH"], g["HEIGHT"]

    def window_position(self) -> tuple[int, int]:
        g = self._geometry()
        return g["X"], g["Y"]


# Run inside a terminal: raw mode, write the query, read the replies until
# the DA1 one (ESC [ ? ... c) or a deadline, save them. Raw mode also keeps
# the replies from being echoed on the screen.
_PROBE = """
import os, re, select, sys, termios, time, tty
query, out, timeout = bytes.fromhex(sys.argv[1]), sys.argv[2], float(sys.argv[3])
fd = os.open("/dev/tty", os.O_RDWR)
saved = termios.tcgetattr(fd)
tty.setraw(fd)
os.write(fd, query)
data, deadline = b"", time.monotonic() + timeout
while time.monotonic() < deadline and not re.search(rb"\\x1b\\[\\?[0-9;]*c", data):
    if select.select([fd], [], [], 0.05)[0]:
        data += os.read(fd, 4096)
termios.tcsetattr(fd, termios.TCSANOW, saved)
open(out, "wb").write(data)
"""


def terminal_replies(display: XDisplay, kind: str, query: bytes, timeout: float = 3.0) -> bytes:
    """What a terminal answers to `query`. End the query with DA1 (ESC [ c):
    every terminal answers it, so reading stops at that reply instead of
    waiting for the replies that never come."""
    terminal = Terminal(display, kind, 80, 24)
    out = terminal.workdir / "replies"
    q = shlex.quote
    command = f"{q(sys.executable)} -c {q(_PROBE)} {query.hex()} {q(str(out))} {timeout}"
    terminal.launch(command, {}, None, hold=True)
    try:
        terminal.wait_exit(timeout + TIMEOUT)
        return out.read_bytes()
    finally:
        terminal.stop()
