"""A photo copied into an album folder shows once in Photos, marked ◫2,
and its facts list where both files are; a photo one byte apart shows on
its own; the Folders tab still shows every file where it is."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from PIL import Image

from conftest import equal


def photo(path: Path, colour, note: str) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    Image.new("RGB", (64, 48), colour).save(out, "JPEG", quality=85, comment=note.encode())
    path.write_bytes(out.getvalue())
    return out.getvalue()


def test_a_copied_photo_shows_once_and_its_facts_list_both_paths(picker, tmp_path):
    root = tmp_path / "Library"
    data = photo(root / "Camera" / "PXL_20240614_101500000.jpg", (200, 80, 40), "the beach")
    (root / "Albums" / "Lisbon").mkdir(parents=True)
    shutil.copyfile(root / "Camera" / "PXL_20240614_101500000.jpg", root / "Albums" / "Lisbon" / "PXL_20240614_101500000.jpg")
    # The same size, one byte apart: another photo.
    almost = bytearray(data)
    almost[-3] ^= 1
    (root / "Camera" / "PXL_20240614_121500000.jpg").write_bytes(bytes(almost))
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(root)])
    screen = p.wait(lambda s: "◫2" in s.text and equal(s.breadcrumb.split()[-1], "2"), "one tile for the copies", timeout=30)
    assert sorted(screen.captions()) == ["PXL_20240614_10…", "PXL_20240614_12…"] or len(screen.tiles()) == 2, screen
    # The shown copy: Albums/ sorts before Camera/.
    while not (p.screen().focused_caption() or "").startswith("PXL_20240614_10"):
        p.send("Right")
        p.wait_ui()
    p.send("v")
    p.send("i")
    facts = p.wait(lambda s: "Copy" in s.text, "the facts panel with the copy")
    # The panel's values, their wrapped lines joined again.
    panel = "".join(line[line.rfind("│") + 14 :].rstrip() for line in facts.lines[:-1] if "│" in line)
    assert f"{root}/Albums/Lisbon" in panel, "\n".join(facts.lines)
    assert f"{root}/Camera/PXL_20240614_101500000.jpg" in panel, "\n".join(facts.lines)
    p.send("Escape")
    p.wait(lambda s: "◫2" in s.text, "the grid again")
    p.send("Enter")
    out = p.finish(0).decode()
    assert out == f"{root}/Albums/Lisbon/PXL_20240614_101500000.jpg\n", out
