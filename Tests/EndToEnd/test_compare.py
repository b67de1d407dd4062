"""Compare (c) in tmux: the picked photos side by side with their names,
Tab moves the active pane, x drops a photo (the next takes its place, the
pick is kept), Space unpicks, Enter prints the picks."""

from __future__ import annotations

from PIL import Image

from test_loupe import coloured_cells
from test_thumbnails import TRUECOLOR


def test_picked_photos_side_by_side(picker, tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    # Each a colour with a little texture: cells of one flat colour go out as
    # ncurses' erase-characters in that colour, which tmux shows but its
    # capture-pane does not report.
    for name, colour in (("a.png", (235, 20, 20)), ("b.png", (20, 200, 20)), ("c.png", (20, 20, 235))):
        image = Image.new("RGB", (400, 300))
        image.putdata([tuple(max(0, c - (x * 7 + y * 13) % 20) for c in colour) for y in range(300) for x in range(400)])
        image.save(folder / name)
    p = picker.start(["--thumbnails", "symbols", str(folder)], env=TRUECOLOR)
    p.wait_text("c.png")
    for key in ("Space", "Right", "Space", "Right", "Space"):
        p.send(key)
    p.wait_text("Picked 3")
    p.send("c")
    screen = p.wait_text("Compare 1–3 of 3")
    assert "▶ 1/3 ✓ a.png" in screen.text and "2/3 ✓ b.png" in screen.text and "3/3 ✓ c.png" in screen.text, screen

    def columns(test):
        # The top panes' pictures (their captions are rows 17 and 18).
        cells = coloured_cells(p.tmux("capture-pane", "-e", "-p", "-t", p.target), range(0, 17))
        return [column for _, column, colour in cells if test(colour)]

    def side_by_side(_screen) -> bool:
        reds = columns(lambda c: c[0] > 200 and c[1] < 60 and c[2] < 60)
        greens = columns(lambda c: c[1] > 150 and c[0] < 60 and c[2] < 60)
        return bool(reds and greens and max(reds) < 60 <= min(greens))

    p.wait(side_by_side, "a's red in the left pane, b's green in the right one")
    p.send("Tab")
    p.wait_text("▶ 2/3 ✓ b.png")
    p.send("x")
    screen = p.wait_text("Compare 1–2 of 2")
    assert "▶ 2/2 ✓ c.png" in screen.text, screen  # c took b's place, active
    p.send("Space")
    p.wait(lambda s: "▶ 2/2 c.png" in s.text, "c unpicked")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/a.png\n{folder}/b.png\n".encode()


def test_the_sharpest_of_a_burst_is_marked(picker, tmp_path):
    from PIL import ImageFilter

    folder = tmp_path / "burst"
    folder.mkdir()
    texture = Image.effect_noise((800, 600), 60).convert("RGB")
    texture.filter(ImageFilter.GaussianBlur(2.5)).save(folder / "1-soft.jpg", quality=92)
    texture.save(folder / "2-sharp.jpg", quality=92)
    p = picker.start(["--thumbnails", "symbols", str(folder)])
    p.wait_text("2-sharp.jpg")
    for key in ("Space", "Right", "Space"):
        p.send(key)
    p.wait_text("Picked 2")
    p.send("c")
    screen = p.wait_text("★ sharpest")
    lines = screen.text.split("\n")
    star = next(line for line in lines if "★ sharpest" in line)
    other = next(line for line in lines if "sharpness " in line)
    names = next(line for line in lines if "1/2" in line)
    # Side by side: the star under the sharp photo (the right pane).
    assert star.index("★") > names.index("2/2 ✓ 2-sharp.jpg") - 2, screen
    assert other.index("sharpness") < names.index("2/2"), screen
    p.send("Escape")
    p.leave("Escape")
    p.finish(130)
