"""The real binary on a terminal that reads slowly (a pseudo-terminal read
here at a set rate, answering queries as it reads them, as a remote link or
a busy emulator behaves): a key's frame must not wait behind a page of
pictures, and leaving mid-picture must leave the terminal clean.

Byte counts, not times, decide: what the terminal had to read between the
key and its frame, against what the page still had to send."""

import os
import pty
import select
import signal
import struct
import termios
import fcntl
import time
from pathlib import Path

import pytest

from conftest import TIMEOUT
from images import write_png

COLUMNS, ROWS = 120, 40
CELL = (8, 17)
RATE = 200_000  # bytes a second the terminal reads
DA1 = b"\x1b[c"
DA1_ANSWER = b"\x1b[?62;4;22c"
CHECK = "✓".encode()
END_LOAD = b"\x1b_Gm=0,q=2;\x1b\\"


def _photos(folder: Path, count: int) -> None:
    folder.mkdir()
    for index in range(count):
        write_png(folder / f"photo-{index:02d}.png", 96, 64,
                  lambda x, y, i=index: ((x * 5 + i * 37) % 256, (y * 7 + i * 11) % 256, (x * y + i) % 256))


class SlowTerminal:
    """The picker on a pseudo-terminal of its own; `read_for` reads at RATE."""

    def __init__(self, binary: Path, folder: Path, home: Path):
        env = dict(os.environ, TERM="xterm-kitty", XDG_CACHE_HOME=str(home / "cache"),
                   XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"))
        env.pop("TMUX", None)
        self.pid, self.master = pty.fork()
        if self.pid == 0:
            try:
                os.execve(str(binary), [str(binary), "--thumbnails", "kitty", str(folder)], env)
            finally:
                os._exit(127)
        fcntl.ioctl(self.master, termios.TIOCSWINSZ,
                    struct.pack("HHHH", ROWS, COLUMNS, COLUMNS * CELL[0], ROWS * CELL[1]))
        self.data = bytearray()
        self.answered = 0

    def read_some(self, most: int, wait: float) -> bytes:
        ready, _, _ = select.select([self.master], [], [], wait)
        if not ready:
            return b""
        try:
            return os.read(self.master, most)
        except OSError:
            return b""

    def read_fast_until(self, needle: bytes) -> None:
        """At full speed (the start-up probe), answering what is asked."""
        deadline = time.monotonic() + TIMEOUT
        while needle not in self.data:
            assert time.monotonic() < deadline, f"never saw {needle!r}: {bytes(self.data[-800:])!r}"
            chunk = self.read_some(65536, 0.05)
            self.data += chunk
            if b"a=q" in chunk:
                os.write(self.master, b"\x1b_Gi=31;OK\x1b\\")
            if DA1 in chunk:
                os.write(self.master, DA1_ANSWER)
                self.answered = self.data.count(DA1)

    def read_slowly_until(self, done, limit: float = 30) -> None:
        """At RATE, answering each DA1 as it is read, until done(data)."""
        deadline = time.monotonic() + limit
        while not done(self.data):
            assert time.monotonic() < deadline, f"timed out; {len(self.data)} bytes read"
            chunk = self.read_some(RATE // 100, 0.01)
            self.data += chunk
            self.answer()
            time.sleep(len(chunk) / RATE)

    def type(self, keys: bytes) -> int:
        """Types keys; returns how much had been read by then."""
        os.write(self.master, keys)
        return len(self.data)

    def answer(self) -> None:
        asked = self.data.count(DA1)
        if asked > self.answered:
            os.write(self.master, DA1_ANSWER * (asked - self.answered))
            self.answered = asked

    def finish(self) -> int:
        """Reads at full speed, answering, until the picker exits; its status."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            chunk = self.read_some(65536, 0.05)
            self.data += chunk
            self.answer()
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                while chunk := self.read_some(65536, 0.05):
                    self.data += chunk
                return status
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                raise AssertionError("the picker did not exit")


@pytest.fixture
def loading_picker(picker_bin, tmp_path):
    """The picker on 40 photos, its page's pictures on their way (each a
    kitty load of ~100 KB) to a terminal reading at RATE."""
    folder = tmp_path / "photos"
    _photos(folder, 40)
    terminal = SlowTerminal(picker_bin, folder, tmp_path)
    try:
        terminal.read_fast_until(b"? help")
        terminal.read_slowly_until(lambda data: data.count(b"\x1b_Ga=t,") >= 3)
        yield terminal
    finally:
        try:
            os.kill(terminal.pid, signal.SIGKILL)
            os.waitpid(terminal.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(terminal.master)


def test_a_key_is_answered_before_the_page_of_pictures_has_drained(loading_picker):
    terminal = loading_picker
    typed_at = terminal.type(b" ")
    terminal.read_slowly_until(lambda data: CHECK in data[typed_at:])
    frame_at = terminal.data.index(CHECK, typed_at)
    # What the terminal read between the key and its frame: a few
    # kilobytes (the flow control's window and a chunk), not the page.
    behind = frame_at - typed_at
    assert behind < 48_000, f"the frame came {behind} bytes after the key"
    # And the page was still coming: its pictures go on after the frame.
    terminal.read_slowly_until(lambda data: data.count(b"\x1b_Ga=t,", frame_at) >= 2)
    # Leaving now, mid-picture (the answers to its questions coming right
    # behind the key; Ctrl-C, since Space picked and Esc would ask first):
    # the load in progress is closed, and the terminal gets its screen
    # back after it.
    terminal.type(b"\x03")
    status = terminal.finish()
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 130, status
    tail = bytes(terminal.data)
    assert END_LOAD in tail, "the picture cut short was closed"
    assert tail.rindex(END_LOAD) < tail.rindex(b"\x1b[?1049l"), "before the screen was given back"


def test_ctrl_z_mid_picture_closes_it_before_the_screen_is_left(loading_picker):
    terminal = loading_picker
    typed_at = terminal.type(b"\x1a")  # Ctrl-Z: SIGTSTP from the tty
    # Read at full speed, answering, until the screen is left.
    deadline = time.monotonic() + TIMEOUT
    while b"\x1b[?1049l" not in terminal.data[typed_at:]:
        assert time.monotonic() < deadline, bytes(terminal.data[-600:])
        terminal.data += terminal.read_some(65536, 0.05)
        terminal.answer()
    left = bytes(terminal.data[typed_at:])
    assert END_LOAD in left and left.index(END_LOAD) < left.index(b"\x1b[?1049l"), \
        "the picture in progress was closed before the shell got the screen"
    # Under a shell the picker stops now; here, with no shell to resume it,
    # the kernel does not stop an orphaned process group. Either way
    # SIGCONT (fg) brings the grid back whole, and keys work.
    # (Not stopped, it may be back before the signal: look from the leave.)
    os.kill(terminal.pid, signal.SIGCONT)
    left_at = terminal.data.index(b"\x1b[?1049l", typed_at)
    terminal.read_slowly_until(lambda data: b"\x1b[?1049h" in data[left_at:] and b"? help" in data[left_at:])
    typed_at = terminal.type(b" ")
    terminal.read_slowly_until(lambda data: CHECK in data[typed_at:])
    terminal.type(b"\x03")  # Space picked: Esc would ask first
    status = terminal.finish()
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 130, status
