"""`make install` and `make uninstall` into a staging folder (DESTDIR), as a
packager runs them; the installed thumbnailer entry works as a file
manager would call it."""

import shlex
import subprocess
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).parents[2]


def make(*args):
    return subprocess.run(["make", "-s", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=600)


def test_install_then_uninstall_into_a_staging_folder(tmp_path):
    stage = tmp_path / "stage"
    result = make("install", "PREFIX=/usr", f"DESTDIR={stage}")
    assert result.returncode == 0, result.stderr
    binary = stage / "usr/bin/picker-tui"
    entry = stage / "usr/share/thumbnailers/picker-tui.thumbnailer"
    assert binary.is_file() and binary.stat().st_mode & 0o111
    # The entry's Exec line, with %s %i %o filled in as file managers do.
    fields = dict(line.split("=", 1) for line in entry.read_text().splitlines() if "=" in line)
    assert "image/x-adobe-dng" in fields["MimeType"] and "image/bmp" in fields["MimeType"]
    photo = tmp_path / "photo.png"
    Image.new("RGB", (300, 200), (200, 30, 30)).save(photo)
    out = tmp_path / "thumb.png"
    command = [str(binary) if word == "picker-tui" else word for word in shlex.split(fields["Exec"])]
    command = [{"%s": "128", "%i": str(photo), "%o": str(out)}.get(word, word) for word in command]
    assert subprocess.run(command, timeout=10).returncode == 0
    assert Image.open(out).size == (128, 85)
    result = make("uninstall", "PREFIX=/usr", f"DESTDIR={stage}")
    assert result.returncode == 0, result.stderr
    assert not binary.exists() and not entry.exists()
