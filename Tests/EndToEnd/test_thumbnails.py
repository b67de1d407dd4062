"""Thumbnails in a real terminal: real images become coloured cells, broken
files get an error mark and leave the picker running, and the freedesktop
thumbnail cache is written, then read on the next run."""

import hashlib
import os
import stat
import urllib.parse

from images import demo_photos, gradient, solid, write_png
from test_colors import colour_codes

TRUECOLOR = {"COLORTERM": "truecolor"}


def wait_for_thumbnails(p, count: int):
    """Until no tile shows the loading placeholder and `count` colours show."""
    return p.wait(
        lambda s: "░" not in str(s) and len(colour_codes(p)) >= count,
        f"thumbnails with at least {count} colours",
    )


def test_photos_become_coloured_thumbnails(picker, tmp_path):
    folder = tmp_path / "photos"
    demo_photos(folder)
    p = picker.start([str(folder)], env=TRUECOLOR)
    screen = wait_for_thumbnails(p, 60)
    tile = next(t for t in screen.tiles() if t.name == "desert.jpg")
    # Block symbols fill the picture area.
    assert sum(ch in "▀▄▌▐█▖▗▘▙▚▛▜▝▞▟▁▂▃▅▆▇▉▊▋▍▎▏▔▕" for ch in tile.text) > 40, screen
    assert any(code.startswith("48;2;") for code in colour_codes(p)), "no 24-bit backgrounds"
    p.leave("Escape")
    assert p.finish(130) == b""


def test_256_colours_use_the_palette(picker, tmp_path):
    folder = tmp_path / "photos"
    demo_photos(folder)
    p = picker.start(["--colors", "256", str(folder)], env={"TERM": "screen-256color"})
    wait_for_thumbnails(p, 30)
    codes = colour_codes(p)
    assert sum(code.startswith(("38;5;", "48;5;")) for code in codes) >= 30, codes
    assert not any(code.startswith(("38;2;", "48;2;")) for code in codes), codes
    p.leave("Escape")
    assert p.finish(130) == b""


def test_broken_files_show_an_error_mark_and_the_picker_keeps_going(picker, tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    write_png(folder / "good.png", 64, 48, gradient)
    (folder / "broken.jpg").write_bytes(b"\xff\xd8\xff" + b"garbage" * 100)
    (folder / "empty.png").write_bytes(b"")
    cut = (folder.parent / "cut").with_suffix(".png")
    write_png(cut, 64, 48, gradient)
    (folder / "truncated.png").write_bytes(cut.read_bytes()[:80])
    os.mkfifo(folder / "pipe.jpg")
    p = picker.start([str(folder)], env=TRUECOLOR)
    screen = p.wait(lambda s: "░" not in str(s) and str(s).count("✗") >= 4, "four error marks")
    tiles = {tile.name: tile for tile in screen.tiles()}
    for name in ("broken.jpg", "empty.png", "truncated.png", "pipe.jpg"):
        assert "✗" in tiles[name].text, screen
    assert "✗" not in tiles["good.png"].text, screen
    assert "regular" in tiles["pipe.jpg"].text or "regular" in str(screen), screen
    # Still answering keys: pick the good one.
    p.press("End", "truncated.png")
    p.press("Home", "broken.jpg")
    p.press("Right", "empty.png")
    p.press("Right", "good.png")
    p.send("Enter")
    assert p.finish(0) == str(folder / "good.png").encode() + b"\n"


def file_uri(path) -> str:
    return "file://" + urllib.parse.quote(str(path), safe="/!$&'()*+,;=:@~-._")


def test_thumbnail_cache_is_written_then_read(picker, tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    blue = write_png(folder / "blue.png", 200, 150, solid((0, 0, 255)))
    # Files changed in the last two seconds are not cached (they may still
    # be being written).
    os.utime(blue, (blue.stat().st_mtime - 60, blue.stat().st_mtime - 60))
    p = picker.start([str(folder)], env=TRUECOLOR)
    wait_for_thumbnails(p, 1)
    assert any(code in ("48;2;0;0;255", "38;2;0;0;255") for code in colour_codes(p)), colour_codes(p)
    p.leave("Escape")
    p.finish(130)

    # The picker's cache is the freedesktop one, under XDG_CACHE_HOME.
    cache = picker.base / "cache" / "thumbnails"
    entry = cache / "normal" / (hashlib.md5(file_uri(blue).encode()).hexdigest() + ".png")
    assert entry.exists(), list(cache.rglob("*"))
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert stat.S_IMODE((cache / "normal").stat().st_mode) == 0o700
    data = entry.read_bytes()
    assert b"Thumb::URI\x00" + file_uri(blue).encode() in data
    assert b"Thumb::MTime\x00" + str(int(blue.stat().st_mtime)).encode() in data

    # Another program's thumbnail for the same file and mtime: red. The next
    # run shows red for a blue photo, so it read the cache.
    entry.unlink()
    write_png(
        entry, 128, 96, solid((255, 0, 0)),
        text={"Thumb::URI": file_uri(blue), "Thumb::MTime": str(int(blue.stat().st_mtime))},
    )
    p = picker.start([str(folder)], env=TRUECOLOR)
    wait_for_thumbnails(p, 1)
    codes = colour_codes(p)
    assert any(code in ("48;2;255;0;0", "38;2;255;0;0") for code in codes), codes
    assert not any(code in ("48;2;0;0;255", "38;2;0;0;255") for code in codes), codes
    p.leave("Escape")
    p.finish(130)


def test_thumbnails_off_shows_captions_only(picker, tmp_path):
    folder = tmp_path / "photos"
    demo_photos(folder)
    p = picker.start(["--thumbnails", "off", str(folder)], env=TRUECOLOR)
    screen = p.wait(lambda s: "desert.jpg" in str(s), "captions")
    assert "░" not in str(screen) and "JPG" in str(screen), screen
    assert not any(code.startswith("48;2;") for code in colour_codes(p)), "thumbnail colours with --thumbnails off"
    assert not (picker.base / "cache" / "thumbnails").exists()
    p.leave("Escape")
    p.finish(130)


def test_library_messages_go_to_the_log_not_the_screen(picker, tmp_path):
    # libjxl prints its reason for refusing this file on stderr; with stderr
    # on the terminal, it would be drawn across the grid.
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "damaged.jxl").write_bytes(b"\0\0\0\x0cJXL \r\n\x87\n" + b"\0\0\0\x10free" + b"A" * 8
                                         + b"\0\0\0\x10jxlc" + b"A" * 8)
    write_png(folder / "good.png", 64, 48, gradient)
    p = picker.start([str(folder)], env=TRUECOLOR, stderr_tty=True)
    screen = p.wait(lambda s: "░" not in str(s) and "✗" in str(s), "the damaged file's error mark")
    assert "ftyp" not in str(screen) and "decode.cc" not in str(screen), screen
    p.leave("Escape")
    p.finish(130)
    log = picker.base / "state" / "picker-tui" / "picker-tui.log"
    assert "the second box must be the ftyp box" in log.read_text(), "libjxl's message belongs in the log"
