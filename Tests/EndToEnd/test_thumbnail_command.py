"""`picker-tui thumbnail -s SIZE INPUT OUTPUT`: the freedesktop thumbnailer
convention, from the grid's own decoders; upright, at most SIZE, and for an
unreadable input a non-zero exit, one line, and no OUTPUT."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PIL import Image

from markers import assert_upright_quadrants, quadrants

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from photo_bytes import png_head  # noqa: E402  (needs the path above)


def thumbnail(picker_bin, *args, timeout=10):
    return subprocess.run([str(picker_bin), "thumbnail", *map(str, args)], capture_output=True, timeout=timeout)


# How a camera stores an upright picture for an EXIF orientation.
STORED = {1: None, 3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_thumbnails_are_upright_and_within_the_size(picker_bin, tmp_path, fmt, orientation):
    upright = quadrants(400, 300)
    stored = upright.transpose(STORED[orientation]) if STORED[orientation] else upright
    exif = Image.Exif()
    exif[0x0112] = orientation
    source = tmp_path / f"photo.{fmt.lower()}"
    stored.save(source, fmt, exif=exif.tobytes(), **({"quality": 95} if fmt != "PNG" else {}))
    out = tmp_path / "thumb.png"
    result = thumbnail(picker_bin, "-s", 64, source, out)
    assert result.returncode == 0, result.stderr
    assert assert_upright_quadrants(out, 64) == (64, 48)


def test_a_file_uri_and_the_default_size(picker_bin, tmp_path):
    source = tmp_path / "with space.jpg"
    quadrants(1200, 900).save(source, "JPEG")
    out = tmp_path / "t.png"
    result = thumbnail(picker_bin, "file://" + str(source).replace(" ", "%20"), out)
    assert result.returncode == 0, result.stderr
    assert assert_upright_quadrants(out, 256) == (256, 192)


def bomb(path):
    # A PNG header claiming 50000 x 50000 pixels, and nothing behind it.
    path.write_bytes(png_head(50000, 50000))


def truncated(path):
    data = (path.parent / "whole.jpg")
    quadrants(800, 600).save(data, "JPEG")
    path.write_bytes(data.read_bytes()[:1000])


HOSTILE = {
    "empty": lambda p: p.write_bytes(b""),
    "truncated": truncated,
    "text named .jpg": lambda p: p.write_text("not an image\n"),
    "header bomb": bomb,
    "fifo": lambda p: os.mkfifo(p),
    "missing": lambda p: None,
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_an_unreadable_input_writes_nothing_and_says_why_in_one_line(picker_bin, tmp_path, case):
    source = tmp_path / "input.jpg"
    HOSTILE[case](source)
    out = tmp_path / "out.png"
    # A FIFO must not block the thumbnailer: nobody writes to this one.
    result = thumbnail(picker_bin, "-s", 128, source, out, timeout=5)
    assert result.returncode != 0
    assert not out.exists() and not any(p.name.startswith("out.png") for p in tmp_path.iterdir())
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("picker-tui: "), lines


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
@pytest.mark.parametrize("mode", ["RGB", "CMYK", "RGB-16bit"])
def test_tiff_first_page_any_depth_and_orientation(picker_bin, tmp_path, mode, orientation):
    upright = quadrants(400, 300)
    stored = upright.transpose(STORED[orientation]) if STORED[orientation] else upright
    source = tmp_path / "photo.tiff"
    if mode == "RGB-16bit":
        # Pillow writes no 16-bit RGB: ImageMagick does, Orientation included.
        png = tmp_path / "stored.png"
        stored.save(png)
        subprocess.run(["convert", str(png), "-depth", "16", "-orient", ORIENT_NAMES[orientation], str(source)],
                       check=True)
    else:
        image = stored.convert("CMYK") if mode == "CMYK" else stored
        # A second page that must not be shown.
        image.save(source, "TIFF", tiffinfo={274: orientation}, save_all=True,
                   append_images=[Image.new(image.mode, image.size)])
    out = tmp_path / "thumb.png"
    result = thumbnail(picker_bin, "-s", 64, source, out)
    assert result.returncode == 0, result.stderr
    assert assert_upright_quadrants(out, 64) == (64, 48)


ORIENT_NAMES = {1: "TopLeft", 3: "BottomRight", 6: "RightTop", 8: "LeftBottom"}


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
@pytest.mark.parametrize("lossless", [False, True])
def test_jpeg_xl_from_cjxl_is_upright(picker_bin, tmp_path, orientation, lossless):
    upright = quadrants(400, 300)
    stored = upright.transpose(STORED[orientation]) if STORED[orientation] else upright
    exif = Image.Exif()
    exif[0x0112] = orientation
    png = tmp_path / "stored.png"
    stored.save(png, exif=exif.tobytes())
    source = tmp_path / "photo.jxl"
    # cjxl carries the PNG's EXIF orientation into the JPEG XL header.
    subprocess.run(["cjxl", str(png), str(source), "-d", "0" if lossless else "1", "--quiet"],
                   check=True, capture_output=True)
    out = tmp_path / "thumb.png"
    result = thumbnail(picker_bin, "-s", 64, source, out)
    assert result.returncode == 0, result.stderr
    assert assert_upright_quadrants(out, 64) == (64, 48)
