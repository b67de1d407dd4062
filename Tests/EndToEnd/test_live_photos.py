"""Live Photos: an iPhone's still with a MOV of the same name beside it is
one tile marked LIVE; a pick prints the still, and --live-videos (or the
config's live_videos) prints the MOV on the next line."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from images import DEMO


@pytest.fixture
def trip(tmp_path: Path) -> Path:
    folder = tmp_path / "iphone"
    folder.mkdir()
    shutil.copy(DEMO / "IMG_2.jpg", folder / "IMG_0001.JPG")
    shutil.copy(DEMO / "IMG_9.jpg", folder / "IMG_0002.JPG")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", str(folder / "IMG_0001.MOV")], check=True, timeout=60)
    return folder


def test_a_live_photo_is_one_tile_and_prints_its_still(picker, trip):
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(trip)])
    screen = p.wait(lambda s: "IMG_0001.JPG" in s.text and "IMG_0002.JPG" in s.text, "the two stills")
    # One LIVE mark (IMG_0001's), and no tile for the MOV.
    assert screen.text.count("LIVE") == 1 and "IMG_0001.MOV" not in screen.text, screen.text
    # Newest first: the still is first or second, by the demo photos' dates.
    if screen.focused_caption() != "IMG_0001.JPG":
        p.send("Right")
    p.wait_focus("IMG_0001.JPG")
    p.send("Enter")
    assert p.finish(0).decode().splitlines() == [str(trip / "IMG_0001.JPG")]


def test_live_videos_prints_the_mov_after_its_still(picker, trip, tmp_path):
    p = picker.start(["--live-videos", str(trip / "IMG_0001.JPG"), str(trip / "IMG_0002.JPG")])
    p.wait_focus("IMG_0001.JPG")
    p.send("Space")
    p.send("Right")
    p.send("Space")
    p.wait_selected("IMG_0002.JPG")
    p.send("Enter")
    assert p.finish(0).decode().splitlines() == [
        str(trip / "IMG_0001.JPG"), str(trip / "IMG_0001.MOV"), str(trip / "IMG_0002.JPG")]
    config = tmp_path / "config.toml"
    config.write_text("[library]\nlive_videos = true\n")
    p = picker.start(["--config", str(config), str(trip / "IMG_0001.JPG")])
    p.wait_focus("IMG_0001.JPG")
    p.send("Enter")
    assert p.finish(0).decode().splitlines() == [str(trip / "IMG_0001.JPG"), str(trip / "IMG_0001.MOV")]


def test_files_shows_a_live_photo_once_too(picker, trip):
    p = picker.start(["--thumbnails", "symbols", str(trip)])
    screen = p.wait(lambda s: "IMG_0001.JPG" in s.text and "IMG_0002.JPG" in s.text, "the two stills")
    tiles = {tile.name: tile for tile in screen.tiles()}
    assert "LIVE" in tiles["IMG_0001.JPG"].top_border and "LIVE" not in tiles["IMG_0002.JPG"].top_border, screen
    assert set(tiles) == {"IMG_0001.JPG", "IMG_0002.JPG"}, screen
