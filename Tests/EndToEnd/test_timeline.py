"""Photos: the timeline of a generated library whose order by date taken
differs from its folders', names' and file times' (scripts/make-library.py),
checked against the generator's manifest: day headers, End, the date jumps,
search, --since/--until, changes between runs, a damaged index, an
unwritable cache, a killed scan and two scans at once."""

import datetime
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from conftest import equal

ROOT = Path(__file__).resolve().parents[2]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def make_library(folder: Path, *args: str) -> list[dict]:
    """The library and its manifest, newest first as the picker orders it
    (date taken, then name, both descending); skipped folders left out."""
    manifest = folder.parent / (folder.name + ".jsonl")
    subprocess.run(
        [sys.executable, str(ROOT / "scripts/make-library.py"), str(folder), *args, "--manifest", str(manifest)],
        check=True,
        capture_output=True,
    )
    photos = [json.loads(line) for line in manifest.read_text().splitlines()]
    photos = [p for p in photos if not p.get("skipped")]
    for p in photos:
        p["when"] = datetime.datetime.fromisoformat(p["taken"])
        p["name"] = p["path"].rsplit("/", 1)[-1]
    photos.sort(key=lambda p: (p["when"], p["name"].encode()), reverse=True)
    return photos


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> tuple[Path, list[dict]]:
    folder = tmp_path_factory.mktemp("lib") / "Pictures"
    return folder, make_library(folder, "--small")


def header(day: datetime.date) -> str:
    """The words every form of the day's header starts with: a header is
    as wide as its day's tiles, so a one-tile day drops its count
    ("Sat 14 Jun 2025 · 2 photos" on two tiles or more)."""
    return f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]} {day.year}"


def total_of(screen) -> int | None:
    match = re.search(r"(\d+) of (\d+)", screen.breadcrumb)
    return int(match.group(2)) if match else None


def start(picker, folder: Path, *args: str, **kwargs):
    return picker.start(["--timeline", *args, str(folder)], **kwargs)


def test_the_timeline_opens_newest_first_in_day_groups(picker, library):
    folder, photos = library
    p = start(picker, folder)
    newest = photos[0]["when"].date()
    screen = p.wait_text(header(newest))
    assert screen.source_bar.lstrip().startswith("[1 ◷ Photos]") and "Folders" in screen.source_bar, screen
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    # The second day's header is on screen too, below the first day's row.
    second = next(p["when"].date() for p in photos if p["when"].date() != newest)
    assert header(second) in p.screen(), p.screen()
    p.send("Enter")
    assert p.finish(0) == f"{folder}/{photos[0]['path']}\n".encode()


def test_end_reaches_the_oldest_photo(picker, library):
    folder, photos = library
    p = start(picker, folder)
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    p.send("End")
    oldest = photos[-1]["when"].date()
    p.wait_text(header(oldest))
    p.wait(lambda s: s.focused_caption() is not None and photos[-1]["name"].startswith(s.focused_caption().rstrip("…")), "the oldest photo focused")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/{photos[-1]['path']}\n".encode()


def test_go_to_date_and_the_month_key_land_where_they_should(picker, library):
    folder, photos = library
    p = start(picker, folder)
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    # ] : the newest photo of the next older month.
    month = (photos[0]["when"].year, photos[0]["when"].month)
    older = next(p for p in photos if (p["when"].year, p["when"].month) < month)
    p.send("]")
    p.wait_text(header(older["when"].date()))
    p.send("Space")
    # : 2023-06, and a month with no photos lands on the nearest older one.
    for typed, limit in (("2023-06", datetime.datetime(2023, 7, 1)), ("2022-10", datetime.datetime(2022, 11, 1))):
        p.send(":")
        p.wait_text("Go to date")
        p.type(typed)
        p.send("Enter")
        target = next(p for p in photos if p["when"] < limit)
        p.wait_text(header(target["when"].date()))
        p.send("Space")
        time.sleep(0.2)
    p.send("Enter")
    printed = p.finish(0).decode().splitlines()
    expected = [older] + [
        next(p for p in photos if p["when"] < limit)
        for limit in (datetime.datetime(2023, 7, 1), datetime.datetime(2022, 11, 1))
    ]
    assert printed == [f"{folder}/{p['path']}" for p in expected]


def test_search_by_camera_and_by_date_covers_the_whole_library(picker, library):
    folder, photos = library
    p = start(picker, folder)
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    fuji = [x for x in photos if (x.get("model") or "").lower() == "x-t4"]
    assert fuji, "the library has X-T4 photos"
    p.send("/")
    p.type("x-t4")
    p.send("Enter")
    p.wait(lambda s: "search: x-t4" in s.breadcrumb and equal(total_of(s), len(fuji)), "the X-T4 photos counted")
    p.send("BSpace")
    p.wait(lambda s: "search" not in s.breadcrumb, "the timeline again")
    may = [x for x in photos if x["when"].strftime("%Y-%m") == "2024-05"]
    p.send("/")
    p.type("2024-05")
    p.send("Enter")
    p.wait(lambda s: "search: 2024-05" in s.breadcrumb and equal(total_of(s), len(may)), "May 2024 counted")
    day = may[0]["when"].date()
    p.wait_text(header(day))


def test_since_and_until_restrict_the_timeline(picker, library):
    folder, photos = library
    inside = [x for x in photos if datetime.date(2023, 1, 1) <= x["when"].date() <= datetime.date(2023, 12, 31)]
    p = picker.start(["--since", "2023-01-01", "--until", "2023", str(folder)])
    p.wait(lambda s: equal(total_of(s), len(inside)), "the photos of 2023 counted")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/{inside[0]['path']}\n".encode()
    bad = picker.start(["--since", "someday", str(folder)], wait_ui=False)
    assert bad.wait_exit() == 2
    assert b"--since someday: not a date" in bad.stderr()


def test_a_file_added_and_one_deleted_between_runs(picker, tmp_path):
    folder = tmp_path / "Pictures"
    photos = make_library(folder, "--small")
    p = start(picker, folder)
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    p.leave("Escape")
    p.finish(130)
    gone = photos[1]
    (folder / gone["path"]).unlink()
    # A copy named with a date newer than every other photo and no EXIF
    # date: its name dates it.
    added = folder / "Phone" / "IMG_20250701_080000.jpg"
    added.write_bytes((folder / photos[-1]["path"]).read_bytes()[:2] + b"\xff\xd9")
    p = start(picker, folder)
    p.wait(lambda s: equal(total_of(s), len(photos)), "one more, one less")
    p.wait_text(header(datetime.date(2025, 7, 1)))
    # The first listing may come from the index before the scan adds the
    # new photo; the relist then keeps the focus on the photo it was on.
    p.send("Home")
    p.wait(lambda s: (s.focused_caption() or "").startswith("IMG_20250701"), "the new photo focused")
    p.send("Enter")
    assert p.finish(0) == f"{added}\n".encode()


def test_a_file_added_while_the_picker_runs_shows_when_photos_is_shown_again(picker, tmp_path):
    folder = tmp_path / "Pictures"
    photos = make_library(folder, "--small")
    p = start(picker, folder)
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    added = folder / "Phone" / "IMG_20250702_090000.jpg"
    added.write_bytes((folder / photos[-1]["path"]).read_bytes()[:2] + b"\xff\xd9")
    p.send("Tab")
    p.wait(lambda s: "[2 ▤ Folders]" in s.source_bar and s.counts is not None and "Pictures" in s.breadcrumb, "Folders")
    p.send("BTab")
    p.wait_text(header(datetime.date(2025, 7, 2)))
    p.wait(lambda s: equal(total_of(s), len(photos) + 1), "the new photo counted")


def test_a_damaged_index_is_rebuilt_with_one_line_on_stderr(picker, library):
    folder, photos = library
    index = picker.base / "cache" / "picker-tui" / "library.sqlite"
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(b"not a database " * 1000)
    p = start(picker, folder)
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    p.leave("Escape")
    p.finish(130)
    lines = p.stderr().decode().splitlines()
    assert len(lines) == 1 and "set aside" in lines[0], lines
    assert index.with_name("library.sqlite.corrupt").exists()


def test_an_unwritable_cache_folder_keeps_the_index_in_memory(picker, library, tmp_path):
    folder, photos = library
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be\n")
    p = start(picker, folder, env={"XDG_CACHE_HOME": str(blocked)})
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    p.send("End")
    oldest = photos[-1]["when"].date()
    p.wait_text(header(oldest))
    p.wait(lambda s: s.focused_caption() is not None and photos[-1]["name"].startswith(s.focused_caption().rstrip("…")), "the oldest photo focused")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/{photos[-1]['path']}\n".encode()
    assert b"in memory" in p.stderr()


def index_command(picker_bin: Path, cache: Path, *args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "LANG": "C.UTF-8"}
    return subprocess.Popen(
        [str(picker_bin), "index", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs
    )


@pytest.fixture(scope="module")
def big_library(tmp_path_factory) -> tuple[Path, list[dict]]:
    folder = tmp_path_factory.mktemp("big") / "Pictures"
    return folder, make_library(folder, "--count", "4000", "--seed", "7")


def test_a_scan_killed_midway_leaves_an_index_the_next_one_completes(picker, picker_bin, big_library, tmp_path):
    folder, photos = big_library
    cache = tmp_path / "cache"
    run = index_command(picker_bin, cache, str(folder))
    # Killed once its first batches are in, before it ends.
    deadline = time.monotonic() + 10
    wal = cache / "picker-tui" / "library.sqlite-wal"
    while time.monotonic() < deadline and not (wal.exists() and wal.stat().st_size > 100_000):
        time.sleep(0.005)
    run.send_signal(signal.SIGKILL)
    run.wait()
    again = index_command(picker_bin, cache, str(folder), "--stats")
    out, err = again.communicate(timeout=60)
    assert again.returncode == 0, err
    first = out.decode().splitlines()[0]
    assert first.startswith(f"{len(photos)} photos: "), out
    read = int(re.search(r"(\d+) read", first).group(1))
    assert 0 < read <= len(photos), first
    p = start(picker, folder, env={"XDG_CACHE_HOME": str(cache)})
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")


def test_the_picker_killed_during_its_first_scan_starts_consistent_and_finishes_it(picker, big_library, tmp_path):
    folder, photos = big_library
    cache = tmp_path / "cache"
    p = start(picker, folder, env={"XDG_CACHE_HOME": str(cache)}, wait_ui=False)
    # Killed once its first batch is committed, before the scan ends.
    path = cache / "picker-tui" / "library.sqlite"

    def indexed() -> int:
        try:
            with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.01)) as index:
                return index.execute("SELECT count(*) FROM photo").fetchone()[0]
        except sqlite3.Error:
            return 0

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and indexed() == 0:
        time.sleep(0.001)
    os.kill(p.pid(), signal.SIGKILL)
    p.wait_exit()
    assert 0 < indexed() < len(photos), f"killed after {indexed()} of {len(photos)}: not during the scan"
    p = start(picker, folder, env={"XDG_CACHE_HOME": str(cache)})
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted", timeout=30)
    p.wait_no_text("Indexing")
    p.send("End")
    p.wait(lambda s: s.focused_caption() is not None and photos[-1]["name"].startswith(s.focused_caption().rstrip("…")), "the oldest photo focused")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/{photos[-1]['path']}\n".encode()


def test_two_scans_at_once_both_finish(picker_bin, big_library, tmp_path):
    folder, photos = big_library
    cache = tmp_path / "cache"
    runs = [index_command(picker_bin, cache, str(folder)) for _ in range(2)]
    results = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], results
    for out, _ in results:
        assert out.decode().startswith(f"{len(photos)} photos: "), out
    stats = index_command(picker_bin, cache, str(folder), "--stats")
    out, _ = stats.communicate(timeout=60)
    assert out.decode().startswith(f"{len(photos)} photos: 0 read"), out


def index_in_a_first_run(picker, folder: Path, photos: list[dict]) -> None:
    """A run that indexes the whole library, then leaves."""
    p = start(picker, folder)
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted", timeout=30)
    p.wait_no_text("Indexing")
    p.leave("Escape")
    p.finish(130)


def test_a_long_timeline_moves_its_window_for_end_and_far_dates(picker, big_library):
    folder, photos = big_library
    # A first run indexes the library; the second opens on its first page.
    index_in_a_first_run(picker, folder, photos)
    p = start(picker, folder)
    p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    p.wait(lambda s: s.counts is not None and s.counts[0] < 1000, "the first pages only")
    p.send("End")
    oldest = photos[-1]["when"].date()
    p.wait_text(header(oldest))
    # The window: "first–last of total", not every page loaded.
    p.wait(lambda s: re.search(r"\d+–\d+ of \d+", s.breadcrumb), "a window at the end")
    p.wait(lambda s: s.focused_caption() is not None and photos[-1]["name"].startswith(s.focused_caption().rstrip("…")), "the oldest photo focused")
    p.send("Space")
    middle = photos[len(photos) // 2]["when"].date()
    p.send(":")
    p.wait_text("Go to date")
    p.type(middle.isoformat())
    p.send("Enter")
    target = next(x for x in photos if x["when"].date() <= middle)
    p.wait_text(header(target["when"].date()))
    p.send("Space")
    time.sleep(0.2)
    p.send("Home")
    newest = photos[0]["when"].date()
    p.wait_text(header(newest))
    p.send("Enter")
    printed = p.finish(0).decode().splitlines()
    assert printed == [f"{folder}/{photos[-1]['path']}", f"{folder}/{target['path']}"]


def test_with_no_arguments_photos_opens_first_on_the_pictures_folder(picker, library):
    folder, photos = library
    p = picker.start([], env={"XDG_PICTURES_DIR": str(folder)})
    screen = p.wait(lambda s: equal(total_of(s), len(photos)), "the library counted")
    assert screen.source_bar.lstrip().startswith("[1 ◷ Photos] [2 ▤ Folders]"), screen
    p.send("Tab")
    p.wait(lambda s: s.crumb_path.startswith(str(folder)) and "2023/" in s.captions(), "the Folders tab on the same root")


def test_the_config_library_roots_and_open_photos(picker, library, tmp_path):
    folder, photos = library
    config = tmp_path / "config.toml"
    config.write_text(f'[library]\nroots = ["{folder}/Phone"]\nopen = "photos"\n')
    phone = [x for x in photos if x["path"].startswith("Phone/")]
    p = picker.start(["--config", str(config)])
    p.wait(lambda s: equal(total_of(s), len(phone)), "the Phone folder's photos counted")
    p.leave("Escape")
    p.finish(130)
    # open = "photos": a folder argument opens on its timeline, not Files.
    p = picker.start(["--config", str(config), str(folder / "2023")], env={"LANG": "C"})
    in2023 = [x for x in photos if x["path"].startswith("2023/")]
    screen = p.wait(lambda s: equal(total_of(s), len(in2023)), "the 2023 folder's photos counted")
    assert screen.source_bar.lstrip().startswith("[1 % Photos]"), screen


def sgr_mouse(p, code: int, x: int, y: int, press: bool = True) -> None:
    """A mouse report as xterm's SGR mode sends it (1-based cells)."""
    data = f"\x1b[<{code};{x + 1};{y + 1}{'M' if press else 'm'}".encode()
    p.tmux("send-keys", "-t", p.target, "-H", *(f"{b:02x}" for b in data))


def test_clicking_and_dragging_on_the_scale_jumps_through_the_months(picker, library):
    folder, photos = library
    p = start(picker, folder)
    screen = p.wait(lambda s: equal(total_of(s), len(photos)), "the whole library counted")
    # Moves with the button held are asked for (xterm's mode 1002) while it runs.
    assert p.display("#{mouse_button_flag}") == "1"
    scale = [line[-5:] for line in screen.lines[2:38]]
    line = next(i for i, text in enumerate(scale) if text.strip() == "2023")
    x = p.width - 2
    sgr_mouse(p, 0, x, 2 + line)
    newest_2023 = next(x for x in photos if x["when"].year <= 2023)
    p.wait_text(header(newest_2023["when"].date()))
    # Dragged up to the top line: the newest month.
    for y in range(2 + line - 1, 1, -1):
        sgr_mouse(p, 32, x, y)
    sgr_mouse(p, 0, x, 2, press=False)
    newest = photos[0]["when"].date()
    p.wait_text(header(newest))
    p.send("Enter")
    assert p.finish(0) == f"{folder}/{photos[0]['path']}\n".encode()
    assert p.display("#{mouse_button_flag}") == "0"


def test_end_then_enter_under_load_prints_the_oldest_photo(picker, big_library):
    """End, then Enter 0.35 s later, while three CPU hogs share the two
    cores with the picker: whatever arrives between the two keys (the
    start-up rescan, a relist, late pages), Enter prints the oldest photo."""
    folder, photos = big_library
    index_in_a_first_run(picker, folder, photos)
    hog = "import time\nend = time.monotonic() + 12\nwhile time.monotonic() < end: pass\n"
    hogs = [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(3)]
    try:
        p = start(picker, folder)
        p.wait(lambda s: s.counts is not None and s.tiles(), "the first page", timeout=30)
        p.send("End")
        time.sleep(0.35)
        p.send("Enter")
        printed = p.finish(0, timeout=30).decode().splitlines()
    finally:
        for process in hogs:
            process.kill()
            process.wait()
    assert printed == [f"{folder}/{photos[-1]['path']}"], printed
