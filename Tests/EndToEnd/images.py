"""Real image files for the end-to-end tests, written with the standard
library (PNG, by scripts/photo_bytes.py) or copied from the demo album
(camera-like JPEGs)."""

import shutil
import sys
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "demo" / "album"
sys.path.insert(0, str(REPO / "scripts"))
import photo_bytes  # noqa: E402  (needs the path above)

RGB = tuple[int, int, int]


def png_bytes(width: int, height: int, pixel: Callable[[int, int], RGB], text: dict[str, str] | None = None) -> bytes:
    rgb = b"".join(bytes(pixel(x, y)) for y in range(height) for x in range(width))
    return photo_bytes.png_bytes(width, height, rgb, text)


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
