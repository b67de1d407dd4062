"""Stacks in tmux, on bursts made by scripts/make-bursts.py (one scene
shifted and blurred by known amounts, 250 ms apart, with a turned camera
and the same scene an hour later): a burst shows as one tile with its
count once its signatures are read, Enter opens it with the sharp frame
marked, Space on the stack picks the sharp frame, S turns stacking off,
and the index keeps the signatures for the next start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bursts(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("bursts") / "Shoot"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts/make-bursts.py"), str(folder), "--scenes", "3", "--seed", "11"],
        check=True,
        capture_output=True,
    )
    manifest = json.loads((folder / "manifest.json").read_text())
    return folder, manifest


def newest_burst(manifest: dict) -> dict:
    return max(manifest["bursts"], key=lambda b: b["files"][0])


def tiles_before(manifest: dict, burst: dict) -> int:
    """How many tiles come before the burst, newest first: the newer
    photos of its scene (turned, later), each a tile of its own."""
    scene = burst["files"][0].split("_")[0]
    return sum(1 for f in manifest["files"] if f["file"].startswith(scene) and f["file"].endswith(("_turned.jpg", "_later.jpg")))


def test_a_burst_is_one_tile_that_opens_and_picks_its_sharpest(picker, picker_bin, bursts, tmp_path):
    folder, manifest = bursts
    cache = tmp_path / "cache"
    env = {"XDG_CACHE_HOME": str(cache)}
    burst = newest_burst(manifest)
    count = len(burst["files"])
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(folder)], env=env)
    # Signatures are read after the scan; the burst then folds into one tile.
    p.wait_text(f"×{count}", timeout=30)
    total = len(manifest["files"])
    p.wait(lambda s: f"{total} of {total}" in s.breadcrumb, "every photo counted, stacks or not")
    for _ in range(tiles_before(manifest, burst)):
        p.send("Right")
    sharpest = burst["sharpest"]
    p.wait(lambda s: (s.focused_caption() or "").startswith(sharpest[:10]), "the stack focused, its cover the sharp frame")
    # Enter opens it: every frame, the sharp one marked and focused.
    p.send("Enter")
    # Labelled by its newest frame (listings are newest first).
    screen = p.wait_text(f"×{count} {burst['files'][-1]}")
    p.wait(lambda s: "★ " + sharpest[:8] in s.text, "the sharpest frame marked")
    assert f"{count} of {count}" in screen.breadcrumb, screen
    p.send("BSpace")
    p.wait_text(f"×{count}")
    # Space on the stack picks its cover; the tray's Enter prints it.
    p.send("Space")
    p.wait_text("Picked 1")
    p.send("t")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/{sharpest}\n".encode()
    # The signatures stayed in the index: nothing is left to read.
    again = subprocess.run(
        [str(picker_bin), "index", str(folder)],
        env={**os.environ, **env, "LANG": "C.UTF-8"},
        capture_output=True,
        timeout=60,
    )
    assert again.returncode == 0, again.stderr
    assert b"read for stacks" not in again.stdout, again.stdout


def test_capital_s_shows_every_frame(picker, bursts, tmp_path):
    folder, manifest = bursts
    burst = newest_burst(manifest)
    count = len(burst["files"])
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(folder)], env={"XDG_CACHE_HOME": str(tmp_path / "c")})
    p.wait_text(f"×{count}", timeout=30)
    p.send("S")
    p.wait_text("Stacks off")
    p.wait(lambda s: "×" not in s.text.split("\n", 2)[2] and burst["files"][-1][:10] in s.text, "every frame a tile")
    p.send("S")
    p.wait_text(f"×{count}")


def test_a_folder_sorted_by_date_stacks_too(picker, bursts):
    folder, manifest = bursts
    burst = newest_burst(manifest)
    p = picker.start(["--thumbnails", "symbols", str(folder)])
    p.wait_text(min(f["file"] for f in manifest["files"]))
    assert "×" not in p.screen().text.split("\n", 2)[2], "sorted by name, nothing stacks"
    p.send("s")
    p.wait_text(f"×{len(burst['files'])}", timeout=30)
