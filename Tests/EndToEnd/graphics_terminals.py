"""Real terminal emulators on a virtual X display, for pixel-graphics tests.

tmux (conftest.py) shows what a program wrote as text; it cannot show whether
a sixel, kitty or iTerm2 image really became pixels. This module runs
programs inside real terminals (xterm as a VT340, kitty, mlterm, Konsole, and foot inside weston) on a private
Xvfb display, screenshots their windows, and measures the pictures:

    with XDisplay() as display:
        term = display.start_terminal("kitty", "chafa -f kitty photo.jpg", 80, 24)
        box = term.cell_box(0, 0, 40, 12)
        image = term.wait_for(lambda shot: detail_score(shot, box, term.cell.width) > 4,
                              "the photo as pixels")

It also records what tmux sends to the OUTER terminal (TmuxOuterStream), so a
test can check that graphics commands pass through tmux, answer queries as
that terminal would, and read the pane back (capture, styled_cells).

Rules kept throughout (see ../shared/PLATFORM-NOTES.md beside the
repository, "Terminal graphics"):

* every process started here runs under ``timeout -s KILL``, so nothing
  outlives a crashed test for long;
* whatever is started is stopped by its own PID (never by name);
* nothing waits a fixed time for something to happen: windows, pictures and
  replies are polled for, with a deadline.

Debian packages: xvfb, xterm, kitty, mlterm, konsole, foot, weston, imagemagick (import), xdotool,
python3-pil / Pillow, fonts-dejavu-core; tmux for TmuxOuterStream.
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
# What tmux sends to the outer terminal.

# kitty 0.26.5's own answers (measured under Xvfb), for a test that plays
# the outer terminal.
KITTY_SECONDARY_DA = b"\033[>1;4000;26c"
KITTY_XTVERSION = b"\033P>|kitty(0.26.5)\033\\"

# kitty's Unicode placeholders: the cell character, and the first of the
# combining marks that give a cell's row and column in the image (the
# table in kitty's graphics protocol documentation, "rowcolumn-diacritics").
KITTY_PLACEHOLDER = "\U0010EEEE"
KITTY_DIACRITICS = (
    "\u0305", "\u030D", "\u030E", "\u0310", "\u0312", "\u033D", "\u033E", "\u033F",
    "\u0346", "\u034A", "\u034B", "\u034C", "\u0350", "\u0351", "\u0352", "\u0357",
)


@dataclasses.dataclass(frozen=True)
class StyledCell:
    text: str  # a base character and its combining marks
    foreground: str | None  # "5;N" (palette), "2;R;G;B", "30".."37"/"90".."97", or None (default)

    @property
    def palette(self) -> int | None:
        """The foreground as a palette index: 38;5;N is N, and the short
        forms ncurses sends for the first 16 colours (31 is 1, 91 is 9)."""
        f = self.foreground
        if f is None:
            return None
        if f.startswith("5;"):
            return int(f[2:])
        if f.isdigit():
            n = int(f)
            return n - 30 if 30 <= n <= 37 else n - 82 if 90 <= n <= 97 else None
        return None


_SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def styled_cells(line: str) -> list[StyledCell]:
    """One line of `tmux capture-pane -e -p` as cells with their foreground
    colour (the other attributes are not kept). Combining marks join the
    cell before them; a wide character is followed by an empty cell."""
    cells: list[StyledCell] = []
    foreground: str | None = None
    position = 0
    for match in [*_SGR.finditer(line), None]:
        end = match.start() if match else len(line)
        for ch in line[position:end]:
            if unicodedata.combining(ch) and cells:
                last = cells[-1]
                cells[-1] = StyledCell(last.text + ch, last.foreground)
                continue
            cells.append(StyledCell(ch, foreground))
            if unicodedata.east_asian_width(ch) in ("W", "F"):
                cells.append(StyledCell("", foreground))
        if match is None:
            break
        position = match.end()
        params = [p for p in re.split(r"[;:]", match.group(1))] or [""]
        i = 0
        while i < len(params):
            p = params[i]
            if p in ("", "0", "39"):
                foreground = None
            elif p == "38" and i + 1 < len(params):
                if params[i + 1] == "5" and i + 2 < len(params):
                    foreground = f"5;{params[i + 2]}"
                    i += 2
                elif params[i + 1] == "2" and i + 4 < len(params):
                    foreground = "2;" + ";".join(params[i + 2:i + 5])
                    i += 4
            elif p.isdigit() and (30 <= int(p) <= 37 or 90 <= int(p) <= 97):
                foreground = p
            elif p in ("48", "58") and i + 1 < len(params):  # skip a background or underline colour
                i += 2 if params[i + 1] == "5" else 4 if params[i + 1] == "2" else 0
            i += 1
    return cells


class TmuxOuterStream:
    """A private tmux server with one pane running `command`, and a client
    attached inside a pty of ours: every byte tmux writes to the OUTER
    terminal is kept in `data`, for checking what passes through.

        with TmuxOuterStream("printf ...", term="xterm-kitty") as stream:
            stream.wait_for(b"\\033_Ga=q,i=31")

    The pane's command waits until the client is attached (passthrough
    goes only to attached clients that show the pane). `allow-passthrough`
    is set before that. The server runs in the foreground (tmux -D) under
    `timeout -s KILL`, so it is a process of ours, stopped by PID.
    """

    def __init__(self, command: str, *, columns: int = 80, rows: int = 24, term: str = "xterm-kitty",
                 passthrough: bool = True, env: Mapping[str, str] | None = None,
                 cell_pixels: tuple[int, int] = (8, 16), lifetime: int = 120,
                 tmux_options: Sequence[Sequence[str]] = ()):
        self.command = command
        self.columns, self.rows = columns, rows
        self.term = term
        self.passthrough = passthrough
        self.env = dict(env or {})
        self.cell_pixels = cell_pixels
        self.lifetime = lifetime
        self.tmux_options = [list(option) for option in tmux_options]
        self.socket = f"gfx-outer-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.workdir = Path(tempfile.mkdtemp(prefix="tmux-outer-"))
        self.data = b""
        self._lock = threading.Condition()
        self._server: subprocess.Popen | None = None
        self._client_pid: int | None = None
        self._master: int | None = None
        self._reader: threading.Thread | None = None
        self.client_status: int | None = None

    def tmux(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(
            ["timeout", "-s", "KILL", "10", "tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True, text=True, stdin=subprocess.DEVNULL, env=self._tmux_env(),
        )
        if check and result.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def _tmux_env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if key not in ("TMUX", "TMUX_PANE")}
        env.update({"LANG": "C.UTF-8", "TERM": self.term})
        return env

    def __enter__(self) -> "TmuxOuterStream":
        try:
            self.start()
        except BaseException:
            self.stop()  # a half-started server and client are ours to end too
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        self._server = subprocess.Popen(
            ["timeout", "-s", "KILL", str(self.lifetime), "tmux", "-L", self.socket, "-f", "/dev/null", "-D"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self._tmux_env(),
        )
        # The foreground server takes a moment to listen on its socket.
        # list-sessions never starts a server of its own (start-server or
        # new-session would, racing ours), and succeeds once ours answers.
        deadline = time.monotonic() + TIMEOUT
        while subprocess.run(["timeout", "-s", "KILL", "10", "tmux", "-L", self.socket, "-f", "/dev/null", "list-sessions"],
                             capture_output=True, stdin=subprocess.DEVNULL, env=self._tmux_env()).returncode != 0:
            if time.monotonic() > deadline or self._server.poll() is not None:
                raise RuntimeError("the tmux server did not start")
            time.sleep(POLL)
        q = shlex.quote
        script = self.workdir / "pane.sh"
        script.write_text("\n".join([
            "#!/bin/sh",
            *(f"export {key}={q(value)}" for key, value in self.env.items()),
            f"tmux -L {q(self.socket)} wait-for go",
            f"sh -c {q(self.command)}",
            f"echo $? > {q(str(self.workdir / 'rc'))}",
            f"exec sleep {self.lifetime}",
        ]) + "\n")
        self.tmux("set-option", "-g", "allow-passthrough", "on" if self.passthrough else "off")
        # No status line: the pane gets all the rows asked for, and the outer
        # stream carries only the pane's drawing.
        self.tmux("set-option", "-g", "status", "off")
        for option in self.tmux_options:  # e.g. ("-as", "terminal-features", "xterm-kitty:RGB")
            self.tmux("set-option", *option)
        self.tmux("new-session", "-d", "-s", "main", "-x", str(self.columns), "-y", str(self.rows), "/bin/sh", str(script))
        self._attach()
        # The client has drawn (it clears the outer screen first); now the
        # pane's output has somewhere to go.
        deadline = time.monotonic() + TIMEOUT
        while "1" not in self.tmux("list-clients", "-F", "1"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the tmux client never attached; outer stream so far: {self.data!r}")
            time.sleep(POLL)
        self.tmux("wait-for", "-S", "go")

    def _attach(self) -> None:
        pid, master = pty.fork()
        if pid == 0:  # the client, in the pty: our side is its terminal
            try:
                env = self._tmux_env()
                os.execvpe("timeout", ["timeout", "-s", "KILL", str(self.lifetime), "tmux", "-L", self.socket,
                                       "-f", "/dev/null", "attach-session", "-t", "main"], env)
            finally:
                os._exit(127)
        self._client_pid, self._master = pid, master
        width, height = self.cell_pixels
        fcntl.ioctl(master, termios.TIOCSWINSZ,
                    struct.pack("HHHH", self.rows, self.columns, self.columns * width, self.rows * height))
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self._master, 65536)
            except OSError:  # EIO: the client has gone and the pty closed
                chunk = b""
            with self._lock:
                if not chunk:
                    self._lock.notify_all()
                    return
                self.data += chunk
                self._lock.notify_all()

    def send(self, data: bytes) -> None:
        """Bytes from the outer terminal to tmux: typed keys or query replies."""
        os.write(self._master, data)

    def wait_for(self, needle: bytes, timeout: float = TIMEOUT) -> bytes:
        """Waits until `needle` is in the outer stream; returns the stream."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while needle not in self.data:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{needle!r} never reached the outer terminal; it got {self.data[-2000:]!r}")
                self._lock.wait(min(left, 0.2))
            return self.data

    def wait_until(self, condition: Callable[[bytes], object], what: str, timeout: float = TIMEOUT) -> bytes:
        """Waits until condition(the outer stream so far) is truthy; returns the stream."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not condition(self.data):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"timed out waiting for {what} in the outer stream; it got {self.data[-2000:]!r}")
                self._lock.wait(min(left, 0.2))
            return self.data

    def answer_start_queries(self, secondary_da: bytes = KITTY_SECONDARY_DA,
                             version: bytes = KITTY_XTVERSION) -> None:
        """Answers what tmux asks the outer terminal when a client attaches
        (secondary DA ``ESC [ > c`` and XTVERSION ``ESC [ > q``), at once,
        as a real terminal does.

        This matters for replies meant for the pane: until tmux 3.3 has
        its secondary DA answer (or 5 s have passed), it takes every
        ``ESC [ ? ... c`` from the outer terminal for its own DA answer and
        drops it, and likewise every ``ESC P > | ... ESC \\`` until it has
        its XTVERSION answer. So a program's passthrough DA1 (and
        XTVERSION) would never reach it.
        """
        self.wait_for(b"\033[>c")
        self.wait_for(b"\033[>q")
        self.send(secondary_da + version)

    def capture(self, target: str = "main", escapes: bool = True) -> str:
        """The pane's screen as tmux holds it (capture-pane -p, with -e:
        colours as SGR sequences)."""
        return self.tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", target)

    def pane_exit_status(self, timeout: float = TIMEOUT) -> int:
        path = self.workdir / "rc"
        deadline = time.monotonic() + timeout
        while not path.exists() or not path.read_text().strip():
            if time.monotonic() > deadline:
                raise AssertionError("the pane's command did not exit")
            time.sleep(POLL)
        return int(path.read_text())

    def stop(self) -> None:
        if self._server is not None:
            self.tmux("kill-server", check=False)
            stop_process(self._server)
        if self._client_pid is not None:
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                pid, status = os.waitpid(self._client_pid, os.WNOHANG)
                if pid:
                    self.client_status = status
                    break
                time.sleep(POLL)
            else:
                os.kill(self._client_pid, signal.SIGKILL)  # the timeout wrapper; its tmux dies with the server
                os.waitpid(self._client_pid, 0)
            self._client_pid = None
        if self._reader is not None:
            self._reader.join(2)
        if self._master is not None:
            os.close(self._master)
            self._master = None
        shutil.rmtree(self.workdir, ignore_errors=True)
        socket_dir = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
        try:
            (socket_dir / self.socket).unlink()
        except OSError:
            pass


def record_tmux_outer_stream(command: str, until: bytes, *, timeout: float = TIMEOUT, term: str = "xterm-kitty",
                             columns: int = 80, rows: int = 24, passthrough: bool = True,
                             env: Mapping[str, str] | None = None,
                             tmux_options: Sequence[Sequence[str]] = ()) -> bytes:
    """Runs `command` in a tmux pane and returns what tmux sent to the outer
    terminal, once `until` has arrived (AssertionError if it never does)."""
    with TmuxOuterStream(command, columns=columns, rows=rows, term=term, passthrough=passthrough, env=env,
                         tmux_options=tmux_options) as stream:
        return stream.wait_for(until, timeout)


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


# --------------------------------------------------------------------------
# Shared by the tests: thresholds and skips.

# Fine detail per cell width: 2-px stripes as pixels give ~4 (1-px ~8);
# block symbols give at most ~2 whatever the photo. The symbols are limited
# to blocks and spaces, as picker-tui draws them: chafa's default set also
# has line-drawing symbols (a bar in mid-cell), which reach ~2.5 on
# coarser stripes.
PIXELS_AT_LEAST = 3.0
SYMBOLS_AT_MOST = 2.2


def need(*kinds: str, tools: Sequence[str] = ()) -> None:
    """Skips the test unless the terminals `kinds` and the programs `tools`
    are installed."""
    import pytest

    missing = missing_tools(kinds) + [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.skip("needs " + ", ".join(missing) + " (scripts/install-deps.sh test installs them)")
