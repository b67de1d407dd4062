"""The picker across the terminals, environments, locales and sizes it meets.

Each case checks what the user sees and what reaches stdout, not only that
nothing crashed:

* terminal types: the grid, the colour depth the terminfo entry allows, the
  alternate screen where there is one, a pick, and no frame left behind; the
  types that cannot draw a grid (dumb, unset, unknown) exit 2 with one line;
* NO_COLOR beats the deepest terminal, COLORTERM=truecolor brings 24-bit
  colours, an empty NO_COLOR is no NO_COLOR;
* locales: non-ASCII names (NFC, NFD, not UTF-8 at all) are printed as the
  exact bytes in every locale;
* sizes: from 1x1 to 300x100;
* a storm of resizes and SIGWINCHes over 20,000 photos;
* stdout on /dev/full, or a pipe whose reader has gone.

Checks already made elsewhere are not repeated here: Home/End/Alt for six
terminal types (test_key_sequences), TERM empty and dumb exiting 2
(test_exit_codes), 20x8 (test_mistakes), NO_COLOR on the first frame
(test_colors), café.jpg with -0 under C.UTF-8 (test_picking).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from conftest import hard_linked_photos, make_files
from test_colors import colour_codes

NAMES = [f"P{i:02d}.jpg" for i in range(1, 9)]
TILE_WIDTH = 18  # borders included; tiles are one column apart


def env_binary() -> str:
    return shutil.which("env") or "/usr/bin/env"


def start_wrapped(picker, wrapper: list[str], args, **kwargs):
    """Runs `WRAPPER... picker-tui ARGS`. The wrapper must exec the picker,
    so that the pid file and the exit status are still the picker's."""
    real = picker.binary
    picker.binary = Path(wrapper[0])
    try:
        return picker.start([*wrapper[1:], str(real), *map(str, args)], **kwargs)
    finally:
        picker.binary = real


def start_clean(picker, args, *, unset=("COLORTERM",), **kwargs):
    """The picker with variables removed from its environment (the harness
    can only set them): the tmux server may carry the user's COLORTERM."""
    return start_wrapped(picker, [env_binary(), *(f"--unset={name}" for name in unset)], args, **kwargs)


def wait_focus_name(p, name):
    return p.wait(lambda s: s.focused() is not None and s.focused().name == name, f"focus on {name}")


def pane_text(p) -> str:
    return p.tmux("capture-pane", "-p", "-t", p.target)


# --------------------------------------------------------------------------
# Terminal types that can draw a grid.

# The colour depth each terminfo entry allows (tput colors: 256, 256, 256,
# 2^24, 8, none, 8, 8, none), and whether it has an alternate screen (smcup).
GOOD_TERMS = {
    "xterm-256color": ("palette", True),
    "tmux-256color": ("palette", True),
    "screen-256color": ("palette", True),
    "xterm-direct": ("direct", True),
    "xterm": ("8", True),
    "xterm-mono": ("none", True),
    "ansi": ("8", False),
    "linux": ("8", False),
    "vt100": ("none", False),
}
BASIC_EIGHT = {str(n) for n in [*range(30, 38), *range(40, 48)]}


def check_colour_depth(codes: set[str], depth: str) -> str | None:
    """None if the SGR colours on screen fit the terminal, else why not."""
    direct = {code for code in codes if code.startswith(("38;2;", "48;2;"))}
    beyond_eight = {code for code in codes if code not in BASIC_EIGHT}
    if depth == "none":
        return f"colours on a terminal without any: {sorted(codes)}" if codes else None
    if not codes:
        return "no colours at all"
    if depth == "8":
        return f"colours an 8-colour terminal does not have: {sorted(beyond_eight)}" if beyond_eight else None
    if depth == "palette":
        if direct:
            return f"24-bit colours without COLORTERM on a palette terminal: {sorted(direct)}"
        return None if beyond_eight else f"only the basic eight colours on a 256-colour terminal: {sorted(codes)}"
    return None if direct else f"no 24-bit colours on a direct-colour terminal: {sorted(codes)}"


def assert_colour_depth(p, depth: str, what: str, timeout: float = 3.0) -> None:
    """The colours on screen fit `depth`; polled, since a capture may catch a
    frame half drawn (a wrong colour stays on a still screen, so it fails)."""
    deadline = time.monotonic() + timeout
    while True:
        problem = check_colour_depth(colour_codes(p), depth)
        if problem is None:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: {problem}{p.describe()}")
        time.sleep(0.05)


@pytest.mark.parametrize("term", list(GOOD_TERMS))
def test_each_terminal_type_draws_in_its_colours_picks_and_leaves_no_frame(picker, tmp_path, term):
    depth, alternate = GOOD_TERMS[term]
    root = make_files(tmp_path / "t", NAMES)
    p = start_clean(picker, [root], env={"TERM": term})
    p.wait(
        lambda s: s.columns() == 6 and s.names()[:6] == NAMES[:6] and s.focused_caption() == "P01.jpg",
        "six columns, P01..P06, the focus on P01",
    )
    assert p.display("#{alternate_on}") == ("1" if alternate else "0"), (
        f"alternate screen {'expected' if alternate else 'used'} with TERM={term}{p.describe()}"
    )
    assert_colour_depth(p, depth, f"TERM={term}")

    p.send("Right")
    wait_focus_name(p, "P02.jpg")
    p.toggle("P02.jpg")
    # The ✓ and the tray are drawn in the same depth.
    assert_colour_depth(p, depth, f"TERM={term} after a selection")
    p.send("Enter")
    assert p.finish(0) == f"{root}/P02.jpg\n".encode()
    assert p.stderr() == b""
    left = pane_text(p)
    assert "P0" not in left and "Picked" not in left and "┌" not in left, f"the last frame is left behind:\n{left}"


# --------------------------------------------------------------------------
# Terminal types that cannot.

BAD_TERMS = {
    "unset": (None, "TERM is not set"),
    "nosuchterm": ("nosuchterm", "unknown terminal type 'nosuchterm'"),
    "dumb": ("dumb", "'dumb' cannot move the cursor"),
}


@pytest.mark.parametrize("case", list(BAD_TERMS))
def test_a_terminal_type_without_a_grid_is_one_line_on_stderr_and_a_blank_pane(picker, album_tree, case):
    term, mention = BAD_TERMS[case]
    if term is None:
        p = start_clean(picker, [album_tree], unset=("TERM", "COLORTERM"), wait_ui=False)
    else:
        p = start_clean(picker, [album_tree], env={"TERM": term}, wait_ui=False)
    assert p.finish(2) == b""
    err = p.stderr()
    assert err.count(b"\n") == 1 and err.endswith(b"\n"), f"not exactly one line: {err!r}"
    text = err.decode()
    assert text.startswith("picker-tui: ") and mention in text and "TERM=xterm-256color" in text, text
    # Nothing was drawn, and no answer to a terminal query was echoed later.
    time.sleep(0.3)
    left = pane_text(p)
    assert left.strip() == "", f"the pane is not blank after the refusal:\n{left!r}"


# --------------------------------------------------------------------------
# Colours asked for or refused by the environment.

COLOUR_ENVS = {
    # NO_COLOR wins even on a direct-colour terminal that says truecolor.
    "NO_COLOR-on-xterm-direct": ({"NO_COLOR": "1", "TERM": "xterm-direct", "COLORTERM": "truecolor"}, "none"),
    "NO_COLOR-on-xterm": ({"NO_COLOR": "1", "TERM": "xterm"}, "none"),
    # no-color.org: an empty NO_COLOR does not count.
    "NO_COLOR-empty": ({"NO_COLOR": "", "TERM": "xterm-256color"}, "palette"),
    "COLORTERM-truecolor": ({"COLORTERM": "truecolor", "TERM": "xterm-256color"}, "direct"),
    "COLORTERM-truecolor-tmux": ({"COLORTERM": "truecolor", "TERM": "tmux-256color"}, "direct"),
    "COLORTERM-24bit-xterm": ({"COLORTERM": "24bit", "TERM": "xterm"}, "direct"),
    # A terminal without colours stays without, whatever COLORTERM says.
    "COLORTERM-on-xterm-mono": ({"COLORTERM": "truecolor", "TERM": "xterm-mono"}, "none"),
}


@pytest.mark.parametrize("case", list(COLOUR_ENVS))
def test_colour_environment_is_honoured_through_a_pick(picker, tmp_path, case):
    env, depth = COLOUR_ENVS[case]
    root = make_files(tmp_path / "c", NAMES)
    p = start_clean(picker, [root], unset=() if "COLORTERM" in env else ("COLORTERM",), env=env)
    assert_colour_depth(p, depth, case)
    # Selected tiles, the tray, the help overlay: still the same depth.
    p.toggle("P01.jpg")
    p.send("Right")
    wait_focus_name(p, "P02.jpg")
    p.toggle("P02.jpg")
    assert_colour_depth(p, depth, f"{case} with two selected")
    p.send("?")
    p.wait_text("leave, print nothing")
    assert_colour_depth(p, depth, f"{case} in the help")
    p.send("Escape")
    # Escape closes the help and must not cancel: the grid again, both picks kept.
    p.wait_running(
        lambda s: "leave, print nothing" not in s
        and s.focused_caption() == "✓ P02.jpg"
        and s.tray_names() == ["P01.jpg", "P02.jpg"],
        "the grid again after Escape closed the help, P01.jpg and P02.jpg still picked",
    )
    p.send("Enter")
    assert p.finish(0) == f"{root}/P01.jpg\n{root}/P02.jpg\n".encode()


# --------------------------------------------------------------------------
# Locales.

# Sorted by bytes: "e" + U+0301 < "é" (C3 A9) < E9 < "p".
NON_ASCII = [b"cafe\xcc\x81-nfd.jpg", "café.jpg".encode(), b"caf\xe9.jpg", b"plain.jpg"]


def installed_locales() -> set[str]:
    try:
        out = subprocess.run(["locale", "-a"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return {"c", "posix"}
    return {name.strip().lower().replace("-", "") for name in out.split()}


@pytest.mark.parametrize("variable", ["LANG", "LC_ALL"])
@pytest.mark.parametrize("locale", ["C", "C.UTF-8", "en_US.UTF-8"])
def test_non_ascii_names_print_their_exact_bytes_in_every_locale(picker, tmp_path, variable, locale):
    if locale.lower().replace("-", "") not in installed_locales():
        pytest.skip(f"locale {locale} is not installed here (see `locale -a`)")
    root = make_files(tmp_path / "loc", NON_ASCII)
    # LC_ALL is set on top of the harness's LANG=C.UTF-8, and must win.
    p = picker.start([str(root)], env={variable: locale})
    screen = p.wait(lambda s: len(s.tiles()) == 4, "four tiles")
    captions = [unicodedata.normalize("NFC", name) for name in screen.names()]
    assert captions[3] == "plain.jpg", screen
    # A name that is not UTF-8 is escaped on screen, never sent raw.
    assert captions[2] == "caf\\xE9.jpg", screen
    if locale != "C":
        assert captions[:2] == ["café-nfd.jpg", "café.jpg"], screen
    else:
        assert all(c.startswith("caf") and c.endswith(".jpg") for c in captions[:2]), screen
    for step in range(3):
        if step:
            p.send("Right")
        p.wait(lambda s: s.focused() is not None and s.focused().left == screen.tiles()[step].left,
               f"focus on tile {step}")
        p.send("Space")
        p.wait(lambda s: s.tray_header() == f"Picked {step + 1}", f"{step + 1} picked")
    p.send("Enter")
    expected = b"".join(os.fsencode(root) + b"/" + name + b"\n" for name in NON_ASCII[:3])
    assert p.finish(0) == expected


# --------------------------------------------------------------------------
# Sizes.


@pytest.mark.parametrize(("width", "height"), [(1, 1), (2, 2), (10, 3), (40, 5), (5, 40)],
                         ids=["1x1", "2x2", "10x3", "40x5", "5x40"])
def test_a_terminal_too_small_for_one_tile_keeps_running_and_q_restores_it(picker, tmp_path, width, height):
    root = make_files(tmp_path / "s", NAMES)
    p = picker.start([str(root)], width=width, height=height, wait_ui=False)
    message = "Terminal too small"[:width]
    if width > 1:
        p.wait_running(lambda s: s.lines[0].startswith(message), f"{message!r} on the first line")
    else:
        # One cell: nothing fits, not even the T. What shows that the picker
        # has the terminal is the pane's state: alternate screen, no cursor.
        p.wait_running(
            lambda s: p.display("#{alternate_on} #{cursor_flag}") == "1 0",
            "the picker's screen (alternate screen on, cursor hidden)",
        )
        # A short settle all the same: a blank frame cannot be told from none.
        p.assert_running(settle=0.5)
    text = pane_text(p)
    assert not any(ch in text for ch in "┌┏│┃") and ".jpg" not in text, f"a piece of the grid at {width}x{height}:\n{text}"
    # Keys never act on photos the user cannot see.
    p.send("Right", "Space", "Enter")
    # A short settle: at this size nothing a key does can be seen, and an
    # arrow read as a bare Esc would cancel with the same exit code as q.
    # q's exit 130 with nothing printed then shows Enter did not confirm.
    p.assert_running()
    p.leave("q")
    assert p.finish(130) == b""
    assert p.stderr() == b""


@pytest.mark.parametrize(("width", "height"), [(80, 24), (300, 100)], ids=["80x24", "300x100"])
def test_the_grid_fills_the_terminal_and_picks(picker, tmp_path, width, height):
    names = [f"P{i:02d}.jpg" for i in range(1, 61)]
    root = make_files(tmp_path / "g", names)
    p = picker.start([str(root)], width=width, height=height)
    columns = (width + 1) // (TILE_WIDTH + 1)
    # On a screen this tall every photo shows; else the first rows.
    shown = names if height >= 100 else names[:columns]

    def laid_out(s) -> bool:
        return s.columns() == columns and s.names()[: len(shown)] == shown

    screen = p.wait(laid_out, f"{columns} columns showing {shown[0]}..{shown[-1]} at {width}x{height}")
    assert all(len(line) <= width for line in screen.lines), screen
    assert len(screen.breadcrumb.rstrip()) == width and screen.breadcrumb.rstrip().endswith(" of 60 · name"), screen
    assert screen.tray.startswith("Picked 0"), screen
    if height >= 100:
        assert screen.counts == (60, 60), f"not every photo loaded on a huge screen{screen}"
    # One row down is `columns` photos on.
    p.press("j", names[columns])
    p.toggle(names[columns])
    p.send("Enter")
    assert p.finish(0) == f"{root}/{names[columns]}\n".encode()


def test_a_resize_and_sigwinch_storm_over_20000_photos_leaves_it_responsive(picker, tmp_path):
    folder = hard_linked_photos(tmp_path / "many", 20_000)
    p = picker.start([str(folder)])
    p.wait(lambda s: s.counts == (48, 20000), "the first page of 20000")
    for key in "lllj":  # row 2, column 4 at 6 columns
        p.send(key)
    p.wait_focus("IMG_00010.jpg")
    pid = p.pid()
    sizes = [(80, 24), (150, 50), (20, 6), (200, 60), (1, 1), (60, 20), (120, 40), (10, 3)]
    for i in range(30):
        p.resize(*sizes[i % len(sizes)])
        os.kill(pid, signal.SIGWINCH)
        time.sleep(0.01)
        os.kill(pid, signal.SIGWINCH)
    p.resize(100, 30)
    assert p.display("#{window_width}x#{window_height}") == "100x30"
    screen = p.wait(
        lambda s: s.columns() == 5 and len(s.breadcrumb.rstrip()) == 100 and s.focused_caption() == "IMG_00010.jpg",
        "the grid at 100x30 (5 columns) with the focus still on IMG_00010.jpg",
    )
    assert all(len(line) <= 100 for line in screen.lines), screen
    assert screen.counts[1] == 20000 and "Terminal too small" not in screen, screen
    p.send("End")
    screen = p.wait(
        lambda s: s.focused_caption() == "IMG_20000.jpg" and s.counts == (20000, 20000), "End to the 20000th photo"
    )
    p.toggle("IMG_20000.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/IMG_20000.jpg\n".encode()
    assert p.stderr() == b""


# --------------------------------------------------------------------------
# Where stdout goes.


@pytest.mark.parametrize("ending", ["confirm", "cancel"])
def test_stdout_on_dev_full(picker, tmp_path, ending):
    """A confirm that cannot be written is exit 2 and one line; a cancel
    writes nothing, so a full stdout is no error then."""
    root = make_files(tmp_path / "d", NAMES)
    p = picker.start(["-0", str(root)], stdout_redirect="> /dev/full")
    p.toggle("P01.jpg")
    p.send("Right")
    wait_focus_name(p, "P02.jpg")
    p.toggle("P02.jpg")
    if ending == "cancel":
        p.leave("q")
        assert p.wait_exit() == 130, p.describe()
        assert p.stderr() == b""
    else:
        p.send("Enter")
        assert p.wait_exit() == 2, p.describe()
        err = p.stderr()
        assert err.startswith(b"picker-tui: cannot write to stdout") and err.count(b"\n") == 1, err
        assert err.endswith(b"\n"), err
    p.assert_terminal_restored()


CLOSED_PIPE = """\
import os, signal, subprocess, sys
# stdout: a pipe whose reader (head -c 0) has already gone, as in
# `picker-tui | head -c 0`; the picker is exec'd, keeping this pid.
read_end, write_end = os.pipe()
subprocess.run(["head", "-c", "0"], stdin=read_end, check=True)
os.close(read_end)
os.dup2(write_end, 1)
os.close(write_end)
signal.signal(signal.SIGPIPE, signal.SIG_IGN if sys.argv[1] == "ignored" else signal.SIG_DFL)
os.execv(sys.argv[2], sys.argv[2:])
"""


@pytest.mark.parametrize("sigpipe", ["default", "ignored"])
def test_a_pipe_whose_reader_has_gone_does_not_hang(picker, tmp_path, sigpipe):
    """Like `| head -1`: a reader that went away is not an error of the
    picker's. It exits at once, quietly, and restores the terminal, whether
    SIGPIPE came in as default (a shell) or ignored (e.g. Python)."""
    root = make_files(tmp_path / "p", NAMES)
    wrapper = tmp_path / "closed_pipe.py"
    wrapper.write_text(CLOSED_PIPE)
    p = start_wrapped(picker, [sys.executable, str(wrapper), sigpipe], ["-0", root])
    p.toggle("P01.jpg")
    p.send("End")
    wait_focus_name(p, "P08.jpg")
    p.toggle("P08.jpg")
    started = time.monotonic()
    p.send("Enter")
    rc = p.wait_exit(timeout=5)
    assert time.monotonic() - started < 3, "the picker took seconds to notice the reader was gone"
    assert rc == 0, f"exit {rc}{p.describe()}"
    assert p.stderr() == b""
    p.assert_terminal_restored()
