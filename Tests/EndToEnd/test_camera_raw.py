"""Camera RAWs in the grid: the camera's preview, read by LibRaw in a helper
process, so a file that crashes LibRaw costs one tile, not the picker."""

import shutil
from pathlib import Path

from images import gradient, write_png
from test_thumbnails import TRUECOLOR

# Found by fuzzing: Debian's LibRaw 0.20 segfaults in parse_tiff_ifd on it.
LIBRAW_CRASHER = Path(__file__).parents[2] / "Fuzz" / "crashes" / "image-decoder-libraw-0.20-parse_tiff_ifd.dng"


def test_a_raw_that_crashes_libraw_is_one_error_tile(picker, tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(LIBRAW_CRASHER, folder / "crasher.dng")
    write_png(folder / "good.png", 64, 48, gradient)
    p = picker.start([str(folder)], env=TRUECOLOR)
    screen = p.wait(lambda s: "░" not in str(s) and "✗" in str(s), "an error mark")
    tiles = {tile.name: tile for tile in screen.tiles()}
    assert "✗" in tiles["crasher.dng"].text and "✗" not in tiles["good.png"].text, screen
    # The picker is alive: the broken file can still be picked, as any file.
    p.toggle("crasher.dng")
    p.press("Right", "good.png")
    p.send("Enter")
    assert p.finish(0) == str(folder / "crasher.dng").encode() + b"\n"


def test_the_helper_answers_the_thumbnail_command_too(picker_bin, tmp_path):
    import subprocess

    out = tmp_path / "out.png"
    result = subprocess.run([str(picker_bin), "thumbnail", "-s", "64", str(LIBRAW_CRASHER), str(out)],
                            capture_output=True, timeout=20)
    assert result.returncode == 1 and not out.exists()
    assert result.stderr.decode().splitlines() == [f"picker-tui: {LIBRAW_CRASHER}: damaged camera RAW (its reader crashed)"]
