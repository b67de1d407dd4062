#!/usr/bin/env python3
"""Phone-like HEIC bursts for measuring what indexing costs on them: the
frames of scripts/make-bursts.py, enlarged to a phone's 4032x3024 and
encoded by heif-enc (libheif, x265) the way phones write them, in a grid
of tiles, with the burst's dates copied in by exiftool. Half carry a
320x240 thumbnail item (as iPhones write), half none (as many Android
phones and exports do), so both of the decoder's paths are timed.

    scripts/make-heic-bursts.py FOLDER [--scenes N] [--size 4032x3024]

Needs heif-enc (libheif-examples), exiftool and Pillow.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--scenes", type=int, default=6)
    parser.add_argument("--size", default="4032x3024")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    args.folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        frames = Path(scratch) / "frames"
        subprocess.run([sys.executable, str(HERE / "make-bursts.py"), str(frames), "--scenes", str(args.scenes)],
                       check=True, stdout=subprocess.DEVNULL)
        for index, jpeg in enumerate(sorted(frames.glob("*.jpg"))):
            png = Path(scratch) / (jpeg.stem + ".png")
            Image.open(jpeg).convert("RGB").resize((width, height), Image.LANCZOS).save(png)
            heic = args.folder / (jpeg.stem + ".heic")
            thumbnail = ["-t", "320"] if index % 2 == 0 else []
            subprocess.run(["heif-enc", "-q", "70", *thumbnail, str(png), "-o", str(heic)], check=True,
                           stdout=subprocess.DEVNULL)
            subprocess.run(["exiftool", "-q", "-q", "-overwrite_original", "-tagsFromFile", str(jpeg),
                            "-DateTimeOriginal", "-SubSecTimeOriginal", "-Make", "-Model", str(heic)], check=True)
            png.unlink()
    print(f"{len(list(args.folder.glob('*.heic')))} HEIC frames in {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
