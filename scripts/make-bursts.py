#!/usr/bin/env python3
"""A set of photos for judging stacks (picker-bench stacks): bursts made by
shifting and blurring one scene by known amounts, mixed with the shots that
must not stack: the same scene an hour later, and another scene within half
a second (the camera turned).

    scripts/make-bursts.py FOLDER [--scenes N] [--seed S]

Each scene is random shapes over a fine texture (so blur shows). A burst is
3 to 8 frames 0.25 s apart, each moved by 0-12 px; one frame is sharp, the
others blurred by a Gaussian of radius 0.8 to 3 px (known). Dates go in
EXIF DateTimeOriginal and SubSecTimeOriginal. FOLDER/manifest.json lists
every file with its true stack and, per burst, the sharp frame.
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import datetime, timedelta
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

WIDTH, HEIGHT = 1200, 800
MARGIN = 16  # the crop window moves inside this


def scene(rng: random.Random) -> Image.Image:
    image = Image.effect_noise((WIDTH + 2 * MARGIN, HEIGHT + 2 * MARGIN), 30).convert("RGB")
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randint(10, 18)):
        x0, y0 = rng.randint(0, WIDTH), rng.randint(0, HEIGHT)
        x1, y1 = x0 + rng.randint(60, 500), y0 + rng.randint(60, 400)
        colour = tuple(rng.randint(0, 255) for _ in range(3))
        (draw.ellipse if rng.random() < 0.5 else draw.rectangle)([x0, y0, x1, y1], fill=colour)
    # A fine texture over the shapes: what blur takes away.
    texture = Image.effect_noise(image.size, 60).convert("RGB")
    return Image.blend(image, texture, 0.25)


def frame(base: Image.Image, dx: int, dy: int, blur: float) -> Image.Image:
    cropped = base.crop((MARGIN + dx, MARGIN + dy, MARGIN + dx + WIDTH, MARGIN + dy + HEIGHT))
    return cropped.filter(ImageFilter.GaussianBlur(blur)) if blur > 0 else cropped


def save(image: Image.Image, path: Path, when: datetime) -> None:
    exif = Image.Exif()
    exif_ifd = {0x9003: when.strftime("%Y:%m:%d %H:%M:%S"), 0x9291: f"{when.microsecond // 1000:03d}"}
    exif[0x8769] = exif_ifd
    image.save(path, "JPEG", quality=90, exif=exif)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    random.seed(args.seed)  # effect_noise draws from C's rand; the shapes are ours
    args.folder.mkdir(parents=True, exist_ok=True)
    files, bursts = [], []
    clock = datetime(2024, 5, 1, 9, 0, 0)
    stack = 0
    for number in range(args.scenes):
        base = scene(rng)
        count = rng.randint(3, 8)
        sharp = rng.randrange(count)
        names = []
        for index in range(count):
            when = clock + timedelta(milliseconds=250 * index)
            blur = 0.0 if index == sharp else rng.choice([0.8, 1.2, 1.8, 2.5, 3.0])
            name = f"s{number:03d}_{index:02d}.jpg"
            save(frame(base, rng.randint(0, 12), rng.randint(0, 12), blur), args.folder / name, when)
            files.append({"file": name, "stack": stack, "blur": blur})
            names.append(name)
        bursts.append({"stack": stack, "files": names, "sharpest": names[sharp]})
        stack += 1
        last = clock + timedelta(milliseconds=250 * (count - 1))
        if rng.random() < 0.5:
            # The camera turned: another scene half a second later.
            name = f"s{number:03d}_turned.jpg"
            save(frame(scene(rng), 6, 6, 0), args.folder / name, last + timedelta(milliseconds=500))
            files.append({"file": name, "stack": stack, "blur": 0})
            stack += 1
        if rng.random() < 0.5:
            # The same scene an hour later.
            name = f"s{number:03d}_later.jpg"
            save(frame(base, 6, 6, 0), args.folder / name, last + timedelta(hours=1))
            files.append({"file": name, "stack": stack, "blur": 0})
            stack += 1
        clock = last + timedelta(hours=2)
    (args.folder / "manifest.json").write_text(json.dumps({"files": files, "bursts": bursts}, indent=1))
    print(f"{len(files)} photos, {len(bursts)} bursts in {args.folder}")


if __name__ == "__main__":
    main()
