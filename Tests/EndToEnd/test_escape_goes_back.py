"""Esc goes back one level: out of search results, a sub-folder and an
opened stack to the listing it came from, the picks kept, so Enter then
prints them; only at a source's top does it cancel."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_esc_from_search_results_and_a_folder_returns_and_keeps_the_picks(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.wait(lambda s: s.captions()[:2] == ["Album1/", "Album2/"], "the top folder")
    p.send("/")
    p.wait_text("Search Files: ")
    p.type("img")
    p.send("Enter")
    # The folder's match first, then those in the folders below it.
    p.wait(lambda s: s.captions()[:3] == [".. Back", "IMG_3.jpg", "Album1/IMG_1.jpg"], "the matches")
    # The focus starts on the first result.
    p.wait_focus("IMG_3.jpg")
    p.toggle("IMG_3.jpg")
    p.send("Escape")
    p.wait(lambda s: s.captions()[:2] == ["Album1/", "Album2/"] and "search:" not in s.breadcrumb, "the folder again")
    assert not p.exited(), "Esc in search results must go back, not cancel"
    p.wait_focus("Album1/")
    p.send("Enter")
    p.wait(lambda s: s.captions()[:1] == [".. Back"] and "Album1" in s.breadcrumb, "Album1")
    p.press("G", "IMG_10.jpg")
    p.toggle("IMG_10.jpg")
    p.send("Escape")
    p.wait(lambda s: "Album1" not in s.breadcrumb and s.captions()[:1] == ["Album1/"], "the top folder again")
    assert "Picked 2" in p.screen().tray, p.describe()
    # On a folder Enter opens it: the picks are printed from a photo.
    p.press("G", "Zoo.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{album_tree}/IMG_3.jpg\n{album_tree}/Album1/IMG_10.jpg\n".encode()


def test_esc_at_the_top_still_cancels(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.wait(lambda s: s.captions()[:1] == ["Album1/"], "the top folder")
    assert "Esc back" not in p.screen().status, p.describe()
    p.leave("Escape")
    assert p.finish(130) == b""


def test_esc_from_an_opened_stack_returns_to_its_tile(picker, tmp_path):
    folder = tmp_path / "Shoot"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts/make-bursts.py"), str(folder), "--scenes", "1", "--seed", "11"],
        check=True,
        capture_output=True,
    )
    manifest = json.loads((folder / "manifest.json").read_text())
    burst = max(manifest["bursts"], key=lambda b: b["files"][0])
    count = len(burst["files"])
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(folder)], env=env)
    p.wait_text(f"×{count}", timeout=30)
    # The newer photos of its scene (turned, later) come first, newest first.
    scene = burst["files"][0].split("_")[0]
    newer = [f for f in manifest["files"] if f["file"].startswith(scene) and f["file"].endswith(("_turned.jpg", "_later.jpg"))]
    for _ in newer:
        p.send("Right")
    sharpest = burst["sharpest"]
    screen = p.wait(lambda s: (s.focused_caption() or "").startswith(sharpest[:10]), "the stack focused")
    assert "Enter open" in screen.status and "picks the sharpest" in screen.status, screen
    p.send("Enter")
    p.wait(lambda s: f"{count} of {count}" in s.breadcrumb, "the stack opened")
    p.send("Escape")
    p.wait(lambda s: (s.focused_caption() or "").startswith(sharpest[:10]) and f"{count} of {count}" not in s.breadcrumb, "the stack's tile focused again")
    assert not p.exited()
    p.leave("q")
    assert p.finish(130) == b""
