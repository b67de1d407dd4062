"""Pixel thumbnails: picker-tui in real terminals under Xvfb (kitty, xterm
as a VT340, mlterm), screenshotted and measured, and inside tmux, where
the test itself plays the outer terminal.

The photos are black and white stripes 2 px wide in a coloured border,
128x96 px: they fit a 16x8-cell picture area unscaled in every terminal
here (cells of 8x17 px in xterm and kitty, 8x16 in mlterm), so real pixels
keep the stripes (detail score about 4 per cell width) while block symbols
cannot (2 at most). The border colour (red, green, blue) tells photos
apart, and plain grey photos show what a stale image would spoil.

The tile geometry below is the picker's (16x8 cells of picture by
default, a box of 18x11 with border and caption, one blank column between
tiles, the grid from the third line, tray and hints on the last two).

Run with `-s` to see the measured scores. Every screenshot stays in
pytest's temporary folder; a failure names the last one.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import time
from pathlib import Path

import pytest

from conftest import HINTS, TMUX_NOTICE
from graphics_terminals import (
    KITTY_DIACRITICS,
    KITTY_PLACEHOLDER,
    KITTY_XTVERSION,
    TmuxOuterStream,
    count_colour,
    detail_score,
    make_grey_photo,
    make_stripe_photo,
    PIXELS_AT_LEAST,
    SYMBOLS_AT_MOST,
    need,
    region_is_blank,
    styled_lines,
    xdisplay,  # noqa: F401  (the session's X display fixture)
)

# (terminal, --thumbnails, the protocol it must come to); ids for pytest.
PIXEL_WAYS = [
    ("kitty", "auto", "kitty"),
    ("xterm-sixel", "auto", "sixel"),
    ("mlterm", "auto", "sixel"),
    ("mlterm", "iterm2", "iterm2"),
]
WAY_IDS = ["kitty", "xterm-sixel", "mlterm-sixel", "mlterm-iterm2"]

# --------------------------------------------------------------------------
# Photos.

PHOTO_SIZE = (128, 96)
BORDER = 8
BORDER_COLOURS = {"red": (220, 30, 30), "green": (30, 170, 30), "blue": (40, 40, 220)}
# What counts as each border colour on screen (every channel in [low, high]),
# wide enough for sixel palettes and JPEG re-encoding, and clear of the
# picker's own cyan, yellow and grey.
HUES = {
    "red": ((150, 0, 0), (255, 90, 90)),
    "green": ((0, 120, 0), (90, 255, 90)),
    "blue": ((0, 0, 150), (90, 90, 255)),
}
GREY = ((100, 100, 100), (160, 160, 160))
BLACK = (0, 0, 0)  # the harness terminals' background


def stripe_photo(path: Path, colour: str = "red") -> Path:
    width, height = PHOTO_SIZE
    return make_stripe_photo(path, width, height, stripe=2, border=BORDER, border_colour=BORDER_COLOURS[colour])


def six_stripe_photos(folder: Path) -> list[Path]:
    """p1..p6, PNGs and JPEGs, all red-bordered stripes."""
    return [stripe_photo(folder / f"p{i}.{'png' if i % 2 else 'jpg'}") for i in range(1, 7)]


def two_screens_of_photos(folder: Path) -> list[str]:
    """a01-a18 stripes (bordered red, green, blue by sixes), then b01-b18
    plain grey: 36 photos, two screens of 18 at 120x40. Returns what each
    photo should look like, in name order."""
    looks = []
    for i in range(1, 19):
        colour = ("red", "green", "blue")[(i - 1) // 6]
        stripe_photo(folder / f"a{i:02d}.{'png' if i % 3 == 0 else 'jpg'}", colour)
        looks.append(f"{colour} stripes")
    width, height = PHOTO_SIZE
    for i in range(1, 19):
        make_grey_photo(folder / f"b{i:02d}.jpg", width, height)
        looks.append("grey")
    return looks


# --------------------------------------------------------------------------
# Where the tiles are: the picker's GridLayout. A tile is its picture area
# (THUMB columns x rows) in a border, with a caption row; one blank column
# between tiles; the grid from the third line, tray and hints on the last two.

DEFAULT_THUMB = (16, 8)  # cells, the default size; - and + step through (12, 6) and (24, 12)
SMALLER_THUMB, BIGGER_THUMB = (12, 6), (24, 12)
GRID_TOP = 2
THUMB_COLUMNS, THUMB_ROWS = DEFAULT_THUMB


def grid_shape(columns: int, rows: int, thumb=DEFAULT_THUMB) -> tuple[int, int]:
    """(tile columns, tile rows) on a screen of columns x rows cells."""
    width, height = thumb
    return max(1, (columns + 1) // (width + 3)), max(1, (rows - 4) // (height + 3))


def tile_origin(slot: int, tile_columns: int, thumb=DEFAULT_THUMB) -> tuple[int, int]:
    width, height = thumb
    row, column = divmod(slot, tile_columns)
    return column * (width + 3), GRID_TOP + row * (height + 3)


def picture_box(term, slot: int, tile_columns: int, thumb=DEFAULT_THUMB):
    """The pixel box of a tile's picture area."""
    x, y = tile_origin(slot, tile_columns, thumb)
    return term.cell_box(x + 1, y + 1, *thumb)


def stripe_box(term, slot: int, tile_columns: int, thumb=DEFAULT_THUMB):
    """Cells that only stripes cover when the photo is shown unscaled: a
    128x96 photo is 16x6 cells (cells 8 px wide, 16-19 high), centred in
    the picture area, its stripes 8 px in from every side; so the photo's
    cell rows 1-4 and columns 2-13."""
    x, y = tile_origin(slot, tile_columns, thumb)
    width, height = thumb
    left, top = x + 1 + max(0, (width - 16) // 2), y + 1 + max(0, (height - 6) // 2)
    return term.cell_box(left + 2, top + 1, 12, 4)


def shown_photo_pixels(term, thumb) -> float:
    """How many pixels a 128x96 photo covers once fitted (never enlarged)
    into a picture area of `thumb` cells."""
    width, height = PHOTO_SIZE
    scale = min(1.0, thumb[0] * term.cell.width / width, thumb[1] * term.cell.height / height)
    return width * height * scale * scale


def describe_tile(image, term, slot: int, tile_columns: int, thumb=DEFAULT_THUMB) -> str:
    """What a tile's picture area shows: "<colour> stripes" (the border's
    colour and stripes as fine as pixels), "<colour> photo" (the colour
    without that detail), "grey", "empty", or the measurements when it is
    none of those. A photo with any other photo's colour in its area (a
    stale picture left behind) is none of those."""
    picture = picture_box(term, slot, tile_columns, thumb)
    score = detail_score(image, stripe_box(term, slot, tile_columns, thumb), term.cell.width)
    counts = {name: count_colour(image, picture, low, high) for name, (low, high) in HUES.items()}
    grey = count_colour(image, picture, *GREY)
    shown = [name for name, count in counts.items() if count >= 400]
    stray = sum(count for name, count in counts.items() if name not in shown)
    if len(shown) == 1 and stray <= 20:
        return f"{shown[0]} {'stripes' if score >= PIXELS_AT_LEAST else 'photo'}"
    if grey >= 0.6 * shown_photo_pixels(term, thumb) and score < 0.5 and not shown and stray <= 20:
        return "grey"
    if region_is_blank(image, picture, background=BLACK):
        return "empty"
    return f"? (detail {score:.2f}, " + ", ".join(f"{k} {v}" for k, v in counts.items()) + f", grey {grey})"


def layout_problem(image, term, looks: list[str], first: int, thumb=DEFAULT_THUMB,
                   detail: bool = True) -> str | None:
    """None when every tile of the terminal's current grid shows the photo
    that belongs there (photo `first` in the top-left tile, then in name
    order, "empty" past the last) and the grid's margins (right of the last
    column, below the last row, above the tray) are blank; else what is off.
    Without `detail` (photos shown scaled down), the border colour is enough."""
    tile_columns, tile_rows = grid_shape(term.columns, term.rows, thumb)
    wrong = []
    for slot in range(tile_columns * tile_rows):
        index = first + slot
        want = looks[index] if index < len(looks) else "empty"
        got = describe_tile(image, term, slot, tile_columns, thumb)
        if not detail:
            want, got = want.replace(" stripes", " photo"), got.replace(" stripes", " photo")
        if got != want:
            wrong.append(f"tile {slot} (photo {index}): {got}, want {want}")
    right = tile_columns * (thumb[0] + 3) - 1
    if right < term.columns and not region_is_blank(
        image, term.cell_box(right, GRID_TOP, term.columns - right, term.rows - GRID_TOP - 2), background=BLACK
    ):
        wrong.append(f"something right of the grid (columns {right}-{term.columns - 1})")
    below = GRID_TOP + tile_rows * (thumb[1] + 3)
    if below < term.rows - 2 and not region_is_blank(
        image, term.cell_box(0, below, term.columns, term.rows - 2 - below), background=BLACK
    ):
        wrong.append(f"something below the grid (rows {below}-{term.rows - 3})")
    return "; ".join(wrong) or None


def wait_layout(term, looks: list[str], first: int, what: str, thumb=DEFAULT_THUMB, detail: bool = True):
    return term.wait_settled(lambda image: layout_problem(image, term, looks, first, thumb, detail), what)


# --------------------------------------------------------------------------
# Running the picker in a terminal.


def start_picker(display, kind: str, binary: Path, arguments: list[str], tmp_path: Path, columns: int = 120,
                 rows: int = 40):
    """picker-tui ARGUMENTS in a new terminal window; stdout and stderr go
    to `out` and `err` in the terminal's folder, a private thumbnail cache."""
    command = " ".join(shlex.quote(str(part)) for part in [binary, *arguments]) + " > out 2> err"
    return display.start_terminal(kind, command, columns, rows, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})


def thumbnail_arguments(mode: str) -> list[str]:
    return [] if mode == "auto" else ["--thumbnails", mode]


def assert_grid_gone(term, what: str) -> None:
    """After the picker's exit: the former grid area holds no picture (the
    main screen, empty before the picker ran, is back)."""
    box = term.cell_box(0, GRID_TOP, term.columns, term.rows - GRID_TOP - 2)
    term.wait_settled(
        lambda image: None if region_is_blank(image, box, background=BLACK) else "pixels left in the grid area",
        what,
    )


def stderr_of(term) -> str:
    path = term.workdir / "err"
    return path.read_text(errors="replace") if path.exists() else ""


# --------------------------------------------------------------------------
# Pixels where the terminal can draw them; symbols when told to.


@pytest.mark.parametrize("kind,mode,protocol", PIXEL_WAYS, ids=WAY_IDS)
def test_stripes_reach_the_screen_as_pixels(xdisplay, picker_bin, tmp_path, kind, mode, protocol):
    """Six striped photos (PNG and JPEG) in a terminal that can draw
    pixels: every tile's picture area keeps the 2-px stripes and the red
    border, nothing else is drawn in the grid, and Esc still cancels."""
    need(kind)
    folder = tmp_path / "photos"
    six_stripe_photos(folder)
    term = start_picker(xdisplay, kind, picker_bin, [*thumbnail_arguments(mode), str(folder)], tmp_path)
    try:
        image = wait_layout(term, ["red stripes"] * 6, 0, f"six striped tiles drawn with {protocol}")
        scores = [detail_score(image, stripe_box(term, slot, 6), term.cell.width) for slot in range(6)]
        print(f"\n{kind} ({protocol}): detail " + ", ".join(f"{score:.2f}" for score in scores))
        assert min(scores) >= PIXELS_AT_LEAST, scores
        term.send_keys("Escape")
        assert term.wait_exit() == 130, stderr_of(term)
    finally:
        term.stop()


@pytest.mark.parametrize("kind", ["kitty", "xterm-sixel", "mlterm"])
def test_symbols_mode_cannot_show_the_stripes(xdisplay, picker_bin, tmp_path, kind):
    """The control: the same photos as block symbols score as symbols, so
    the pixel test above can fail."""
    need(kind)
    folder = tmp_path / "photos"
    six_stripe_photos(folder)
    term = start_picker(xdisplay, kind, picker_bin, ["--thumbnails", "symbols", str(folder)], tmp_path)
    try:
        def check(image):
            problems = []
            for slot in range(6):
                picture = picture_box(term, slot, 6)
                red = count_colour(image, picture, *HUES["red"])
                score = detail_score(image, stripe_box(term, slot, 6), term.cell.width)
                if red < 400:  # not drawn yet (the loading pattern has no red)
                    problems.append(f"tile {slot}: no red border yet")
                elif score > SYMBOLS_AT_MOST:
                    problems.append(f"tile {slot}: detail {score:.2f} > {SYMBOLS_AT_MOST}")
            return "; ".join(problems) or None

        image = term.wait_settled(check, "six tiles of block symbols")
        scores = [detail_score(image, stripe_box(term, slot, 6), term.cell.width) for slot in range(6)]
        print(f"\n{kind} (symbols): detail " + ", ".join(f"{score:.2f}" for score in scores))
        term.send_keys("Escape")
        assert term.wait_exit() == 130, stderr_of(term)
    finally:
        term.stop()


# --------------------------------------------------------------------------
# Nothing stale: paging, the help overlay, resizing, tile sizes, suspending,
# exit; and in kitty, every image freed.


@pytest.fixture(scope="module")
def help_overlay_box(tmux_server, picker_bin, tmp_path_factory):
    """(left, top, width, height) in cells of the help overlay at 120x40,
    read from the picker's text in tmux (it depends on the key map)."""
    from conftest import PickerRunner
    from screen import cells

    base = tmp_path_factory.mktemp("help-box")
    folder = base / "photos"
    six_stripe_photos(folder)
    runner = PickerRunner(tmux_server, picker_bin, base / "runs", "help-box")
    try:
        p = runner.start(["--thumbnails", "off", str(folder)], width=120, height=40)
        p.send("?")
        screen = p.wait(lambda s: any("╰" in line for line in s.lines), "the help overlay")
        top = next(i for i, line in enumerate(screen.lines) if "╭" in line)
        bottom = next(i for i, line in enumerate(screen.lines) if "╰" in line)
        row = cells(screen.lines[top])
        left, right = row.index("╭"), row.index("╮")
        p.send("q")  # closes the overlay
        p.send("q")  # cancels
        p.finish(130)
    finally:
        runner.close()
    return left, top, right - left + 1, bottom - top + 1


@pytest.mark.parametrize("kind,mode,protocol", PIXEL_WAYS, ids=WAY_IDS)
def test_nothing_stale_across_pages_help_resize_and_exit(xdisplay, picker_bin, tmp_path, help_overlay_box, kind,
                                                         mode, protocol):
    """Every step shows exactly the photos that belong in each tile, with
    nothing left of the step before: PgDn, PgDn, PgUp, PgUp (grey photos
    where stripes were, and back), the help overlay over the grid and
    closed again, the window grown to 160x52 and shrunk to 100x30, and
    after Esc an empty screen."""
    need(kind)
    folder = tmp_path / "photos"
    looks = two_screens_of_photos(folder)
    term = start_picker(xdisplay, kind, picker_bin, [*thumbnail_arguments(mode), str(folder)], tmp_path)
    steps = []

    def step(what: str, first: int) -> None:
        started = time.monotonic()
        wait_layout(term, looks, first, what)
        steps.append(f"{what} {time.monotonic() - started:.2f}s")

    try:
        # 120x40: 6x3 tiles. PgDn moves the focus 18 photos on and scrolls
        # just far enough to show it; PgUp likewise back.
        step("the first screen (red, green, blue stripes)", 0)
        term.send_keys("Next")
        step("after PgDn: green and blue stripes, a row of grey", 6)
        term.send_keys("Next")
        step("after PgDn again: only grey", 18)
        term.send_keys("Prior")
        step("after PgUp: blue stripes, then grey", 12)
        term.send_keys("Prior")
        step("after PgUp again: the first screen", 0)

        # The help overlay: no photo shows through it (kitty draws images
        # above text, so they must be removed), and they come back after.
        left, top, width, height = help_overlay_box
        inside = term.cell_box(left + 1, top + 1, width - 2, height - 2)
        title = term.cell_box(left, top, width, 1)

        def overlay_problem(image):
            photo = {name: count_colour(image, inside, low, high) for name, (low, high) in HUES.items()}
            cyan = count_colour(image, title, (0, 100, 100), (110, 255, 255))
            if cyan < 50:
                return f"no overlay title (cyan pixels {cyan})"
            if any(photo.values()):
                return "photo pixels inside the overlay: " + ", ".join(f"{k} {v}" for k, v in photo.items())
            return None

        term.send_keys("question")
        started = time.monotonic()
        term.wait_settled(overlay_problem, "the help overlay with no photo through it")
        steps.append(f"help {time.monotonic() - started:.2f}s")
        term.send_keys("question")  # any key closes it
        step("the first screen again after the help", 0)

        # Bigger: 8x4 tiles, photos move to new places (grey where stripes were).
        term.resize(160, 52)
        step("160x52: 8x4 tiles", 0)
        # Smaller: 5x2 tiles; where the old third row and sixth column
        # were, nothing.
        term.resize(100, 30)
        step("100x30: 5x2 tiles", 0)

        term.send_keys("Escape")
        assert term.wait_exit() == 130, stderr_of(term)
        started = time.monotonic()
        assert_grid_gone(term, "a blank screen after Esc")
        steps.append(f"exit {time.monotonic() - started:.2f}s")
    finally:
        print(f"\n{kind} ({protocol}): " + ", ".join(steps))
        term.stop()


@pytest.mark.parametrize("kind,mode,protocol", PIXEL_WAYS, ids=WAY_IDS)
def test_nothing_stale_when_tiles_change_size(xdisplay, picker_bin, tmp_path, kind, mode, protocol):
    """- and + re-render every thumbnail for the new size and move every
    tile: no picture of the old size may stay behind."""
    need(kind)
    folder = tmp_path / "photos"
    looks = two_screens_of_photos(folder)
    term = start_picker(xdisplay, kind, picker_bin, [*thumbnail_arguments(mode), str(folder)], tmp_path)
    try:
        wait_layout(term, looks, 0, "the first screen at the default size")
        term.send_keys("minus")
        # 12x6-cell pictures: the photos are scaled down, so the border
        # colour tells them apart (8x4 tiles at 120x40).
        wait_layout(term, looks, 0, "smaller tiles", SMALLER_THUMB, detail=False)
        term.send_keys("plus")
        wait_layout(term, looks, 0, "the default size again")
        term.send_keys("plus")
        # 24x12-cell pictures: the photos unscaled, centred (4x2 tiles).
        wait_layout(term, looks, 0, "bigger tiles", BIGGER_THUMB)
        term.send_keys("Escape")
        assert term.wait_exit() == 130, stderr_of(term)
        assert_grid_gone(term, "a blank screen after Esc")
    finally:
        term.stop()


@pytest.mark.parametrize("kind,mode,protocol", PIXEL_WAYS, ids=WAY_IDS)
def test_suspend_and_resume_redraws_the_pictures(xdisplay, picker_bin, tmp_path, kind, mode, protocol):
    """Ctrl-Z leaves a screen without pictures; fg brings them all back
    (kitty 0.26.5 forgets image data when the alternate screen is left)."""
    need(kind)
    if shutil.which("bash") is None:
        pytest.skip("needs bash (job control)")
    folder = tmp_path / "photos"
    looks = two_screens_of_photos(folder)
    q = shlex.quote
    arguments = " ".join(q(str(part)) for part in [*thumbnail_arguments(mode), folder])
    # Job control in a script: the stopped picker gives the terminal back
    # to bash, which marks it, waits for a Return, and resumes it. bash
    # prints its "Stopped" notice with the command as written, so that is
    # kept short: the notice stays on the first line, above the grid area.
    script = tmp_path / "suspend.sh"
    script.write_text("\n".join([
        f"p={q(str(picker_bin))}",
        f"set -- {arguments}",
        "set -m",
        '"$p" "$@" > out 2> err',
        ": > stopped",
        "read _",
        "fg > /dev/null",
    ]) + "\n")
    term = xdisplay.start_terminal(kind, f"bash --norc --noprofile {q(str(script))}", 120, 40,
                                   env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        wait_layout(term, looks, 0, "the first screen")
        term.send_keys("ctrl+z")
        deadline = time.monotonic() + 10
        while not (term.workdir / "stopped").exists():
            assert time.monotonic() < deadline, "Ctrl-Z did not stop the picker"
            time.sleep(0.05)
        box = term.cell_box(0, GRID_TOP, term.columns, term.rows - GRID_TOP - 2)
        term.wait_settled(
            lambda image: None if region_is_blank(image, box, background=BLACK) else "pixels in the grid area",
            "no pictures while suspended",
        )
        term.send_keys("Return")
        wait_layout(term, looks, 0, "every picture back after fg")
        term.send_keys("Escape")
        assert term.wait_exit() == 130, stderr_of(term)
        assert_grid_gone(term, "a blank screen after Esc")
    finally:
        term.stop()


KITTY_COMMAND = re.compile(rb"\x1b_G([^;\x1b]*)(?:;[^\x1b]*)?\x1b\\")


def kitty_commands(data: bytes) -> list[dict[str, str]]:
    """The kitty graphics commands in a byte stream, as key=value dicts."""
    return [
        dict(item.split("=", 1) for item in control.decode().split(",") if "=" in item)
        for control in KITTY_COMMAND.findall(data)
    ]


@pytest.mark.parametrize("ending", ["Escape", "SIGTERM", "SIGSEGV"])
def test_kitty_frees_exactly_its_own_images(xdisplay, picker_bin, tmp_path, ending):
    """What the picker writes to kitty, recorded by script(1) between the
    two: each image sent once per id, placed as placement 1 without moving
    the cursor, and on exit (Esc, SIGTERM, or a crash) every id sent is
    deleted, by id, and nothing else (never "all images", which would take
    other programs' too)."""
    need("kitty")
    if shutil.which("script") is None:
        pytest.skip("needs script (util-linux)")
    folder = tmp_path / "photos"
    looks = two_screens_of_photos(folder)
    q = shlex.quote
    pid_file = tmp_path / "pid"
    # The picker's pid for SIGTERM: a shell that writes its own and execs it.
    record_pid = 'echo $$ > "$0"; exec "$@"'
    picker = " ".join(q(part) for part in ["sh", "-c", record_pid, str(pid_file), str(picker_bin), str(folder)])
    command = f"script -q -f -e -c {q(picker + ' > out 2> err')} typescript"
    term = xdisplay.start_terminal("kitty", command, 120, 40, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        wait_layout(term, looks, 0, "the first screen")
        term.send_keys("Next", "Next")
        wait_layout(term, looks, 18, "only grey after two PgDn")
        if ending == "Escape":
            term.send_keys("Escape")
            assert term.wait_exit() == 130, stderr_of(term)
        else:
            number = getattr(signal, ending)
            os.kill(int(pid_file.read_text()), number)
            assert term.wait_exit() == 128 + number, stderr_of(term)
        assert_grid_gone(term, "a blank screen after the picker")
        commands = kitty_commands((term.workdir / "typescript").read_bytes())
    finally:
        term.stop()
    sent = [c["i"] for c in commands if c.get("a") == "t"]
    assert len(sent) == len(set(sent)) == 36, f"transmissions by id: {sent}"
    placements = [c for c in commands if c.get("a") == "p"]
    assert placements, "no placements"
    for placement in placements:
        assert placement.get("p") == "1" and placement.get("C") == "1" and placement["i"] in sent, placement
    deletes = [c for c in commands if c.get("a") == "d"]
    assert all(c.get("d") in ("i", "I") and c.get("i") for c in deletes), f"deletes not by id: {deletes}"
    freed = {c["i"] for c in deletes if c.get("d") == "I"}
    assert freed == set(sent), f"ids sent but not freed: {set(sent) - freed}; freed but never sent: {freed - set(sent)}"


# --------------------------------------------------------------------------
# Picking still prints the paths and exits 0 in a pixel terminal.


@pytest.mark.parametrize("kind,mode,protocol", PIXEL_WAYS, ids=WAY_IDS)
def test_picking_prints_paths_in_a_pixel_terminal(xdisplay, picker_bin, tmp_path, kind, mode, protocol):
    need(kind)
    folder = tmp_path / "photos"
    photos = six_stripe_photos(folder)
    term = start_picker(xdisplay, kind, picker_bin, [*thumbnail_arguments(mode), str(folder)], tmp_path)
    try:
        wait_layout(term, ["red stripes"] * 6, 0, f"six striped tiles drawn with {protocol}")
        # Select p1, move two right, select p3, confirm.
        term.send_keys("space", "Right", "Right", "space", "Return")
        assert term.wait_exit() == 0, stderr_of(term)
        assert (term.workdir / "out").read_bytes() == f"{photos[0]}\n{photos[2]}\n".encode()
        assert stderr_of(term) == ""
        assert_grid_gone(term, "a blank screen after Enter")
    finally:
        term.stop()


# --------------------------------------------------------------------------
# doctor in each real terminal.

DOCTOR_CASES = [
    # (terminal, extra arguments, "thumbnails:" line, lines that must be there)
    ("kitty", [], "kitty", ["kitty graphics query answered OK", "terminal: kitty(", "chosen: kitty"]),
    ("xterm-sixel", [], "sixel", ["terminal: XTerm(", "chosen: sixel"]),
    ("mlterm", [], "sixel", ["chosen: sixel"]),
    ("mlterm", ["--thumbnails", "iterm2"], "iterm2", ["--thumbnails iterm2 (forced)"]),
    ("xterm-sixel", ["--thumbnails", "symbols"], "symbols", ["--thumbnails symbols"]),
]


@pytest.mark.parametrize(
    "kind,arguments,protocol,expected", DOCTOR_CASES,
    ids=["kitty", "xterm-sixel", "mlterm", "mlterm-iterm2", "xterm-symbols"],
)
def test_doctor_reports_what_the_terminal_can_draw(xdisplay, picker_bin, tmp_path, kind, arguments, protocol,
                                                    expected):
    need(kind)
    term = start_picker(xdisplay, kind, picker_bin, ["doctor", *arguments], tmp_path, 80, 24)
    try:
        assert term.wait_exit() == 0, stderr_of(term)
        report = (term.workdir / "out").read_text()
    finally:
        term.stop()
    lines = report.splitlines()
    assert lines[0].startswith("picker-tui "), report
    assert f"thumbnails: {protocol}" in lines, report
    for line in expected:
        assert line in report, f"{line!r} missing from:\n{report}"
    # The cell size it found is the one measured on the screen.
    assert f"cell {term.cell.width}x{term.cell.height} px" in report, report
    if not arguments:
        # The sentinel DA1 was answered (no wait for the deadline).
        da1 = re.search(r"DA1 attributes: ([0-9;]+)", report)
        assert da1, report
        if protocol == "sixel":
            assert "4" in da1.group(1).split(";"), report
    assert "kitty images as Unicode placeholders" not in report, report


# --------------------------------------------------------------------------
# tmux: passthrough off, and on with the test as the outer terminal.


def test_tmux_without_passthrough_draws_symbols_and_says_how(picker, tmp_path):
    """The harness tmux server has allow-passthrough off (tmux's default):
    no images, no placeholders, and the footer says what to set."""
    folder = tmp_path / "photos"
    six_stripe_photos(folder)
    p = picker.start([str(folder)])
    screen = p.wait(
        lambda s: s.status.strip() == HINTS + " · " + TMUX_NOTICE and "░" not in s.text
        and all(any("\u2580" <= ch <= "\u259f" for ch in tile.text) for tile in s.tiles()),  # block elements
        "symbol thumbnails and the passthrough notice in the footer",
    )
    assert len(screen.tiles()) == 6, screen
    styled = p.tmux("capture-pane", "-e", "-p", "-t", p.target)
    assert KITTY_PLACEHOLDER not in styled, "kitty placeholders with allow-passthrough off"
    # The notice follows the key hints until the first key.
    p.press("Right", "p2.jpg")
    p.wait(lambda s: s.status.strip() == HINTS, "the key hints instead of the notice")
    p.leave("Escape")
    assert p.finish(130) == b""


# What the picker asks (tmux unwraps the passthrough, so the outer terminal
# sees these plainly), and kitty 0.26.5's answers: the graphics query OK,
# its version, an 8x16 cell (CSI 16 t), DA1.
KITTY_QUERY = b"\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\"
DA1_QUERY = b"\x1b[c"
KITTY_ANSWERS = b"\x1b_Gi=31;OK\x1b\\" + KITTY_XTVERSION + b"\x1b[6;16;8t" + b"\x1b[?62;c"


def queries_seen(data: bytes) -> bool:
    """The picker's whole batch has reached the outer terminal: the kitty
    query, then the DA1 sentinel after it."""
    start = data.find(KITTY_QUERY)
    return start >= 0 and data.find(DA1_QUERY, start) >= 0


def outer_stream(command: str, tmp_path: Path, pane_term: str = "tmux-256color") -> TmuxOuterStream:
    """A pane of 120x40 cells of 8x16 px, TERM=pane_term inside it
    (tmux-256color, as tmux recommends), an outer terminal that says it is
    xterm-kitty."""
    return TmuxOuterStream(
        command, columns=120, rows=40, term="xterm-kitty", cell_pixels=(8, 16),
        env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "LANG": "C.UTF-8"},
        tmux_options=[("-g", "default-terminal", pane_term)],
    )


def placeholder_problem(capture: str, tile_count: int) -> tuple[str | None, list[int]]:
    """Checks the first `tile_count` tiles of a 120-column pane: picture rows
    2-7 of each are Unicode placeholder cells (U+10EEEE, the row's mark, the
    column's mark) in one palette colour per tile, the image id; rows 1 and
    8 have none; no two tiles share an id. Returns (what is wrong or None,
    the ids by tile, -1 where there is none)."""
    lines = styled_lines(capture)
    ids: list[int] = []
    problems = []
    for slot in range(tile_count):
        x, y = tile_origin(slot, 6)
        tile_id = None
        bad = 0
        for r in range(THUMB_ROWS):
            row = lines[y + 1 + r] if y + 1 + r < len(lines) else []
            for c in range(THUMB_COLUMNS):
                cell = row[x + 1 + c] if x + 1 + c < len(row) else None
                text = cell.text if cell else ""
                if 1 <= r <= 6:
                    want = KITTY_PLACEHOLDER + KITTY_DIACRITICS[r - 1] + KITTY_DIACRITICS[c]
                    if tile_id is None and cell is not None:
                        tile_id = cell.palette
                    if text != want or cell.palette is None or cell.palette != tile_id:
                        bad += 1
                elif KITTY_PLACEHOLDER in text:
                    bad += 1
        if bad:
            problems.append(f"tile {slot}: {bad} of 96 placeholder cells wrong (first colour {tile_id})")
        ids.append(tile_id if tile_id is not None else -1)
    if not problems and len(set(ids)) != len(ids):
        problems.append(f"tiles share image ids: {ids}")
    if not problems and not all(1 <= i <= 255 for i in ids):
        problems.append(f"ids outside 1-255: {ids}")
    return ("; ".join(problems) or None), ids


def wait_placeholders(stream: TmuxOuterStream, tile_count: int, what: str, timeout: float = 10) -> list[int]:
    deadline = time.monotonic() + timeout
    while True:
        capture = stream.capture()
        problem, ids = placeholder_problem(capture, tile_count)
        if problem is None:
            return ids
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: {problem}\ncapture-pane -e -p:\n{capture}")
        time.sleep(0.05)


def transmitted_as_photo(command: dict[str, str]) -> bool:
    """A transmission of a whole 128x96 photo: raw RGB or RGBA pixels
    (f=24/32, maybe zlib-compressed) of that size, or a PNG (f=100)."""
    if command.get("f") == "100":
        return True
    return command.get("f") in ("24", "32") and command.get("s") == "128" and command.get("v") == "96"


def sent_and_placed(data: bytes, ids: list[int], since: int = 0) -> bool:
    """Each id was transmitted as a photo after offset `since`, then given
    a virtual placement (U=1) of 16x6 cells."""
    transmitted: set[str] = set()
    placed: set[str] = set()
    for match in KITTY_COMMAND.finditer(data, since):
        command = dict(item.split("=", 1) for item in match.group(1).decode().split(",") if "=" in item)
        if command.get("a") == "t" and transmitted_as_photo(command):
            transmitted.add(command.get("i", ""))
        elif (command.get("a") == "p" and command.get("U") == "1" and command.get("i") in transmitted
              and command.get("c") == "16" and command.get("r") == "6"):
            placed.add(command["i"])
    return all(str(image_id) in placed for image_id in ids)


def test_tmux_with_passthrough_draws_kitty_placeholders(picker_bin, tmp_path):
    """allow-passthrough on, an outer kitty (played by the test): the
    picker's queries come out through tmux, the answers go back in, and the
    tiles become placeholder cells for images sent through passthrough;
    paging moves the ids along with the photos, sends only the new ones,
    and exit frees every id used."""
    need(tools=["tmux", "timeout"])
    folder = tmp_path / "photos"
    two_screens_of_photos(folder)
    q = shlex.quote
    command = f"{q(str(picker_bin))} {q(str(folder))} > {q(str(tmp_path / 'out'))} 2> {q(str(tmp_path / 'err'))}"
    with outer_stream(command, tmp_path) as stream:
        stream.answer_start_queries()
        stream.wait_until(queries_seen, "the picker's queries (kitty graphics query ... DA1)")
        stream.send(KITTY_ANSWERS)

        # 18 tiles, so ids past 15 (sent as 38;5;N, not as 30-37/90-97) show too.
        first = wait_placeholders(stream, 18, "placeholders in the first screen's 18 tiles")
        data = stream.wait_until(lambda d: sent_and_placed(d, first), f"transmissions and placements of {first}")
        # Chunks of at most 4096 base64 bytes; tmux unwrapped every passthrough.
        for control, payload in re.findall(rb"\x1b_G([^;\x1b]*);([^\x1b]*)\x1b\\", data):
            if b"a=t" in control or control.startswith(b"m="):
                assert len(payload) <= 4096, (control, len(payload))
        assert b"\x1bPtmux;" not in data

        # PgDn: photos 6-23 now; 6-17 keep their ids (tmux moved the cells
        # like text), 18-23 get new ones, sent and placed after the key.
        mark = len(stream.data)
        stream.send(b"\x1b[6~")
        deadline = time.monotonic() + 10
        while True:
            second = wait_placeholders(stream, 18, "placeholders after PgDn")
            if second[:12] == first[6:]:
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"after PgDn the ids are {second}, want {first[6:]} then new ones")
            time.sleep(0.05)
        new = second[12:]
        assert not set(new) & set(first), f"new photos reuse ids still on screen: {first} then {second}"
        stream.wait_until(lambda d: sent_and_placed(d, new, mark), f"transmissions and placements of {new}")

        stream.send(b"q")
        assert stream.pane_exit_status() == 130, (tmp_path / "err").read_text()
        # Our ids, and only ours, are freed on exit.
        used = set(first) | set(second)
        stream.wait_until(
            lambda d: all(b"\x1b_Ga=d,d=I,i=%d," % image_id in d for image_id in used),
            f"deletes of the ids {sorted(used)}",
        )
        assert b"d=A" not in stream.data and b"d=a" not in stream.data
    assert (tmp_path / "out").read_bytes() == b""


def test_tmux_pane_with_8_colours_keeps_images_apart(picker_bin, tmp_path):
    """TERM=screen inside tmux (its default-terminal when tmux was built
    without the tmux-256color and screen-256color terminfo, and an old
    favourite of tmux.conf files) has 8 colours, but an image id is a
    palette colour. Either every tile's placeholders carry an id of their
    own, or the picker does without placeholders; never two tiles with one
    image."""
    need(tools=["tmux", "timeout"])
    folder = tmp_path / "photos"
    two_screens_of_photos(folder)
    q = shlex.quote
    command = f"{q(str(picker_bin))} {q(str(folder))} > /dev/null 2> {q(str(tmp_path / 'err'))}"
    with outer_stream(command, tmp_path, pane_term="screen") as stream:
        stream.answer_start_queries()
        stream.wait_until(queries_seen, "the picker's queries")
        stream.send(KITTY_ANSWERS)
        # Until the screen is drawn: 18 tiles' placeholders, or captions
        # with no placeholder and no loading pattern.
        deadline = time.monotonic() + 10
        while True:
            capture = stream.capture()
            count = capture.count(KITTY_PLACEHOLDER)
            plain = stream.capture(escapes=False)
            if count >= 18 * 96 or (count == 0 and "a18" in plain and "░" not in plain):
                break
            assert time.monotonic() < deadline, f"the screen never settled:\n{capture}"
            time.sleep(0.05)
        if count:
            problem, ids = placeholder_problem(capture, 18)
            assert problem is None, f"{problem}\ncapture-pane -e -p:\n{capture}"
        stream.send(b"q")
        assert stream.pane_exit_status() == 130


def run_doctor_in_tmux(picker_bin, tmp_path, answer_tmux: bool) -> tuple[str, float]:
    q = shlex.quote
    report = tmp_path / "doctor"
    command = f"{q(str(picker_bin))} doctor > {q(str(report))} 2>&1"
    with outer_stream(command, tmp_path) as stream:
        if answer_tmux:
            stream.answer_start_queries()
        stream.wait_until(queries_seen, "the picker's queries")
        started = time.monotonic()
        stream.send(KITTY_ANSWERS)
        assert stream.pane_exit_status() == 0, report.read_text()
        return report.read_text(), time.monotonic() - started


def test_tmux_doctor_gets_the_outer_terminals_answers(picker_bin, tmp_path):
    """Every answer reaches the picker through tmux, DA1 included, so
    detection ends at once instead of at its deadline."""
    need(tools=["tmux", "timeout"])
    report, seconds = run_doctor_in_tmux(picker_bin, tmp_path, answer_tmux=True)
    for line in ("thumbnails: kitty", "kitty images as Unicode placeholders (tmux)", "DA1 attributes: 62",
                 "terminal: kitty(0.26.5)", "kitty graphics query answered OK", "cell 8x16 px (CSI 16 t)"):
        assert line in report, f"{line!r} missing from:\n{report}"
    print(f"\ndoctor in tmux finished {seconds:.3f}s after the answers")


def test_tmux_lost_da1_answer_costs_only_the_deadline(picker_bin, tmp_path):
    """tmux 3.3 drops DA1 answers from the outer terminal until that
    terminal has answered tmux's own secondary DA query (or for 5 s after
    a client attaches). The picker then ends detection at its deadline,
    and still uses kitty from the graphics query's OK."""
    need(tools=["tmux", "timeout"])
    report, seconds = run_doctor_in_tmux(picker_bin, tmp_path, answer_tmux=False)
    assert "thumbnails: kitty" in report, report
    assert "no DA1 answer before the deadline" in report, report
    assert seconds < 3, f"detection took {seconds:.1f}s"
