"""What Photos makes of its arguments: a range with no photos stays on
Photos and says so (Enter: exit 1, nothing printed), a reversed range and a
file given as a library are errors, and a first run with no library says
where it looked and how to name one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def small_library(folder: Path) -> Path:
    subprocess.run(
        [sys.executable, str(ROOT / "scripts/make-library.py"), str(folder), "--small"], check=True, capture_output=True
    )
    return folder


def test_a_range_with_no_photos_stays_on_photos_and_says_so(picker, tmp_path):
    folder = small_library(tmp_path / "Pictures")
    p = picker.start(["--since", "2030", str(folder)], wait_ui=False)
    # Today is before 2030: the message says so, not "between 2030 and today".
    screen = p.wait_text("--since 1 Jan 2030 is after today", timeout=30)
    assert screen.source_bar.lstrip().startswith("[1 ◷ Photos]"), screen
    assert "0 of 0" in screen.breadcrumb or not screen.tiles(), screen
    p.send("Enter")
    assert p.finish(1) == b""


def test_a_reversed_range_is_an_error(picker, tmp_path):
    folder = small_library(tmp_path / "Pictures")
    p = picker.start(["--since", "2025", "--until", "2019", str(folder)], wait_ui=False)
    assert p.wait_exit() == 2
    assert b"--until 2019 is before --since 2025" in p.stderr(), p.stderr()


def test_a_file_given_to_the_timeline_is_an_error(picker, tmp_path):
    photo = tmp_path / "one.jpg"
    photo.write_bytes(b"not really a jpeg\n")
    p = picker.start(["--timeline", str(photo)], wait_ui=False)
    assert p.wait_exit() == 2
    assert f"not a folder: {photo}".encode() in p.stderr(), p.stderr()


def test_a_first_run_with_no_library_says_where_it_looked(picker, tmp_path):
    home = tmp_path / "home"
    empty = tmp_path / "empty"
    home.mkdir()
    empty.mkdir()
    p = picker.start([], env={"HOME": str(home), "XDG_PICTURES_DIR": ""}, cwd=empty, wait_ui=False)
    assert p.wait_exit(timeout=30) == 1
    err = p.stderr().decode()
    assert "no photos in the current folder" in err, err
    assert f"({home}/Pictures does not exist)" in err and "[library] roots" in err and "picker-tui DIR" in err, err
    assert "(none)" not in err and ", ." not in err, err
