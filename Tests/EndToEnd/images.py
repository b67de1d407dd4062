"""Real image files for the end-to-end tests, written with the standard
library (PNG) or copied from the demo album (camera-like JPEGs)."""

import shutil
import struct
import zlib
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "demo" / "album"

RGB = tuple[int, int, int]


def png_bytes(width: int, height: int, pixel: Callable[[int, int], RGB], text: dict[str, str] | None = None) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    texts = b"".join(chunk(b"tEXt", key.encode() + b"\x00" + value.encode()) for key, value in (text or {}).items())
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + texts + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def write_png(path: Path, width: int, height: int, pixel: Callable[[int, int], RGB], text: dict[str, str] | None = None) -> Path:
    path.write_bytes(png_bytes(width, height, pixel, text))
    return path


def solid(color: RGB) -> Callable[[int, int], RGB]:
    return lambda x, y: color


def gradient(x: int, y: int) -> RGB:
    return ((x * 7) % 256, (y * 5) % 256, ((x + y) * 3) % 256)


def demo_photos(folder: Path) -> list[str]:
    """Copies the demo album's top-level photos (real JPEGs and a PNG)."""
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for photo in sorted(DEMO.iterdir()):
        if photo.is_file():
            shutil.copy(photo, folder / photo.name)
            names.append(photo.name)
    return names
