"""Stacks in real terminals (kitty, xterm as a VT340 with sixel), on
screenshots: three frames of one burst (a textured scene, each with a
marker of its own colour, two of them blurred) show as one tile, the
sharp frame's; Enter opens the stack and shows all three; Space on the
stack picks the sharp frame, which is what is printed."""

from __future__ import annotations

import shlex
from datetime import datetime, timedelta

import pytest
from PIL import Image, ImageDraw, ImageFilter

from graphics_terminals import (
    count_colour,
    need,
    xdisplay,  # noqa: F401 - the fixture
)

# Markers of about the same lightness, so the frames hash alike.
MARKERS = {
    "red": ((230, 30, 30), (170, 0, 0), (255, 80, 80)),
    "green": ((30, 120, 30), (0, 85, 0), (80, 165, 80)),
    "blue": ((60, 60, 255), (20, 20, 190), (115, 115, 255)),
}
SHARP = "blue"


def burst(folder):
    """Three frames 250 ms apart (EXIF dates): red and green blurred, blue sharp."""
    base = Image.effect_noise((800, 600), 70).convert("RGB")
    draw = ImageDraw.Draw(base)
    draw.rectangle([60, 60, 360, 300], fill=(200, 200, 200))
    draw.ellipse([420, 250, 760, 560], fill=(40, 40, 40))
    when = datetime(2024, 5, 1, 9, 0, 0)
    names = {}
    for index, (name, (colour, _, _)) in enumerate(MARKERS.items()):
        frame = base.copy()
        ImageDraw.Draw(frame).rectangle([320, 240, 480, 360], fill=colour)
        if name != SHARP:
            frame = frame.filter(ImageFilter.GaussianBlur(2.5))
        stamp = when + timedelta(milliseconds=250 * index)
        exif = Image.Exif()
        exif[0x8769] = {0x9003: stamp.strftime("%Y:%m:%d %H:%M:%S"), 0x9291: f"{250 * index:03d}"}
        path = folder / f"frame_{index}_{name}.jpg"
        frame.save(path, "JPEG", quality=95, exif=exif)
        names[name] = path
    return names


def colours_in(image, box) -> set[str]:
    return {name for name, (_, low, high) in MARKERS.items() if count_colour(image, box, low, high) >= 30}


@pytest.mark.parametrize("kind", ["kitty", "xterm-sixel"])
def test_a_burst_is_one_tile_that_opens_and_picks_its_sharpest(xdisplay, picker_bin, tmp_path, kind):  # noqa: F811
    need(kind)
    folder = tmp_path / "photos"
    folder.mkdir()
    frames = burst(folder)
    out = tmp_path / "out"
    command = " ".join(shlex.quote(str(part)) for part in [picker_bin, "--timeline", folder])
    command += f" > {shlex.quote(str(out))} 2> err"
    term = xdisplay.start_terminal(kind, command, 120, 40, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        grid = term.cell_box(0, 2, 120, 30)

        def one_tile(image):
            seen = colours_in(image, grid)
            return None if seen == {SHARP} else f"markers on screen: {sorted(seen)} (want the sharp frame's only)"

        term.wait_settled(one_tile, "the burst as one tile, its cover the sharp frame")
        term.send_keys("Return")

        def opened(image):
            seen = colours_in(image, grid)
            return None if seen == set(MARKERS) else f"markers on screen: {sorted(seen)} (want all three)"

        term.wait_settled(opened, "the stack opened, every frame a tile")
        term.send_keys("BackSpace")
        term.wait_settled(one_tile, "back to the stack's tile")
        term.send_keys("space", "t", "Return")
        assert term.wait_exit() == 0
        assert out.read_text() == f"{frames[SHARP]}\n"
    finally:
        term.stop()
