"""The picker as the desktop's file chooser: share/picker-tui/
termfilechooser-wrapper.sh run as xdg-desktop-portal-termfilechooser runs
it (MULTIPLE DIRECTORY SAVE PATH OUT DEBUG, the short environment of a
systemd user service), the chosen paths read back from OUT.

TERMCMD is a terminal of the tests' own (terminal.sh, written per test):
like foot or kitty it runs its command with the caller's environment and
returns when the command exits, with its status. Its window is a tmux
session of the suite's server, driven with send-keys as every other
end-to-end test drives the picker; the session stays after the picker
exits, so the test can still read what was left on the screen.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from picker_driver import HEIGHT, POLL, REPO, WIDTH, Picker
from test_places import trip

WRAPPER = REPO / "share" / "picker-tui" / "termfilechooser-wrapper.sh"
WAIT = 20.0  # seconds: the window to open, the wrapper to return

TERMINAL = """#!/bin/sh
# The tests' terminal: TERMCMD="terminal.sh --title NAME". Its window is
# the tmux session {session}; it returns when its command exits, with the
# command's status, as foot and kitty do.
set -eu
if [ "${{1:-}}" = --title ]; then
    printf '%s\\n' "$2" > {dir}/title
    shift 2
fi
# The caller's environment, for the command inside (tmux gives a new
# session its server's).
export -p > {dir}/env
{tmux} new-session -d -s {session} -x {width} -y {height} -c "$PWD" /bin/sh {dir}/inside.sh "$@"
{tmux} wait-for {session}-done
exit "$(cat {dir}/rc)"
"""

INSIDE = """#!/bin/sh
# Inside the window: the caller's environment and the pane's TERM, nothing
# of the tmux server's.
if [ "${{1:-}}" != --clean ]; then
    exec /usr/bin/env -i TERM="$TERM" TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" /bin/sh "$0" --clean "$@"
fi
shift
. {dir}/env
"$@"
echo $? > {dir}/rc.tmp
mv {dir}/rc.tmp {dir}/rc
{tmux} wait-for -S {session}-done
exec sleep 600
"""


class Portal:
    """What the portal does: runs the wrapper with the six arguments and
    reads OUT once it has returned."""

    def __init__(self, socket: str, picker_bin: Path, tmp_path: Path):
        self.socket = socket
        self.session = f"chooser-{uuid.uuid4().hex[:8]}"
        self.dir = tmp_path / "terminal"
        self.dir.mkdir()
        self.home = tmp_path / "home"
        self.home.mkdir()
        # The portal names it and empties it; a test may leave something in
        # it first, as a run before might have.
        self.out = tmp_path / "termfilechooser.portal"
        self.out.write_bytes(b"")
        self.terminal = self.dir / "terminal.sh"
        q = lambda path: shlex.quote(str(path))  # noqa: E731
        words = {
            "dir": q(self.dir),
            "session": self.session,
            "tmux": f"{q(shutil.which('tmux') or 'tmux')} -L {q(socket)} -f /dev/null",
            "width": WIDTH,
            "height": HEIGHT,
        }
        self.terminal.write_text(TERMINAL.format(**words))
        (self.dir / "inside.sh").write_text(INSIDE.format(**words))
        self.terminal.chmod(0o755)
        # A user service's environment: a short PATH, no TERM; the user's
        # folders are the test's.
        self.env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "PICKER_TUI": str(picker_bin),
            # A prefix split into words: the title reaches the terminal.
            "TERMCMD": f"{self.terminal} --title picker-tui",
        }
        if os.environ.get("TMUX_TMPDIR"):
            self.env["TMUX_TMPDIR"] = os.environ["TMUX_TMPDIR"]
        self.process: subprocess.Popen | None = None
        self.picker = Picker(socket, self.session, self.dir, WIDTH, HEIGHT)

    # -- the wrapper ----------------------------------------------------------

    def arguments(self, multiple: str, directory: str, save: str, path: str) -> list[str]:
        return [str(WRAPPER), multiple, directory, save, path, str(self.out), "0"]

    def run(self, multiple: str, directory: str, save: str, path: str) -> subprocess.CompletedProcess:
        """The wrapper when no window is expected."""
        return subprocess.run(self.arguments(multiple, directory, save, path), env=self.env, cwd=self.home,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=WAIT)

    def open(self, multiple: str, directory: str, save: str, path: str) -> Picker:
        """The wrapper in the background; returns the picker once it is drawn."""
        # Its own process group, so that close() ends the terminal too.
        with (self.dir / "wrapper.out").open("wb") as out, (self.dir / "wrapper.err").open("wb") as err:
            self.process = subprocess.Popen(
                self.arguments(multiple, directory, save, path), env=self.env, cwd=self.home,
                stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True,
            )
        deadline = time.monotonic() + WAIT
        while not self.window_open():
            if self.process.poll() is not None:
                raise AssertionError(f"the wrapper returned before a window opened{self.describe()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no window within {WAIT:.0f}s{self.describe()}")
            time.sleep(POLL)
        try:
            # As Picker.wait_ui, but a picker that exits (a refused option)
            # fails at once.
            self.picker.wait_running(
                lambda s: s.counts is not None and s.focused() is not None and s.tray.lstrip().startswith("Picked"),
                "the picker UI (breadcrumb 'L of T', a focused tile, the tray)", timeout=WAIT,
            )
        except AssertionError as error:
            raise AssertionError(f"{error}\nwrapper stderr: {self.stderr()!r}") from None
        return self.picker

    def finish(self) -> int:
        """The wrapper's exit status, once it has returned."""
        assert self.process is not None
        try:
            return self.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the wrapper did not return within {WAIT:.0f}s{self.describe()}") from None

    def chosen(self) -> str:
        return self.out.read_text()

    def stderr(self) -> str:
        path = self.dir / "wrapper.err"
        return path.read_text(errors="replace") if path.exists() else ""

    # -- the window -----------------------------------------------------------

    def window_open(self) -> bool:
        command = ["tmux", "-L", self.socket, "-f", "/dev/null", "has-session", "-t", f"={self.session}"]
        return subprocess.run(command, capture_output=True).returncode == 0

    def terminal_started(self) -> bool:
        return (self.dir / "env").exists() or self.window_open()

    def describe(self) -> str:
        parts = [self.picker.describe() if self.window_open() else "\n(no window)"]
        if self.process is not None and self.process.poll() is not None:
            parts.append(f"wrapper exit status: {self.process.returncode}")
        parts.append(f"wrapper stderr: {self.stderr()!r}")
        parts.append(f"OUT: {self.out.read_bytes()!r}")
        return "\n".join(parts)

    def assert_no_paths_left_on_screen(self, folder: Path) -> None:
        """The picker wrote to OUT alone: nothing of the paths reached its
        terminal (stdout is the window there)."""
        screen = self.picker.screen()
        assert str(folder) not in screen.text, f"a path was printed to the terminal{self.describe()}"

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(timeout=WAIT)
        self.picker.tmux("kill-session", "-t", f"={self.session}", check=False)


@pytest.fixture
def portal(tmux_server, picker_bin, tmp_path):
    desktop = Portal(tmux_server, picker_bin, tmp_path)
    yield desktop
    desktop.close()


def test_several_photos_are_chosen_with_space_then_enter(portal, tmp_path):
    folder = trip(tmp_path)
    p = portal.open("1", "0", "0", str(folder))
    screen = p.wait_focus("DSC_0001.jpg")
    # The folder given, browsed; no limit on a multiple choice.
    assert screen.crumb_path == str(folder), f"the folder PATH was not opened{portal.describe()}"
    assert screen.tray_header() == "Picked 0", f"a multiple choice has no --max{portal.describe()}"
    p.press("l", "DSC_0002.jpg")
    p.toggle("DSC_0002.jpg")
    p.press("l", "DSC_0003.jpg")
    p.press("l", "DSC_0004.jpg")
    p.toggle("DSC_0004.jpg")
    p.wait(lambda s: s.tray_names() == ["DSC_0002.jpg", "DSC_0004.jpg"], "both picks in the tray")
    p.send("Enter")
    status = portal.finish()
    assert status == 0, f"exit status {status}, expected 0{portal.describe()}"
    assert portal.chosen() == f"{folder}/DSC_0002.jpg\n{folder}/DSC_0004.jpg\n", portal.describe()
    portal.assert_no_paths_left_on_screen(folder)
    # TERMCMD was split into words: its --title reached the terminal.
    assert (portal.dir / "title").read_text() == "picker-tui\n"


def test_a_single_choice_is_the_focused_photo(portal, tmp_path):
    folder = trip(tmp_path)
    p = portal.open("0", "0", "0", str(folder))
    screen = p.wait_focus("DSC_0001.jpg")
    assert screen.tray_header() == "Picked 0/1", f"a single choice runs with --max 1{portal.describe()}"
    p.press("l", "DSC_0002.jpg")
    p.send("Enter")
    status = portal.finish()
    assert status == 0, f"exit status {status}, expected 0{portal.describe()}"
    assert portal.chosen() == f"{folder}/DSC_0002.jpg\n", portal.describe()


def test_a_folder_request_chooses_the_focused_folder(portal, tmp_path):
    # A name with a space: it goes through the wrapper and the terminal whole.
    parent = tmp_path / "Photo library"
    parent.mkdir()
    folder = trip(parent)
    (parent / "album").mkdir()
    shutil.copy(folder / "DSC_0001.jpg", parent / "album" / "DSC_0001.jpg")
    shutil.copy(folder / "DSC_0002.jpg", parent / "loose.jpg")
    p = portal.open("0", "1", "0", str(parent))
    p.wait(lambda s: s.captions()[:2] == ["album/", "trip/"], "the two folders first")
    p.press("l", "trip/")
    p.send("Enter")
    status = portal.finish()
    assert status == 0, f"exit status {status}, expected 0{portal.describe()}"
    assert portal.chosen() == f"{parent}/trip\n", portal.describe()


@pytest.mark.parametrize("start", ["folder", "home"])
def test_esc_is_a_cancel_and_leaves_out_empty(portal, tmp_path, start):
    if start == "folder":
        folder = trip(tmp_path)
        path, source = str(folder), "[1 ▤ Files]"
    else:
        # PATH is the home folder (an app's default): Photos, the library
        # (~/Pictures here) by date, rather than the home folder's files.
        (portal.home / "Pictures").mkdir()
        folder = trip(portal.home / "Pictures")
        path, source = f"{portal.home}/", "[1 ◷ Photos]"
    # Left over from an earlier choice: it must not be read as this one's.
    portal.out.write_text(f"{folder}/DSC_0001.jpg\n")
    p = portal.open("1", "0", "0", path)
    p.wait(lambda s: s.source_bar.lstrip().startswith(source), f"{source} first")
    p.leave("Escape")
    status = portal.finish()
    assert status == 130, f"exit status {status}, expected the picker's 130 (cancelled){portal.describe()}"
    assert portal.chosen() == "", portal.describe()


def test_saving_is_refused_without_opening_a_window(portal, tmp_path):
    folder = trip(tmp_path)
    result = portal.run("0", "0", "1", f"{folder}/name.jpg")
    assert result.returncode != 0, f"saving was not refused: {result!r}"
    assert "does not save" in result.stderr and "PICKER_TUI_SAVE_CHOOSER" in result.stderr, result.stderr
    assert portal.chosen() == "", portal.describe()
    assert not portal.terminal_started(), f"a window was opened to save{portal.describe()}"


def test_saving_goes_to_the_chooser_named_for_it(portal, tmp_path):
    folder = trip(tmp_path)
    saver = tmp_path / "save-wrapper.sh"
    saver.write_text('#!/bin/sh\nprintf \'%s\\n\' "$@" > "$5.args"\nprintf \'%s\\n\' "$4" > "$5"\n')
    saver.chmod(0o755)
    portal.env["PICKER_TUI_SAVE_CHOOSER"] = str(saver)
    suggested = f"{folder}/name.jpg"
    result = portal.run("0", "0", "1", suggested)
    assert result.returncode == 0, f"{result!r}"
    assert portal.chosen() == suggested + "\n", portal.describe()
    given = Path(f"{portal.out}.args").read_text().splitlines()
    assert given == ["0", "0", "1", suggested, str(portal.out), "0"], given
    assert not portal.terminal_started(), f"a window was opened to save{portal.describe()}"


def test_a_terminal_that_returns_at_once_is_a_cancel(portal, tmp_path):
    # footclient, a single-instance kitty: the window goes to a server and
    # the command returns 0 before anything is chosen.
    folder = trip(tmp_path)
    portal.out.write_text(f"{folder}/DSC_0001.jpg\n")
    portal.env["TERMCMD"] = "/bin/true"
    result = portal.run("1", "0", "0", str(folder))
    assert result.returncode == 1, f"{result!r}"
    assert portal.chosen() == "", portal.describe()


@pytest.mark.parametrize(
    "multiple, directory, path, expected",
    [
        ("1", "0", "{folder}", ["{folder}"]),
        ("0", "0", "{folder}", ["--max", "1", "{folder}"]),
        ("0", "1", "{folder}", ["--choose-folder", "{folder}"]),
        # A suggested name stands for its folder; nothing, the home folder
        # or a folder that is gone opens Photos.
        ("1", "0", "{folder}/new name.jpg", ["{folder}"]),
        ("1", "0", "", []),
        ("1", "0", "{home}", []),
        ("1", "0", "{home}/", []),
        ("1", "0", "/nonexistent/name.jpg", []),
    ],
)
def test_the_picker_is_given_what_the_portal_asked_for(tmp_path, multiple, directory, path, expected):
    # The wrapper as installed, with a stand-in picker beside it
    # (PREFIX/bin), found without PICKER_TUI; it writes its arguments to
    # OUT. TERMCMD=env runs it directly.
    prefix = tmp_path / "prefix"
    (prefix / "share" / "picker-tui").mkdir(parents=True)
    (prefix / "bin").mkdir()
    wrapper = prefix / "share" / "picker-tui" / WRAPPER.name
    shutil.copy2(WRAPPER, wrapper)
    stand_in = prefix / "bin" / "picker-tui"
    stand_in.write_text(
        "#!/bin/sh\n"
        '[ "$1" = --chooser-file ] || exit 3\n'
        "out=$2\n"
        "shift 2\n"
        'for word; do echo "$word"; done > "$out"\n'
        'echo end >> "$out"\n'
    )
    stand_in.chmod(0o755)
    home = tmp_path / "home"
    folder = home / "Photo library"
    folder.mkdir(parents=True)
    out = tmp_path / "out"
    words = {"folder": str(folder), "home": str(home)}
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "TERMCMD": "/usr/bin/env"}
    result = subprocess.run([str(wrapper), multiple, directory, "0", path.format(**words), str(out), "0"],
                            env=env, cwd=home, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 0, f"{result!r}"
    assert out.read_text().splitlines() == [word.format(**words) for word in expected] + ["end"], result.stderr
