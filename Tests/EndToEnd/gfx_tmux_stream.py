"""What tmux sends to the outer terminal, recorded; kitty's own answers for a
test that plays it; and a pane's cells with their colours.
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


def styled_lines(capture: str) -> list[list[StyledCell]]:
    """Every line of `tmux capture-pane -e -p`: tmux writes a colour only
    where it changes, and a line may go on in the colour the one above
    ended in (a tile whose image id is the border's grey shows none of its
    own), so the colour is carried from line to line."""
    lines: list[list[StyledCell]] = []
    foreground: str | None = None
    for line in capture.split("\n"):
        cells, foreground = _styled_cells(line, foreground)
        lines.append(cells)
    return lines


def styled_cells(line: str) -> list[StyledCell]:
    """One line of `tmux capture-pane -e -p` read alone (in the default
    colour at its start) as cells with their foreground colour."""
    return _styled_cells(line, None)[0]


def _styled_cells(line: str, foreground: str | None) -> tuple[list[StyledCell], str | None]:
    """A line's cells with their foreground colour (the other attributes are
    not kept), starting in `foreground`; and the colour it ends in.
    Combining marks join the cell before them; a wide character is followed
    by an empty cell."""
    cells: list[StyledCell] = []
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
    return cells, foreground


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
