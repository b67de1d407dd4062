"""The end-to-end tests' driver: the real binary run inside tmux.

`PickerRunner.start` runs picker-tui under plain ``sh`` in a tmux session of
its own (stdout, stderr, exit status and pid to files; the pane kept after
exit so terminal restoration can be checked), and `Picker` sends keys and
polls ``tmux capture-pane`` until the expected screen appears, every
failure naming the whole screen. conftest.py holds only the fixtures that
hand these out.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import Callable, Iterable, Sequence

from screen import Screen

REPO = Path(__file__).resolve().parents[2]
DEFAULT_BIN = REPO / ".build" / "release" / "picker-tui"
TIMEOUT = 10.0  # seconds to wait for any expected screen or exit
POLL = 0.02
SETTLE_LOOKS = 4  # further looks at a passing screen still being written
# What a condition raises on a screen it cannot read yet (no tile, a short
# line), besides its own assertions: a failed check, not a broken test.
UNREADABLE = (IndexError, ValueError, AttributeError, TypeError)
WIDTH, HEIGHT = 120, 40
HINTS = "Enter pick · Space select · Tab source · / search · ? help"
# Shown once at start inside tmux with allow-passthrough off (as here).
TMUX_NOTICE = "pixel thumbnails: tmux set -g allow-passthrough on"

# --------------------------------------------------------------------------
# The picker in a tmux pane.


class PickerExited(Exception):
    """Raised inside `Picker.wait_running`'s condition: stop waiting, the picker is gone."""


def equal(actual, expected) -> bool:
    """For conditions of `Picker.wait`: True, or an AssertionError that
    says what was expected and what was there."""
    if actual != expected:
        raise AssertionError(f"expected {expected!r}\n              got {actual!r}")
    return True


class Picker:
    def __init__(self, socket: str, session: str, workdir: Path, width: int, height: int):
        self.socket = socket
        self.session = session
        self.workdir = workdir
        self.width = width
        self.height = height
        self.last_screen: Screen | None = None

    # -- tmux plumbing ------------------------------------------------------

    def tmux(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True
        )
        if check and result.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    @property
    def target(self) -> str:
        return f"={self.session}:"

    def display(self, fmt: str) -> str:
        return self.tmux("display-message", "-p", "-t", self.target, fmt).strip("\n")

    def screen(self) -> Screen:
        text = self.tmux("capture-pane", "-p", "-t", self.target)
        self.last_screen = Screen(text, self.height)
        return self.last_screen

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", self.target, "-x", str(width), "-y", str(height))
        self.width, self.height = width, height

    def send(self, *keys: str) -> None:
        """tmux key names: Enter, Escape, Space, BSpace, Tab, BTab, Up, ..., C-c, or plain characters."""
        for key in keys:
            if key in (";", "\\;"):
                self.tmux("send-keys", "-t", self.target, "-l", ";")
            else:
                self.tmux("send-keys", "-t", self.target, key)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", self.target, "-l", text)

    # -- files written by the run script -----------------------------------

    @property
    def rc_path(self) -> Path:
        return self.workdir / "rc"

    def stdout(self) -> bytes:
        return (self.workdir / "out").read_bytes()

    def stderr(self) -> bytes:
        path = self.workdir / "err"
        return path.read_bytes() if path.exists() else b""

    def exited(self) -> bool:
        return self.rc_path.exists()

    def pid(self) -> int:
        path = self.workdir / "pid"
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if path.exists():
                text = path.read_text().strip()
                if text:
                    return int(text)
            time.sleep(POLL)
        raise AssertionError(f"the picker never wrote its pid{self.describe()}")

    # -- waiting ------------------------------------------------------------

    def describe(self, screen: Screen | None = None) -> str:
        screen = screen or self.safe_screen()
        parts = [f"\nscreen ({self.width}x{self.height}):{screen}" if screen else "\n(no screen)"]
        if self.exited():
            parts.append(f"exit code file: {self.rc_path.read_text().strip()!r}")
        out = self.workdir / "out"
        if out.exists():
            parts.append(f"stdout so far: {out.read_bytes()!r}")
        err = self.stderr()
        if err:
            parts.append(f"stderr so far: {err!r}")
        return "\n".join(parts)

    def safe_screen(self) -> Screen | None:
        try:
            return self.screen()
        except AssertionError:
            return self.last_screen

    def wait(
        self,
        condition: Callable[[Screen], object],
        what: str,
        timeout: float = TIMEOUT,
    ) -> Screen:
        """Polls the screen until condition(screen) is truthy.

        The condition may also assert (see `equal`): its last failure, with
        what was expected and what was there, is part of the timeout's
        message, as fzf's `until { assert ... }` reports it."""
        deadline = time.monotonic() + timeout
        error: Exception | None = None
        while True:
            screen = self.screen()
            try:
                if condition(screen):
                    return self.settled(screen, condition, deadline)
                error = None
            except AssertionError as caught:
                error = caught
            except UNREADABLE as caught:
                error = caught
            if time.monotonic() > deadline:
                if isinstance(error, AssertionError):
                    detail = f"\n  last check: {error}"
                else:
                    detail = f" (last check raised {error!r})" if error else ""
                raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}{detail}{self.describe(screen)}")
            time.sleep(POLL)

    def settled(self, screen: Screen, condition: Callable[[Screen], object], deadline: float) -> Screen:
        """A screen that passed, looked at once more: a frame is written in
        several pieces, and a capture between two of them shows the new
        tiles with the old tray or status lines. A second look that differs
        and still passes is the frame further on, and is looked at again; one
        that no longer passes means a passing moment was caught, and that
        screen is kept, as a single look would have kept it. A screen that
        keeps changing (a progress bar, a spinner) is looked at a few times
        only."""
        for _ in range(SETTLE_LOOKS):
            if time.monotonic() > deadline:
                break
            again = self.screen()
            if again.text == screen.text:
                break
            try:
                if not condition(again):
                    break
            except (AssertionError, *UNREADABLE):
                break
            screen = again
        self.last_screen = screen
        return screen

    def wait_text(self, needle: str, timeout: float = TIMEOUT) -> Screen:
        return self.wait(lambda s: needle in s, f"{needle!r} on screen", timeout)

    def wait_no_text(self, needle: str, timeout: float = TIMEOUT) -> Screen:
        return self.wait(lambda s: needle not in s, f"{needle!r} to disappear", timeout)

    def wait_ui(self, timeout: float = TIMEOUT) -> Screen:
        """The picker is drawn: a breadcrumb count and a focused tile."""
        return self.wait(
            lambda s: s.counts is not None and s.focused() is not None and s.tray.lstrip().startswith("Picked"),
            "the picker UI (breadcrumb 'L of T', a focused tile, the tray)",
            timeout,
        )

    def wait_focus(self, caption: str, timeout: float = TIMEOUT) -> Screen:
        return self.wait(lambda s: s.focused_caption() == caption, f"focus on the tile {caption!r}", timeout)

    def wait_selected(self, name: str, selected: bool = True) -> Screen:
        def check(s: Screen) -> bool:
            tile = s.tile(name)
            if tile is None:
                return False
            # Both marks or neither: a frame captured while it was being
            # written can show the border's ✓ gone and the caption's still
            # there, which read as unselected before the tray had changed.
            marks = (tile.caption.startswith("✓ "), "✓" in tile.top_border)
            return marks == (selected, selected)

        return self.wait(check, f"tile {name!r} to be {'selected' if selected else 'unselected'}")

    def wait_status(self, needle: str) -> Screen:
        return self.wait(lambda s: needle in s.status, f"{needle!r} on the bottom line")

    def press(self, key: str, focus: str) -> Screen:
        """Sends one key and waits until the focus is on `focus`."""
        self.send(key)
        return self.wait_focus(focus)

    def leave(self, key: str = "Escape") -> None:
        """Esc at a source's top (or q): with picks the picker asks once
        ("N picked: Enter prints them, Esc leaves without them"), and the
        same key again leaves; without picks the first one leaves."""
        self.send(key)
        deadline = time.monotonic() + TIMEOUT
        while not self.exited():
            if "picked: Enter prints" in self.screen().status:
                self.send(key)
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{key} neither left nor asked{self.describe()}")
            time.sleep(POLL)

    def toggle(self, name: str) -> Screen:
        """Space on the focused tile `name`, then waits for its ✓."""
        self.wait_focus(name)
        self.send("Space")
        return self.wait_selected(name)

    def wait_exit(self, timeout: float = TIMEOUT) -> int:
        deadline = time.monotonic() + timeout
        while not self.exited():
            if time.monotonic() > deadline:
                raise AssertionError(f"the picker did not exit within {timeout:.0f}s{self.describe()}")
            time.sleep(POLL)
        text = self.rc_path.read_text().strip()
        return int(text)

    def wait_running(
        self,
        condition: Callable[[Screen], object],
        what: str,
        timeout: float = TIMEOUT,
    ) -> Screen:
        """Waits for what the user sees after a step that must not end the
        picker (a refused Enter, a shrink, a key that is no cancel), then
        checks that it is still open. An exit while waiting fails at once."""

        def check(screen: Screen) -> object:
            if self.exited():
                raise PickerExited
            return condition(screen)

        try:
            screen = self.wait(check, what, timeout)
        except PickerExited:
            raise AssertionError(
                f"the picker exited while waiting for {what}, but should still be open{self.describe()}"
            ) from None
        assert not self.exited(), f"the picker exited but should still be open (after {what}){self.describe()}"
        return screen

    def assert_running(self, settle: float = 0.3) -> None:
        """The picker is still open after a short grace period.

        Only for a step whose effect nothing on screen can show (a key at a
        terminal too small for the grid, keys typed ahead of the listing):
        wait for a sign the step was read first, and say why the settle is
        needed. Otherwise use `wait_running`, which waits for what the user
        sees."""
        time.sleep(settle)
        assert not self.exited(), f"the picker exited but should still be open{self.describe()}"

    def finish(self, expected_rc: int, timeout: float = TIMEOUT) -> bytes:
        """Waits for the exit, checks the code and the terminal; returns stdout."""
        rc = self.wait_exit(timeout)
        assert rc == expected_rc, f"exit code {rc}, expected {expected_rc}{self.describe()}"
        self.assert_terminal_restored()
        return self.stdout()

    # -- terminal restoration -------------------------------------------------

    def tty_settings(self) -> str:
        tty = self.display("#{pane_tty}")
        result = subprocess.run(["stty", "-F", tty, "-a"], capture_output=True, text=True)
        assert result.returncode == 0, f"stty -F {tty} -a failed: {result.stderr}"
        return result.stdout

    def assert_terminal_restored(self) -> None:
        flags = self.display("#{alternate_on} #{cursor_flag} #{keypad_flag}")
        settings = self.tty_settings()
        words = set(settings.split())
        problems = []
        if flags.split()[:2] != ["0", "1"]:
            problems.append(f"alternate_on/cursor_flag are {flags.split()[:2]} (want 0 1: main screen, cursor visible)")
        if flags.split()[2:] != ["0"]:
            problems.append(f"keypad_flag is {flags.split()[2:]} (want 0: keypad transmit mode off)")
        for mode in ("echo", "icanon", "isig", "icrnl", "opost"):
            if mode not in words:
                problems.append(f"tty mode {mode!r} is off")
        assert not problems, "terminal not restored: " + "; ".join(problems) + f"\nstty -a:\n{settings}{self.describe()}"


class PickerRunner:
    """Starts pickers in unique tmux sessions of the shared server."""

    def __init__(self, socket: str, binary: Path, base: Path, test_name: str):
        self.socket = socket
        self.binary = binary
        self.base = base
        self.test_name = re.sub(r"[^A-Za-z0-9_-]", "_", test_name)[:40]
        self.pickers: list[Picker] = []

    def start(
        self,
        args: Sequence[str] = (),
        *,
        stdin: bytes | None = None,
        stdin_devnull: bool = False,
        stdin_path: Path | None = None,
        stdout_pipe: bool = False,
        stdout_redirect: str | None = None,
        stdin_closed: bool = False,
        cwd: Path | None = None,
        width: int = WIDTH,
        height: int = HEIGHT,
        env: dict[str, str] | None = None,
        wait_ui: bool = True,
        stderr_tty: bool = False,
    ) -> Picker:
        """Runs `picker-tui ARGS` in a new tmux session.

        stdin: bytes piped in (`cat stdin | picker-tui`); stdin_devnull: `< /dev/null`;
        stdin_path: `< PATH` (e.g. a FIFO the test writes to); otherwise stdin is
        the pane's terminal; stdin_closed: `<&-`. stdout_pipe: `picker-tui | cat > out`;
        stdout_redirect: instead of `> out`, e.g. `>&-` or `> /dev/full`
        instead of `picker-tui > out`. stderr_tty: stderr stays the pane's
        terminal, as in a shell (otherwise it is a file, read by finish()).
        """
        index = len(self.pickers)
        session = f"{self.test_name}-{index}-{uuid.uuid4().hex[:6]}"
        workdir = self.base / f"run{index}"
        workdir.mkdir(parents=True)
        q = shlex.quote
        launch = 'sh -c \'echo $$ > "$0"; exec "$@"\' ' + " ".join(
            shell_word(part) for part in [str(workdir / "pid"), str(self.binary), *args]
        )
        if stdin is not None:
            (workdir / "stdin").write_bytes(stdin)
            launch = f"cat {q(str(workdir / 'stdin'))} | {launch}"
        elif stdin_devnull:
            launch = f"{launch} < /dev/null"
        elif stdin_closed:
            launch = f"{launch} <&-"
        elif stdin_path is not None:
            launch = f"{launch} < {q(str(stdin_path))}"
        out, err, rc = (q(str(workdir / name)) for name in ("out", "err", "rc"))
        if stdout_pipe:
            run = f"{{ trap : INT QUIT; {launch} 2> {err}; echo $? > {rc}.tmp; }} | cat > {out}; mv {rc}.tmp {rc}"
        elif stdout_redirect is not None:
            # e.g. ">&-" (stdout closed) or "> /dev/full"
            run = f"{launch} {stdout_redirect} 2> {err}; echo $? > {rc}.tmp; mv {rc}.tmp {rc}"
        elif stderr_tty:
            run = f"{launch} > {out}; echo $? > {rc}.tmp; : > {err}; mv {rc}.tmp {rc}"
        else:
            run = f"{launch} > {out} 2> {err}; echo $? > {rc}.tmp; mv {rc}.tmp {rc}"
        # A thumbnail cache of this test's own: never the user's.
        exports = {
            "LANG": "C.UTF-8",
            "XDG_CACHE_HOME": str(self.base / "cache"),
            # The selection journal and the log: the test's own, never the user's.
            "XDG_STATE_HOME": str(self.base / "state"),
            **(env or {}),
        }
        lines = [
            "#!/bin/sh",
            "unset LC_ALL LC_CTYPE LC_MESSAGES NO_COLOR COLUMNS LINES",
            *(f"export {key}={q(value)}" for key, value in exports.items()),
            f"cd {q(str(cwd or workdir))} || exit 99",
            # No job control here, so Ctrl-C signals the whole pane's process
            # group: the wrapper shells must outlive it (a caught signal is
            # reset to the default in the program, unlike an ignored one).
            "trap : INT QUIT",
            run,
            "exec sleep 600",
        ]
        script = workdir / "run.sh"
        script.write_text("\n".join(lines) + "\n")
        # Several arguments: tmux execs /bin/sh directly, no user shell involved.
        subprocess.run(
            [
                "tmux", "-L", self.socket, "-f", "/dev/null",
                "new-session", "-d", "-s", session, "-x", str(width), "-y", str(height),
                "/bin/sh", str(script),
            ],
            check=True,
            capture_output=True,
        )
        picker = Picker(self.socket, session, workdir, width, height)
        self.pickers.append(picker)
        if wait_ui:
            picker.wait_ui()
        return picker

    def close(self) -> None:
        for picker in self.pickers:
            if not picker.exited():
                pid_file = picker.workdir / "pid"
                if pid_file.exists() and pid_file.read_text().strip():
                    try:
                        os.kill(int(pid_file.read_text().strip()), signal.SIGKILL)
                    except (ProcessLookupError, ValueError):
                        pass
            picker.tmux("kill-session", "-t", picker.target, check=False)


def shell_word(part: str | bytes) -> str:
    """A shell word for an argument; bytes (names that are not UTF-8) are
    spelled with printf octal escapes, so the script itself stays ASCII."""
    if isinstance(part, str):
        return shlex.quote(part)
    return '"$(printf \'' + "".join(f"\\{byte:03o}" for byte in part) + '\')"'


# Photo trees.


def hard_linked_photos(root: Path, count: int) -> Path:
    """A folder of `count` photos IMG_00001.jpg…, hard links of one small
    file: a big folder made in a moment."""
    root.mkdir(parents=True)
    first = root / "IMG_00001.jpg"
    first.write_bytes(b"not a jpeg")
    for i in range(2, count + 1):
        os.link(first, root / f"IMG_{i:05d}.jpg")
    return root


def make_files(root: Path, names: Iterable[str | bytes], content: bytes = b"not really a jpeg\n") -> Path:
    """Creates files (and their folders) under root; bytes names are raw."""
    root.mkdir(parents=True, exist_ok=True)
    for name in names:
        raw = name if isinstance(name, bytes) else name.encode()
        path = os.path.join(os.fsencode(root), raw)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(content)
    return root
