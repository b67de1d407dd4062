#!/usr/bin/env python3
"""Build the thumbnail corpus: one file for each way a photo can be stored
that `picker-tui thumbnail` must get right, made from one marker picture by
the real tools that write such files.

Usage:  scripts/make-corpus.py [--no-big] [--only FILE]... OUT_DIR

The marker: four flat quadrants, top-left red, top-right green, bottom-left
blue, bottom-right white, 400x300 when upright (some cases differ and say
so). Each file stores it the way its case needs (rotated or mirrored pixels
plus an orientation tag, another colour space, a stale EXIF thumbnail, ...)
so that a correct thumbnailer shows the marker upright.

OUT_DIR/manifest.json:

  {"cases": [{"file": NAME, "case": WHAT, "expect": "upright",
              "aspect": W/H of the upright picture,
              "colours": [TL, TR, BL, BR] as [r, g, b] (sRGB),
              "tolerance": per channel, "checked_by": HOW, "seconds": T}, ...
             {"file": NAME, "case": WHAT, "expect": "fails"}, ...],
   "skipped": [{"file": NAME, "case": WHAT, "reason": WHY}, ...]}

  "upright"       the thumbnail shows `colours` in its four quadrants (each
                  channel within `tolerance`) at the aspect ratio `aspect`.
  "upright-grey"  the same with grey `colours`, and every sampled pixel must
                  be grey: greyscale photos (one whose stale EXIF thumbnail
                  is in colour among them).
  "fails"         hostile input: the thumbnailer must exit non-zero, say why
                  in one line and write no output.

A case whose tool (or ICC profile) is missing, or whose tool cannot make it
here (heif-enc without an AVIF encoder), is not made and is listed under
"skipped" with the reason; so are the big photos without --big (none takes
long today, so the default is to make them: --no-big leaves them out).

Self-checks: every file is read back by a second decoder where one is here
(Pillow with its own EXIF and ICC handling; ImageMagick for TIFF; djxl;
heif-convert; LibRaw's raw-identify and simple_dcraw for DNG; djpeg for the
corrupt EXIF thumbnails) and must show what its manifest entry says, so a
wrong case (a mirrored orientation got backwards, a profile that changed
nothing) stops the script instead of blaming the picker. "checked_by" says
which decoder checked it, or why none did.

Debian packages: python3-pil, imagemagick, libimage-exiftool-perl,
libjpeg-turbo-progs (jpegtran, djpeg), libjxl-tools (cjxl, djxl),
libheif-examples (heif-enc, heif-convert), libtiff-tools (tiffcp),
libgs-common (the Adobe RGB, ProPhoto and sRGB ICC profiles), and
libraw-bin (raw-identify, simple_dcraw: only to check the DNGs).

The test suite imports this file (Tests/EndToEnd/test_corpus.py) and calls
list_cases() to know the cases without making them.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from PIL import Image, ImageChops, ImageCms, ImageFile, ImageOps

from photo_bytes import ASCII, BYTE, LONG, RATIONAL, SHORT, SRATIONAL, ifd, png_head, tiff_header

# We make the big photos ourselves: Pillow's decompression-bomb guard would
# refuse to read back the 200 MP one.
Image.MAX_IMAGE_PIXELS = None

RGB = tuple[int, int, int]
RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)
MARKER: tuple[RGB, RGB, RGB, RGB] = (RED, GREEN, BLUE, WHITE)
WIDTH, HEIGHT = 400, 300
# A greyscale marker whose quadrants stay apart by more than twice the
# default tolerance.
GREY_LEVELS = (30, 110, 190, 250)
# The marker's luma (JPEG's Y = 0.299 R + 0.587 G + 0.114 B): what
# `jpegtran -grayscale` leaves of it.
MARKER_LUMA = (76, 150, 29, 255)
# Half-intensity colours: pure primaries are fixed points of every gamma
# curve, so only mid-tones show a 16-bit PNG read with the wrong gamma.
MIDTONES: tuple[RGB, RGB, RGB, RGB] = ((128, 0, 0), (0, 128, 0), (0, 0, 128), (128, 128, 128))
TOLERANCE = 40
# Adobe RGB's red read without its profile is (218, 0, 0): the default
# tolerance would let that through, so the ICC cases ask for more.
ICC_TOLERANCE = 16

ORIENTATION_TAG = 0x0112
# How a camera stores the upright picture for each EXIF orientation: the
# inverse of what the orientation tells a viewer to do (6: "turn 90 degrees
# clockwise to view", so the pixels are stored turned counter-clockwise).
# 2, 4, 5 and 7 are mirrors (5 and 7 about a diagonal) and their own inverses.
STORED: dict[int, Image.Transpose | None] = {
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}
# ImageMagick's -orient names for the TIFF Orientation tag.
ORIENT_NAMES = {1: "TopLeft", 3: "BottomRight", 6: "RightTop", 8: "LeftBottom"}

# Where Debian's libgs-common puts its ICC profiles.
ICC_DIRS = (Path("/usr/share/color/icc/ghostscript"), Path("/usr/share/color/icc"))

# Tools a case may need, with the Debian package that has them.
PACKAGES = {
    "convert": "imagemagick",
    "exiftool": "libimage-exiftool-perl",
    "jpegtran": "libjpeg-turbo-progs",
    "cjxl": "libjxl-tools",
    "heif-enc": "libheif-examples",
    "tiffcp": "libtiff-tools",
}


class Unavailable(Exception):
    """The case cannot be made here (a tool that exists but cannot do it)."""


class CorpusError(Exception):
    """A made file is not what its case says: a bug in this script."""


# --------------------------------------------------------------------------
# Pictures.


def quadrant_image(width: int, height: int, colours: Sequence[RGB] = MARKER, mode: str = "RGB") -> Image.Image:
    image = Image.new(mode, (width, height))
    for (x0, y0), colour in zip(((0, 0), (1, 0), (0, 1), (1, 1)), colours):
        fill = colour[0] if mode == "L" else colour
        image.paste(fill, (x0 * width // 2, y0 * height // 2, (x0 + 1) * width // 2, (y0 + 1) * height // 2))
    return image


def marker(width: int = WIDTH, height: int = HEIGHT) -> Image.Image:
    return quadrant_image(width, height)


def stored(upright: Image.Image, orientation: int) -> Image.Image:
    transpose = STORED[orientation]
    return upright.transpose(transpose) if transpose is not None else upright.copy()


def exif_bytes(orientation: int | None = None, camera: bool = False) -> bytes:
    exif = Image.Exif()
    if camera:
        exif[0x010F] = "Corpus"  # Make
        exif[0x0110] = "Marker One"  # Model
    if orientation is not None:
        exif[ORIENTATION_TAG] = orientation
    return exif.tobytes()


def grey(level: int) -> RGB:
    return (level, level, level)


# --------------------------------------------------------------------------
# Tools.


@functools.cache
def have_tool(name: str) -> bool:
    if shutil.which(name) is None:
        return False
    if name == "convert":
        # A stand-in `convert` that is not ImageMagick can sit on PATH.
        try:
            probe = subprocess.run([name, "-version"], capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.SubprocessError):
            return False
        return probe.returncode == 0 and "ImageMagick" in probe.stdout
    return True


@functools.cache
def find_profile(name: str) -> Path | None:
    for folder in ICC_DIRS:
        if (folder / name).is_file():
            return folder / name
    return None


def run(*argv: str | Path, stdout: Path | None = None, cwd: Path | None = None) -> bytes:
    """Runs a tool; its failure is the script's (CorpusError), with its stderr."""
    command = [str(part) for part in argv]
    try:
        if stdout is not None:
            with open(stdout, "wb") as sink:
                result = subprocess.run(command, stdout=sink, stderr=subprocess.PIPE, cwd=cwd, timeout=300)
        else:
            result = subprocess.run(command, capture_output=True, cwd=cwd, timeout=300)
    except subprocess.TimeoutExpired as error:
        raise CorpusError(f"{' '.join(command)} timed out") from error
    if result.returncode != 0:
        raise CorpusError(f"{' '.join(command)} exited {result.returncode}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout if stdout is None else b""


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, body) of every chunk of a PNG file."""
    chunks, at = [], 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunks.append((kind, data[at + 8:at + 8 + length]))
        at += 12 + length
    return chunks


def jpeg_segments(data: bytes) -> list[tuple[int, int]]:
    """(marker, offset) of each JPEG segment up to the first scan."""
    segments, at = [], 2
    while at + 4 <= len(data) and data[at] == 0xFF:
        kind = data[at + 1]
        segments.append((kind, at))
        if kind == 0xDA:
            break
        at += 2 + struct.unpack(">H", data[at + 2:at + 4])[0]
    return segments


# --------------------------------------------------------------------------
# The workshop: scratch space and the intermediate files cases share.


class Workshop:
    def __init__(self, scratch: Path):
        self.scratch = scratch
        self._made: dict[str, Path] = {}

    def file(self, name: str) -> Path:
        return self.scratch / name

    def once(self, name: str, make: Callable[[Path], None]) -> Path:
        """A scratch file made the first time it is asked for."""
        if name not in self._made:
            path = self.file(name)
            make(path)
            self._made[name] = path
        return self._made[name]

    def marker_png(self) -> Path:
        return self.once("marker.png", lambda p: marker().save(p))

    def stored_png(self, orientation: int) -> Path:
        return self.once(f"stored-{orientation}.png", lambda p: stored(marker(), orientation).save(p))

    def camera_jpeg(self) -> Path:
        """A camera-like JPEG: 1920x1440 marker, Make and Model, and a
        160x120 EXIF thumbnail of the same picture written by exiftool."""

        def make(path: Path) -> None:
            marker(1920, 1440).save(path, "JPEG", quality=90, exif=exif_bytes(1, camera=True))
            thumb = self.file("camera-thumb.jpg")
            marker(160, 120).save(thumb, "JPEG", quality=85)
            run("exiftool", "-q", "-overwrite_original", f"-ThumbnailImage<={thumb}", path)
            if exif_thumbnail(path) != thumb.read_bytes():
                raise CorpusError(f"exiftool did not embed {thumb} in {path}")

        return self.once("camera.jpg", make)


def exif_thumbnail(path: Path) -> bytes:
    return run("exiftool", "-b", "-ThumbnailImage", path)


# --------------------------------------------------------------------------
# Cases.


@dataclass(frozen=True)
class Case:
    file: str
    case: str
    expect: str  # "upright", "upright-grey" or "fails"
    build: Callable[[Workshop, Path], None]
    needs: tuple[str, ...] = ()  # tools from PACKAGES, or ICC profile names ending in .icc
    aspect: float = WIDTH / HEIGHT
    colours: tuple[RGB, RGB, RGB, RGB] = MARKER
    tolerance: int = TOLERANCE
    check: str | None = "pillow"  # which decoder reads it back; see CHECKS
    big: bool = False
    says: str | None = None  # for "fails": a word the one-line message must hold

    def missing(self, big: bool) -> str | None:
        """Why this case cannot be made here, or None."""
        for need in self.needs:
            if need.endswith(".icc"):
                if find_profile(need) is None:
                    return f"the ICC profile {need} is missing (Debian package libgs-common)"
            elif not have_tool(need):
                return f"{need} is missing (Debian package {PACKAGES[need]})"
        if self.big and not big:
            return "a big photo: left out by --no-big"
        return None

    def entry(self) -> dict:
        entry = {"file": self.file, "case": self.case, "expect": self.expect}
        if self.expect == "fails" and self.says:
            entry.update(says=self.says)
        if self.expect != "fails":
            entry.update(aspect=self.aspect, colours=[list(c) for c in self.colours], tolerance=self.tolerance)
        return entry


# -- JPEG ------------------------------------------------------------------


def jpeg_oriented(orientation: int) -> Callable[[Workshop, Path], None]:
    def build(_: Workshop, path: Path) -> None:
        stored(marker(), orientation).save(path, "JPEG", quality=95, exif=exif_bytes(orientation, camera=True))

    return build


def jpeg_progressive(_: Workshop, path: Path) -> None:
    marker().save(path, "JPEG", quality=95, progressive=True)
    if 0xC2 not in (kind for kind, _ in jpeg_segments(path.read_bytes())):
        raise CorpusError(f"{path} has no progressive frame (SOF2)")


def jpeg_cmyk(w: Workshop, path: Path) -> None:
    run("convert", w.marker_png(), "-colorspace", "CMYK", "-quality", "95", path)
    if Image.open(path).mode != "CMYK":
        raise CorpusError(f"{path} is not CMYK")


def jpeg_grey(_: Workshop, path: Path) -> None:
    quadrant_image(WIDTH, HEIGHT, [grey(level) for level in GREY_LEVELS], mode="L").save(path, "JPEG", quality=95)


def camera_with_thumbnail(w: Workshop, path: Path) -> None:
    shutil.copy(w.camera_jpeg(), path)


def stale_cropped(w: Workshop, path: Path) -> None:
    # A centred square: the iMCU-aligned offset keeps the quadrants' corner
    # at the centre; the 4:3 thumbnail is copied along and is now stale.
    run("jpegtran", "-crop", "1440x1440+240+0", "-copy", "all", w.camera_jpeg(), stdout=path)
    if Image.open(path).size != (1440, 1440):
        raise CorpusError(f"{path} was not cropped to 1440x1440")
    if Image.open(io.BytesIO(exif_thumbnail(path))).size != (160, 120):
        raise CorpusError(f"{path} lost its 160x120 EXIF thumbnail")


def stale_greyscale(w: Workshop, path: Path) -> None:
    run("jpegtran", "-grayscale", "-copy", "all", w.camera_jpeg(), stdout=path)
    if Image.open(path).mode != "L":
        raise CorpusError(f"{path} is not greyscale")
    if Image.open(io.BytesIO(exif_thumbnail(path))).mode != "RGB":
        raise CorpusError(f"{path}'s EXIF thumbnail is not the colour one")


def stale_turned(w: Workshop, path: Path) -> None:
    # An editor turned the picture upright and left the old thumbnail: the
    # photo is the upright marker, its 160x120 EXIF thumbnail upside down
    # (same size and colours: only the pictures themselves tell).
    shutil.copy(w.camera_jpeg(), path)
    embed_turned_thumbnail(w, path)


def embed_turned_thumbnail(w: Workshop, path: Path) -> None:
    """Replaces the EXIF thumbnail of `path` with the marker upside down."""
    thumb = w.file("turned-thumb.jpg")
    marker(160, 120).rotate(180).save(thumb, "JPEG", quality=85)
    run("exiftool", "-q", "-overwrite_original", f"-ThumbnailImage<={thumb}", path)
    if exif_thumbnail(path) != thumb.read_bytes():
        raise CorpusError(f"exiftool did not embed {thumb} in {path}")


def stale_turned_large(w: Workshop, path: Path) -> None:
    # The same at a camera's size and noise: 4000x3000, several MB, so the
    # photo's top band lies far past the first bytes a reader takes for the
    # EXIF thumbnail (a check fed only those compared made-up grey).
    upright = marker(4000, 3000)
    noise = Image.effect_noise(upright.size, 24).convert("RGB")
    ImageChops.add(upright, noise, scale=1.0, offset=-128).save(path, "JPEG", quality=95,
                                                                exif=exif_bytes(1, camera=True))
    if path.stat().st_size < 2_000_000:
        raise CorpusError(f"{path} is {path.stat().st_size} bytes, not a camera's size")
    embed_turned_thumbnail(w, path)


def stale_turned_far_scan(w: Workshop, path: Path) -> None:
    # The same, with 420 KB of application segments between the frame
    # header and the scan (an editor's own metadata): the first bytes a
    # reader takes for the thumbnail end before the picture's data begins.
    stale_turned_large(w, w.file("turned-large.jpg"))
    data = w.file("turned-large.jpg").read_bytes()
    sof = next(offset for kind, offset in jpeg_segments(data) if kind in (0xC0, 0xC1, 0xC2))
    after = sof + 2 + struct.unpack(">H", data[sof + 2:sof + 4])[0]
    filler = b"".join(b"\xff\xed" + struct.pack(">H", 60002) + bytes(60000) for _ in range(7))
    path.write_bytes(data[:after] + filler + data[after:])
    if Image.open(path).size != (4000, 3000) or exif_thumbnail(path) != exif_thumbnail(w.file("turned-large.jpg")):
        raise CorpusError(f"{path} lost its picture or its thumbnail")


def corrupt_thumbnail(patch: Callable[[int], bytes], complaint: str) -> Callable[[Workshop, Path], None]:
    """Overwrites the middle quarter of the EXIF thumbnail's scan in place;
    libjpeg (djpeg) must say `complaint` about the thumbnail afterwards."""

    def build(w: Workshop, path: Path) -> None:
        data = bytearray(w.camera_jpeg().read_bytes())
        thumb = exif_thumbnail(w.camera_jpeg())
        at = data.find(thumb)
        sos = [offset for kind, offset in jpeg_segments(thumb) if kind == 0xDA][0]
        scan = sos + 2 + struct.unpack(">H", thumb[sos + 2:sos + 4])[0]
        end = len(thumb) - 2  # before EOI
        size = (end - scan) // 4
        start = at + (scan + end) // 2 - size // 2
        data[start:start + size] = patch(size)
        path.write_bytes(data)
        broken = w.file(f"{path.name}.thumb.jpg")
        broken.write_bytes(exif_thumbnail(path))
        if have_tool("djpeg"):
            said = subprocess.run(["djpeg", "-outfile", os.devnull, str(broken)], capture_output=True)
            if complaint not in said.stderr.decode(errors="replace"):
                raise CorpusError(f"libjpeg does not say {complaint!r} of {path}'s thumbnail: {said.stderr!r}")
        # Shown as decoded, the damaged thumbnail must not pass for the marker.
        try:
            ImageFile.LOAD_TRUNCATED_IMAGES = True
            samples = quadrant_samples(Image.open(broken))
        except OSError:
            samples = None
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = False
        if samples is not None and all(close(got, want, TOLERANCE) for got, want in zip(samples, MARKER)):
            raise CorpusError(f"{path}'s damaged thumbnail still decodes to the marker: {samples}")

    return build


def a5_fill(size: int) -> bytes:
    # Decodes past the damage with no error, only libjpeg's warning, and
    # shows garbage in the thumbnail's lower half.
    return b"\xa5" * size


def bogus_marker(size: int) -> bytes:
    # A second SOF marker inside the scan: libjpeg warns, then stops with
    # an error ("two SOF markers").
    return (b"\xa5" * (size // 2) + b"\xff\xc0" + b"\xa5" * size)[:size]


def jpeg_named(_: Workshop, path: Path) -> None:
    # The same JPEG under another extension: one decoder, many names.
    marker().save(path, "JPEG", quality=95)


def big_photo(width: int, height: int, with_thumbnail: bool) -> Callable[[Workshop, Path], None]:
    def build(w: Workshop, path: Path) -> None:
        # Flat quadrants compress to a few MB even at 200 MP.
        marker(width, height).save(path, "JPEG", quality=90, exif=exif_bytes(1, camera=True))
        if with_thumbnail:
            thumb = w.file(f"{path.stem}-thumb.jpg")
            marker(160, 120).save(thumb, "JPEG", quality=85)
            run("exiftool", "-q", "-overwrite_original", f"-ThumbnailImage<={thumb}", path)

    return build


# -- PNG and WebP ----------------------------------------------------------


def png_16bit(colours: Sequence[RGB]) -> Callable[[Workshop, Path], None]:
    def build(w: Workshop, path: Path) -> None:
        source = w.file(f"{path.stem}-8bit.png")
        quadrant_image(WIDTH, HEIGHT, colours).save(source)
        # PNG48 forces 16-bit RGB (ImageMagick would store four colours in
        # a palette); no gAMA, sRGB, cHRM or iCCP chunk says how to read it.
        run("convert", source, "-depth", "16", "-define", "png:exclude-chunks=gAMA,sRGB,cHRM,iCCP,bKGD,date,tIME",
            f"PNG48:{path}")
        chunks = png_chunks(path.read_bytes())
        depth, colour_type = chunks[0][1][8], chunks[0][1][9]
        kinds = {kind.decode() for kind, _ in chunks}
        if (depth, colour_type) != (16, 2) or kinds & {"gAMA", "sRGB", "cHRM", "iCCP"}:
            raise CorpusError(f"{path}: depth {depth}, colour type {colour_type}, chunks {sorted(kinds)}")

    return build


def png_exif(orientation: int) -> Callable[[Workshop, Path], None]:
    def build(_: Workshop, path: Path) -> None:
        stored(marker(), orientation).save(path, "PNG", exif=exif_bytes(orientation))
        if b"eXIf" not in {kind for kind, _ in png_chunks(path.read_bytes())}:
            raise CorpusError(f"{path} has no eXIf chunk")

    return build


def webp_exif(orientation: int) -> Callable[[Workshop, Path], None]:
    def build(_: Workshop, path: Path) -> None:
        stored(marker(), orientation).save(path, "WEBP", quality=90, exif=exif_bytes(orientation))

    return build


# -- Colour profiles -------------------------------------------------------


def jpeg_in_profile(profile: str) -> Callable[[Workshop, Path], None]:
    def build(w: Workshop, path: Path) -> None:
        # The first -profile labels the untagged marker sRGB, the second
        # converts the pixels and embeds the wide-gamut profile.
        run("convert", w.marker_png(), "-profile", find_profile("srgb.icc"), "-profile", find_profile(profile),
            "-quality", "95", path)
        if not Image.open(path).info.get("icc_profile"):
            raise CorpusError(f"{path} has no embedded profile")
        # Read without its profile it must look wrong, or the case proves nothing.
        naive = Image.open(path).convert("RGB")
        if all(close(sample, want, ICC_TOLERANCE) for sample, want in zip(quadrant_samples(naive), MARKER)):
            raise CorpusError(f"{path} looks like the marker even without its profile: {quadrant_samples(naive)}")

    return build


# -- TIFF ------------------------------------------------------------------


def tiff_oriented(*options: str) -> Callable[[Workshop, Path], None]:
    def build(w: Workshop, path: Path) -> None:
        run("convert", w.stored_png(6), *options, "-orient", ORIENT_NAMES[6], path)

    return build


def tiff_two_pages(w: Workshop, path: Path) -> None:
    # Page 2 is bigger and black: a reader that picks the largest page, or
    # the last, shows black.
    first, second = w.file("page1.tif"), w.file("page2.tif")
    marker().save(first, "TIFF", compression="tiff_lzw")
    Image.new("RGB", (800, 800)).save(second, "TIFF", compression="tiff_lzw")
    run("tiffcp", first, second, path)


# -- JPEG XL, HEIF ---------------------------------------------------------


def jxl(lossless: bool) -> Callable[[Workshop, Path], None]:
    def build(w: Workshop, path: Path) -> None:
        source = w.once("stored-6-exif.png", lambda p: stored(marker(), 6).save(p, exif=exif_bytes(6)))
        # cjxl carries the PNG's EXIF orientation into the codestream header.
        run("cjxl", source, path, "-d", "0" if lossless else "1", "--quiet")

    return build


def heif(avif: bool) -> Callable[[Workshop, Path], None]:
    def build(w: Workshop, path: Path) -> None:
        result = subprocess.run(
            ["heif-enc", *(["-A"] if avif else []), "-q", "90", str(w.marker_png()), "-o", str(path)],
            capture_output=True,
        )
        if result.returncode != 0 or not path.exists() or path.stat().st_size == 0:
            # heif-enc is there but its libheif has no encoder for this format.
            path.unlink(missing_ok=True)
            raise Unavailable(f"heif-enc{' -A' if avif else ''} cannot encode here: "
                              f"{result.stderr.decode(errors='replace').strip() or 'no output'}")

    return build


# -- BMP -------------------------------------------------------------------


def bmp(prefix: str, bits: int, compression: int = 0) -> Callable[[Workshop, Path], None]:
    """ImageMagick's BMP3: (40-byte header) or BMP: (124-byte v5 header)."""

    def build(w: Workshop, path: Path) -> None:
        if bits == 24:
            options = ["-type", "TrueColor"]
            source = w.marker_png()
        else:
            # ImageMagick writes RLE as RLE8 only, whatever the palette's size.
            options = ["-type", "Palette", "-compress", "RLE" if compression else "None"]
            source = w.marker_png() if bits == 4 else w.once("marker-ramp.png", marker_with_ramp)
        run("convert", source, *options, f"{prefix}:{path}")
        header_size, width, height, _, got_bits, got_compression = struct.unpack("<IiiHHI", path.read_bytes()[14:34])
        want_header = 40 if prefix == "BMP3" else 124
        if (header_size, width, height, got_bits, got_compression) != (want_header, WIDTH, HEIGHT, bits, compression):
            raise CorpusError(f"{path}: header {header_size}, {width}x{height}, {got_bits} bits, "
                              f"compression {got_compression}")

    return build


def marker_with_ramp(path: Path) -> None:
    # ImageMagick stores four colours in 4 bits; a 32-step grey ramp along
    # the bottom row (far from where thumbnails are sampled) makes it 8.
    image = marker()
    for x in range(WIDTH):
        image.putpixel((x, HEIGHT - 1), grey(x * 32 // WIDTH * 8))
    image.save(path)


# -- DNG -------------------------------------------------------------------

# XYZ (D65) to linear sRGB, the ColorMatrix1 of a camera that sees in sRGB.
XYZ_TO_SRGB = ((32406, -15372, -4986), (-9689, 18758, 415), (557, -2040, 10570))


def dng_bytes(orientation: int) -> tuple[bytes, bytes]:
    """A minimal DNG: IFD0 is a JPEG preview of the marker stored the way the
    sensor saw it (Orientation says how to turn it), with a SubIFD holding a
    tiny grey Bayer raw image. Returns the file and its preview JPEG."""
    preview_image = stored(marker(), orientation)
    buffer = io.BytesIO()
    preview_image.save(buffer, "JPEG", quality=95)  # baseline, YCbCr 4:2:0
    preview = buffer.getvalue()
    turned = orientation in (5, 6, 7, 8)
    raw_width, raw_height = (48, 64) if turned else (64, 48)
    raw = struct.pack("<H", 4096) * (raw_width * raw_height)

    preview_at = 8
    raw_at = preview_at + len(preview) + len(preview) % 2
    ifd0_at = raw_at + len(raw)
    ifd0: list[tuple[int, int, object]] = [
        (254, LONG, [1]),  # NewSubfileType: a reduced-resolution preview
        (256, LONG, [preview_image.width]),
        (257, LONG, [preview_image.height]),
        (258, SHORT, [8, 8, 8]),
        (259, SHORT, [7]),  # JPEG
        (262, SHORT, [6]),  # YCbCr
        (271, ASCII, "Corpus"),
        (272, ASCII, "Marker DNG"),
        (273, LONG, [preview_at]),
        (274, SHORT, [orientation]),
        (277, SHORT, [3]),
        (278, LONG, [preview_image.height]),
        (279, LONG, [len(preview)]),
        (284, SHORT, [1]),
        (305, ASCII, "make-corpus.py"),
        (50706, BYTE, [1, 4, 0, 0]),  # DNGVersion
        (50707, BYTE, [1, 1, 0, 0]),  # DNGBackwardVersion
        (50708, ASCII, "Corpus Marker DNG"),  # UniqueCameraModel
        (50721, SRATIONAL, [(value, 10000) for row in XYZ_TO_SRGB for value in row]),  # ColorMatrix1
        (50728, RATIONAL, [(1, 1)] * 3),  # AsShotNeutral
        (50778, SHORT, [21]),  # CalibrationIlluminant1: D65
    ]
    # SubIFDs: the offset sits inside its entry, so IFD0's length does not
    # depend on it; ifd() pads IFD0 to an even length, so the SubIFD after it
    # starts on a word boundary as IFD0 does.
    sub_at = ifd0_at + len(ifd("II", ifd0 + [(330, LONG, [0])], ifd0_at))
    ifd0.append((330, LONG, [sub_at]))
    raw_ifd: list[tuple[int, int, object]] = [
        (254, LONG, [0]),  # the full-resolution image
        (256, LONG, [raw_width]),
        (257, LONG, [raw_height]),
        (258, SHORT, [16]),
        (259, SHORT, [1]),  # uncompressed
        (262, SHORT, [32803]),  # CFA
        (273, LONG, [raw_at]),
        (277, SHORT, [1]),
        (278, LONG, [raw_height]),
        (279, LONG, [len(raw)]),
        (284, SHORT, [1]),
        (33421, SHORT, [2, 2]),  # CFARepeatPatternDim
        (33422, BYTE, [0, 1, 1, 2]),  # CFAPattern: RGGB
        (50710, BYTE, [0, 1, 2]),  # CFAPlaneColor
        (50711, SHORT, [1]),  # CFALayout: rectangular
        (50714, LONG, [0]),  # BlackLevel
        (50717, LONG, [65535]),  # WhiteLevel
    ]
    data = (tiff_header("II", ifd0_at) + preview + b"\0" * (len(preview) % 2) + raw
            + ifd("II", ifd0, ifd0_at) + ifd("II", raw_ifd, sub_at))
    return data, preview


def dng_orientation_entry(data: bytes) -> bytes:
    """The value of IFD0's Orientation entry in a little-endian TIFF."""
    at = struct.unpack("<I", data[4:8])[0]
    for index in range(struct.unpack("<H", data[at:at + 2])[0]):
        entry = data[at + 2 + 12 * index:at + 14 + 12 * index]
        if struct.unpack("<H", entry[:2])[0] == 274:
            return entry[8:10]
    raise CorpusError("no Orientation in IFD0")


def dng(orientation: int) -> Callable[[Workshop, Path], None]:
    def build(w: Workshop, path: Path) -> None:
        data, preview = dng_bytes(orientation)
        path.write_bytes(data)
        w.file(f"{path.name}.preview.jpg").write_bytes(preview)

    return build


# -- Hostile ---------------------------------------------------------------


def truncated_jpeg(_: Workshop, path: Path) -> None:
    whole = io.BytesIO()
    marker(800, 600).save(whole, "JPEG", quality=95)
    data = whole.getvalue()
    sos = [offset for kind, offset in jpeg_segments(data) if kind == 0xDA][0]
    # Cut inside the scan, not in the headers: a photo whose copy stopped.
    if not sos < 1000 < len(data):
        raise CorpusError(f"the scan starts at {sos} of {len(data)} bytes: cutting at 1000 is not inside it")
    path.write_bytes(data[:1000])


def png_bomb(_: Workshop, path: Path) -> None:
    path.write_bytes(png_head(50000, 50000))


def garbage_dng(_: Workshop, path: Path) -> None:
    # A TIFF header pointing at its own garbage.
    noise = random.Random(1).randbytes(4096)
    path.write_bytes(tiff_header("II") + noise)


def bmp_bomb(_: Workshop, path: Path) -> None:
    # The file size field is honest (54 bytes); the dimensions are not.
    header = struct.pack("<IiiHHIIiiII", 40, 50000, 50000, 1, 24, 0, 0, 2835, 2835, 0, 0)
    size = 14 + len(header)
    path.write_bytes(b"BM" + struct.pack("<IHHI", size, 0, 0, size) + header)


# What each EXIF orientation asks a viewer to do.
ORIENTATION_WORDS = {
    1: "as stored", 2: "mirror left-right", 3: "turn 180", 4: "mirror top-bottom",
    5: "mirror about the main diagonal", 6: "turn 90 cw", 7: "mirror about the other diagonal", 8: "turn 90 ccw",
}


def all_cases() -> list[Case]:
    cases: list[Case] = []
    for orientation in range(1, 9):
        what = ORIENTATION_WORDS[orientation]
        cases.append(Case(f"jpeg-orientation-{orientation}.jpg", f"JPEG, EXIF orientation {orientation} ({what})",
                          "upright", jpeg_oriented(orientation)))
    cases += [
        Case("jpeg-progressive.jpg", "progressive JPEG", "upright", jpeg_progressive),
        Case("jpeg-cmyk.jpg", "CMYK JPEG (ImageMagick -colorspace CMYK)", "upright", jpeg_cmyk, needs=("convert",)),
        Case("jpeg-grey.jpg", f"greyscale JPEG, grey levels {GREY_LEVELS}", "upright-grey", jpeg_grey,
             colours=tuple(grey(level) for level in GREY_LEVELS)),
    ]
    for name in ("marker.jpe", "marker.jfif", "marker.JPG", "marker.Jpeg"):
        cases.append(Case(name, f"the same JPEG named {Path(name).suffix}", "upright", jpeg_named))
    cases += [
        Case("camera-exif-thumbnail.jpg", "camera JPEG 1920x1440 with a 160x120 EXIF thumbnail", "upright",
             camera_with_thumbnail, needs=("exiftool",)),
        Case("stale-thumbnail-cropped.jpg", "cropped to 1440x1440 by jpegtran: the 4:3 EXIF thumbnail is stale",
             "upright", stale_cropped, needs=("exiftool", "jpegtran"), aspect=1.0),
        Case("stale-thumbnail-greyscale.jpg", "made greyscale by jpegtran: the colour EXIF thumbnail is stale",
             "upright-grey", stale_greyscale, needs=("exiftool", "jpegtran"),
             colours=tuple(grey(level) for level in MARKER_LUMA)),
        Case("stale-thumbnail-turned.jpg", "an EXIF thumbnail upside down against its photo (turned, not updated)",
             "upright", stale_turned, needs=("exiftool",)),
        Case("stale-thumbnail-turned-large.jpg",
             "the same in a noisy 4000x3000 photo of several MB (the band is far past the thumbnail)",
             "upright", stale_turned_large, needs=("exiftool",), aspect=4 / 3),
        Case("stale-thumbnail-turned-far-scan.jpg",
             "the same with 420 KB of segments before the scan (the first bytes read hold no picture)",
             "upright", stale_turned_far_scan, needs=("exiftool",), aspect=4 / 3),
        Case("corrupt-thumbnail-warning.jpg",
             "EXIF thumbnail with 0xA5 bytes over its middle (libjpeg: 'premature end of data segment')",
             "upright", corrupt_thumbnail(a5_fill, "premature end of data segment"), needs=("exiftool",)),
        Case("corrupt-thumbnail-error.jpg",
             "EXIF thumbnail with a bogus SOF marker in its middle (libjpeg: 'two SOF markers')",
             "upright", corrupt_thumbnail(bogus_marker, "two SOF markers"), needs=("exiftool",)),
        Case("png-16bit-no-gama.png", "16-bit PNG without gAMA, sRGB, cHRM or iCCP", "upright",
             png_16bit(MARKER), needs=("convert",)),
        Case("png-16bit-no-gama-midtones.png", f"16-bit PNG without gAMA, half-intensity quadrants {MIDTONES}",
             "upright", png_16bit(MIDTONES), needs=("convert",), colours=MIDTONES),
    ]
    for orientation in (6, 8):
        cases.append(Case(f"png-exif-{orientation}.png", f"PNG with an eXIf chunk, orientation {orientation}",
                          "upright", png_exif(orientation)))
    for orientation in (6, 8):
        cases.append(Case(f"webp-exif-{orientation}.webp", f"lossy WebP with EXIF orientation {orientation}",
                          "upright", webp_exif(orientation)))
    cases += [
        Case("jpeg-adobe-rgb.jpg", "JPEG in Adobe RGB (1998), profile embedded", "upright", jpeg_in_profile("a98.icc"),
             needs=("convert", "srgb.icc", "a98.icc"), tolerance=ICC_TOLERANCE),
        Case("jpeg-prophoto.jpg", "JPEG in ProPhoto (ROMM) RGB, profile embedded", "upright",
             jpeg_in_profile("rommrgb.icc"), needs=("convert", "srgb.icc", "rommrgb.icc"), tolerance=ICC_TOLERANCE),
        Case("tiff-rgb8-orientation-6.tif", "8-bit RGB TIFF, orientation 6", "upright",
             tiff_oriented("-depth", "8"), needs=("convert",), check="magick"),
        Case("tiff-rgb16-orientation-6.tif", "16-bit RGB TIFF, orientation 6", "upright",
             tiff_oriented("-depth", "16"), needs=("convert",), check="magick"),
        Case("tiff-cmyk-orientation-6.tif", "CMYK TIFF, orientation 6", "upright",
             tiff_oriented("-colorspace", "CMYK"), needs=("convert",), check="magick"),
        Case("tiff-two-pages.tif", "two-page TIFF: page 1 the marker, page 2 a bigger black one", "upright",
             tiff_two_pages, needs=("tiffcp", "convert"), check="magick"),
        Case("jxl-lossy-orientation-6.jxl", "JPEG XL from cjxl -d 1, orientation 6", "upright", jxl(False),
             needs=("cjxl",), check="djxl"),
        Case("jxl-lossless-orientation-6.jxl", "JPEG XL from cjxl -d 0, orientation 6", "upright", jxl(True),
             needs=("cjxl",), check="djxl"),
        Case("heic.heic", "HEIC from heif-enc", "upright", heif(False), needs=("heif-enc",), check="heif"),
        Case("avif.avif", "AVIF from heif-enc -A", "upright", heif(True), needs=("heif-enc",), check="heif"),
        Case("bmp3-24bit.bmp", "BMP, 40-byte (v3) header, 24-bit", "upright", bmp("BMP3", 24), needs=("convert",)),
        Case("bmp3-8bit-palette.bmp", "BMP, 40-byte (v3) header, 8-bit palette", "upright", bmp("BMP3", 8),
             needs=("convert",)),
        # stb_image reads no RLE bitmaps: refused, with a message naming RLE8.
        Case("bmp3-8bit-palette-rle.bmp", "BMP, 40-byte (v3) header, 8-bit palette, RLE8", "fails",
             bmp("BMP3", 8, compression=1), needs=("convert",), says="RLE8"),
        Case("bmp3-4bit-palette.bmp", "BMP, 40-byte (v3) header, 4-bit palette", "upright", bmp("BMP3", 4),
             needs=("convert",)),
        Case("bmp5-24bit.bmp", "BMP, 124-byte (v5) header, 24-bit", "upright", bmp("BMP", 24), needs=("convert",)),
        Case("bmp5-8bit-palette.bmp", "BMP, 124-byte (v5) header, 8-bit palette", "upright", bmp("BMP", 8),
             needs=("convert",)),
    ]
    for orientation in (1, 3, 6, 8):
        cases.append(Case(f"dng-orientation-{orientation}.dng",
                          f"DNG 1.4 with a JPEG preview stored for orientation {orientation} and a 16-bit CFA raw",
                          "upright", dng(orientation), check="libraw"))
    cases += [
        Case("photo-108mp.jpg", "108 MP JPEG (12000x9000), no EXIF thumbnail", "upright",
             big_photo(12000, 9000, with_thumbnail=False), big=True),
        Case("photo-200mp-exif-thumbnail.jpg", "200 MP JPEG (16320x12240) with a 160x120 EXIF thumbnail", "upright",
             big_photo(16320, 12240, with_thumbnail=True), needs=("exiftool",), aspect=16320 / 12240, big=True),
        Case("empty.jpg", "zero bytes", "fails", lambda _, p: p.write_bytes(b""), check=None),
        Case("truncated.jpg", "a JPEG cut after 1000 bytes, inside its scan", "fails", truncated_jpeg, check=None),
        Case("text.jpg", "a text file named .jpg", "fails", lambda _, p: p.write_text("not an image\n"), check=None),
        Case("png-bomb.png", "a PNG header claiming 50000x50000, IHDR only", "fails", png_bomb, check=None),
        Case("garbage.dng", "a TIFF header followed by garbage, named .dng", "fails", garbage_dng, check=None),
        Case("bmp-bomb.bmp", "a BMP header claiming 50000x50000 24-bit, no pixel data", "fails", bmp_bomb,
             check=None),
    ]
    return cases


def list_cases(big: bool = True) -> list[dict]:
    """The cases as manifest entries, made of nothing: each with "missing",
    why it cannot be made here (None when it can)."""
    return [{**case.entry(), "missing": case.missing(big)} for case in all_cases()]


# --------------------------------------------------------------------------
# Reading the files back.


def quadrant_samples(image: Image.Image) -> list[RGB]:
    """The colour at the centre of each quadrant: TL, TR, BL, BR."""
    image = image.convert("RGB")
    w, h = image.size
    return [image.getpixel((x, y)) for y in (h // 4, 3 * h // 4) for x in (w // 4, 3 * w // 4)]


def close(a: Sequence[int], b: Sequence[int], tolerance: int) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def to_srgb(image: Image.Image) -> Image.Image:
    icc = image.info.get("icc_profile")
    image = image.convert("RGB") if image.mode not in ("RGB", "CMYK") else image
    if icc and image.mode == "RGB":
        embedded = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        return ImageCms.profileToProfile(image, embedded, ImageCms.createProfile("sRGB"), outputMode="RGB")
    return image.convert("RGB")


def read_with_pillow(w: Workshop, path: Path) -> Image.Image:
    image = Image.open(path)
    if image.format == "JPEG" and image.width * image.height > 20_000_000:
        # The big ones, DCT-scaled by 1/8: still wide enough for an exact aspect.
        image.draft(None, (image.width // 8, image.height // 8))
    upright = ImageOps.exif_transpose(image)
    upright.info.update(icc_profile=image.info.get("icc_profile"))
    return to_srgb(upright)


def read_by_converting(argv: Callable[[Path, Path], list[str | Path]]) -> Callable[[Workshop, Path], Image.Image]:
    def read(w: Workshop, path: Path) -> Image.Image:
        out = w.file(f"{path.name}.check.png")
        run(*argv(path, out))
        return Image.open(out).convert("RGB")

    return read


def read_with_libraw(w: Workshop, path: Path) -> Image.Image:
    """LibRaw must take the DNG, find its preview (the very JPEG put there)
    and report the orientation the file gives."""
    identify = run("raw-identify", "-v", path).decode(errors="replace")
    for needed in ("Corpus", "DNG Version: 1.4.0.0", "Thumb size:"):
        if needed not in identify:
            raise CorpusError(f"raw-identify -v {path} does not say {needed!r}:\n{identify}")
    found = re.search(r"Image flip:\s*(\d+)", identify)
    if found is None:
        raise CorpusError(f"raw-identify -v {path} gives no 'Image flip':\n{identify}")
    flip = int(found.group(1))
    # LibRaw's flip codes: 0 as is, 3 turned 180, 5 turned 90 ccw, 6 turned 90 cw.
    flips = {1: 0, 3: 3, 6: 6, 8: 5}
    orientation = struct.unpack("<H", dng_orientation_entry(path.read_bytes()))[0]
    if flip != flips[orientation]:
        raise CorpusError(f"LibRaw reads flip {flip} from {path}, wanted {flips[orientation]}:\n{identify}")
    copy = w.file(f"libraw-{path.name}")
    shutil.copy(path, copy)
    run("simple_dcraw", "-e", copy, cwd=w.scratch)
    extracted = Path(f"{copy}.thumb.jpg")
    if not extracted.exists():
        raise CorpusError(f"simple_dcraw -e {path} wrote no {extracted.name}")
    preview = Image.open(w.file(f"{path.name}.preview.jpg")).convert("RGB")
    thumb = Image.open(extracted).convert("RGB")
    if thumb.size != preview.size or thumb.tobytes() != preview.tobytes():
        raise CorpusError(f"the thumbnail LibRaw extracts from {path} is not the preview put there")
    upright = Image.open(extracted)
    upright.getexif()[ORIENTATION_TAG] = orientation
    return ImageOps.exif_transpose(upright).convert("RGB")


CHECKS: dict[str, tuple[tuple[str, ...], Callable[[Workshop, Path], Image.Image]]] = {
    "pillow": ((), read_with_pillow),
    # ImageMagick turns TIFFs by their Orientation tag, independently of how it wrote them.
    "magick": (("convert",), read_by_converting(lambda p, o: ["convert", f"{p}[0]", "-auto-orient", "-depth", "8",
                                                             f"PNG24:{o}"])),
    "djxl": (("djxl",), read_by_converting(lambda p, o: ["djxl", p, o, "--quiet"])),
    "heif": (("heif-convert",), read_by_converting(lambda p, o: ["heif-convert", p, o])),
    "libraw": (("raw-identify", "simple_dcraw"), read_with_libraw),
}


def check(w: Workshop, case: Case, path: Path) -> str:
    """Reads the file back with a second decoder; returns what checked it."""
    if case.check is None:
        return "nothing (hostile)"
    tools, read = CHECKS[case.check]
    absent = [tool for tool in tools if shutil.which(tool) is None]
    if absent:
        return f"nothing ({', '.join(absent)} missing)"
    upright = read(w, path)
    samples = quadrant_samples(upright)
    aspect = upright.width / upright.height
    problems = []
    if abs(aspect / case.aspect - 1) > 0.01:
        problems.append(f"aspect {upright.width}x{upright.height}, wanted {case.aspect:.4f}")
    if not all(close(sample, want, case.tolerance) for sample, want in zip(samples, case.colours)):
        problems.append(f"quadrants {samples}, wanted {list(case.colours)}")
    if case.expect == "upright-grey" and not all(max(s) - min(s) <= 2 for s in samples):
        problems.append(f"not grey: {samples}")
    if problems:
        raise CorpusError(f"{path} read back by {case.check}: " + "; ".join(problems))
    return case.check


# --------------------------------------------------------------------------


def manifest_text(manifest: dict) -> str:
    """JSON with one entry a line: easy to read and to diff."""
    parts = []
    for key, entries in manifest.items():
        lines = ",\n".join(f"  {json.dumps(entry)}" for entry in entries)
        parts.append(f' "{key}": [\n{lines}\n ]' if entries else f' "{key}": []')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def build_corpus(out: Path, big: bool = True, only: set[str] | None = None) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    entries, skipped = [], []
    with tempfile.TemporaryDirectory(prefix="make-corpus-") as scratch:
        workshop = Workshop(Path(scratch))
        for case in all_cases():
            if only and case.file not in only:
                continue
            path = out / case.file
            reason = case.missing(big)
            started = time.monotonic()
            if reason is None:
                try:
                    case.build(workshop, path)
                    checked_by = check(workshop, case, path)
                except Unavailable as error:
                    reason = str(error)
                    path.unlink(missing_ok=True)
            if reason is not None:
                skipped.append({"file": case.file, "case": case.case, "reason": reason})
                print(f"make-corpus: skipped {case.file}: {reason}", file=sys.stderr)
                continue
            seconds = round(time.monotonic() - started, 2)
            entries.append({**case.entry(), "checked_by": checked_by, "seconds": seconds})
    manifest = {"cases": entries, "skipped": skipped}
    (out / "manifest.json").write_text(manifest_text(manifest))
    return manifest


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path, metavar="OUT_DIR")
    parser.add_argument("--no-big", dest="big", action="store_false",
                        help="leave out the 108 MP and 200 MP photos (listed as skipped)")
    parser.add_argument("--big", dest="big", action="store_true", help="make the big photos (the default)")
    parser.add_argument("--only", action="append", metavar="FILE",
                        help="make only this case (by file name); may be repeated")
    args = parser.parse_args(argv)
    known = {case.file for case in all_cases()}
    unknown = set(args.only or ()) - known
    if unknown:
        parser.error(f"no such case: {', '.join(sorted(unknown))}")
    started = time.monotonic()
    try:
        manifest = build_corpus(args.out_dir, big=args.big, only=set(args.only) if args.only else None)
    except CorpusError as error:
        print(f"make-corpus: {error}", file=sys.stderr)
        return 1
    print(f"make-corpus: {len(manifest['cases'])} cases in {args.out_dir}, {len(manifest['skipped'])} skipped, "
          f"{time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
