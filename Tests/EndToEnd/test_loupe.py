"""The preview's loupe in tmux (block symbols, 24-bit colours): a small red
square that fit shows as a cell or two is a block of red cells at 100%; a
pan moves it and brings a blue square, off screen before, into view; the
status line says the zoom and a mini-map sits at the right."""

from __future__ import annotations

import re

from PIL import Image, ImageDraw

from test_thumbnails import TRUECOLOR

SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def coloured_cells(capture: str, rows: range) -> list[tuple[int, int, tuple[int, int, int]]]:
    """(row, column, colour) of each cell whose foreground or background is
    a 24-bit colour, from `capture-pane -e -p`."""
    cells = []
    for row, line in enumerate(capture.split("\n")):
        if row not in rows:
            continue
        fg = bg = None
        column = 0
        position = 0
        for match in [*SGR.finditer(line), None]:
            end = match.start() if match else len(line)
            for ch in line[position:end]:
                colour = bg if ch == " " else fg or bg
                if colour is not None:
                    cells.append((row, column, colour))
                column += 1
            if match is None:
                break
            position = match.end()
            params = re.split(r"[;:]", match.group(1)) or [""]
            i = 0
            while i < len(params):
                if params[i] in ("", "0"):
                    fg = bg = None
                elif params[i] == "39":
                    fg = None
                elif params[i] == "49":
                    bg = None
                elif params[i] in ("38", "48") and i + 4 < len(params) and params[i + 1] == "2":
                    rgb = tuple(int(v) for v in params[i + 2:i + 5])
                    if params[i] == "38":
                        fg = rgb
                    else:
                        bg = rgb
                    i += 4
                i += 1
    return cells


def columns_of(cells, test) -> list[int]:
    return [column for _, column, colour in cells if test(colour)]


def red(c):
    return c[0] > 180 and c[1] < 90 and c[2] < 90


def blue(c):
    return c[2] > 180 and c[0] < 90 and c[1] < 90


def test_zoom_shows_a_detail_fit_does_not_and_a_pan_moves_it(picker, tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    # 24 MP, as a camera's: at fit (about 1/6) the 40-px square is a few
    # pixels, less than a cell; at 100% it is 5 cells wide.
    image = Image.new("RGB", (6000, 4000), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle([2980, 1980, 3019, 2019], fill=(255, 0, 0))  # at the centre
    draw.rectangle([3580, 1980, 3619, 2019], fill=(0, 0, 255))  # 600 px to its right
    image.save(folder / "detail.jpg", quality=95)
    p = picker.start(["--thumbnails", "symbols", str(folder)], env=TRUECOLOR)
    p.wait_text("detail.jpg")
    p.send("v")
    p.wait_text("1/1 · detail.jpg")

    def capture() -> list:
        return coloured_cells(p.tmux("capture-pane", "-e", "-p", "-t", p.target), range(0, 39))

    fit_red = len(columns_of(p.wait(lambda s: "Loading" not in s.text, "the photo at fit") and capture(), red))
    p.send("z")
    p.wait_text("· 100%")
    screen = p.wait(lambda s: len(columns_of(capture(), red)) >= 8, "a block of red cells at 100%")
    assert fit_red <= 2, f"fit already showed the detail ({fit_red} red cells)"
    assert "└" in screen.lines[38][100:], screen  # the mini-map's frame
    before = columns_of(capture(), red)
    assert not columns_of(capture(), blue), "the blue square is off screen at 100%, centred"
    centre = sum(before) / len(before)
    p.send("Right")  # a third of the view
    p.wait(lambda s: (lambda r: r and sum(r) / len(r) < centre - 20)(columns_of(capture(), red)),
           "the red square moved left")
    p.wait(lambda s: len(columns_of(capture(), blue)) >= 8, "the blue square came into view")
    p.send("0")
    p.wait(lambda s: "100%" not in s.lines[39], "back to fit")
    p.send("Escape")
    p.wait_text("detail.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/detail.jpg\n".encode()
