"""The library index's roots and files: `index .` in a folder and `index
FOLDER` from elsewhere are the same rows (absolute, links resolved), a run
over one root never removes another's rows, nothing unchanged is read
again; the index is private (0600 in a 0700 folder); --stats counts the
index after a checkpoint, not its write-ahead log."""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path

from test_timeline_arguments import small_library



def index(picker_bin: Path, cache: Path, *args: str, cwd: Path | None = None) -> str:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "LANG": "C.UTF-8"}
    run = subprocess.run(
        [str(picker_bin), "index", *args], env=env, cwd=cwd, capture_output=True, timeout=120, text=True
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def counts(summary: str) -> tuple[int, int, int]:
    match = re.search(r"(\d+) photos: (\d+) read, \d+ moved, (\d+) removed", summary)
    assert match, summary
    return int(match.group(1)), int(match.group(2)), int(match.group(3))


def test_the_same_root_from_two_folders_is_one_set_of_rows(picker_bin, tmp_path):
    library = small_library(tmp_path / "Pictures")
    other = small_library(tmp_path / "Other")
    link = tmp_path / "link-to-pictures"
    link.symlink_to(library)
    cache = tmp_path / "cache"
    photos, read, _ = counts(index(picker_bin, cache, ".", cwd=library))
    assert photos > 0 and read == photos
    # The same folder by another name, from elsewhere: nothing read again.
    assert counts(index(picker_bin, cache, str(library), cwd=tmp_path)) == (photos, 0, 0)
    assert counts(index(picker_bin, cache, "link-to-pictures", cwd=tmp_path)) == (photos, 0, 0)
    # Another root beside it leaves its rows alone.
    other_photos, other_read, removed = counts(index(picker_bin, cache, str(other)))
    assert other_read == other_photos and removed == 0
    assert counts(index(picker_bin, cache, ".", cwd=library)) == (photos, 0, 0)
    stats = index(picker_bin, cache, "--stats", str(library))
    assert f"{photos} photos" in stats


def test_the_index_is_private_and_its_stats_count_the_checkpointed_file(picker_bin, tmp_path):
    library = small_library(tmp_path / "Pictures")
    cache = tmp_path / "cache"
    (cache / "picker-tui").mkdir(parents=True)
    os.chmod(cache / "picker-tui", 0o755)
    out = index(picker_bin, cache, "--stats", str(library))
    folder = cache / "picker-tui"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for path in folder.iterdir():
        if path.name.startswith("library.sqlite"):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    size = int(re.search(r"index: \S+, (\d+) bytes", out).group(1))
    assert size == (folder / "library.sqlite").stat().st_size + _size(folder / "library.sqlite-wal"), out
    assert _size(folder / "library.sqlite-wal") == 0, "the log was checkpointed"


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0
