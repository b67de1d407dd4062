"""Every date a camera, a phone or an export writes, written here with
exiftool (XMP, IPTC, IFD0's DateTimeOriginal, an XMP sidecar) or as Google
Takeout writes its JSON, in its three name forms: `index --stats` counts
each origin, `:` lands on each photo's day, and the facts name where the
date came from."""

from __future__ import annotations

import datetime
import json
import struct
import subprocess
from pathlib import Path

import pytest

from images import DEMO

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

# name: (the date the picker should give, the origin it should name)
EXPECTED = {
    "export.jpg": (datetime.date(2018, 7, 21), "XMP"),
    "news.jpg": (datetime.date(2015, 9, 10), "IPTC"),
    "olympus.jpg": (datetime.date(2009, 5, 3), "EXIF"),
    "edited.jpg": (datetime.date(2016, 5, 5), "XMP sidecar"),
    "takeout.jpg": (datetime.date(2021, 8, 1), "Google Takeout"),
    "supplement.jpg": (datetime.date(2020, 3, 15), "Google Takeout"),
    "copy(1).jpg": (datetime.date(2012, 12, 24), "Google Takeout"),
}


def plain_jpeg(name: str) -> bytes:
    """A demo landscape with no metadata at all (its JFIF header dropped),
    its name in a comment: byte-identical photos would be one, as copies."""
    jpeg = (DEMO / "IMG_2.jpg").read_bytes()
    if jpeg[2:4] == b"\xff\xe0":
        jpeg = jpeg[:2] + jpeg[4 + struct.unpack(">H", jpeg[4:6])[0]:]
    comment = name.encode()
    return jpeg[:2] + b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment + jpeg[2:]


def exiftool(*args: str) -> None:
    subprocess.run(["exiftool", "-q", "-overwrite_original", *args], check=True, capture_output=True, timeout=60)


def takeout_json(day: datetime.date) -> str:
    moment = datetime.datetime(day.year, day.month, day.day, 12, 0, tzinfo=datetime.timezone.utc)
    return json.dumps({"title": "x", "photoTakenTime": {"timestamp": str(int(moment.timestamp()))}})


@pytest.fixture
def exports(tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    folder.mkdir()
    for name in EXPECTED:
        (folder / name).write_bytes(plain_jpeg(name))
    exiftool("-XMP-exif:DateTimeOriginal=2018:07:21 19:03:44+02:00", str(folder / "export.jpg"))
    exiftool("-IPTC:DateCreated=2015:09:10", "-IPTC:TimeCreated=08:30:00-04:00", str(folder / "news.jpg"))
    exiftool("-IFD0:DateTimeOriginal=2009:05:03 14:22:10", str(folder / "olympus.jpg"))
    subprocess.run(["exiftool", "-q", "-XMP-exif:DateTimeOriginal=2016:05:05 12:00:00", "-o",
                    str(folder / "edited.jpg.xmp"), str(folder / "edited.jpg")], check=True, timeout=60)
    (folder / "takeout.jpg.json").write_text(takeout_json(EXPECTED["takeout.jpg"][0]))
    (folder / "supplement.jpg.supplemental-metadata.json").write_text(takeout_json(EXPECTED["supplement.jpg"][0]))
    (folder / "copy.jpg(1).json").write_text(takeout_json(EXPECTED["copy(1).jpg"][0]))
    return folder


def test_index_stats_count_every_origin(picker_bin, exports, tmp_path):
    out = subprocess.run([str(picker_bin), "index", "--stats", str(exports)], capture_output=True, text=True,
                         timeout=60, env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert ("dates taken: 1 from EXIF, 1 from XMP, 1 from XMP sidecar, 1 from IPTC, 3 from Google Takeout, "
            "0 from file name, 0 from file time") in out.stdout, out.stdout


def test_go_to_lands_on_each_photo_and_the_facts_name_the_origin(picker, exports):
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(exports)], width=160, height=50)
    p.wait(lambda s: all(name in s.text for name in EXPECTED), "every photo listed")
    for name, (day, origin) in EXPECTED.items():
        p.send(":")
        p.wait_text("Go to date")
        p.type(day.isoformat())
        p.send("Enter")
        p.wait_focus(name)
        p.send("v")
        p.send("i")
        # The panel breaks a long value at a space: "(XMP" and "sidecar)".
        words = f"({origin})".split()
        p.wait(lambda s: day.isoformat() in s.text and all(w in s.text for w in words), f"{name}: {origin} in the facts")
        p.send("Escape")
        p.wait_no_text("Taken")
    p.send("C-c")
    p.finish(130)
