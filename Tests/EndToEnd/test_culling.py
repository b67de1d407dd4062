"""Culling in tmux: stars, a reject and colour labels given with keys are
shown at once and written as XMP sidecars that exiftool and exiv2 read
back the same; a darktable sidecar keeps its whole history; photos rated
by Lightroom (XMP in the JPEG) and rejected by darktable (a RAW's sidecar)
show their state the first time they are opened; `rating>=4` and
--min-rating keep only those; and a picker killed mid-write leaves the old
or the new sidecar, never a torn one."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from PIL import Image

NS = {
    "x": "adobe:ns:meta/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "xmp": "http://ns.adobe.com/xap/1.0/",
    "darktable": "http://darktable.sf.net/",
}


def make_photos(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(1, count + 1):
        path = folder / f"IMG_{n}.jpg"
        Image.new("RGB", (64, 48), (40 * n % 256, 90, 160)).save(path, quality=85)
        paths.append(path)
    return paths


def exiftool(*args: str) -> str:
    return subprocess.run(["exiftool", *args], check=True, capture_output=True, text=True).stdout


def exiv2_properties(path: Path) -> dict[str, str]:
    """`exiv2 -px`: each XMP property and its value."""
    out = subprocess.run(["exiv2", "-px", str(path)], capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) >= 3:
            found[parts[0]] = parts[3] if len(parts) == 4 else ""
    return found


def rating_and_label(sidecar: Path) -> tuple[str, str]:
    out = exiftool("-s", "-s", "-s", "-f", "-XMP:Rating", "-XMP:Label", str(sidecar)).splitlines()
    return out[0].strip(), out[1].strip()


def test_keys_rate_reject_and_label_and_other_tools_read_the_sidecars(picker, tmp_path):
    folder = tmp_path / "Shoot"
    photos = make_photos(folder, 6)
    p = picker.start(["--thumbnails", "symbols", str(folder)])
    p.wait_focus("IMG_1.jpg")
    # Stars 5…1 on the first five (Alt and a digit in the grid), the sixth
    # rejected, the first labelled red.
    for stars in (5, 4, 3, 2, 1):
        p.send(f"M-{stars}")
        p.wait_text("★" * stars)
        p.send("Right")
    p.send("X")
    p.wait_text("✗ rejected")
    p.send("Home")
    p.send("M-6")
    p.wait(lambda s: "★★★★★" in s.text and "●" in s.text, "the label's mark beside the stars")
    p.send("q")
    assert p.finish(130) == b""
    expected = {1: ("5", "Red"), 2: ("4", "-"), 3: ("3", "-"), 4: ("2", "-"), 5: ("1", "-"), 6: ("-1", "-")}
    for n, (rating, label) in expected.items():
        sidecar = folder / f"IMG_{n}.jpg.xmp"
        assert sidecar.exists(), sorted(os.listdir(folder))
        assert rating_and_label(sidecar) == (rating, label), sidecar
        props = exiv2_properties(sidecar)
        assert props.get("Xmp.xmp.Rating") == rating, props
        if label != "-":
            assert props.get("Xmp.xmp.Label") == label, props
    # The photos themselves are untouched (no embedding by default).
    assert exiftool("-s", "-s", "-s", "-XMP:Rating", str(photos[0])).strip() == ""
    # Nothing half-written is left behind.
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []


DARKTABLE_SIDECAR = """<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:darktable="http://darktable.sf.net/"
   xmp:Rating="1"
   xmpMM:DerivedFrom="IMG_1.jpg"
   darktable:xmp_version="5"
   darktable:raw_params="0"
   darktable:auto_presets_applied="1"
   darktable:history_end="3"
   darktable:iop_order_version="4">
   <darktable:colorlabels>
    <rdf:Seq>
     <rdf:li>2</rdf:li>
    </rdf:Seq>
   </darktable:colorlabels>
   <darktable:history>
    <rdf:Seq>
     <rdf:li darktable:num="0" darktable:operation="exposure" darktable:enabled="1" darktable:modversion="6"
       darktable:params="0000000000000000cdcccc3e0000000000000000" darktable:multi_name="" darktable:multi_priority="0"
       darktable:blendop_version="11" darktable:blendop_params="gz11eJxjYGBgkGAAgRNODESDBnsIHll8AL6IBQw="/>
     <rdf:li darktable:num="1" darktable:operation="colorin" darktable:enabled="1" darktable:modversion="7"
       darktable:params="gz48eJzjZBgFowABWAYaAADFAAAf" darktable:multi_name="" darktable:multi_priority="0"
       darktable:blendop_version="11" darktable:blendop_params="gz11eJxjYGBgkGAAgRNODESDBnsIHll8AL6IBQw="/>
     <rdf:li darktable:num="2" darktable:operation="sharpen" darktable:enabled="0" darktable:modversion="1"
       darktable:params="000000400000003f0000003f" darktable:multi_name="second" darktable:multi_priority="1"
       darktable:blendop_version="11" darktable:blendop_params="gz11eJxjYGBgkGAAgRNODESDBnsIHll8AL6IBQw="/>
    </rdf:Seq>
   </darktable:history>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
"""


def history(sidecar: Path) -> list[dict[str, str]]:
    tree = ElementTree.parse(sidecar)
    items = tree.getroot().iterfind(".//darktable:history/rdf:Seq/rdf:li", NS)
    return [dict(item.attrib) for item in items]


def test_a_darktable_sidecar_keeps_every_history_element(picker, tmp_path):
    folder = tmp_path / "Developed"
    make_photos(folder, 1)
    sidecar = folder / "IMG_1.jpg.xmp"
    sidecar.write_text(DARKTABLE_SIDECAR)
    before = history(sidecar)
    assert len(before) == 3
    p = picker.start(["--thumbnails", "off", str(folder)])
    # darktable's own rating and colour (green) show on first open.
    p.wait_text("★")
    p.wait_text("●")
    p.send("M-4")
    p.wait_text("★★★★")
    p.send("M-9")
    p.send("q")
    assert p.finish(130) == b""
    assert history(sidecar) == before
    props = exiv2_properties(sidecar)
    assert props["Xmp.xmp.Rating"] == "4"
    assert props["Xmp.xmp.Label"] == "Blue"
    # darktable's own colour list follows the label (3 is blue).
    labels = ElementTree.parse(sidecar).getroot().findall(".//darktable:colorlabels/rdf:Seq/rdf:li", NS)
    assert [label.text for label in labels] == ["3"]
    for key in ("xmp_version", "raw_params", "auto_presets_applied", "history_end", "iop_order_version"):
        assert f"Xmp.darktable.{key}" in props, key
    assert props.get("Xmp.xmpMM.DerivedFrom") == "IMG_1.jpg"


@pytest.fixture
def culled_elsewhere(tmp_path) -> Path:
    """A JPEG Lightroom rated (XMP inside it) and a camera RAW darktable
    rejected (its sidecar), beside a photo no one rated."""
    folder = tmp_path / "Culled"
    make_photos(folder, 2)
    exiftool("-q", "-overwrite_original", "-XMP-xmp:Rating=4", "-XMP-xmp:Label=Yellow", str(folder / "IMG_1.jpg"))
    # A Canon EOS 30D CR2 from Debian's rawtran-doc (as test_camera_raw.py).
    raw = Path("/usr/share/doc/rawtran/IMG_5952.CR2")
    assert raw.exists(), "rawtran-doc (scripts/install-deps.sh test) ships the CR2"
    shutil.copy(raw, folder / "RAW_1.CR2")
    (folder / "RAW_1.CR2.xmp").write_text(DARKTABLE_SIDECAR.replace('xmp:Rating="1"', 'xmp:Rating="-1"'))
    return folder


def test_verdicts_from_lightroom_and_darktable_show_on_first_open(picker, culled_elsewhere):
    p = picker.start(["--thumbnails", "off", str(culled_elsewhere)])
    screen = p.wait_text("★★★★")
    p.wait_text("✗ rejected")
    p.send("v")
    p.wait_text("★★★★ · Yellow")
    # The facts say where it came from.
    p.send("i")
    p.wait_text("Rating      ★★★★ · Yellow (in the")
    p.send("v")
    p.wait_text("RAW_1.CR2")
    p.send("q")
    p.finish(130)


def test_rating_search_and_min_rating_keep_only_those(picker, tmp_path):
    folder = tmp_path / "Rated"
    make_photos(folder, 5)
    for n, rating in ((1, 5), (2, 4), (3, 2)):
        exiftool("-q", "-o", str(folder / f"IMG_{n}.jpg.xmp"), f"-XMP-xmp:Rating={rating}")
    p = picker.start(["--thumbnails", "off", str(folder)])
    p.wait_text("★★★★★")
    p.send("/")
    p.type("rating>=4")
    p.send("Enter")
    screen = p.wait(lambda s: "IMG_1.jpg" in s.text and "IMG_3.jpg" not in s.text, "only the photos with 4 stars or more")
    assert "IMG_2.jpg" in screen.text and "IMG_4.jpg" not in screen.text
    p.send("C-c")
    p.finish(130)
    cache = tmp_path / "cache"
    timeline = picker.start(["--thumbnails", "off", "--min-rating", "4", str(folder)], env={"XDG_CACHE_HOME": str(cache)})
    screen = timeline.wait(lambda s: "IMG_1.jpg" in s.text and "IMG_2.jpg" in s.text, "the two rated photos listed")
    assert "IMG_3.jpg" not in screen.text and "IMG_5.jpg" not in screen.text
    timeline.send("C-c")
    timeline.finish(130)


def test_a_sidecar_that_cannot_be_written_keeps_the_verdict_and_says_so(picker, tmp_path):
    folder = tmp_path / "Blocked"
    make_photos(folder, 2)
    # A folder where the sidecar would go: no rename can replace it (as
    # root, who writes anywhere, too).
    (folder / "IMG_1.jpg.xmp").mkdir()
    p = picker.start(["--thumbnails", "off", str(folder)])
    p.wait_focus("IMG_1.jpg")
    p.send("M-3")
    p.wait_text("not written")
    p.wait_text("★★★")
    # Said once: the next rating in the same folder says nothing more.
    p.send("Right")
    p.send("M-2")
    p.wait_text("★★")
    p.send("q")
    p.finish(130)
    assert (folder / "IMG_2.jpg.xmp").exists()


def run_until_killed(binary: Path, folder: Path, env: dict[str, str], delay: float, rng: random.Random) -> None:
    """Starts the picker on a terminal of its own, waits for its grid,
    types a burst of ratings and kills it (SIGKILL) `delay` seconds in."""
    import pty
    import select
    import signal

    pid, fd = pty.fork()
    if pid == 0:
        os.execve(str(binary), [str(binary), "--thumbnails", "off", str(folder)], env)
    try:
        seen = b""
        deadline = time.monotonic() + 10
        while b"IMG_1" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    seen = (seen + os.read(fd, 65536))[-4096:]
                except OSError:
                    break
        keys = b"".join(b"\x1b" + str(rng.randint(1, 5)).encode() for _ in range(40))
        os.write(fd, keys)
        end = time.monotonic() + delay
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
            if ready:
                try:
                    os.read(fd, 65536)
                except OSError:
                    break
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def test_killed_mid_write_leaves_the_old_or_the_new_sidecar(picker_bin, tmp_path):
    folder = tmp_path / "Killed"
    make_photos(folder, 1)
    sidecar = folder / "IMG_1.jpg.xmp"
    sidecar.write_text(DARKTABLE_SIDECAR)
    before = history(sidecar)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    rng = random.Random(44)
    ratings = set()
    for run in range(200):
        run_until_killed(picker_bin, folder, env, rng.uniform(0, 0.03), rng)
        # Whole, or it would not parse; its history never lost.
        tree = ElementTree.parse(sidecar)
        rating = tree.getroot().find(".//rdf:Description", NS).get(f"{{{NS['xmp']}}}Rating")
        if rating is None:
            element = tree.getroot().find(".//xmp:Rating", NS)
            rating = element.text if element is not None else None
        assert rating in {"1", "2", "3", "4", "5"}, (run, rating)
        assert history(sidecar) == before, run
        ratings.add(rating)
    # The kills landed at different points: more than one value was written.
    assert len(ratings) > 1, ratings
    # What a killed write leaves is hidden, never a second sidecar.
    visible = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    assert visible == ["IMG_1.jpg", "IMG_1.jpg.xmp"], visible
    # The next write in the folder sweeps what killed writes left, once a
    # minute old.
    hour_ago = time.time() - 3600
    for leftover in folder.glob(".*.tmp"):
        os.utime(leftover, (hour_ago, hour_ago))
    run_until_killed(picker_bin, folder, env, 0.5, rng)
    assert sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp")) == []


def test_embedding_rates_the_jpeg_itself_and_keeps_its_file_time(picker, tmp_path):
    folder = tmp_path / "Embedded"
    photos = make_photos(folder, 2)
    day = time.time() - 30 * 86400
    os.utime(photos[0], (day, day))
    config = tmp_path / "config.toml"
    config.write_text('[xmp]\nembed = true\n')
    p = picker.start(["--config", str(config), "--thumbnails", "off", str(folder)])
    p.wait_focus("IMG_1.jpg")
    p.send("M-4")
    p.wait_text("★★★★")
    p.send("M-7")
    p.send("q")
    p.finish(130)
    assert exiftool("-s", "-s", "-s", "-XMP:Rating", "-XMP:Label", str(photos[0])).split() == ["4", "Yellow"]
    # No sidecar; the photo keeps its day (a photo dated by its file time
    # stays where it was).
    assert sorted(q.name for q in folder.iterdir()) == ["IMG_1.jpg", "IMG_2.jpg"]
    assert abs(photos[0].stat().st_mtime - day) < 1
    # Read back as the photo's own on the next start.
    again = picker.start(["--thumbnails", "off", str(folder)])
    again.wait_text("★★★★")
    again.send("q")
    again.finish(130)
