"""Many at once and output for scripts: D selects a whole day and Enter
prints all its photos; --format json prints one object a line with the
listing's and the index's fields (no file read again); a template prints
the same names."""

from __future__ import annotations

import json
import subprocess

from test_first_hour import clip
from test_places import PLACES_ENV, trip


def start(picker, folder, *args: str):
    p = picker.start(["--timeline", "--thumbnails", "symbols", *args, str(folder)], env=PLACES_ENV,
                     width=160, height=50)
    p.wait(lambda s: "DSC_0007.jpg" in s.text, "the trip listed")
    return p


def home(p):
    """Home, and the screen once it has been read: the first tile focused
    (any focus at all could be the screen from before the key)."""
    p.send("Home")
    return p.wait(lambda s: bool(s.tiles()) and s.tiles()[0].focused, "the focus on the first photo")


def focus(p, name: str) -> None:
    """From the first photo, moves right until `name` has the focus, one
    key at a time: each Right waited for until the focus has moved on."""
    screen = home(p)
    for _ in range(12):
        before = screen.focused_caption()
        if before == name:
            return
        p.send("Right")
        screen = p.wait(lambda s: s.focused_caption() not in (None, before), f"the focus to move on from {before}")
    p.wait_focus(name)


def test_a_day_selected_at_once_prints_all_its_photos(picker, tmp_path):
    folder = trip(tmp_path)
    p = start(picker, folder)
    focus(p, "DSC_0001.jpg")
    p.send("D")
    p.wait(lambda s: "Picked 2" in s.tray and "2 of 14 Jun 2023" in s.tray, "the day's two in the tray")
    p.send("Enter")
    out = p.finish(0).decode()
    assert sorted(out.splitlines()) == [f"{folder}/DSC_0001.jpg", f"{folder}/DSC_0002.jpg"], out


def test_all_then_invert_then_a_range(picker, tmp_path):
    folder = trip(tmp_path)
    p = start(picker, folder)
    p.send("a")
    p.wait(lambda s: "Picked 7" in s.tray, "all seven")
    p.send("i")
    p.wait(lambda s: "Picked 0" in s.tray, "none after invert")
    first = home(p).focused_caption()
    p.send("m", "Right", "Right", "M")
    p.wait(lambda s: "Picked 3" in s.tray and "3 from the mark" in s.tray, "three from the mark")
    p.send("Enter")
    out = p.finish(0).decode().splitlines()
    assert len(out) == 3 and out[0] == f"{folder}/{first}", out


def test_format_json_parses_and_has_the_fields(picker, tmp_path):
    folder = trip(tmp_path)
    clip(folder / "PXL_clip.mp4", "-metadata", "creation_time=2023-06-14T12:00:00Z", seconds=3)
    p = start(picker, folder, "--format", "json")
    p.wait(lambda s: "PXL_clip.mp4" in s.text, "the clip listed")
    focus(p, "DSC_0001.jpg")
    p.send("Space")
    p.wait(lambda s: "Picked 1" in s.tray, "one picked")
    focus(p, "PXL_clip.mp4")
    p.send("Space", "Enter")
    out = p.finish(0).decode()
    lines = out.splitlines()
    assert len(lines) == 2, out
    for line in lines:
        # What scripts do: a JSON parser per line.
        subprocess.run(["python3", "-m", "json.tool"], input=line, text=True, check=True, capture_output=True)
    photo, video = (json.loads(line) for line in lines)
    assert photo["path"] == f"{folder}/DSC_0001.jpg", photo
    assert photo["taken"] == "2023-06-14T10:00:00" and photo["taken_origin"] == "exif", photo
    assert photo["camera"] == "FUJIFILM X-T4" and photo["kind"] == "photo", photo
    assert photo["city"] == "Lisbon" and photo["country"] == "Portugal" and photo["country_code"] == "PT", photo
    assert abs(photo["latitude"] - 38.7169) < 0.001 and photo["width"] > 0 and photo["bytes"] > 0, photo
    assert photo["source"] == "Photos" and photo["rating"] == 0 and photo["rejected"] is False, photo
    assert video["kind"] == "video" and abs(video["duration"] - 3) < 0.5, video
    assert video["taken_origin"] == "video-header", video


def test_format_template(picker, tmp_path):
    folder = trip(tmp_path)
    p = start(picker, folder, "--format", r"{name}\t{taken}\t{place}")
    focus(p, "DSC_0004.jpg")
    p.send("Enter")
    assert p.finish(0).decode() == "DSC_0004.jpg\t2023-06-15T12:00:00\tPorto, Portugal\n"


def test_an_unknown_field_is_refused(picker_bin, tmp_path):
    result = subprocess.run([str(picker_bin), "--format", "{path}{shutter}", str(tmp_path)],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 64 or result.returncode == 2, result
    assert "no field {shutter}" in result.stderr, result.stderr
