#!/usr/bin/env bash
# Checks Sources/CImaging/photo_header.c on its own, outside the package:
# builds it (and the readers it dispatches to: videos, X3F) with the
# sanitizers and a driver (scripts/photo_header_check.c), makes sample
# photos and videos of every format it reads (with exiftool, Pillow and,
# when present, heif-enc and ffmpeg), compares each field with what
# exiftool reports (the rating and label with its XMP tags),
# mutates the samples through the in-memory entry point, and measures how
# many files a second one core reads from the page cache.
#   scripts/test-photo-header.sh [--keep]   (--keep: leave the samples behind)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/photo-header.XXXXXX")
if [ "${1:-}" = --keep ]; then echo "samples in $work"; else trap 'rm -rf "$work"' EXIT; fi

for tool in gcc exiftool python3; do
  command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }
done
python3 -c 'import PIL' 2>/dev/null || { echo "needs Python Pillow" >&2; exit 1; }

sources=("$root/Sources/CImaging/photo_header.c" "$root/Sources/CImaging/exif_jpeg_header.c" "$root/Sources/CImaging/video_header.c"
  "$root/Sources/CImaging/matroska_header.c" "$root/Sources/CImaging/avi_header.c" "$root/Sources/CImaging/x3f_header.c"
  "$root/Sources/CImaging/embedded_dates.c" "$root/Sources/CImaging/xmp_culling.c" "$root/Sources/CSystemCalls/system_calls.c"
  "$root/scripts/photo_header_check.c")
include=(-I "$root/Sources/CImaging/include" -I "$root/Sources/CSystemCalls/include")
# x3f_header.c's snprintf of a date is bounded by gmtime's ranges, which
# gcc's -Wformat-truncation cannot see.
warnings=(-Wall -Wextra -Werror -Wno-format-truncation)
gcc -O1 -g "${warnings[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
  "${include[@]}" "${sources[@]}" -o "$work/check"
gcc -O2 "${warnings[@]}" "${include[@]}" "${sources[@]}" -o "$work/check-fast"
echo "built: sanitized and -O2 drivers"

mkdir -p "$work/samples"
# Makes the samples; each gets a line in expect.json saying which fields to
# take from exiftool and which are known in advance.
python3 - "$work/samples" <<'PY'
import json, os, random, shutil, struct, subprocess, sys, zlib
from PIL import Image

out = sys.argv[1]
os.chdir(out)
expect = {}
random.seed(7)

def tags(path, *extra):
    subprocess.run(["exiftool", "-q", "-q", "-overwrite_original", *extra, path], check=True)

FULL = ["-Make=Canon", "-Model=Canon EOS R5", "-LensModel=RF24-105mm F4 L IS USM",
        "-DateTimeOriginal=2023:07:14 18:22:05", "-SubSecTimeOriginal=045", "-OffsetTimeOriginal=+02:00",
        "-Orientation#=6", "-GPSLatitude=33.8568", "-GPSLatitudeRef=S", "-GPSLongitude=151.2153",
        "-GPSLongitudeRef=E"]
OTHER = ["-Make=NIKON CORPORATION", "-Model=NIKON Z 6_2", "-LensModel=NIKKOR Z 24-70mm f/4 S",
         "-DateTimeOriginal=2021:12:31 23:59:59", "-SubSecTimeOriginal=7", "-OffsetTimeOriginal=-05:00",
         "-Orientation#=8", "-GPSLatitude=40.689247", "-GPSLatitudeRef=N", "-GPSLongitude=74.044502",
         "-GPSLongitudeRef=W"]

def picture(w, h, noise=False):
    if noise:
        return Image.frombytes("RGB", (w, h), random.randbytes(w * h * 3))
    image = Image.new("RGB", (w, h))
    image.putdata([(x * 255 // w, y * 255 // h, 90) for y in range(h) for x in range(w)])
    return image

def exif_checked(name, written=True, skip=(), like=None, override=None):
    """Checked against what exiftool reads from the file (or from `like`, with `override`)."""
    expect[name] = {"source": "exiftool", "written": written, "skip": list(skip), "like": like or name,
                    "override": override or {}}

def jpeg_segments(data):
    """SOI, then (marker, bytes) up to SOS, then the rest."""
    at, segments = 2, []
    while data[at + 1] != 0xDA:
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        segments.append(data[at:at + 2 + length])
        at += 2 + length
    return segments, data[at:]

def junk_segment(size):
    return b"\xff\xef" + struct.pack(">H", size + 2) + b"J" * size

# JPEG: both byte orders, every field.
picture(640, 480).save("jpeg_full.jpg", quality=90)
tags("jpeg_full.jpg", *FULL)
exif_checked("jpeg_full.jpg")
picture(480, 640).save("jpeg_little_endian.jpg", quality=90)
tags("jpeg_little_endian.jpg", "-ExifByteOrder=II", *OTHER)
exif_checked("jpeg_little_endian.jpg")

# A camera-like APP1 (a thumbnail of about 30 KB) placed after other
# segments, so that it straddles or starts past the 64 KiB first read.
picture(280, 210, noise=True).save("thumb.jpg", quality=85)
picture(800, 600).save("big_app1.jpg", quality=90)
tags("big_app1.jpg", *FULL, "-ThumbnailImage<=thumb.jpg")
os.remove("thumb.jpg")
segments, rest = jpeg_segments(open("big_app1.jpg", "rb").read())
for name, junk in [("jpeg_app1_straddles.jpg", [40000]), ("jpeg_app1_at_64k.jpg", [65400]),
                   ("jpeg_app1_far.jpg", [60000, 60000])]:
    with open(name, "wb") as f:
        f.write(b"\xff\xd8" + b"".join(junk_segment(n) for n in junk) + b"".join(segments) + rest)
    exif_checked(name)
print(f"jpeg_app1_*.jpg: APP1 of {int.from_bytes(segments[1][2:4], 'big')} bytes")
os.remove("big_app1.jpg")

picture(200, 100).save("jpeg_no_exif.jpg", quality=85)
exif_checked("jpeg_no_exif.jpg", written=False)
whole = open("jpeg_full.jpg", "rb").read()
open("jpeg_truncated_in_scan.jpg", "wb").write(whole[:len(whole) - 3000])
exif_checked("jpeg_truncated_in_scan.jpg")
app1 = whole.index(b"Exif\0\0")
open("jpeg_truncated_in_app1.jpg", "wb").write(whole[:app1 + 40])
expect["jpeg_truncated_in_app1.jpg"] = {"source": "fixed", "fields": {"rc": 0, "format": 1}}

# TIFF: Pillow writes little-endian; big-endian by hand, its IFD0 after
# 200 KB of pixels so that it lies past the first read.
picture(64, 48).save("tiff_little_endian.tif")
tags("tiff_little_endian.tif", *OTHER)
exif_checked("tiff_little_endian.tif")

def big_endian_tiff(path, w, h):
    pixels = bytes(random.randrange(256) for _ in range(w * h * 3))
    bps_at = 8 + len(pixels)
    ifd_at = bps_at + 6
    entries = [(256, 4, 1, w), (257, 4, 1, h), (258, 3, 3, bps_at), (259, 3, 1, 1 << 16), (262, 3, 1, 2 << 16),
               (273, 4, 1, 8), (277, 3, 1, 3 << 16), (278, 4, 1, h), (279, 4, 1, len(pixels))]
    ifd = struct.pack(">H", len(entries)) + b"".join(struct.pack(">HHII", *e) for e in entries) + b"\0\0\0\0"
    open(path, "wb").write(b"MM\0*" + struct.pack(">I", ifd_at) + pixels + struct.pack(">HHH", 8, 8, 8) + ifd)

big_endian_tiff("tiff_big_endian.tif", 300, 230)
tags("tiff_big_endian.tif", *FULL)
exif_checked("tiff_big_endian.tif")
ifd0 = struct.unpack(">I", open("tiff_big_endian.tif", "rb").read()[4:8])[0]
print(f"tiff_big_endian.tif: IFD0 at {ifd0}")

# Written by hand, as raw files are: IFD0 past 200 KB of pixels, the Exif
# IFD 100 KB further, each followed by its values.
def ifd(order, entries, next_ifd=0, at=0):
    table, data = b"", b""
    data_at = at + 2 + 12 * len(entries) + 4
    for tag, kind, count, payload in sorted(entries):
        if len(payload) <= 4:
            value = payload.ljust(4, b"\0")
        else:
            value = struct.pack(order + "I", data_at + len(data))
            data += payload + b"\0" * (len(payload) & 1)
        table += struct.pack(order + "HHI", tag, kind, count) + value
    return struct.pack(order + "H", len(entries)) + table + struct.pack(order + "I", next_ifd) + data

def ascii(tag, text):
    return (tag, 2, len(text) + 1, text.encode() + b"\0")

def rationals(order, tag, values):
    return (tag, 5, len(values), b"".join(struct.pack(order + "II", n, d) for n, d in values))

def hand_made_tiff(path, order, xmp=None):
    w, h = 300, 230
    pixels = random.randbytes(w * h * 3)
    exif = [ascii(0x9003, "2019:02:03 04:05:06"), ascii(0x9291, "045"), ascii(0x9011, "+05:30"),
            ascii(0xA434, "smc PENTAX-DA 16-45mm F4 ED AL"), (0xA002, 4, 1, struct.pack(order + "I", 4000)),
            (0xA003, 4, 1, struct.pack(order + "I", 3000))]
    gps = [ascii(1, "N"), rationals(order, 2, [(51, 1), (30, 1), (2616, 100)]), ascii(3, "W"),
           rationals(order, 4, [(0, 1), (7, 1), (3960, 100)])]
    def ifd0(exif_at, gps_at):
        return [(256, 4, 1, struct.pack(order + "I", w)), (257, 4, 1, struct.pack(order + "I", h)),
                (258, 3, 3, struct.pack(order + "HHH", 8, 8, 8)), (259, 3, 1, struct.pack(order + "H", 1)),
                (262, 3, 1, struct.pack(order + "H", 2)), (273, 4, 1, struct.pack(order + "I", 8)),
                (277, 3, 1, struct.pack(order + "H", 3)), (278, 4, 1, struct.pack(order + "I", h)),
                (279, 4, 1, struct.pack(order + "I", len(pixels))), ascii(0x10F, "PENTAX"),
                ascii(0x110, "PENTAX K-3 Mark III   "), (0x112, 3, 1, struct.pack(order + "H", 3)),
                (0x8769, 4, 1, struct.pack(order + "I", exif_at)), (0x8825, 4, 1, struct.pack(order + "I", gps_at))] + \
               ([(700, 7, len(xmp), xmp)] if xmp else [])
    ifd0_at = 8 + len(pixels)
    gap = random.randbytes(100000)
    exif_at = ifd0_at + len(ifd(order, ifd0(0, 0))) + len(gap)
    gps_at = exif_at + len(ifd(order, exif))
    magic = b"MM\0*" if order == ">" else b"II*\0"
    open(path, "wb").write(magic + struct.pack(order + "I", ifd0_at) + pixels + ifd(order, ifd0(exif_at, gps_at), 0, ifd0_at)
                           + gap + ifd(order, exif, 0, exif_at) + ifd(order, gps, 0, gps_at))

hand_made_tiff("tiff_far_ifds_big_endian.tif", ">")
exif_checked("tiff_far_ifds_big_endian.tif")
hand_made_tiff("tiff_far_ifds_little_endian.pef", "<")
exif_checked("tiff_far_ifds_little_endian.pef")

# ORF and RW2 are TIFF with a magic of their own (exiftool reads no
# ImageWidth from RW2's IFD0).
for name, magic in [("raw_olympus.orf", b"IIRO"), ("raw_panasonic.rw2", b"IIU\0")]:
    shutil.copy("tiff_little_endian.tif", name)
    with open(name, "r+b") as f:
        f.write(magic)
    exif_checked(name, skip=["width", "height"] if name.endswith("rw2") else [])

# PNG: eXIf before IDAT as written, and after IDAT (in 300 pieces) as allowed.
picture(120, 90).save("png_exif.png")
tags("png_exif.png", *FULL)
exif_checked("png_exif.png")

def png_chunks(data):
    at, chunks = 8, []
    while at < len(data):
        length = struct.unpack(">I", data[at:at + 4])[0]
        chunks.append((data[at + 4:at + 8], data[at + 8:at + 8 + length]))
        at += 12 + length
    return chunks

def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

chunks = png_chunks(open("png_exif.png", "rb").read())
exif = [body for kind, body in chunks if kind == b"eXIf"][0]
pixels = b"".join(body for kind, body in chunks if kind == b"IDAT")
pieces = [pixels[i:i + len(pixels) // 300 + 1] for i in range(0, len(pixels), len(pixels) // 300 + 1)]
with open("png_exif_after_idat.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n")
    for kind, body in chunks:
        if kind not in (b"eXIf", b"IDAT", b"IEND"):
            f.write(png_chunk(kind, body))
    f.write(b"".join(png_chunk(b"IDAT", p) for p in pieces) + png_chunk(b"eXIf", exif) + png_chunk(b"IEND", b""))
exif_checked("png_exif_after_idat.png")
picture(33, 17).save("png_plain.png")
exif_checked("png_plain.png", written=False)

# WebP: lossy and lossless with EXIF (VP8X), without (VP8, VP8L), and with
# "Exif\0\0" before the TIFF header inside the chunk.
picture(300, 200).save("webp_lossy_exif.webp", quality=80)
tags("webp_lossy_exif.webp", *FULL)
exif_checked("webp_lossy_exif.webp")
picture(150, 100).save("webp_lossless_exif.webp", lossless=True)
tags("webp_lossless_exif.webp", *OTHER)
exif_checked("webp_lossless_exif.webp")
picture(301, 199).save("webp_lossy_plain.webp", quality=80)
exif_checked("webp_lossy_plain.webp", written=False)
picture(77, 55).save("webp_lossless_plain.webp", lossless=True)
exif_checked("webp_lossless_plain.webp", written=False)

def riff_chunks(data):
    at, chunks = 12, []
    while at + 8 <= len(data):
        length = struct.unpack("<I", data[at + 4:at + 8])[0]
        chunks.append((data[at:at + 4], data[at + 8:at + 8 + length]))
        at += 8 + length + (length & 1)
    return chunks

def riff_chunk(kind, body):
    return kind + struct.pack("<I", len(body)) + body + b"\0" * (len(body) & 1)

body = b"".join(riff_chunk(k, b"Exif\0\0" + v if k == b"EXIF" else v)
                for k, v in riff_chunks(open("webp_lossy_exif.webp", "rb").read()))
open("webp_exif_prefixed.webp", "wb").write(b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body)
exif_checked("webp_exif_prefixed.webp")

# AVIF from Pillow, then exiftool's tags.
try:
    picture(160, 120).save("avif_exif.avif", quality=60)
    tags("avif_exif.avif", *OTHER)
    exif_checked("avif_exif.avif")
except Exception as error:  # Pillow built without AVIF
    print(f"skip: AVIF ({error})")

# HEIC with heif-enc: EXIF carried over from a JPEG, and EXIF added by exiftool.
if shutil.which("heif-enc"):
    picture(256, 192).save("heic_source.jpg", quality=90)
    tags("heic_source.jpg", *FULL)
    picture(320, 240).save("heic_source.png")
    for name, source, extra in [("heic_from_jpeg.heic", "heic_source.jpg", []),
                                ("heic_exiftool.heic", "heic_source.png", OTHER)]:
        subprocess.run(["heif-enc", "-q", "50", source, "-o", name], check=True, capture_output=True)
        if extra:
            tags(name, *extra)
        exif_checked(name)
    subprocess.run(["heif-enc", "-q", "50", "heic_source.png", "-o", "avif_heif_enc.avif"], check=True,
                   capture_output=True)
    tags("avif_heif_enc.avif", *FULL)
    exif_checked("avif_heif_enc.avif")
    os.remove("heic_source.jpg")
    os.remove("heic_source.png")
else:
    print("skip: HEIC (no heif-enc)")

# HEIF written by hand, for what the encoders above do not write: the Exif
# item in idat (iloc construction method 1), and split in two extents apart.
def box(kind, body):
    return struct.pack(">I", 8 + len(body)) + kind + body

def full_box(kind, version, body):
    return box(kind, bytes([version, 0, 0, 0]) + body)

def hand_made_heif(path, split):
    jpeg = open("jpeg_full.jpg", "rb").read()
    start = jpeg.index(b"Exif\0\0") + 6
    exif = b"\0\0\0\0" + jpeg[start:start + struct.unpack(">H", jpeg[start - 8:start - 6])[0] - 8]
    ftyp = box(b"ftyp", b"heic\0\0\0\0mif1heic")
    infe = [full_box(b"infe", 2, struct.pack(">HH", 1, 0) + b"hvc1\0"),
            full_box(b"infe", 2, struct.pack(">HH", 2, 0) + b"Exif\0")]
    iinf = full_box(b"iinf", 0, struct.pack(">H", 2) + b"".join(infe))
    iprp = box(b"iprp", box(b"ipco", full_box(b"ispe", 0, struct.pack(">II", 4032, 3024)))
               + full_box(b"ipma", 0, struct.pack(">IHBB", 1, 1, 1, 0x81)))
    hdlr = full_box(b"hdlr", 0, b"\0" * 4 + b"pict" + b"\0" * 13)
    pitm = full_box(b"pitm", 0, struct.pack(">H", 1))
    half = len(exif) // 2
    def iloc(mdat_body_at):
        if split:  # version 1, offsets and lengths of 4 bytes, two extents with 100 bytes between
            extents = [(mdat_body_at, half), (mdat_body_at + half + 100, len(exif) - half)]
            method = 0
        else:
            extents, method = [(0, len(exif))], 1
        item = struct.pack(">HHHH", 2, method, 0, len(extents)) + b"".join(struct.pack(">II", *e) for e in extents)
        return full_box(b"iloc", 1, struct.pack(">BBH", 0x44, 0x00, 1) + item)
    def meta(mdat_body_at):
        idat = b"" if split else box(b"idat", exif)
        return full_box(b"meta", 0, hdlr + pitm + iloc(mdat_body_at) + iinf + iprp + idat)
    mdat_body_at = len(ftyp) + len(meta(0)) + 8
    mdat = box(b"mdat", exif[:half] + b"\xAA" * 100 + exif[half:]) if split else box(b"mdat", b"\0" * 64)
    open(path, "wb").write(ftyp + meta(mdat_body_at) + mdat)

hand_made_heif("heif_exif_in_idat.heic", split=False)
# exiftool does not read Exif from idat: the fields must be jpeg_full.jpg's.
exif_checked("heif_exif_in_idat.heic", like="jpeg_full.jpg", override={"format": 5, "width": 4032, "height": 3024})
hand_made_heif("heif_exif_in_two_extents.heic", split=True)
exif_checked("heif_exif_in_two_extents.heic")

# Ratings and labels in the photo's own XMP (xmp_culling.c), mostly
# written by exiftool: a JPEG's XMP segment, also past the first read;
# digiKam's labels; Microsoft's RatingPercent (MicrosoftPhoto:Rating),
# which is no xmp:Rating; IFD0's XMLPacket in a TIFF, a DNG and a PEF, and
# by hand past the first read and larger than it; a HEIF's XMP item.
RATED = ["-XMP-xmp:Rating=4", "-XMP-xmp:Label=Red"]
picture(320, 240).save("xmp_jpeg_rated.jpg", quality=90)
tags("xmp_jpeg_rated.jpg", *FULL, *RATED)
exif_checked("xmp_jpeg_rated.jpg")
picture(320, 240).save("xmp_jpeg_digikam.jpg", quality=90)
tags("xmp_jpeg_digikam.jpg", "-XMP-digiKam:ColorLabel=6", "-XMP-digiKam:PickLabel=1", "-XMP-digiKam:TagsList=People/Ann")
exif_checked("xmp_jpeg_digikam.jpg", written=False)
picture(320, 240).save("xmp_jpeg_rating_percent.jpg", quality=90)
tags("xmp_jpeg_rating_percent.jpg", "-XMP-microsoft:RatingPercent=80", "-XMP-xmp:Label=Approved")
exif_checked("xmp_jpeg_rating_percent.jpg", written=False)
picture(320, 240).save("rated.jpg", quality=90)
tags("rated.jpg", *OTHER, "-XMP-xmp:Rating=2", "-XMP-xmp:Label=yellow")
segments, rest = jpeg_segments(open("rated.jpg", "rb").read())
with open("xmp_jpeg_far.jpg", "wb") as f:
    f.write(b"\xff\xd8" + junk_segment(60000) + junk_segment(60000) + b"".join(segments) + rest)
exif_checked("xmp_jpeg_far.jpg")
# darktable's reject and colour labels (exiftool does not know the
# labels), in a packet put in by hand, after a Microsoft rating that must
# not count.
darktable_packet = b"""<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:MicrosoftPhoto="http://ns.microsoft.com/photo/1.0/"
    xmlns:darktable="http://darktable.sf.net/"
   MicrosoftPhoto:Rating="99"
   xmp:Rating="-1"
   darktable:xmp_version="5">
   <darktable:colorlabels>
    <rdf:Seq>
     <rdf:li>3</rdf:li>
     <rdf:li>0</rdf:li>
    </rdf:Seq>
   </darktable:colorlabels>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>"""
xmp_segment = b"http://ns.adobe.com/xap/1.0/\0" + darktable_packet
segments, rest = jpeg_segments(open("rated.jpg", "rb").read())
segments = [s for s in segments if not s[4:].startswith(b"http://ns.adobe.com/xap/1.0/")]
with open("xmp_jpeg_darktable.jpg", "wb") as f:
    f.write(b"\xff\xd8" + b"\xff\xe1" + struct.pack(">H", len(xmp_segment) + 2) + xmp_segment + b"".join(segments) + rest)
exif_checked("xmp_jpeg_darktable.jpg", override={"label": 4})
os.remove("rated.jpg")

picture(64, 48).save("xmp_tiff_rated.tif")
tags("xmp_tiff_rated.tif", *OTHER, "-XMP-xmp:Rating=3", "-XMP-xmp:Label=Green")
exif_checked("xmp_tiff_rated.tif")
# By hand, as exiftool moves the packet to the front: IFD0's packet past
# 200 KB, the Exif IFD 100 KB past it (the window goes there and back); and
# a packet of 100 KB, larger than the window, its rating at its start.
def packet(attributes, padding=0):
    return (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            b'<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" ' + attributes + b'/>'
            + b" " * padding + b"</rdf:RDF></x:xmpmeta>")
hand_made_tiff("xmp_tiff_far.tif", ">", xmp=packet(b'xmp:Rating="5" xmp:Label="Purple"'))
exif_checked("xmp_tiff_far.tif")
hand_made_tiff("xmp_tiff_large_packet.tif", "<", xmp=packet(b'xmp:Rating="2"', padding=100000))
exif_checked("xmp_tiff_large_packet.tif")
picture(64, 48).save("xmp_dng_rated.dng", format="TIFF")
tags("xmp_dng_rated.dng", *OTHER, "-DNGVersion=1.4.0.0", "-XMP-xmp:Rating=1", "-XMP-xmp:Label=Blue")
exif_checked("xmp_dng_rated.dng")
shutil.copy("tiff_far_ifds_little_endian.pef", "xmp_pef_rated.pef")
tags("xmp_pef_rated.pef", "-XMP-xmp:Rating=-1")
exif_checked("xmp_pef_rated.pef")

def xmp_packet_at(path):
    """Where IFD0's XMLPacket (tag 700) lies in a TIFF."""
    data = open(path, "rb").read()
    order = ">" if data[:2] == b"MM" else "<"
    at = struct.unpack(order + "I", data[4:8])[0]
    for i in range(struct.unpack(order + "H", data[at:at + 2])[0]):
        tag, kind, count, value = struct.unpack(order + "HHII", data[at + 2 + 12 * i:at + 14 + 12 * i])
        if tag == 700:
            return value
    return None
print(f"xmp_tiff_far.tif: XMP at {xmp_packet_at('xmp_tiff_far.tif')}, "
      f"xmp_dng_rated.dng: at {xmp_packet_at('xmp_dng_rated.dng')}")

if shutil.which("heif-enc"):
    picture(320, 240).save("heic_source.png")
    subprocess.run(["heif-enc", "-q", "50", "heic_source.png", "-o", "xmp_heic_rated.heic"], check=True, capture_output=True)
    os.remove("heic_source.png")
    tags("xmp_heic_rated.heic", *OTHER, "-XMP-xmp:Rating=5", "-XMP-xmp:Label=Purple")
    exif_checked("xmp_heic_rated.heic")
try:
    picture(160, 120).save("xmp_avif_rated.avif", quality=60)
    tags("xmp_avif_rated.avif", *FULL, "-XMP-xmp:Rating=2", "-XMP-digiKam:ColorLabel=4")
    exif_checked("xmp_avif_rated.avif")
except Exception as error:  # Pillow built without AVIF
    print(f"skip: AVIF with XMP ({error})")

# Videos, when ffmpeg is here: Matroska and WebM, AVI, made by ffmpeg and
# rearranged by hand where ffmpeg writes nothing of the kind (Info and
# Tracks after the Clusters, a camera's IDIT), then hostile trees. Each is
# checked against exiftool's duration, size, frame rate, codec and date.
def video_checked(name, like=None, override=None):
    expect[name] = {"source": "video", "like": like or name, "override": override or {}}

def ebml_vint(data, at):
    """A variable-length integer's value (marker kept when it is an ID) and length."""
    length = 9 - data[at].bit_length()
    return int.from_bytes(data[at:at + length], "big"), length

def ebml_children(data, at, end):
    """(ID, the whole element's bytes) of each element in [at, end)."""
    children = []
    while at < end:
        ident, id_length = ebml_vint(data, at)
        size, size_length = ebml_vint(data, at + id_length)
        size &= (1 << (7 * size_length)) - 1
        whole = id_length + size_length + size
        children.append((ident, data[at:at + whole]))
        at += whole
    return children

def ebml(ident, body):
    """An element with an 8-byte size, so that its length is known before its position is."""
    return ident.to_bytes((ident.bit_length() + 7) // 8, "big") + b"\x01" + len(body).to_bytes(7, "big") + body

def seek_head(entries):
    return ebml(0x114D9B74, b"".join(ebml(0x4DBB, ebml(0x53AB, ident.to_bytes(4, "big")) + ebml(0x53AC, position.to_bytes(8, "big")))
                                     for ident, position in entries))

def info_after_clusters(source, name, second_seek_head):
    """The Segment as [SeekHead][Clusters, Cues][Void of 1.1 MB][Info][Tracks][Tags], past the first read
    and the budget; with `second_seek_head`, the first SeekHead points only at a second one at the end."""
    data = open(source, "rb").read()
    (_, header), (segment_id, segment) = ebml_children(data, 0, len(data))
    _, id_length = ebml_vint(segment, 0)
    _, size_length = ebml_vint(segment, id_length)
    children = ebml_children(segment, id_length + size_length, len(segment))
    kept = {ident: whole for ident, whole in children}
    media = b"".join(whole for ident, whole in children if ident in (0x1F43B675, 0x1C53BB6B))
    void = ebml(0xEC, b"\0" * 1_100_000)
    tail = [kept[0x1549A966], kept[0x1654AE6B], kept[0x1254C367]]
    first = seek_head([(0x114D9B74, 0)]) if second_seek_head else seek_head([(0x1549A966, 0), (0x1654AE6B, 0)])
    info_at = len(first) + len(media) + len(void)
    tracks_at = info_at + len(tail[0])
    if second_seek_head:
        second_at = tracks_at + len(tail[1]) + len(tail[2])
        body = (seek_head([(0x114D9B74, second_at)]) + media + void + b"".join(tail)
                + seek_head([(0x1549A966, info_at), (0x1654AE6B, tracks_at)]))
    else:
        body = seek_head([(0x1549A966, info_at), (0x1654AE6B, tracks_at)]) + media + void + b"".join(tail)
    open(name, "wb").write(header + ebml(0x18538067, body))

def with_idit(source, name, text):
    """A camera's IDIT in LIST hdrl, where ffmpeg left a JUNK chunk (no offset moves)."""
    data = bytearray(open(source, "rb").read())
    assert data[12:16] == b"LIST" and data[20:24] == b"hdrl"
    end, at = 20 + struct.unpack("<I", data[16:20])[0], 24
    raw = text.encode() + b"\0"
    idit = b"IDIT" + struct.pack("<I", len(raw)) + raw + b"\0" * (len(raw) & 1)
    while at < end:
        kind, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        if kind == b"JUNK" and size >= len(idit):
            break
        at += 8 + size + (size & 1)
    rest = size - len(idit)
    data[at:at + 8 + size] = idit + b"JUNK" + struct.pack("<I", rest) + b"\0" * rest
    open(name, "wb").write(data)

def ffmpeg(name, *options, rate="25", size="320x240", seconds=5):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc=duration={seconds}:size={size}:rate={rate}",
                    *options, name], check=True)

if shutil.which("ffmpeg"):
    created = ["-metadata", "creation_time=2024-02-29T23:30:00Z"]
    ffmpeg("video_vp9.webm", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", *created)
    video_checked("video_vp9.webm")
    ffmpeg("video_vp8.webm", "-c:v", "libvpx", "-deadline", "realtime", size="160x120", seconds=2)
    video_checked("video_vp8.webm")
    ffmpeg("video_h264.mkv", "-c:v", "libx264", "-preset", "ultrafast", *created)
    video_checked("video_h264.mkv")
    ffmpeg("video_ntsc_mjpeg.mkv", "-c:v", "mjpeg", rate="30000/1001", size="176x144", seconds=2)
    video_checked("video_ntsc_mjpeg.mkv")
    # Streamed: the Segment of unknown size, no Duration.
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=2:size=64x48:rate=25", "-c:v", "libvpx",
                    "-deadline", "realtime", "-f", "webm", "-live", "1", "pipe:1"], stdout=open("video_live.webm", "wb"), check=True)
    video_checked("video_live.webm")
    info_after_clusters("video_h264.mkv", "video_info_at_end.mkv", second_seek_head=False)
    video_checked("video_info_at_end.mkv", like="video_h264.mkv")
    info_after_clusters("video_h264.mkv", "video_second_seek_head.mkv", second_seek_head=True)
    video_checked("video_second_seek_head.mkv", like="video_h264.mkv")
    whole = open("video_h264.mkv", "rb").read()
    open("video_cut_in_tracks.mkv", "wb").write(whole[:whole.index(b"V_MPEG4") + 4])
    expect["video_cut_in_tracks.mkv"] = {"source": "fixed", "fields": {"rc": 0, "format": 10, "is_video": 1,
                                                                     "duration_seconds": 5.0, "width": 0}}
    # AVI: ffmpeg writes ICRD from "date"; a camera's IDIT added by hand, in
    # C's ctime form and in EXIF's.
    ffmpeg("video_mpeg4.avi", "-c:v", "mpeg4", "-metadata", "date=2024-02-29 23:30:00")
    video_checked("video_mpeg4.avi")
    ffmpeg("mjpeg.avi", "-c:v", "mjpeg", rate="30000/1001", size="176x144", seconds=2)
    with_idit("mjpeg.avi", "video_mjpeg_idit.avi", "Thu Feb 29 23:30:00 2024\n")
    os.remove("mjpeg.avi")
    video_checked("video_mjpeg_idit.avi")
    ffmpeg("xvid.avi", "-c:v", "mpeg4", "-vtag", "XVID", "-metadata", "date=2020-01-01", size="160x120", seconds=3)
    with_idit("xvid.avi", "video_xvid_idit.avi", "2008:01:02 02:03:55")
    os.remove("xvid.avi")
    video_checked("video_xvid_idit.avi")
else:
    print("skip: videos (no ffmpeg)")

# Hostile Matroska and AVI: nothing may be read past the bytes, and the
# walks must stop within their bounds.
ebml_header = ebml(0x1A45DFA3, ebml(0x4282, b"matroska"))
unknown = lambda ident: ident.to_bytes((ident.bit_length() + 7) // 8, "big") + b"\xff"
info = ebml(0x1549A966, ebml(0x4489, struct.pack(">d", 2500.0)))
hostile = {
    # Videos in Videos, each of unknown size, 20,000 deep.
    "hostile_deep.mkv": ebml_header + unknown(0x18538067) + info + unknown(0x1654AE6B) + unknown(0xAE)
                        + ebml(0x83, b"\x01") + unknown(0xE0) * 20000 + ebml(0xB0, b"\x40"),
    # 40,000 Void elements before Info: the visits run out first.
    "hostile_voids.mkv": ebml_header + unknown(0x18538067) + b"\xec\x80" * 40000 + info,
    # Sizes past the file and past 2^56, a zero vint, a SeekHead pointing far.
    "hostile_sizes.mkv": ebml_header + b"\x18\x53\x80\x67\x01\xff\xff\xff\xff\xff\xff\xfe" + info
                         + seek_head([(0x1654AE6B, (1 << 63) - 5), (0x1549A966, 0)]) + b"\x16\x54\xae\x6b\x08\0\0\0\0\0\0\0\0"
                         + b"\x00" * 16,
    # A Cluster of unknown size first: skipped, not walked; the SeekHead after it is never read.
    "hostile_unknown_cluster.mkv": ebml_header + unknown(0x18538067) + unknown(0x1F43B675) + b"\xa3\x84\x81\0\0\0" * 1000 + info,
    # An AVI whose RIFF says 0 bytes, LISTs in LISTs and a chunk larger than its list.
    "hostile_lists.avi": b"RIFF\0\0\0\0AVI " + riff_chunk(b"LIST", b"hdrl" + b"LIST\x04\0\0\0strl" * 30000
                                                       + b"LIST\xff\xff\xff\x7fodml") + b"avih\x38\0\0\0",
}
for name, data in hostile.items():
    open(name, "wb").write(data)
    expect[name] = {"source": "fixed", "fields": {"rc": 0, "format": 10, "is_video": 1, "width": 0}}
expect["hostile_deep.mkv"]["fields"]["duration_seconds"] = 2.5
expect["hostile_sizes.mkv"]["fields"]["duration_seconds"] = 2.5
expect["hostile_unknown_cluster.mkv"]["fields"]["duration_seconds"] = 0.0

# Hostile and empty inputs.
open("empty.jpg", "wb").close()
expect["empty.jpg"] = {"source": "fixed", "fields": {"rc": 0, "format": 0, "width": 0, "make": ""}}
open("random.bin", "wb").write(random.randbytes(70000))
expect["random.bin"] = {"source": "fixed", "fields": {"rc": 0, "format": 0, "width": 0}}
picture(10, 10).save("other.gif")
expect["other.gif"] = {"source": "fixed", "fields": {"rc": 0, "format": 6}}
os.mkdir("a_directory")
expect["a_directory"] = {"source": "fixed", "fields": {"rc": -1}}
expect["missing.jpg"] = {"source": "fixed", "fields": {"rc": -1}}

json.dump(expect, open("expect.json", "w"), indent=1)
PY

cd "$work/samples"
mapfile -t names < <(python3 -c 'import json; print("\n".join(json.load(open("expect.json"))))')
exiftool -j -n -q -q "${names[@]}" > exiftool.json 2>/dev/null || true
exiftool -j -n -G1 -q -q -XMP-xmp:Rating -XMP-xmp:Label -XMP-digiKam:ColorLabel -XMP-digiKam:PickLabel "${names[@]}" \
  > exiftool_xmp.json 2>/dev/null || true
"$work/check" --bytes "${names[@]}" > ours.jsonl

python3 - <<'PY'
import calendar, json, time

expect = json.load(open("expect.json"))
theirs = {entry["SourceFile"]: entry for entry in json.load(open("exiftool.json"))}
their_xmp = {entry["SourceFile"]: entry for entry in json.load(open("exiftool_xmp.json"))}
ours = {entry["path"]: entry for entry in map(json.loads, open("ours.jsonl"))}
# exiftool calls a TIFF with RW2's magic but no Panasonic make plain RAW.
formats = {"JPEG": 1, "PNG": 2, "WEBP": 3, "Extended WEBP": 3, "TIFF": 4, "ORF": 4, "RW2": 4, "RAW": 4, "DNG": 4, "PEF": 4, "NEF": 4, "ARW": 4, "CR2": 4,
           "HEIC": 5, "AVIF": 5}
strings = {"date_original": "DateTimeOriginal", "subsec_original": "SubSecTimeOriginal",
           "offset_original": "OffsetTimeOriginal", "make": "Make", "model": "Model", "lens": "LensModel"}

def from_exiftool(e):
    want = {"rc": 0, "format": formats.get(e.get("FileType"), -1)}
    for ours_name, their_name in strings.items():
        want[ours_name] = str(e.get(their_name, ""))
    want["width"], want["height"] = e.get("ImageWidth", 0), e.get("ImageHeight", 0)
    want["orientation"] = e.get("Orientation", 0)
    want["has_gps"] = int("GPSLatitude" in e and "GPSLongitude" in e)
    if want["has_gps"]:
        want["latitude"], want["longitude"] = e["GPSLatitude"], e["GPSLongitude"]
    want.update(culling(their_xmp.get(e["SourceFile"], {})))
    return want

def culling(x):
    """The rating and label by xmp_culling.h's rules, from exiftool's XMP tags."""
    want = {"has_rating": 0, "rating": 0, "label": 0}
    rating = x.get("XMP-xmp:Rating")
    if rating is not None and -1 <= int(float(rating)) <= 5:
        want["has_rating"], want["rating"] = 1, int(float(rating))
    elif x.get("XMP-digiKam:PickLabel") == 1:
        want["has_rating"], want["rating"] = 1, -1
    names = {"red": 1, "yellow": 2, "green": 3, "blue": 4, "purple": 5}
    want["label"] = names.get(str(x.get("XMP-xmp:Label", "")).strip().lower(), 0)
    if want["label"] == 0:
        want["label"] = {1: 1, 3: 2, 4: 3, 5: 4, 6: 5}.get(x.get("XMP-digiKam:ColorLabel"), 0)
    return want

# Matroska's CodecID as the reader names it (MP4's codes).
codec_codes = {"V_MPEG4/ISO/AVC": "avc1", "V_MPEGH/ISO/HEVC": "hvc1", "V_VP9": "vp09", "V_VP8": "vp08", "V_AV1": "av01",
               "V_MJPEG": "mjpg"}

def from_exiftool_video(e):
    want = {"rc": 0, "format": 10, "is_video": 1, "width": e.get("ImageWidth", 0), "height": e.get("ImageHeight", 0),
            "frame_rate": float(e.get("VideoFrameRate", 0))}
    # exiftool says Info's Duration in seconds, and the tracks' DURATION
    # tag ("00:00:05.000000000"); the last one read is kept.
    duration = e.get("Duration", 0)
    if isinstance(duration, str):
        hours, minutes, seconds = duration.split(":")
        duration = int(hours) * 3600 + int(minutes) * 60 + float(seconds)
    want["duration_seconds"] = float(duration)
    if e.get("FileType") in ("MKV", "WEBM"):
        want["video_codec"] = codec_codes.get(e.get("CodecID"), "?")
        # DateUTC, which exiftool gives as "2024:02:29 23:30:00Z".
        date = e.get("DateTimeOriginal")
        want["created_since_1904"] = calendar.timegm(time.strptime(date, "%Y:%m:%d %H:%M:%SZ")) + 2082844800 if date else 0
    else:
        want["video_codec"] = str(e.get("Compression", e.get("VideoCodec", "")))
        # IDIT (DateTimeOriginal), else ICRD (DateCreated); a date alone is at midnight.
        date = str(e.get("DateTimeOriginal", e.get("DateCreated", "")))
        want["date_original"] = date + " 00:00:00" if len(date) == 10 else date
    return want

passed = failed = 0
for name, rule in expect.items():
    got = ours.get(name)
    if rule["source"] == "exiftool":
        want = from_exiftool(theirs[rule["like"]])
        want.update(rule["override"])
        for field in rule["skip"]:
            want.pop(field, None)
    elif rule["source"] == "video":
        want = from_exiftool_video(theirs[rule["like"]])
        want.update(rule["override"])
    else:
        want = rule["fields"]
    problems = []
    if got is None:
        problems.append("no output")
    else:
        for field, value in want.items():
            # exiftool's video durations and rates are rounded to 1 ms and 0.001 fps.
            close = isinstance(value, float) and abs(got[field] - value) < (1e-3 if field in ("duration_seconds", "frame_rate") else 1e-6)
            if got[field] != value and not close:
                problems.append(f"{field}: ours {got[field]!r}, expected {value!r}")
        if got.get("bytes_match") is False:
            problems.append("the in-memory entry point disagrees")
        if rule.get("written") and want["date_original"] == "":
            problems.append("exiftool found no date where one was written")
        if name.startswith("xmp_") and "percent" not in name and not (want.get("has_rating") or want.get("label")):
            problems.append("no rating or label where one was written")
    if problems:
        failed += 1
        print(f"FAIL {name}: " + "; ".join(problems))
    else:
        passed += 1
        shown = ("format", "width", "height", "date_original") + (("rating", "label") if got.get("has_rating") or got.get("label") else ()) + (("duration_seconds", "frame_rate", "video_codec", "created_since_1904") if got.get("is_video") else ())
        fields = ", ".join(f"{k}={got[k]}" for k in shown if k in got)
        print(f"ok   {name} ({rule['source']}: {len(want)} fields; {fields})")
print(f"fields: {passed} passed, {failed} failed")
raise SystemExit(failed != 0)
PY

files=()
for name in "${names[@]}"; do [ -f "$name" ] && files+=("$name"); done
"$work/check" --fuzz 3000 "${files[@]}"

# The speed check: a camera-like JPEG (4000x3000, an APP1 of about 20 KB
# with a thumbnail), hard-linked 20,000 times so it is one file in the page
# cache, read by the -O2 driver on one core.
mkdir "$work/speed"
python3 - "$work/speed" <<'PY'
import os, random, subprocess, sys
from PIL import Image

directory = sys.argv[1]
random.seed(3)
photo = os.path.join(directory, "..", "camera.jpg")
thumb = os.path.join(directory, "..", "thumb.jpg")
image = Image.new("RGB", (4000, 3000))
image.paste(Image.frombytes("RGB", (400, 300), random.randbytes(400 * 300 * 3)).resize((4000, 3000)))
image.save(photo, quality=90)
Image.frombytes("RGB", (160, 120), random.randbytes(160 * 120 * 3)).save(thumb, quality=90)
subprocess.run(["exiftool", "-q", "-q", "-overwrite_original", "-Make=SONY", "-Model=ILCE-7M4",
                "-LensModel=FE 24-70mm F2.8 GM II", "-DateTimeOriginal=2024:05:01 07:30:12",
                "-SubSecTimeOriginal=512", "-OffsetTimeOriginal=+09:00", "-Orientation#=1",
                "-GPSLatitude=35.6586", "-GPSLatitudeRef=N", "-GPSLongitude=139.7454", "-GPSLongitudeRef=E",
                "-Artist=A. Photographer", "-Copyright=All rights reserved", "-ISO=400", "-FNumber=4",
                "-ExposureTime=1/250", "-FocalLength=35", "-Software=ILCE-7M4 v2.00",
                "-UserComment=" + "x" * 1500, "-ThumbnailImage<=" + thumb, photo], check=True)
data = open(photo, "rb").read()
app1 = data.index(b"Exif\0\0") - 4
print(f"speed sample: {len(data) // 1024} KiB, APP1 of {int.from_bytes(data[app1 + 2:app1 + 4], 'big')} bytes")
for i in range(20000):
    os.link(photo, os.path.join(directory, f"IMG_{i:05d}.JPG"))
PY
"$work/check-fast" --speed "$work/speed"
echo "photo header: all checks passed"
