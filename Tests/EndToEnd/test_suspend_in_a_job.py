"""Ctrl-Z then fg where the picker is not the job's only process: under
`timeout --foreground` and inside `sh -c '… | cat'`, the other processes
stop at once and the shell takes the terminal back while the picker still
finishes its pictures. The picker must never be left stopped after fg
(20 runs of each), and it comes back drawn whole and answering keys."""

from __future__ import annotations

import re
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from PIL import Image

RUNS = 20


class Shell:
    """An interactive bash in a tmux pane of the tests' server."""

    def __init__(self, socket: str, home: Path):
        self.socket = socket
        self.session = f"job-{uuid.uuid4().hex[:8]}"
        env = (
            f"env -i PATH=/usr/bin:/bin HOME={home} TERM=xterm-256color LANG=C.UTF-8 "
            f"XDG_CACHE_HOME={home}/cache XDG_STATE_HOME={home}/state PS1='ready$ '"
        )
        self.tmux("new-session", "-d", "-s", self.session, "-x", "100", "-y", "30", f"{env} bash --norc --noprofile")
        self.wait(lambda s: "ready$" in s, "the shell's prompt")

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True, check=True
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.session)

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.session, *keys)

    def states(self) -> dict[str, str]:
        """The state letter (R, S, T…) of each process on the pane's tty, by command line."""
        tty = self.tmux("display", "-p", "-t", self.session, "#{pane_tty}").strip()
        out = subprocess.run(["ps", "-o", "stat=,args=", "-t", tty], capture_output=True, text=True).stdout
        return {line.split(None, 1)[1]: line.split(None, 1)[0][0] for line in out.splitlines() if line.strip()}

    def picker_state(self) -> str | None:
        return next((state for args, state in self.states().items() if args.startswith("picker-tui ")), None)

    def wait(self, check, what: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check(self.screen()):
                return
            time.sleep(0.02)
        raise AssertionError(f"waiting for {what}:\n{self.screen()}\n{self.states()}")

    def modes(self) -> str:
        """The pane's alternate screen, cursor, keypad and mouse flags."""
        return self.tmux("display", "-p", "-t", self.session,
                         "#{alternate_on} #{cursor_flag} #{keypad_flag} #{mouse_any_flag}").strip()

    def wait_modes_restored(self, what: str) -> None:
        deadline = time.monotonic() + 10
        while self.modes() != "0 1 0 0":
            assert time.monotonic() < deadline, (
                f"{what}: the shell has not got its screen back (alternate cursor keypad mouse: {self.modes()})"
                f"\n{self.screen()}\n{self.states()}")
            time.sleep(0.02)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-session", "-t", self.session], capture_output=True)


def photos(folder: Path, count: int) -> Path:
    folder.mkdir()
    for n in range(count):
        Image.new("RGB", (64, 48), (n * 20, 80, 120)).save(folder / f"p{n:02d}.jpg", quality=80)
    return folder


def start_then_stop(shell: "Shell", command: str, run: int, settle: float) -> None:
    """Runs the command in the shell, waits for the grid, then Ctrl-Z and
    waits until the picker is stopped."""
    shell.send("clear; " + command, "Enter")
    shell.wait(lambda s: "? help" in s, f"the picker's grid (run {run})")
    time.sleep(settle)
    shell.send("C-z")
    deadline = time.monotonic() + 10
    while shell.picker_state() != "T":
        assert time.monotonic() < deadline, f"run {run}: the picker did not stop: {shell.states()}"
        time.sleep(0.02)


@pytest.fixture
def shell(tmux_server, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    s = Shell(tmux_server, home)
    yield s
    s.close()


@pytest.mark.parametrize(
    "command",
    ["timeout --foreground 60 picker-tui {folder}", "sh -c 'picker-tui {folder} | cat'"],
    ids=["timeout-foreground", "sh-pipe-cat"],
)
def test_ctrl_z_and_fg_never_leave_the_picker_stopped(shell, picker_bin, tmp_path, command):
    folder = photos(tmp_path / "photos", 12)
    shell.send(f"PATH={picker_bin.parent}:$PATH", "Enter")
    for run in range(RUNS):
        start_then_stop(shell, command.format(folder=folder), run, settle=0.3)
        deadline = time.monotonic() + 10
        while any(state != "T" for args, state in shell.states().items() if not args.startswith("bash")):
            assert time.monotonic() < deadline, f"run {run}: the job did not stop: {shell.states()}"
            time.sleep(0.02)
        # Whoever held the terminal, the shell has its normal screen back,
        # a visible cursor, and no keypad or mouse modes.
        shell.wait_modes_restored(f"run {run}")
        time.sleep(0.1)
        shell.send("fg", "Enter")
        deadline = time.monotonic() + 10
        while shell.picker_state() == "T" or "Stopped" in shell.screen() or "? help" not in shell.screen():
            assert time.monotonic() < deadline, f"run {run}: left stopped after fg\n{shell.screen()}\n{shell.states()}"
            time.sleep(0.02)
        # Keys work: Space picks, Enter prints it.
        shell.send("Space")
        shell.wait(lambda s: "Picked 1" in s, f"Space after fg (run {run})")
        shell.send("Enter")
        shell.wait(lambda s: f"{folder}/p00.jpg" in s.replace("\n", ""), f"the pick printed (run {run})")
        deadline = time.monotonic() + 10
        while shell.picker_state() is not None:
            assert time.monotonic() < deadline, f"run {run}: the picker did not exit: {shell.states()}"
            time.sleep(0.02)


@pytest.mark.parametrize(
    "command",
    ["picker-tui {folder}", "timeout --foreground 60 picker-tui {folder}", "sh -c 'picker-tui {folder} | cat'"],
    ids=["alone", "timeout-foreground", "sh-pipe-cat"],
)
def test_kill_ends_a_suspended_picker_at_once(shell, picker_bin, tmp_path, command):
    """Ctrl-Z then `kill %1`: the picker ends (143 when it is the job),
    never stops again on the terminal, and leaves the shell's modes alone."""
    folder = photos(tmp_path / "photos", 6)
    shell.send(f"PATH={picker_bin.parent}:$PATH", "Enter")
    for run in range(RUNS):
        start_then_stop(shell, command.format(folder=folder), run, settle=0.2)
        shell.wait_modes_restored(f"run {run}, stopped")
        # bash continues a stopped job it sends SIGTERM; until it has seen
        # the job go, `wait` answers 148 (still stopped) at once.
        shell.send("clear; kill %1; for i in $(seq 200); do wait %1 2>/dev/null; r=$?; [ $r != 148 ] && break; "
                   "sleep 0.05; done; echo rc=$r; jobs; echo jobs-listed", "Enter")
        # The answer's lines, not the command line typed (shown before
        # `clear` runs, it holds both words too).
        shell.wait(lambda s: re.search(r"^rc=\d+\s*$", s, re.M) and re.search(r"^jobs-listed\s*$", s, re.M),
                   f"kill answered (run {run})")
        deadline = time.monotonic() + 10
        while shell.picker_state() is not None:
            assert time.monotonic() < deadline, f"run {run}: the killed picker is still there: {shell.states()}"
            time.sleep(0.02)
        screen = shell.screen()
        assert "Stopped" not in screen.split("jobs-listed")[0].split("rc=")[-1], f"run {run}: a job is left\n{screen}"
        if command.startswith("picker-tui"):
            # Its status, from wait or from the shell's notice of the job.
            assert "rc=143" in screen or "Exit 143" in screen, f"run {run}\n{screen}"
        shell.wait_modes_restored(f"run {run}, after kill")

