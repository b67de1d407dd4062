#!/usr/bin/env python3
"""Make the camera-like photos the thumbnail benchmark runs on.

Usage:  scripts/make-bench-photos.py OUTDIR [--count N] [--bases K] [--force]

Writes N photos (default 300) into each of two folders:

  OUTDIR/exif/photo-0001.jpg ...   laid out like a camera's JPEG: the first
      segment after SOI is an EXIF APP1 whose IFD0 has Make, Model,
      Orientation, a per-file ImageDescription and DateTime, a pointer to an
      Exif IFD (DateTimeOriginal, pixel dimensions), and whose IFD1 holds a
      160x120 JPEG thumbnail (Compression=6, JPEGInterchangeFormat and
      JPEGInterchangeFormatLength). Orientation cycles 1, 3, 6, 8, 1; the
      byte order switches between little-endian "II" and big-endian "MM"
      every five files, so both orders meet every orientation.
  OUTDIR/plain/photo-0001.jpg ...  the same pictures without any EXIF:
      SOI, JFIF APP0, then a COM segment naming the file, so that no two
      files have the same bytes.

Why they are made this way:

  * Size. Real photos are 4000x3000 JPEGs of 2-5 MB at quality ~90 with
    4:2:0 chroma, and decoding cost follows from that. The pictures are
    smooth large structures (an upscaled tiny random image, a brightness
    gradient, some discs) plus mid-scale texture and per-pixel noise; the
    noise is what drives JPEG size, so each base picture gets its own noise
    strength, searched until the file lands on a target size, and the
    targets are spread over 2.3-4.7 MB.
  * The embedded thumbnail. A picker can show a camera's own thumbnail
    without decoding 12 megapixels; exif/ measures that path, plain/ the
    path where the whole image has to be decoded (and scaled). The pixels
    are always stored 4000x3000 and the thumbnail shows the stored pixels,
    as cameras do; the Orientation tag says how to turn both for display.
    A white disc with a dark ring marks the stored top-left corner, so a
    viewer shows it top-left for 1, bottom-right for 3, top-right for 6
    and bottom-left for 8. The scene itself is not turned to match.
  * Time. Painting and encoding a 4000x3000 picture takes about a second,
    so only K distinct base pictures (default 16) are painted and encoded,
    once each, together with their thumbnail. Every file is then derived
    from one of them by splicing bytes: the EXIF APP1 (packed by
    scripts/photo_bytes.py) in place of the JFIF APP0 for exif/, a COM
    segment for plain/.
    Each file still differs from every other (description, date, comment),
    so no cache can tell two files apart by content alone.

Running it again with the same N and K does nothing (a stamp file records
what was made); --force makes everything again. Needs Python 3 and Pillow
(Debian: python3-pil, which scripts/install-deps.sh bench installs); when
the python3 on PATH has no Pillow, the script re-runs itself with
/usr/bin/python3 if that one has it.
"""

import argparse
import io
import json
import os
import random
import struct
import sys
import time

try:
    from PIL import Image, ImageChops, ImageDraw
except ImportError:
    # A python3 from pyenv or a venv first on PATH usually lacks the
    # Debian-packaged Pillow; the system interpreter has it.
    system_python = "/usr/bin/python3"
    if (os.environ.get("MAKE_BENCH_PHOTOS_REEXEC") != "1"
            and os.path.realpath(sys.executable) != os.path.realpath(system_python)
            and os.access(system_python, os.X_OK)):
        os.environ["MAKE_BENCH_PHOTOS_REEXEC"] = "1"
        os.execv(system_python, [system_python, os.path.abspath(__file__)] + sys.argv[1:])
    sys.exit("make-bench-photos: Pillow is missing; install python3-pil "
             "(scripts/install-deps.sh bench)")

from photo_bytes import ASCII, LONG, RATIONAL, SHORT, UNDEFINED, exif_tiff, jpeg_segment, jpeg_with_exif

WIDTH, HEIGHT = 4000, 3000
THUMB_WIDTH, THUMB_HEIGHT = 160, 120
QUALITY = 90
THUMB_QUALITY = 85
MIN_BYTES, MAX_BYTES = 2_200_000, 4_850_000   # hard limits for every file
TARGET_LOW, TARGET_HIGH = 2_300_000, 4_700_000  # base targets spread over this
ORIENTATIONS = (1, 3, 6, 8, 1)
MAKE = "Bench Camera Co."
MODEL = "BC-4000"
STAMP = ".bench-photos.json"
STAMP_VERSION = 1
SEED = 20240611


# --------------------------------------------------------------------------
# JPEG segments
# --------------------------------------------------------------------------

def split_jpeg(data):
    """Split a JPEG into (header segments, rest).

    The header segments are the marker segments between SOI and SOS, each
    as its full bytes (FF xx, length, payload); rest starts at SOS and runs
    to the end of the file."""
    if data[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG: no SOI")
    segments = []
    pos = 2
    while True:
        if data[pos] != 0xFF:
            raise ValueError("bad JPEG marker at %d" % pos)
        marker = data[pos + 1]
        if marker == 0xFF:          # fill byte
            pos += 1
            continue
        if marker == 0xDA:          # SOS: entropy-coded data follows
            return segments, data[pos:]
        (length,) = struct.unpack(">H", data[pos + 2:pos + 4])
        segments.append(data[pos:pos + 2 + length])
        pos += 2 + length


def is_jfif(segment):
    return segment[1] == 0xE0 and segment[4:9] == b"JFIF\x00"


def encode_jpeg(image, quality):
    out = io.BytesIO()
    # subsampling=2 is 4:2:0; no Huffman optimisation, as in cameras.
    image.save(out, "JPEG", quality=quality, subsampling=2)
    return out.getvalue()


# --------------------------------------------------------------------------
# EXIF
# --------------------------------------------------------------------------

def build_exif(byte_order, orientation, description, when, thumbnail):
    """The TIFF block of the EXIF APP1: IFD0, Exif IFD, IFD1 and the
    thumbnail JPEG after it."""
    stamp = time.strftime("%Y:%m:%d %H:%M:%S", time.gmtime(when))
    resolution = [(72, 1)]
    ifd0 = [
        (0x010E, ASCII, description),               # ImageDescription
        (0x010F, ASCII, MAKE),                      # Make
        (0x0110, ASCII, MODEL),                     # Model
        (0x0112, SHORT, [orientation]),             # Orientation
        (0x011A, RATIONAL, resolution),             # XResolution
        (0x011B, RATIONAL, resolution),             # YResolution
        (0x0128, SHORT, [2]),                       # ResolutionUnit: inch
        (0x0132, ASCII, stamp),                     # DateTime
        (0x0213, SHORT, [1]),                       # YCbCrPositioning
    ]
    exif_ifd = [
        (0x9000, UNDEFINED, b"0232"),               # ExifVersion
        (0x9003, ASCII, stamp),                     # DateTimeOriginal
        (0x9004, ASCII, stamp),                     # DateTimeDigitized
        (0xA001, SHORT, [1]),                       # ColorSpace: sRGB
        (0xA002, LONG, [WIDTH]),                    # PixelXDimension
        (0xA003, LONG, [HEIGHT]),                   # PixelYDimension
    ]
    # IFD1 besides Compression and the thumbnail's offset and length.
    ifd1 = [(0x011A, RATIONAL, resolution), (0x011B, RATIONAL, resolution), (0x0128, SHORT, [2])]
    return exif_tiff(byte_order, ifd0, exif_ifd, ifd1=ifd1, thumbnail=thumbnail)


# --------------------------------------------------------------------------
# Pictures
# --------------------------------------------------------------------------

def random_image(rng, w, h):
    return Image.frombytes("RGB", (w, h), rng.randbytes(w * h * 3))


def paint_base(rng):
    """A noise-free picture and a fully noisy copy of it; blending the two
    sets the noise strength without painting again."""
    # Large soft structures: a handful of random colours, bicubic-upscaled.
    picture = random_image(rng, rng.randint(4, 8), rng.randint(3, 6)).resize(
        (WIDTH, HEIGHT), Image.BICUBIC)
    # Mid-scale texture (foliage, gravel), weaker or stronger per picture.
    # Grey, so it varies brightness more than colour, as real texture does.
    w, h = rng.randint(120, 220), rng.randint(90, 165)
    texture = Image.frombytes("L", (w, h), rng.randbytes(w * h)).resize(
        (WIDTH, HEIGHT), Image.BICUBIC).convert("RGB")
    picture = Image.blend(picture, texture, rng.uniform(0.12, 0.3))
    # Lit from above: bright at the top, darker towards the bottom.
    ramp = Image.linear_gradient("L").rotate(180).resize((WIDTH, HEIGHT), Image.BILINEAR)
    low = rng.randint(70, 120)
    ramp = ramp.point(lambda v: low + v * (255 - low) // 255)
    picture = ImageChops.multiply(picture, Image.merge("RGB", (ramp, ramp, ramp)))
    # Some solid shapes with hard edges.
    draw = ImageDraw.Draw(picture)
    for _ in range(rng.randint(4, 12)):
        colour = tuple(rng.randrange(256) for _ in range(3))
        x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
        r = rng.randint(60, 700)
        if rng.random() < 0.5:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        else:
            points = [(x + rng.randint(-r, r), y + rng.randint(-r, r)) for _ in range(rng.randint(3, 6))]
            draw.polygon(points, fill=colour)
    # The stored top-left corner marker.
    draw.ellipse((60, 60, 460, 460), fill=(30, 30, 30))
    draw.ellipse((110, 110, 410, 410), fill=(250, 250, 250))
    # Sensor noise, the same in all three channels (mostly luminance noise).
    grain = Image.effect_noise((WIDTH, HEIGHT), 40)
    noisy = ImageChops.add(picture, Image.merge("RGB", (grain, grain, grain)), 1.0, -128)
    return picture, noisy


def encode_base(rng, target):
    """Paint one picture and search its noise strength so the JPEG comes
    out near target bytes. Returns (jpeg bytes, thumbnail bytes)."""
    clean, noisy = paint_base(rng)
    tried = []      # (strength, size), size grows with strength
    strength = 0.15
    best = None
    for _ in range(10):
        image = Image.blend(clean, noisy, strength)
        data = encode_jpeg(image, QUALITY)
        tried.append((strength, len(data)))
        if best is None or abs(len(data) - target) < abs(len(best[0]) - target):
            best = (data, image)
        if abs(len(data) - target) <= 0.04 * target:
            break
        below = [p for p in tried if p[1] < target]
        above = [p for p in tried if p[1] > target]
        if below and above:
            (s0, n0), (s1, n1) = max(below), min(above)
            strength = s0 + (s1 - s0) * (target - n0) / (n1 - n0)
        elif below:
            strength = min(1.0, max(below)[0] * 1.6 + 0.02)
        else:
            strength = min(above)[0] * 0.6
    data, image = best
    if not MIN_BYTES <= len(data) <= MAX_BYTES:
        raise RuntimeError("could not reach %d bytes (tried %s)" % (target, tried))
    thumb = image.reduce(WIDTH // THUMB_WIDTH)
    assert thumb.size == (THUMB_WIDTH, THUMB_HEIGHT)
    thumb_segments, thumb_rest = split_jpeg(encode_jpeg(thumb, THUMB_QUALITY))
    # Camera thumbnails carry no JFIF header.
    thumbnail = b"\xff\xd8" + b"".join(s for s in thumb_segments if not is_jfif(s)) + thumb_rest
    return data, thumbnail


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------

def photo_name(index):
    return "photo-%04d.jpg" % (index + 1)


def write_file(path, data):
    temporary = path + ".part"
    with open(temporary, "wb") as f:
        f.write(data)
    os.replace(temporary, path)


def existing_photos(folder):
    try:
        return sorted(n for n in os.listdir(folder)
                      if n.startswith("photo-") and n.endswith(".jpg"))
    except FileNotFoundError:
        return []


def summary(outdir, count, verb, seconds=None):
    sizes = [os.path.getsize(os.path.join(outdir, sub, n))
             for sub in ("exif", "plain") for n in existing_photos(os.path.join(outdir, sub))]
    line = ("%s %d files in %s (exif/ %d, plain/ %d): %.1f MB total, %.2f-%.2f MB each"
            % (verb, len(sizes), outdir, count, count, sum(sizes) / 1e6,
               min(sizes) / 1e6, max(sizes) / 1e6))
    if seconds is not None:
        line += ", %.1f s" % seconds
    print(line)
    bad = [s for s in sizes if not 2_000_000 <= s <= 5_000_000]
    if bad:
        sys.exit("make-bench-photos: %d files outside 2-5 MB" % len(bad))


def main(argv):
    parser = argparse.ArgumentParser(
        description="Make camera-like 4000x3000 JPEGs (with and without EXIF) "
                    "for the thumbnail benchmark.")
    parser.add_argument("outdir")
    parser.add_argument("--count", type=int, default=300, help="photos per folder (300)")
    parser.add_argument("--bases", type=int, default=16,
                        help="distinct pictures to paint and encode (16)")
    parser.add_argument("--force", action="store_true", help="make everything again")
    args = parser.parse_args(argv[1:])
    if args.count < 1 or args.bases < 1:
        parser.error("--count and --bases must be at least 1")
    bases = min(args.bases, args.count)

    outdir = args.outdir
    exif_dir = os.path.join(outdir, "exif")
    plain_dir = os.path.join(outdir, "plain")
    stamp_path = os.path.join(outdir, STAMP)
    wanted = {"version": STAMP_VERSION, "count": args.count, "bases": bases}
    if not args.force:
        try:
            with open(stamp_path) as f:
                stamp = json.load(f)
        except (OSError, ValueError):
            stamp = None
        if (stamp == wanted
                and len(existing_photos(exif_dir)) == args.count
                and len(existing_photos(plain_dir)) == args.count):
            summary(outdir, args.count, "already there:")
            return 0

    started = time.perf_counter()
    for folder in (exif_dir, plain_dir):
        os.makedirs(folder, exist_ok=True)
        for name in existing_photos(folder):
            os.remove(os.path.join(folder, name))
    try:
        os.remove(stamp_path)
    except FileNotFoundError:
        pass

    rng = random.Random(SEED)
    targets = [TARGET_LOW + (TARGET_HIGH - TARGET_LOW) * (k + 0.5) / bases for k in range(bases)]
    rng.shuffle(targets)
    first_date = 1_717_200_000  # 2024-06-01, one photo a minute after that

    for k, target in enumerate(targets):
        t = time.perf_counter()
        data, thumbnail = encode_base(random.Random(rng.getrandbits(64)), target)
        segments, rest = split_jpeg(data)
        jfif = [s for s in segments if is_jfif(s)]
        others = [s for s in segments if not is_jfif(s)]
        made = 0
        for index in range(k, args.count, bases):
            name = photo_name(index)
            orientation = ORIENTATIONS[index % len(ORIENTATIONS)]
            byte_order = "II" if (index // 5) % 2 == 0 else "MM"
            description = "Bench photo %04d of %d (picture %02d, orientation %d, %s)" % (
                index + 1, args.count, k + 1, orientation, byte_order)
            tiff = build_exif(byte_order, orientation, description,
                              first_date + 60 * index, thumbnail)
            # Camera layout: APP1 first, no JFIF.
            write_file(os.path.join(exif_dir, name),
                       jpeg_with_exif(b"\xff\xd8" + b"".join(others) + rest, tiff))
            comment = jpeg_segment(0xFE, ("picker-tui bench %s" % name).encode("ascii"))
            write_file(os.path.join(plain_dir, name),
                       b"\xff\xd8" + b"".join(jfif) + comment + b"".join(others) + rest)
            made += 1
        print("picture %d/%d: %.2f MB, thumbnail %d bytes, %d files each folder (%.1f s)"
              % (k + 1, bases, len(data) / 1e6, len(thumbnail), made,
                 time.perf_counter() - t), file=sys.stderr)

    with open(stamp_path, "w") as f:
        json.dump(wanted, f)
    summary(outdir, args.count, "made", time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
