"""What a new user tripped on in the first hour, end to end in tmux: a
traveller's clip on the day of the photos beside it, picks never lost to
one Esc, a view opened on its first result, empty files shown as the
damage they are, Matroska clips with their length and date, places in
the headers of one-photo days, and a --place that names no place."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from images import DEMO, photo_bytes
from test_places import PLACES_ENV, positioned_jpeg, trip

TOKYO = (35.6895, 139.6917)


def clip(path: Path, *options: str, seconds: float = 2) -> Path:
    """A small test pattern made by ffmpeg (H.264 unless told otherwise)."""
    codec = ["-c:v", "libx264", "-pix_fmt", "yuv420p"] if not any(o == "-c:v" for o in options) else []
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10",
                    "-t", str(seconds), *codec, *options, str(path)], check=True, timeout=120)
    return path


def test_a_tokyo_photo_and_its_utc_clip_share_their_day(picker, tmp_path):
    """08:00 +09:00 on 1 March in Tokyo, and an Android clip 30 minutes
    later whose movie header says 2024-02-29T23:30:00Z: one day, on a
    machine set to UTC."""
    folder = tmp_path / "tokyo"
    folder.mkdir()
    (folder / "DSC_0001.jpg").write_bytes(positioned_jpeg("2024:03:01 08:00:00", *TOKYO))
    clip(folder / "PXL_clip.mp4", "-metadata", "creation_time=2024-02-29T23:30:00Z",
         "-metadata", f"location=+{TOKYO[0]:.4f}+{TOKYO[1]:.4f}/")
    env = dict(PLACES_ENV, TZ="UTC")
    p = picker.start(["--timeline", str(folder)], env=env, width=160, height=50)
    screen = p.wait(lambda s: "PXL_clip.mp4" in s.text and "DSC_0001.jpg" in s.text, "both listed")
    assert "Fri 1 Mar 2024" in screen.text and "29 Feb" not in screen.text, screen
    # Newest first: the clip, shot after the photo.
    assert screen.captions() == ["PXL_clip.mp4", "DSC_0001.jpg"], screen
    # The facts say whose clock the clip is on.
    p.send("v")
    p.send("i")
    # The panel breaks the value at spaces and after a slash.
    p.wait(lambda s: all(w in s.text for w in ("2024-03-01 08:30:00", "+09:00", "UTC+09:00", "Asia/")),
           "the clip's local time")
    p.send("C-c")
    p.finish(130)


def offset_jpeg(date: str, offset: str) -> bytes:
    """A demo landscape whose EXIF has the date and its offset
    (OffsetTimeOriginal, as phones write it) and no position."""
    jpeg = (DEMO / "IMG_2.jpg").read_bytes()
    if jpeg[2:4] == b"\xff\xe0":
        jpeg = jpeg[:2] + jpeg[4 + int.from_bytes(jpeg[4:6], "big"):]
    b = photo_bytes
    tiff = b.exif_tiff("II", [(0x010F, b.ASCII, "Google"), (0x0110, b.ASCII, "Pixel 7")],
                       [(0x9003, b.ASCII, date), (0x9011, b.ASCII, offset)], [])
    return b.jpeg_with_exif(jpeg, tiff)


def test_a_clip_without_position_takes_the_clock_of_the_photo_beside_it(picker, tmp_path):
    """Location off: the clip's header has only UTC; the photo beside it
    says +09:00. On a machine set to UTC both sit on 1 March."""
    folder = tmp_path / "tokyo"
    folder.mkdir()
    (folder / "PXL_0001.jpg").write_bytes(offset_jpeg("2024:03:01 08:00:00", "+09:00"))
    clip(folder / "PXL_clip.mp4", "-metadata", "creation_time=2024-02-29T23:30:00Z")
    p = picker.start(["--timeline", str(folder)], env=dict(PLACES_ENV, TZ="UTC"), width=160, height=50)
    # The first listing may come before the scan put the clip on the
    # photo's clock (the clip under 29 Feb, in UTC): it is listed again then.
    screen = p.wait(lambda s: "PXL_clip.mp4" in s.text and "PXL_0001.jpg" in s.text and "Fri 1 Mar 2024" in s.text
                    and "29 Feb" not in s.text, "both listed on 1 March")
    assert screen.captions() == ["PXL_clip.mp4", "PXL_0001.jpg"], screen
    # The first listing may come before the scan placed the clip, with the
    # focus on the photo then first; the focus stays on that photo.
    p.send("Home")
    p.wait_focus("PXL_clip.mp4")
    p.send("v")
    p.send("i")
    p.wait(lambda s: all(w in s.text for w in ("2024-03-01 08:30:00", "UTC+09:00", "nearest")),
           "the clip's clock, from the photo")
    p.send("C-c")
    p.finish(130)


def test_with_picks_esc_twice_in_the_full_screen_view_does_not_end_the_run(picker, tmp_path):
    folder = trip(tmp_path)
    p = picker.start([str(folder)], env=PLACES_ENV)
    p.toggle("DSC_0001.jpg")
    p.send("v")
    p.send("i")
    p.wait_text("Taken")
    p.send("Escape")
    p.wait_no_text("Taken")
    p.send("Escape")
    p.wait_running(lambda s: "1 picked: Enter prints it, Esc leaves without it" in s.status, "the question")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/DSC_0001.jpg\n".encode()


def test_search_then_enter_picks_the_first_result(picker, tmp_path):
    folder = trip(tmp_path)
    p = picker.start(["--timeline", str(folder)], env=PLACES_ENV)
    p.send("/")
    p.type("porto")
    p.send("Enter")
    p.wait_focus("DSC_0004.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/DSC_0004.jpg\n".encode()


def test_twenty_thousand_empty_files_are_twenty_thousand_damaged_tiles_and_no_copies(picker, picker_bin, tmp_path):
    folder = tmp_path / "failed-sync"
    folder.mkdir()
    for n in range(20_000):
        (folder / f"IMG_{n:05d}.jpg").touch()
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    stats = subprocess.run([str(picker_bin), "index", "--stats", str(folder)], capture_output=True, text=True,
                           env=env, timeout=300)
    assert stats.returncode == 0, stats.stderr
    assert "20000 photos" in stats.stdout.replace(",", "") and "copies" not in stats.stdout, stats.stdout
    p = picker.start(["--timeline", str(folder)], env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    screen = p.wait(lambda s: s.counts is not None and s.counts[1] == 20_000 and s.tiles()
                    and all("✗" in t.text for t in s.tiles()), "20000 listed, each a ✗ tile")
    assert "◫" not in screen.text, screen
    p.send("C-c")
    p.finish(130)


def test_a_webm_and_an_mkv_show_their_length_and_date(picker, tmp_path):
    folder = tmp_path / "clips"
    folder.mkdir()
    clip(folder / "a.webm", "-c:v", "libvpx-vp9", "-b:v", "50k", "-metadata", "creation_time=2023-07-08T10:00:00Z",
         seconds=5)
    clip(folder / "b.mkv", "-metadata", "creation_time=2022-05-04T10:00:00Z", seconds=5)
    p = picker.start(["--timeline", str(folder)], env={"TZ": "UTC"}, width=160, height=50)
    screen = p.wait(lambda s: {"a.webm", "b.mkv"} <= set(s.captions()), "both clips")
    tiles = {tile.name: tile for tile in screen.tiles()}
    assert tiles["a.webm"].top_border.startswith("▶ 0:05"), screen
    assert tiles["b.mkv"].top_border.startswith("▶ 0:05"), screen
    assert "8 Jul 2023" in screen.text and "4 May 2022" in screen.text, screen
    assert "1 video" in screen.text, screen
    p.send("C-c")
    p.finish(130)


def test_a_one_photo_lisbon_day_names_lisbon_at_any_size(picker, tmp_path):
    folder = trip(tmp_path)
    for width, height in ((160, 50), (80, 24)):
        p = picker.start(["--timeline", str(folder)], env=PLACES_ENV, width=width, height=height)
        p.send(":")
        p.wait_text("Go to date")
        p.type("2024-03-02")
        p.send("Enter")
        screen = p.wait_focus("DSC_0003.jpg")
        assert any("2 Mar" in line and "Lisbon" in line for line in screen.lines), f"{width}x{height}: {screen}"
        p.send("C-c")
        p.finish(130)


def test_a_place_that_matches_nothing_says_so(picker, tmp_path):
    folder = trip(tmp_path)
    p = picker.start(["--place", "atlantis", str(folder)], env=PLACES_ENV, wait_ui=False)
    screen = p.wait_text("No place called “atlantis”")
    # The path line shows the filter in force.
    assert "--place atlantis" in screen.breadcrumb, screen
    p.send("C-c")
    p.finish(130)


def test_a_folder_sorted_by_date_names_its_days_places(picker, tmp_path):
    """Folders with `s`: the same trip, read from the files (no index),
    and the one-photo Lisbon day's header still says Lisbon."""
    folder = trip(tmp_path)
    p = picker.start([str(folder)], env=PLACES_ENV, width=160, height=50)
    p.wait_text("DSC_0001.jpg")
    p.send("s")
    screen = p.wait(lambda s: any("2 Mar" in line for line in s.lines), "grouped by day")
    assert any("2 Mar" in line and "Lisbon" in line for line in screen.lines), screen
    assert any("14 Jun" in line and "Lisbon" in line for line in screen.lines), screen
    p.send("C-c")
    p.finish(130)
