"""The graphics harness itself, proved without picker-tui: Debian's chafa
draws a stripe photo as real pixels (sixel, kitty, iTerm2) and as block
symbols in real terminals under Xvfb, and the screenshots tell them apart.
Also: keys, resizing and cell geometry in each terminal, and what tmux
passes on to the outer terminal.

Run with `-s` to see the measured scores and replies."""

from __future__ import annotations

import shlex
import time

import pytest

from graphics_terminals import (
    KINDS,
    TmuxOuterStream,
    detail_score,
    make_stripe_fixtures,
    PIXELS_AT_LEAST,
    SYMBOLS_AT_MOST,
    missing_tools,
    need,
    record_tmux_outer_stream,
    region_is_blank,
    terminal_replies,
    xdisplay,  # noqa: F401  (the session's X display fixture)
)

# (terminal, how chafa draws pixels in it)
PIXEL_WAYS = [
    ("xterm-sixel", "sixels"),
    ("kitty", "kitty"),
    ("mlterm", "sixels"),
    ("mlterm", "iterm"),
]


@pytest.fixture(scope="module")
def stripes(tmp_path_factory):
    return make_stripe_fixtures(tmp_path_factory.mktemp("stripes"))


def wait_stable(term, box, condition, what):
    """A screenshot for which condition holds and that the next one repeats
    (the terminal has finished drawing)."""
    previous = []

    def settled(image):
        region = image.crop(box).tobytes()
        same = bool(previous) and previous[-1] == region
        previous.append(region)
        return same and condition(image)

    return term.wait_for(settled, what)


@pytest.mark.parametrize("kind,way", PIXEL_WAYS, ids=[f"{k}-{w}" for k, w in PIXEL_WAYS])
def test_pixels_and_symbols_are_told_apart(xdisplay, stripes, kind, way):
    need(kind, tools=["chafa"])
    # 640 px wide at 8 px per cell: 80 columns show the photo unscaled, so
    # its 1- and 2-px stripes reach the screen as they are.
    show = "chafa --size 80x30 --animate off"
    one_px, two_px = (shlex.quote(str(stripes[name])) for name in ("stripes-1px", "stripes-2px"))
    # What each step shows, and the score that tells it is on screen. The
    # bands do not overlap, so a step is never mistaken for the one before
    # it (a stale picture), and the screenshot must also repeat (fully drawn).
    steps = [
        ("pixels, 1-px stripes", f"{show} -f {way} {one_px}", lambda score, blank: score > 6),
        ("pixels, 2-px stripes", f"{show} -f {way} {two_px}", lambda score, blank: PIXELS_AT_LEAST <= score <= 5),
        ("symbols, 2-px stripes", f"{show} -f symbols --symbols block+space {two_px}", lambda score, blank: not blank and score <= SYMBOLS_AT_MOST),
        ("a cleared screen", ":", lambda score, blank: blank),
    ]
    # Each step clears the screen first (which also deletes kitty's images
    # and overwrites sixel pixels), then waits for Return.
    clear = r"printf '\033[2J\033[H'"
    script = "; ".join(f"{clear}; {command}; read _" for _, command, _ in steps)
    term = xdisplay.start_terminal(kind, r"printf '\033[?25l'; " + script, 100, 40)
    cell = term.cell
    # Inside the photo's stripes, clear of its 16-px border.
    box = term.cell_box(4, 2, 72, 24)
    scores = {}
    try:
        for index, (what, _, shown) in enumerate(steps):
            if index:
                term.send_keys("Return")
            image = wait_stable(
                term, box,
                lambda shot: shown(detail_score(shot, box, cell.width), region_is_blank(shot, box, background=(0, 0, 0))),
                what,
            )
            scores[what] = detail_score(image, box, cell.width)
        term.send_keys("Return")
        assert term.wait_exit() == 0
    finally:
        print(f"\n{kind} ({way}), cell {cell.width}x{cell.height} px: "
              + ", ".join(f"{what} {score:.2f}" for what, score in scores.items()))
        term.stop()


# Konsole keeps a tool bar and a minimum width: its window is not the grid
# asked for (the calibration still finds its cells); foot's grid is weston's
# output, resized through weston, which a loaded machine made late once.
@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind not in ("konsole", "foot")])
def test_cell_geometry_and_resize(xdisplay, kind):
    need(kind)
    # The command reports the tty size once it differs from 80x24.
    command = 'while [ "$(stty size)" = "24 80" ]; do sleep 0.05; done; stty size > size'
    term = xdisplay.start_terminal(kind, command, 80, 24)
    try:
        cell = term.cell
        print(f"\n{kind}: cell {cell.width}x{cell.height} px, grid at +{cell.left}+{cell.top}")
        assert 5 <= cell.width <= 20 and 10 <= cell.height <= 40, cell
        # The window holds exactly the requested grid (kitty may round up a pixel).
        width, height = term.window_size()
        assert 0 <= width - 80 * cell.width - 2 * cell.left <= 1, (width, height, cell)
        assert 0 <= height - 24 * cell.height - 2 * cell.top <= 1, (width, height, cell)
        term.resize(100, 30)
        assert term.wait_exit() == 0
        assert (term.workdir / "size").read_text().split() == ["30", "100"]
    finally:
        term.stop()


# foot's keys pass through weston's X window, which took them late on a
# loaded machine; foot is here for what it draws (test_preview_terminals).
@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind != "foot"])
def test_keys_arrive_as_the_terminal_sends_them(xdisplay, kind):
    need(kind)
    # Raw mode, no echo: every byte the terminal sends for the keys, in a
    # file. Keys typed before `stty raw` would be cooked, hence the `ready` file.
    command = "stty raw -echo; : > ready; dd bs=1 count=10 of=keys 2>/dev/null; stty sane"
    term = xdisplay.start_terminal(kind, command, 80, 24)
    try:
        deadline = time.monotonic() + 10
        while not (term.workdir / "ready").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        term.send_keys("Page_Down", "Right", "space", "Return", "Escape")
        assert term.wait_exit() == 0
        keys = (term.workdir / "keys").read_bytes()
    finally:
        term.stop()
    assert keys == b"\x1b[6~\x1b[C \r\x1b", keys


def test_terminal_replies(xdisplay):
    """What each terminal answers: XTVERSION, cell and window size, the
    kitty graphics query, then DA1 (which all answer, so it ends the read)."""
    query = b"\x1b[>0q\x1b[16t\x1b[14t\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\\x1b[c"
    seen = {}
    for kind in KINDS:
        if missing_tools([kind]):
            continue
        seen[kind] = terminal_replies(xdisplay, kind, query)
        print(f"\n{kind}: {seen[kind]!r}")
    if not seen:
        pytest.skip("no terminal installed")
    for kind, replies in seen.items():
        assert replies.endswith(b"c"), (kind, replies)  # DA1 came back
    if "xterm-sixel" in seen:
        assert b";4;" in seen["xterm-sixel"].split(b"\x1b[?")[-1], seen  # sixel in DA1
    if "kitty" in seen:
        assert b"\x1b_Gi=31;OK\x1b\\" in seen["kitty"], seen
    if "mlterm" in seen:
        assert b";4;" in seen["mlterm"].split(b"\x1b[?")[-1], seen
    if "foot" in seen:
        assert b";4;" in seen["foot"].split(b"\x1b[?")[-1], seen
    if "konsole" in seen:
        assert b"\x1b_Gi=31;OK\x1b\\" in seen["konsole"], seen


# --------------------------------------------------------------------------
# tmux: what reaches the outer terminal.

PASSTHROUGH = r"printf '\033Ptmux;\033\033_Ga=q,i=31;AAAA\033\033\\\033\\'"


def test_tmux_passes_kitty_graphics_to_the_outer_terminal():
    need(tools=["tmux"])
    stream = record_tmux_outer_stream(PASSTHROUGH, b"\x1b_Ga=q,i=31", term="xterm-kitty")
    assert b"\x1b_Ga=q,i=31;AAAA\x1b\\" in stream


def test_tmux_without_passthrough_passes_nothing():
    need(tools=["tmux"])
    with TmuxOuterStream(PASSTHROUGH + "; printf 'after-the-query'", passthrough=False,
                         term="xterm-256color") as stream:
        # The text after it proves tmux has dealt with the wrapped command.
        stream.wait_for(b"after-the-query")
        assert stream.pane_exit_status() == 0
        assert b"_Ga=q" not in stream.data
