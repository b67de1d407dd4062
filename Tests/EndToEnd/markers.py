"""The four-quadrant marker picture and how to read a thumbnail of it:
top-left red, top-right green, bottom-left blue, bottom-right white. Every
turn and every mirror of it reads differently, so the colours at the four
quadrant centres tell at once whether a thumbnail came out upright."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from PIL import Image

RGB = tuple[int, int, int]
RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)
MARKER: tuple[RGB, RGB, RGB, RGB] = (RED, GREEN, BLUE, WHITE)
# Per channel: JPEG and scaling blur the quadrants' edges, never their
# centres by this much, while a wrong turn or mirror moves a colour by 255.
TOLERANCE = 40


def quadrants(width: int, height: int) -> Image.Image:
    image = Image.new("RGB", (width, height))
    for x0, y0, colour in ((0, 0, RED), (1, 0, GREEN), (0, 1, BLUE), (1, 1, WHITE)):
        image.paste(colour, (x0 * width // 2, y0 * height // 2, (x0 + 1) * width // 2, (y0 + 1) * height // 2))
    return image


def near(a: Sequence[int], b: Sequence[int], tolerance: int = TOLERANCE) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def quadrant_samples(image: Image.Image) -> list[RGB]:
    """The colour at the centre of each quadrant: TL, TR, BL, BR."""
    image = image.convert("RGB")
    w, h = image.size
    return [image.getpixel((x, y)) for y in (h // 4, 3 * h // 4) for x in (w // 4, 3 * w // 4)]


def assert_upright_quadrants(
    path: Path | str, size: int, colours: Sequence[RGB] = MARKER, tolerance: int = TOLERANCE
) -> tuple[int, int]:
    """The thumbnail at `path` fits in `size` and shows `colours` upright;
    returns its size."""
    image = Image.open(path).convert("RGB")
    assert max(image.size) <= size, image.size
    samples = quadrant_samples(image)
    assert all(near(got, want, tolerance) for got, want in zip(samples, colours)), samples
    return image.size
