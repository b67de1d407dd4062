"""The timeline's layout in tmux: days of one photo flow side by side, so a
160x50 screen shows three full rows of them in date order; the day of the
top row stays named when its header scrolled away (80x24); the scale marks
the focused month after a go-to-date and after End."""

from __future__ import annotations

import datetime
from pathlib import Path

from PIL import Image

from conftest import equal

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def one_a_day(folder: Path, first: datetime.date, count: int) -> list[str]:
    """`count` photos, one a day from `first` back, dated by their names
    (PXL_YYYYMMDD_…); newest first, as the timeline lists them."""
    folder.mkdir(parents=True)
    names = []
    for offset in range(count):
        day = first - datetime.timedelta(days=offset)
        name = f"PXL_{day:%Y%m%d}_120000000.jpg"
        Image.new("RGB", (64, 48), (offset * 5 % 256, 90, 160)).save(folder / name, quality=80, comment=name.encode())
        names.append(name)
    return names


def rows_of_tiles(screen) -> list[list[str]]:
    by_top: dict[int, list] = {}
    for tile in screen.tiles():
        by_top.setdefault(tile.top, []).append(tile)
    return [[t.name for t in sorted(row, key=lambda t: t.left)] for _, row in sorted(by_top.items())]


def test_one_photo_a_day_shows_three_full_rows_in_date_order(picker, tmp_path):
    names = one_a_day(tmp_path / "Phone", datetime.date(2024, 5, 31), 60)
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(tmp_path / "Phone")], width=160, height=50)
    p.wait(lambda s: equal(s.breadcrumb.split()[-1], "60"), "the 60 photos counted", timeout=30)
    screen = p.wait(lambda s: len(rows_of_tiles(s)) >= 3, "three rows of tiles")
    rows = rows_of_tiles(screen)
    columns = len(rows[0])
    assert columns >= 6, screen
    full = [row for row in rows if len(row) == columns]
    assert len(full) >= 3, screen
    # Reading left to right, top to bottom: newest first, no day skipped.
    shown = [name for row in rows[:3] for name in row]
    assert [n.rstrip("…") for n in shown] == [n[: len(s.rstrip("…"))] for n, s in zip(names, shown)], screen
    # Each day under its own header: the first row's line names its days.
    header = screen.lines[rows and screen.tiles()[0].top - 1]
    assert "Fri 31 May 2024" in header and "Thu 30 May 2024" in header, screen
    p.leave("q")
    p.finish(130)


def test_the_top_line_names_the_day_while_scrolled_at_80x24(picker, tmp_path):
    folder = tmp_path / "Trip"
    folder.mkdir()
    # 30 photos of one day, ten minutes apart (no burst): after PgDn its
    # header is above the screen.
    for n in range(30):
        when = datetime.datetime(2024, 6, 14, 8, 0) + datetime.timedelta(minutes=10 * n)
        Image.new("RGB", (64, 48), (n * 8, 60, 90)).save(folder / f"IMG_{when:%Y%m%d_%H%M%S}.jpg", quality=80, comment=str(n).encode())
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(folder)], width=80, height=24)
    p.wait_text("Fri 14 Jun 2024 · 30 photos", timeout=30)
    p.send("PageDown")
    p.wait_text("Fri 14 Jun 2024 · 30 photos (continued)")
    screen = p.screen()
    assert screen.lines[2].lstrip().startswith("Fri 14 Jun 2024"), screen
    assert screen.focused() is not None, screen
    p.leave("q")
    p.finish(130)


def scale(screen) -> list[str]:
    return [line.rstrip()[-5:] for line in screen.lines[2:-2]]


def test_the_scale_marks_the_focused_month_after_go_to_date_and_end(picker, tmp_path):
    folder = tmp_path / "Years"
    folder.mkdir()
    # Most photos in 2024; two in 2019, too few for a line's share.
    for n in range(120):
        day = datetime.date(2024, 12, 31) - datetime.timedelta(days=n * 3)
        Image.new("RGB", (32, 24), (n, 60, 90)).save(folder / f"PXL_{day:%Y%m%d}_120000000.jpg", quality=80, comment=str(day).encode())
    for day in (datetime.date(2019, 3, 1), datetime.date(2019, 2, 1)):
        Image.new("RGB", (32, 24), (9, 9, 9)).save(folder / f"PXL_{day:%Y%m%d}_120000000.jpg", quality=80, comment=str(day).encode())
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(folder)], width=120, height=40)
    p.wait(lambda s: equal(s.breadcrumb.split()[-1], "122"), "every photo counted", timeout=30)
    p.wait(lambda s: any(line.endswith("2019") for line in scale(s)), "2019 named on the scale")
    p.send(":")
    p.wait_text("Go to date")
    p.type("2024-03")
    p.send("Enter")
    p.wait_text("Mar 2024")
    p.wait(lambda s: sum(line.startswith("▶") for line in scale(s)) == 1, "one line marked after the jump")
    p.send("End")
    p.wait(lambda s: any(line == "▶2019" for line in scale(s)), "2019 marked after End")
    p.leave("q")
    p.finish(130)
