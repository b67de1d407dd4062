"""Find as you type: `/` narrows the grid on every key (the days and their
places kept), Enter keeps the results, Esc puts back the view and the focus
from before, Up recalls a search of an earlier run; the kind words
(`video`, `-video`) and --only."""

from __future__ import annotations

from pathlib import Path

from images import DEMO
from test_first_hour import clip
from test_places import PLACES_ENV, TRIP, shown, trip


def start(picker, folder: Path, *args: str, env: dict[str, str] | None = None):
    p = picker.start(["--timeline", "--thumbnails", "symbols", *args, str(folder)],
                     env={**PLACES_ENV, **(env or {})}, width=160, height=50)
    p.wait(lambda s: "DSC_0007.jpg" in s.text, "the trip listed")
    return p


def test_each_key_narrows_and_esc_puts_back_the_view(picker, tmp_path):
    p = start(picker, trip(tmp_path))
    # One key at a time: waiting for "moved" after both keys could catch the
    # focus between them and expect the wrong tile back.
    p.press("Right", "DSC_0003.jpg")
    focus = "DSC_0004.jpg"
    p.press("Right", focus)
    p.send("/")
    p.type("lis")
    # Narrowed while the prompt is still open: no Enter yet.
    screen = p.wait(lambda s: shown(s) == {"DSC_0001.jpg", "DSC_0002.jpg", "DSC_0003.jpg"}, "Lisbon's three on 'lis'")
    assert "Search Photos: lis" in screen.status, screen.status
    p.type("bon")
    screen = p.wait(lambda s: "Search Photos: lisbon" in s.status and "search: lisbon" in s.text
                    and shown(s) == {"DSC_0001.jpg", "DSC_0002.jpg", "DSC_0003.jpg"}, "lisbon typed, its results")
    assert "Wed 14 Jun 2023 · Lisbon · 2 photos" in screen.text, screen.text
    p.send("Escape")
    screen = p.wait(lambda s: shown(s) == set(TRIP) and "search:" not in s.text, "every photo back")
    p.wait_focus(focus)
    p.send("C-c")
    p.finish(130)


def test_enter_keeps_the_results_and_up_recalls_them_next_run(picker, tmp_path):
    folder = trip(tmp_path)
    state = tmp_path / "state"
    env = {"XDG_STATE_HOME": str(state)}
    p = start(picker, folder, env=env)
    p.send("/")
    p.type("porto")
    p.wait(lambda s: shown(s) == {"DSC_0004.jpg"}, "Porto's photo")
    p.send("Enter")
    screen = p.wait(lambda s: "Search Photos" not in s.status, "the prompt closed")
    assert shown(screen) == {"DSC_0004.jpg"} and "search: porto" in screen.text, screen.text
    p.send("C-c")
    p.finish(130)
    assert (state / "picker-tui" / "search-history").read_text() == "porto\n"
    again = start(picker, folder, env=env)
    again.send("/", "Up")
    again.wait(lambda s: "Search Photos: porto" in s.status and shown(s) == {"DSC_0004.jpg"}, "porto recalled")
    again.send("Enter", "Space", "Enter")
    assert again.finish(0) == f"{folder}/DSC_0004.jpg\n".encode()


def test_video_shows_only_clips(picker, tmp_path):
    folder = trip(tmp_path)
    clip(folder / "holiday.mp4", "-metadata", "creation_time=2023-06-14T12:00:00Z")
    clip_name = "holiday.mp4"
    p = start(picker, folder)
    p.wait(lambda s: clip_name in s.text, "the clip listed")
    p.send("/")
    p.type("video")
    screen = p.wait(lambda s: clip_name in s.text and not shown(s), "the clip alone")
    p.send("Escape")
    p.wait(lambda s: shown(s) == set(TRIP), "every photo back")
    p.send("C-c")
    p.finish(130)
    only = picker.start(["--only", "videos", "--thumbnails", "symbols", str(folder)], width=160, height=50)
    only.wait(lambda s: clip_name in s.text, "the clip")
    assert not shown(only.screen()), only.screen().text
    only.send("C-c")
    only.finish(130)


def test_folders_search_finds_photos_two_folders_down(picker, tmp_path):
    top = tmp_path / "pictures"
    nested = top / "2023" / "beach"
    nested.mkdir(parents=True)
    (top / "city.jpg").write_bytes((DEMO / "IMG_2.jpg").read_bytes())
    (nested / "IMG_0001.jpg").write_bytes((DEMO / "IMG_2.jpg").read_bytes())
    p = picker.start(["--thumbnails", "symbols", str(top)], width=160, height=50)
    p.wait(lambda s: "city.jpg" in s.text, "the top folder listed")
    p.send("/")
    p.type("beach")
    p.wait(lambda s: "2023/beach/IMG_" in s.text and "city.jpg" not in s.text, "the nested photo found")
    p.send("Enter")
    p.wait(lambda s: "found in folders below" in s.status, "marked as found below")
    p.send("Space", "Enter")
    assert p.finish(0) == f"{nested}/IMG_0001.jpg\n".encode()
