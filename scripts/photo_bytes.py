"""Photo files built byte by byte, for the scripts that make test photos and
for the end-to-end tests and test servers.

Pillow lays EXIF out its own way (its byte order, its placing of values)
and writes no IFD1 with a thumbnail. The photos here must be laid out as
cameras lay them out (either byte order, Exif and GPS IFDs, a JPEG
thumbnail in IFD1) and some must hold what no tool would write (impossible
dates), so the TIFF structure is packed here. The standard library is all
this module needs: the photo server and the tests' PNG writer never needed
Pillow, and run where it is missing.

TIFF entries are (tag, type, values): a str for ASCII, bytes (or a list of
ints) for BYTE and UNDEFINED, a list of ints for SHORT and LONG, a list of
(numerator, denominator) pairs for RATIONAL and SRATIONAL. Byte orders are
named as the TIFF header names them: "II" little-endian, "MM" big-endian.

Scripts run as scripts/NAME.py find this module next to them; tests put
the repository's scripts/ folder on sys.path first.
"""

from __future__ import annotations

import struct
import zlib
from typing import Iterable, Sequence

BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED, SRATIONAL = 1, 2, 3, 4, 5, 7, 10
Entry = tuple[int, int, object]  # (tag, type, values)

# Tags this module fills in itself: IFD0's pointers to the Exif and GPS
# IFDs and IFD1's description of its JPEG thumbnail.
EXIF_IFD_POINTER, GPS_IFD_POINTER = 0x8769, 0x8825
COMPRESSION, JPEG_OFFSET, JPEG_LENGTH = 0x0103, 0x0201, 0x0202

_STRUCT_ORDER = {"II": "<", "MM": ">"}
_FORMAT = {SHORT: "H", LONG: "I", RATIONAL: "II", SRATIONAL: "ii"}

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------
# TIFF and EXIF


def tiff_header(order: str, first_ifd: int = 8) -> bytes:
    """The 8-byte TIFF header: byte order, 42, where IFD0 starts (8 when it
    follows right away, as in EXIF; a DNG may put its image data first)."""
    return order.encode("ascii") + struct.pack(_STRUCT_ORDER[order] + "HI", 42, first_ifd)


def _values(e: str, kind: int, values: object) -> tuple[int, bytes]:
    """An entry's count and its values packed in byte order e."""
    if kind == ASCII:
        raw = values.encode("ascii") + b"\0"
        return len(raw), raw
    if kind in (BYTE, UNDEFINED):
        return len(values), bytes(values)
    if kind in (RATIONAL, SRATIONAL):
        return len(values), b"".join(struct.pack(e + _FORMAT[kind], *pair) for pair in values)
    return len(values), struct.pack(e + _FORMAT[kind] * len(values), *values)


def ifd(order: str, entries: Iterable[Entry], at: int, next_ifd: int = 0) -> bytes:
    """One IFD to be placed `at` bytes after the TIFF header: the entries in
    ascending tag order (as TIFF requires), the next IFD's offset, then each
    value longer than four bytes. Those are padded to an even length, so
    each starts on a word boundary and so does whatever follows the IFD.
    Values of four bytes or less sit in the entry, left-justified in either
    byte order."""
    e = _STRUCT_ORDER[order]
    entries = sorted(entries, key=lambda entry: entry[0])
    table = [struct.pack(e + "H", len(entries))]
    outside = []
    outside_at = at + 2 + 12 * len(entries) + 4
    for tag, kind, values in entries:
        count, raw = _values(e, kind, values)
        if len(raw) <= 4:
            table.append(struct.pack(e + "HHI", tag, kind, count) + raw.ljust(4, b"\0"))
        else:
            table.append(struct.pack(e + "HHII", tag, kind, count, outside_at))
            raw += b"\0" * (len(raw) & 1)
            outside.append(raw)
            outside_at += len(raw)
    table.append(struct.pack(e + "I", next_ifd))
    return b"".join(table + outside)


def exif_tiff(order: str, ifd0: Sequence[Entry], exif: Sequence[Entry], gps: Sequence[Entry] = (),
              ifd1: Sequence[Entry] = (), thumbnail: bytes | None = None) -> bytes:
    """A camera's EXIF block (what follows "Exif\\0\\0"): header, IFD0, the
    Exif IFD, the GPS IFD if there are GPS entries, and with a thumbnail
    IFD1 and the thumbnail JPEG after it, in that order.

    The links are filled in here: IFD0 gets the Exif (and GPS) IFD pointer
    and points on to IFD1; IFD1 gets Compression 6 (JPEG) and the
    thumbnail's offset and length, besides `ifd1`'s entries. An IFD's size
    does not depend on the offsets in it (all sit inside their entries), so
    the layout is measured with zeros first."""
    def size(entries):
        return len(ifd(order, entries, 0))

    def ifd0_linked(exif_at, gps_at):
        return [*ifd0, (EXIF_IFD_POINTER, LONG, [exif_at])] + ([(GPS_IFD_POINTER, LONG, [gps_at])] if gps else [])

    def ifd1_linked(thumbnail_at):
        return [*ifd1, (COMPRESSION, SHORT, [6]), (JPEG_OFFSET, LONG, [thumbnail_at]),
                (JPEG_LENGTH, LONG, [len(thumbnail)])]

    exif_at = 8 + size(ifd0_linked(0, 0))
    gps_at = exif_at + size(exif)
    ifd1_at = gps_at + (size(gps) if gps else 0)
    parts = [tiff_header(order), ifd(order, ifd0_linked(exif_at, gps_at), 8, ifd1_at if thumbnail else 0),
             ifd(order, exif, exif_at)]
    if gps:
        parts.append(ifd(order, gps, gps_at))
    if thumbnail:
        thumbnail_at = ifd1_at + size(ifd1_linked(0))
        parts += [ifd(order, ifd1_linked(thumbnail_at), ifd1_at), thumbnail]
    return b"".join(parts)


# --------------------------------------------------------------------------
# Into JPEG, PNG and WebP


def jpeg_segment(marker: int, payload: bytes) -> bytes:
    """A marker segment (FF marker, length, payload); the length counts
    itself and is 16 bits, so a payload holds at most 65533 bytes."""
    if len(payload) + 2 > 0xFFFF:
        raise ValueError("segment payload too long: %d bytes" % len(payload))
    return bytes((0xFF, marker)) + struct.pack(">H", len(payload) + 2) + payload


def jpeg_with_exif(jpeg: bytes, tiff: bytes) -> bytes:
    """The JPEG with an EXIF APP1 right after SOI, where cameras write it
    and readers look first. A JFIF APP0 would have to come before it, so
    `jpeg` should have none (cameras write none)."""
    return jpeg[:2] + jpeg_segment(0xE1, b"Exif\0\0" + tiff) + jpeg[2:]


def png_chunk(kind: bytes, body: bytes) -> bytes:
    """Length, type, body, and the CRC of type and body."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_head(width: int, height: int) -> bytes:
    """Signature and IHDR of an 8-bit RGB PNG, not interlaced: the start of
    every PNG here, and all of a header that only claims a size."""
    return PNG_SIGNATURE + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))


def png_from_scanlines(width: int, height: int, scanlines: bytes, level: int = 6,
                       text: dict[str, str] | None = None) -> bytes:
    """An 8-bit RGB PNG from its scanlines (each row's filter type byte,
    then the filtered row), deflated at `level` (6 is zlib's default); tEXt
    chunks (key, value) go before the image data, where a reader finds them
    without inflating it."""
    texts = [png_chunk(b"tEXt", key.encode() + b"\0" + value.encode()) for key, value in (text or {}).items()]
    return b"".join([png_head(width, height), *texts, png_chunk(b"IDAT", zlib.compress(scanlines, level)),
                     png_chunk(b"IEND", b"")])


def png_bytes(width: int, height: int, rgb: bytes, text: dict[str, str] | None = None) -> bytes:
    """An 8-bit RGB PNG of `rgb` (rows of R, G, B bytes), every row
    unfiltered: the pictures made this way are small, or noisy on purpose,
    and row filters would gain them little."""
    stride = width * 3
    scanlines = b"".join(b"\0" + rgb[y * stride:(y + 1) * stride] for y in range(height))
    return png_from_scanlines(width, height, scanlines, text=text)


def png_after_ihdr(png: bytes, kind: bytes, body: bytes) -> bytes:
    """The PNG with a chunk inserted right after IHDR (which always ends at
    byte 33): before the image data, where eXIf must be and a tEXt is read
    early."""
    return png[:33] + png_chunk(kind, body) + png[33:]


def png_with_exif(png: bytes, tiff: bytes) -> bytes:
    """The PNG with an eXIf chunk holding the TIFF block."""
    return png_after_ihdr(png, b"eXIf", tiff)


def webp_with_exif(webp: bytes, tiff: bytes, width: int, height: int) -> bytes:
    """A simple WebP (one VP8 or VP8L chunk, as Pillow writes it without
    metadata) turned into the extended format, the only one that carries
    EXIF: a VP8X chunk with the EXIF flag and the canvas size first, the
    image chunk as it was, then an EXIF chunk (padded to an even length, as
    every RIFF chunk is)."""
    vp8x = struct.pack("<IB3x", 10, 0x08) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    body = (b"VP8X" + vp8x + webp[12:] + b"EXIF" + struct.pack("<I", len(tiff)) + tiff
            + b"\0" * (len(tiff) & 1))
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body
