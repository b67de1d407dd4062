"""Videos in the grid: listed with the photos at their date, marked ▶ with
their length, a frame as the thumbnail (decoded by FFmpeg's libraries in
the helper process the RAWs use), upright when a phone shot it in
portrait, picked and printed like a photo."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from images import DEMO
from test_optional_libraries import loaded_libraries
from test_thumbnails import TRUECOLOR


def make_clip(path: Path, seconds: float, *options: str) -> Path:
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
                    "-t", str(seconds), "-c:v", "libx264", "-pix_fmt", "yuv420p", *options, str(path)],
                   check=True, timeout=120)
    return path


@pytest.fixture
def phone(tmp_path: Path) -> Path:
    folder = tmp_path / "phone"
    folder.mkdir()
    # 42 seconds at a tenth of the frame rate keeps the file small.
    make_clip(folder / "clip.mp4", 42, "-r", "2",
              "-metadata", "creation_time=2021-05-02T10:00:00Z")
    portrait = make_clip(folder / "portrait.mov", 3, "-metadata", "creation_time=2021-05-01T09:00:00Z")
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-Rotation=90", str(portrait)], check=True)
    shutil.copy(DEMO / "IMG_2.jpg", folder / "photo.jpg")
    return folder


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_a_video_is_listed_at_its_date_with_its_length_and_picked(picker, phone):
    p = picker.start(["--timeline", str(phone)], env=TRUECOLOR)
    screen = p.wait(lambda s: "clip.mp4" in s.text and "░" not in s.text, "the video's frame")
    tiles = {tile.name: tile for tile in screen.tiles()}
    video = tiles["clip.mp4"]
    # ▶ and its length on the border; a frame, not an error mark.
    assert video.top_border.startswith("▶ 0:42") and "✗" not in video.text, screen
    assert tiles["portrait.mov"].top_border.startswith("▶ 0:03"), screen
    assert "▶" not in tiles["photo.jpg"].top_border, screen
    # Its day's header, from the movie header's UTC time.
    assert "2 May 2021" in screen.text, screen
    # The photo (its file time: today) comes first.
    p.press("Right", "clip.mp4")
    p.send("Enter")
    assert p.finish(0).decode().splitlines() == [str(phone / "clip.mp4")]


def test_a_portrait_clips_thumbnail_is_portrait(picker_bin, phone, tmp_path):
    out = tmp_path / "portrait.png"
    made = subprocess.run([str(picker_bin), "thumbnail", "-s", "128", str(phone / "portrait.mov"), str(out)],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    assert png_size(out) == (96, 128)
    out = tmp_path / "landscape.png"
    made = subprocess.run([str(picker_bin), "thumbnail", str(phone / "clip.mp4"), str(out)],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    assert png_size(out) == (256, 192)


def test_ffmpeg_is_never_loaded_by_the_picker_itself(picker_bin, phone, tmp_path):
    text = loaded_libraries(picker_bin, "thumbnail", str(phone / "photo.jpg"), str(tmp_path / "a.png"))
    assert "libavcodec.so" not in text and "libavformat.so" not in text
    # A video's frame is decoded in the helper process: the picker itself
    # never loads FFmpeg's libraries, whose demuxers meet hostile files.
    text = loaded_libraries(picker_bin, "thumbnail", str(phone / "portrait.mov"), str(tmp_path / "b.png"))
    assert (tmp_path / "b.png").stat().st_size > 0
    assert "libavcodec.so" not in text and "libavformat.so" not in text


def test_a_broken_video_is_one_error_tile(picker, phone):
    (phone / "broken.mp4").write_bytes(b"\0\0\0\x10ftypisom" + b"junk" * 2000)
    p = picker.start([str(phone)], env=TRUECOLOR)
    screen = p.wait(lambda s: "░" not in str(s) and "✗" in str(s), "an error mark")
    tiles = {tile.name: tile for tile in screen.tiles()}
    assert "✗" in tiles["broken.mp4"].text and "✗" not in tiles["portrait.mov"].text, screen
    # The picker is alive and the broken file is picked like any file.
    p.toggle("broken.mp4")
    p.send("Enter")
    assert p.finish(0).decode().splitlines() == [str(phone / "broken.mp4")]


def test_index_stats_count_the_videos_and_their_length(picker_bin, phone, tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    result = subprocess.run([str(picker_bin), "index", "--stats", str(phone)], capture_output=True, text=True,
                            env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "3 photos: 3 read" in result.stdout, result.stdout
    assert "videos: 2, 0:45 in all" in result.stdout, result.stdout
    assert "2 from video header" in result.stdout, result.stdout
