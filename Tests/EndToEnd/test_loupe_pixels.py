"""The loupe in real terminals (kitty, xterm as a VT340 with sixel), on
screenshots: 2-px stripes that fit blurs to grey come back as stripes at
100%, and a pan of a third of the view moves the red mark at the photo's
centre left by about that much."""

from __future__ import annotations

import shlex

import pytest
from PIL import Image, ImageChops, ImageDraw

from graphics_terminals import (
    PIXELS_AT_LEAST,
    SYMBOLS_AT_MOST,
    count_colour,
    detail_score,
    need,
    xdisplay,  # noqa: F401 - the fixture
)

RED = ((150, 0, 0), (255, 90, 90))


def striped_photo_with_a_mark(path):
    """4000x3000 of 2-px black and white stripes, a 120-px red square at the centre."""
    image = Image.new("RGB", (4000, 3000), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for x in range(0, 4000, 4):
        draw.rectangle([x, 0, x + 1, 2999], fill=(0, 0, 0))
    draw.rectangle([1940, 1440, 2059, 1559], fill=(255, 0, 0))
    image.save(path)  # PNG: the stripes keep their edges
    return path


def red_centre_x(image, box) -> float | None:
    region = image.crop(box).convert("RGB")
    r, g, b = region.split()
    mask = ImageChops.multiply(
        ImageChops.multiply(r.point(lambda v: 255 if v >= 150 else 0), g.point(lambda v: 255 if v <= 90 else 0)),
        b.point(lambda v: 255 if v <= 90 else 0))
    bbox = mask.getbbox()
    return None if bbox is None else box[0] + (bbox[0] + bbox[2]) / 2


@pytest.mark.parametrize("kind", ["kitty", "xterm-sixel"])
def test_the_loupe_shows_pixels_fit_cannot_and_pans(xdisplay, picker_bin, tmp_path, kind):  # noqa: F811
    need(kind)
    folder = tmp_path / "photos"
    folder.mkdir()
    striped_photo_with_a_mark(folder / "stripes.png")
    command = " ".join(shlex.quote(str(part)) for part in [picker_bin, folder]) + " > out 2> err"
    term = xdisplay.start_terminal(kind, command, 120, 40, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        width = term.cell.width
        # Left of the mark, clear of it at fit and at 100%.
        stripes_box = term.cell_box(8, 8, 24, 10)
        picture_box = term.cell_box(0, 0, 120 - 17, 39)

        def wait_grid(image):
            return None if red_centre_x(image, term.cell_box(0, 2, 20, 10)) else "the tile not drawn yet"

        term.wait_settled(wait_grid, "the photo's tile")
        term.send_keys("v")

        def at_fit(image):
            if red_centre_x(image, picture_box) is None:
                return "no preview yet"
            score = detail_score(image, stripes_box, width)
            return None if score <= SYMBOLS_AT_MOST else f"detail {score:.2f}: the stripes are not blurred at fit"

        term.wait_settled(at_fit, "the photo at fit, its stripes grey")
        term.send_keys("z")

        def at_100(image):
            score = detail_score(image, stripes_box, width)
            if score < PIXELS_AT_LEAST:
                return f"detail {score:.2f} < {PIXELS_AT_LEAST}: no stripes at 100% yet"
            return None if red_centre_x(image, picture_box) else "no red mark at 100%"

        image = term.wait_settled(at_100, "2-px stripes at 100%")
        before = red_centre_x(image, picture_box)
        term.send_keys("Right")
        third = (picture_box[2] - picture_box[0]) / 3

        def panned(image):
            x = red_centre_x(image, picture_box)
            if x is None:
                return "the mark left the screen"
            return None if abs((before - x) - third) < third / 4 else f"the mark moved {before - x:.0f} px, not {third:.0f}"

        term.wait_settled(panned, "the mark a third of the view to the left")
        term.send_keys("Escape", "Escape")
        assert term.wait_exit() == 130
    finally:
        term.stop()


@pytest.mark.parametrize("kind", ["kitty", "xterm-sixel"])
def test_compare_shows_the_picked_photos_side_by_side(xdisplay, picker_bin, tmp_path, kind):  # noqa: F811
    need(kind)
    folder = tmp_path / "photos"
    folder.mkdir()
    Image.new("RGB", (400, 300), (230, 20, 20)).save(folder / "a.png")
    Image.new("RGB", (400, 300), (20, 20, 230)).save(folder / "b.png")
    command = " ".join(shlex.quote(str(part)) for part in [picker_bin, folder]) + " > out 2> err"
    term = xdisplay.start_terminal(kind, command, 120, 40, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        def tiles(image):
            return None if red_centre_x(image, term.cell_box(0, 2, 40, 10)) else "the tiles not drawn yet"

        term.wait_settled(tiles, "the grid")
        term.send_keys("space", "Right", "space", "c")
        left, right = term.cell_box(0, 0, 59, 37), term.cell_box(61, 0, 59, 37)

        def side_by_side(image):
            reds = count_colour(image, left, (180, 0, 0), (255, 70, 70))
            blues = count_colour(image, right, (0, 0, 180), (70, 70, 255))
            stray = count_colour(image, left, (0, 0, 180), (70, 70, 255)) + count_colour(
                image, right, (180, 0, 0), (255, 70, 70))
            big = (left[2] - left[0]) * (left[3] - left[1]) // 4
            if reds < big or blues < big or stray:
                return f"red {reds} left, blue {blues} right, {stray} astray (want over {big}, none)"
            return None

        term.wait_settled(side_by_side, "a red left pane and a blue right one")
        term.send_keys("Escape", "Escape", "Escape")  # out of compare; two picks: asks, then leaves
        assert term.wait_exit() == 130
    finally:
        term.stop()
