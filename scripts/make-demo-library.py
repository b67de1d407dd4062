#!/usr/bin/env python3
"""Write the demo library `make run` opens: photos that show what the
timeline does in the first minutes.

Usage:  python3 scripts/make-demo-library.py [OUTDIR]   (default demo/library)

The pictures are crops and tints of the demo album's painted landscapes
(demo/album), so each looks like a photo and differs from the others. Each
carries EXIF as a camera writes it (DateTimeOriginal with sub-seconds and
an offset, make, model, lens, and on most a GPS position), over five years:

  Camera/2021 … 2025/   a FUJIFILM X-T4 and a SONY ILCE-7M3 with their lenses
  Phone/                a Pixel 7 (PXL_…) and an iPhone 13 (IMG_…), and a
                        WhatsApp image dated by its name only
  Albums/Lisbon 2023/   two photos copied from Camera/: the same bytes, shown
                        once, each marked ◫2
  Camera/2024/2024-04/  a burst of five frames a quarter second apart, one
                        sharp and the others blurred: one stack
  Phone/                in New York, December 2022: a two-second clip from
                        the Pixel (PXL_….mp4: the movie header's time, in
                        UTC, and 3GPP's location box, as ffmpeg writes
                        them), and a Live Photo from the iPhone (IMG_4030.JPG
                        with IMG_4030.MOV beside it: Apple's creation date,
                        position and content identifier in the MOV's
                        QuickTime keys, the same identifier in the still's
                        MakerNote): one tile marked LIVE

Places: Lisbon, Sintra, Porto, Tokyo, Kyoto, New York, Berlin (home), and
one photo at sea. Needs Pillow (python3-pil) and ffmpeg (with libx264) for
the two videos. Seeded: the same files each run. Writes about 850 KB.
"""

from __future__ import annotations

import random
import shutil
import struct
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from PIL import Image, ImageEnhance, ImageFilter, TiffTags
from PIL.TiffImagePlugin import IFDRational

REPO = Path(__file__).resolve().parents[1]
ALBUM = REPO / "demo" / "album"
SIZE = (720, 480)

CAMERAS = {
    "xt4": ("FUJIFILM", "X-T4", "XF16-80mmF4 R OIS WR"),
    "a7": ("SONY", "ILCE-7M3", "FE 24-70mm F2.8 GM"),
    "pixel": ("Google", "Pixel 7", "Pixel 7 back camera 6.81mm f/1.85"),
    "iphone": ("Apple", "iPhone 13", "iPhone 13 back dual wide camera 5.1mm f/1.6"),
}

PLACES = {
    "lisbon": (38.7077, -9.1365, "+01:00"),
    "sintra": (38.7979, -9.3906, "+01:00"),
    "porto": (41.1496, -8.6109, "+01:00"),
    "tokyo": (35.6595, 139.7005, "+09:00"),
    "kyoto": (35.0116, 135.7681, "+09:00"),
    "newyork": (40.7580, -73.9855, "-05:00"),
    "berlin": (52.5200, 13.4050, "+01:00"),
    "sea": (38.2000, -12.4000, "+01:00"),
}

# (when, camera, place, folder) — the library's story, newest last.
SHOTS = [
    ("2021-08-07 18:42", "xt4", "berlin", "Camera/2021/2021-08"),
    ("2021-08-07 19:05", "xt4", "berlin", "Camera/2021/2021-08"),
    ("2021-12-24 17:30", "iphone", "berlin", "Phone"),
    ("2022-05-14 11:20", "pixel", "berlin", "Phone"),
    ("2022-12-03 10:12", "a7", "newyork", "Camera/2022/2022-12"),
    ("2022-12-03 15:48", "a7", "newyork", "Camera/2022/2022-12"),
    ("2022-12-04 09:30", "iphone", "newyork", "Phone"),
    ("2022-12-05 20:02", "a7", "newyork", "Camera/2022/2022-12"),
    ("2023-06-12 09:15", "xt4", "lisbon", "Camera/2023/2023-06"),
    ("2023-06-12 12:40", "xt4", "lisbon", "Camera/2023/2023-06"),
    ("2023-06-12 19:55", "pixel", "lisbon", "Phone"),
    ("2023-06-13 10:05", "xt4", "sintra", "Camera/2023/2023-06"),
    ("2023-06-13 11:32", "xt4", "sintra", "Camera/2023/2023-06"),
    ("2023-06-14 16:20", "xt4", "porto", "Camera/2023/2023-06"),
    ("2023-06-15 13:00", "xt4", "sea", "Camera/2023/2023-06"),
    ("2023-09-02 08:45", "pixel", "berlin", "Phone"),
    ("2024-04-03 07:50", "a7", "tokyo", "Camera/2024/2024-04"),
    ("2024-04-03 13:10", "pixel", "tokyo", "Phone"),
    ("2024-04-05 10:25", "a7", "kyoto", "Camera/2024/2024-04"),
    ("2024-04-05 15:40", "a7", "kyoto", "Camera/2024/2024-04"),
    ("2024-04-06 09:00", "pixel", "kyoto", "Phone"),
    ("2024-10-19 14:14", "iphone", "berlin", "Phone"),
    ("2025-02-08 12:00", "xt4", "berlin", "Camera/2025/2025-02"),
    ("2025-05-31 18:30", "pixel", "berlin", "Phone"),
    ("2025-06-01 09:12", "pixel", "berlin", "Phone"),
]
# Copied into the album: the first two of Lisbon (same bytes).
COPIED = ["2023-06-12 09:15", "2023-06-12 12:40"]
# The burst: five frames from 2024-04-05 15:40:10, the third sharp.
BURST_AT, BURST_FRAMES, BURST_SHARP = "2024-04-05 15:40:10", 5, 2
# The videos, made after everything above from a random stream of their
# own, so the photos' bytes do not depend on them. The clip's name is the
# Pixel's (its local time); its header keeps UTC, 14:05 for 09:05 in New
# York, so it stays on the 3rd on most of the world's clocks.
CLIP_AT, CLIP_PLACE = "2022-12-03 09:05:12.345", "newyork"
LIVE_AT, LIVE_PLACE, LIVE_NAME = "2022-12-04 09:45:31.250", "newyork", "IMG_4030"
LIVE_ID = "6B1D4E9C-2F0A-4C55-9E1B-7D3A8F20C4E1"
VIDEO_SIZE, VIDEO_RATE = (360, 240), 15


# A MakerNote is UNDEFINED bytes (type 7), as cameras write it and the
# picker's header reader expects; Pillow would store bytes of a tag it has
# no type for as BYTE.
TiffTags.TAGS_V2_GROUPS.setdefault(0x8769, {})[0x927C] = TiffTags.TagInfo(0x927C, "MakerNote", TiffTags.UNDEFINED, 0)


def rational(value: float, scale: int = 10000) -> IFDRational:
    return IFDRational(round(value * scale), scale)


def dms(value: float) -> tuple:
    value = abs(value)
    degrees = int(value)
    minutes = int((value - degrees) * 60)
    seconds = (value - degrees - minutes / 60) * 3600
    return (IFDRational(degrees, 1), IFDRational(minutes, 1), rational(seconds, 100))


def apple_maker_note(content_id: str) -> bytes:
    """Apple's MakerNote as an iPhone writes it: "Apple iOS", a version,
    the byte order, then one IFD whose offsets count from the note's start;
    tag 0x11 is the content identifier the Live Photo's MOV shares."""
    text = content_id.encode() + b"\0"
    ifd_at = 14
    data_at = ifd_at + 2 + 12 + 4
    head = b"Apple iOS\0" + b"\0\x01" + b"MM"
    entry = struct.pack(">HHII", 0x0011, 2, len(text), data_at)
    return head + struct.pack(">H", 1) + entry + struct.pack(">I", 0) + text


def exif(camera: str, place: str, when: datetime, content_id: str | None = None) -> Image.Exif:
    make, model, lens = CAMERAS[camera]
    latitude, longitude, offset = PLACES[place]
    data = Image.Exif()
    data[0x010F] = make
    data[0x0110] = model
    data[0x8769] = {
        0x9003: when.strftime("%Y:%m:%d %H:%M:%S"),
        0x9291: f"{when.microsecond // 10000:02d}",
        0x9011: offset,
        0xA434: lens,
    }
    if content_id is not None:
        data[0x8769][0x927C] = apple_maker_note(content_id)
    data[0x8825] = {
        0: b"\x02\x03\x00\x00",
        1: "N" if latitude >= 0 else "S",
        2: dms(latitude),
        3: "E" if longitude >= 0 else "W",
        4: dms(longitude),
    }
    return data


def name(camera: str, when: datetime, counter: int) -> str:
    if camera == "pixel":
        return f"PXL_{when:%Y%m%d_%H%M%S}{when.microsecond // 1000:03d}.jpg"
    if camera == "iphone":
        return f"IMG_{4000 + counter:04d}.JPG"
    if camera == "a7":
        return f"DSC{5000 + counter:05d}.JPG"
    return f"DSCF{1000 + counter:04d}.JPG"


def picture(bases: list[Image.Image], rng: random.Random) -> Image.Image:
    """A crop of one painted landscape, moved, scaled and tinted."""
    base = rng.choice(bases)
    scale = rng.uniform(1.0, 1.6)
    width, height = int(SIZE[0] * scale), int(SIZE[1] * scale)
    image = base.resize((max(width, base.width), max(height, base.height)))
    left = rng.randint(0, image.width - SIZE[0])
    top = rng.randint(0, image.height - SIZE[1])
    image = image.crop((left, top, left + SIZE[0], top + SIZE[1]))
    image = ImageEnhance.Color(image).enhance(rng.uniform(0.7, 1.3))
    return ImageEnhance.Brightness(image).enhance(rng.uniform(0.85, 1.15))


def iso6709(place: str) -> str:
    latitude, longitude, _ = PLACES[place]
    return f"{latitude:+08.4f}{longitude:+09.4f}/"


def utc(when: datetime, place: str) -> str:
    """The place's local time as UTC, as a movie header keeps it."""
    offset = PLACES[place][2]
    hours, minutes = int(offset[1:3]), int(offset[4:6])
    delta = timedelta(hours=hours, minutes=minutes) * (1 if offset[0] == "+" else -1)
    return (when - delta).strftime("%Y-%m-%dT%H:%M:%SZ")


def video(path: Path, frames: list[Image.Image], metadata: dict[str, str], quicktime_keys: bool) -> None:
    """Frames to H.264 through ffmpeg, small and the same bytes each run:
    one thread, no encoder version or settings in the file (the x264 SEI
    is dropped), the metadata given and nothing else."""
    width, height = frames[0].size
    command = ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}",
               "-r", str(VIDEO_RATE), "-i", "-", "-map_metadata", "-1", "-c:v", "libx264", "-preset", "slow",
               "-crf", "32", "-pix_fmt", "yuv420p", "-threads", "1", "-bsf:v", "filter_units=remove_types=6",
               "-fflags", "+bitexact", "-flags:v", "+bitexact"]
    for key, value in metadata.items():
        command += ["-metadata", f"{key}={value}"]
    if quicktime_keys:
        command += ["-movflags", "use_metadata_tags"]
    subprocess.run(command + [str(path)], input=b"".join(frame.tobytes() for frame in frames), check=True)


def drift(scene: Image.Image, seconds: float, zoom: float, rng: random.Random) -> list[Image.Image]:
    """A slow pan and zoom over `scene`, as a hand-held phone gives."""
    count = round(seconds * VIDEO_RATE)
    dx, dy = rng.uniform(-0.12, 0.12), rng.uniform(-0.08, 0.08)
    frames = []
    for i in range(count):
        t = i / (count - 1)
        scale = 1 + zoom * t
        width, height = scene.width / scale, scene.height / scale
        left = (scene.width - width) / 2 + dx * t * scene.width / 2
        top = (scene.height - height) / 2 + dy * t * scene.height / 2
        box = (left, top, left + width, top + height)
        frames.append(scene.resize(VIDEO_SIZE, Image.BICUBIC, box=box))
    return frames


def videos(out: Path, bases: list[Image.Image]) -> None:
    """The Pixel's clip, and the iPhone's Live Photo: a still and its MOV."""
    rng = random.Random(1203)
    clip_at = datetime.strptime(CLIP_AT, "%Y-%m-%d %H:%M:%S.%f")
    clip = out / "Phone" / f"PXL_{clip_at:%Y%m%d_%H%M%S}{clip_at.microsecond // 1000:03d}.mp4"
    video(clip, drift(picture(bases, rng), 2.0, 0.25, rng),
          {"creation_time": utc(clip_at, CLIP_PLACE), "location": iso6709(CLIP_PLACE)}, quicktime_keys=False)
    live_at = datetime.strptime(LIVE_AT, "%Y-%m-%d %H:%M:%S.%f")
    scene = picture(bases, rng)
    scene.save(out / "Phone" / f"{LIVE_NAME}.JPG", "JPEG", quality=78,
               exif=exif("iphone", LIVE_PLACE, live_at, content_id=LIVE_ID))
    make, model, _ = CAMERAS["iphone"]
    offset = PLACES[LIVE_PLACE][2].replace(":", "")
    video(out / "Phone" / f"{LIVE_NAME}.MOV", drift(scene, 1.5, 0.06, rng),
          {"creation_time": utc(live_at, LIVE_PLACE),
           "com.apple.quicktime.creationdate": f"{live_at:%Y-%m-%dT%H:%M:%S}{offset}",
           "com.apple.quicktime.location.ISO6709": iso6709(LIVE_PLACE),
           "com.apple.quicktime.make": make, "com.apple.quicktime.model": model,
           "com.apple.quicktime.content.identifier": LIVE_ID}, quicktime_keys=True)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "demo" / "library"
    if shutil.which("ffmpeg") is None:
        sys.exit("make-demo-library: ffmpeg is needed for the demo's videos (apt-get install ffmpeg)")
    if out.exists():
        shutil.rmtree(out)
    rng = random.Random(2023)
    bases = [Image.open(path).convert("RGB") for path in sorted(ALBUM.rglob("*")) if path.suffix in (".jpg", ".png")]
    written: dict[str, Path] = {}
    for counter, (at, camera, place, folder) in enumerate(SHOTS):
        when = datetime.strptime(at, "%Y-%m-%d %H:%M") + timedelta(milliseconds=rng.randint(0, 999))
        path = out / folder / name(camera, when, counter)
        path.parent.mkdir(parents=True, exist_ok=True)
        picture(bases, rng).save(path, "JPEG", quality=78, exif=exif(camera, place, when))
        written[at] = path
    # A WhatsApp image: no EXIF, the day in its name.
    whatsapp = out / "Phone" / "WhatsApp Images" / "IMG-20230616-WA0003.jpg"
    whatsapp.parent.mkdir(parents=True, exist_ok=True)
    picture(bases, rng).resize((640, 427)).save(whatsapp, "JPEG", quality=70)
    # The copies: the same bytes in an album folder.
    album = out / "Albums" / "Lisbon 2023"
    album.mkdir(parents=True, exist_ok=True)
    for at in COPIED:
        shutil.copyfile(written[at], album / written[at].name)
    # The burst: one scene, moved a little and blurred but for one frame.
    scene = picture(bases, rng).resize((SIZE[0] + 24, SIZE[1] + 24))
    start = datetime.strptime(BURST_AT, "%Y-%m-%d %H:%M:%S")
    for frame in range(BURST_FRAMES):
        when = start + timedelta(milliseconds=250 * frame)
        dx, dy = rng.randint(0, 24), rng.randint(0, 24)
        image = scene.crop((dx, dy, dx + SIZE[0], dy + SIZE[1]))
        if frame != BURST_SHARP:
            image = image.filter(ImageFilter.GaussianBlur(rng.uniform(1.5, 3.0)))
        path = out / "Camera" / "2024" / "2024-04" / f"DSC{5100 + frame:05d}.JPG"
        image.save(path, "JPEG", quality=78, exif=exif("a7", "kyoto", when))
    videos(out, bases)
    total = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    print(f"{out}: {sum(1 for p in out.rglob('*') if p.is_file())} files, {total // 1024} KB")


if __name__ == "__main__":
    main()
