"""Camera RAWs in the grid: the camera's preview, read by LibRaw in a helper
process, so a file that crashes LibRaw costs one tile, not the picker."""

import os
import shutil
import subprocess
import time
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


def _helper_servers() -> list[str]:
    found = subprocess.run(["pgrep", "-f", "--", "--raw-helper serve"], capture_output=True, text=True)
    return found.stdout.split()


def test_raws_share_helper_servers_and_a_crash_costs_only_its_own_file(picker, tmp_path):
    # Ten RAWs and a crasher between them: each file gets a child of its
    # own, forked by a server that stays; the grid's two decoding threads
    # need at most two servers, however many files there are.
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(LIBRAW_CRASHER, folder / "f-crasher.dng")
    for index in range(10):
        os.symlink(real_raw("canon-eos-30d"), folder / f"{'a' if index < 5 else 'k'}{index}.cr2")
    p = picker.start([str(folder)], env=TRUECOLOR)
    screen = p.wait(lambda s: "░" not in str(s) and "✗" in str(s), "every tile drawn")
    tiles = {tile.name: tile for tile in screen.tiles()}
    assert "✗" in tiles["f-crasher.dng"].text, screen
    assert all("✗" not in tile.text for name, tile in tiles.items() if name.endswith(".cr2")), screen
    servers = _helper_servers()
    assert 1 <= len(servers) <= 2, servers
    p.leave("Escape")
    p.finish(130)
    # They end with the picker.
    deadline = time.monotonic() + 5
    while _helper_servers() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _helper_servers() == []


def test_the_helper_answers_the_thumbnail_command_too(picker_bin, tmp_path):
    import subprocess

    out = tmp_path / "out.png"
    result = subprocess.run([str(picker_bin), "thumbnail", "-s", "64", str(LIBRAW_CRASHER), str(out)],
                            capture_output=True, timeout=20)
    assert result.returncode == 1 and not out.exists()
    assert result.stderr.decode().splitlines() == [f"picker-tui: {LIBRAW_CRASHER}: damaged camera RAW (its reader crashed)"]


# --------------------------------------------------------------------------
# Real camera files (scripts/install-deps.sh test installs or fetches them):
# a Canon EOS 30D CR2 from Debian's rawtran-doc, and a Sony ILCE-7RM3 ARW
# from the libraw-cffi 0.19.0 sdist on PyPI. Both are stored upright
# (Orientation 1); a copy turned by exiftool, as a photo manager would,
# stands for the rotated case.

import datetime
import os
import subprocess

import pytest
from PIL import Image, ImageChops, ImageStat

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
REAL_RAWS = {
    "canon-eos-30d": (Path("/usr/share/doc/rawtran/IMG_5952.CR2"), datetime.date(2009, 7, 21)),
    "sony-ilce-7rm3": (CACHE / "picker-tui-tests" / "camera-raw" / "_DSC2164.ARW", datetime.date(2018, 7, 11)),
}


def real_raw(name: str) -> Path:
    path = REAL_RAWS[name][0]
    assert path.is_file(), f"{path} is missing: run scripts/install-deps.sh test"
    return path


def thumbnail(picker_bin, source: Path, out: Path, size: int = 256) -> Image.Image:
    result = subprocess.run([str(picker_bin), "thumbnail", "-s", str(size), str(source), str(out)],
                            capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return Image.open(out).convert("RGB")


def camera_preview(source: Path, size: tuple[int, int], tmp_path: Path) -> Image.Image:
    """The camera's own preview as exiftool extracts it: the yardstick."""
    jpeg = tmp_path / f"{source.name}.preview.jpg"
    jpeg.write_bytes(subprocess.run(["exiftool", "-b", "-PreviewImage", str(source)], capture_output=True,
                                    check=True, timeout=30).stdout)
    return Image.open(jpeg).convert("RGB").resize(size, Image.LANCZOS)


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@pytest.mark.parametrize("name", sorted(REAL_RAWS))
def test_a_real_camera_raw_thumbnail_is_the_cameras_picture_upright(picker_bin, tmp_path, name):
    source = real_raw(name)
    upright = thumbnail(picker_bin, source, tmp_path / "upright.png")
    # 3:2 sensors, landscape: 256x171.
    assert upright.size == (256, 171), upright.size
    reference = camera_preview(source, upright.size, tmp_path)
    assert mean_difference(upright, reference) < 10, "not the camera's picture"
    # Turned a quarter clockwise in its EXIF (Orientation 6): portrait, and
    # the same picture turned.
    turned = tmp_path / f"turned{source.suffix}"
    shutil.copy(source, turned)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-n", "-Orientation=6", str(turned)], check=True)
    rotated = thumbnail(picker_bin, turned, tmp_path / "turned.png")
    assert rotated.size == (171, 256), rotated.size
    assert mean_difference(rotated, upright.transpose(Image.ROTATE_270)) < 6, "not turned clockwise"


def test_real_camera_raws_are_dated_by_their_exif_in_the_timeline(picker, tmp_path):
    folder = tmp_path / "raws"
    folder.mkdir()
    for name in REAL_RAWS:
        os.symlink(real_raw(name), folder / real_raw(name).name)
    p = picker.start(["--timeline", str(folder)], env={"LANG": "C.UTF-8"})
    for name, (path, day) in REAL_RAWS.items():
        # A one-tile day's header may drop its count ("Wed 11 Jul 2018").
        p.wait_text(f"{day.strftime('%a')} {day.day} {day.strftime('%b')} {day.year}")
    p.leave("Escape")
    p.finish(130)
