"""A big folder loads as the user moves: the next page is fetched ahead and
shown when the focus passes the last loaded row, End goes to the real end,
and the Load-more tile stays for slow sources (and the mouse)."""

import os

import pytest

from conftest import hard_linked_photos, make_files


@pytest.fixture
def big_folder(tmp_path):
    return make_files(tmp_path / "big", [f"IMG_{i:04d}.jpg" for i in range(1, 501)], content=b"x")


def test_500_photos_page_by_themselves_and_end_goes_to_the_last(picker, big_folder):
    p = picker.start([str(big_folder)])
    screen = p.screen()
    assert screen.counts == (48, 500), screen
    assert screen.breadcrumb.rstrip().endswith("48 of 500 · name"), screen
    assert screen.columns() == 6, screen
    assert screen.captions()[:18] == [f"IMG_{i:04d}.jpg" for i in range(1, 19)], screen
    assert screen.focused_caption() == "IMG_0001.jpg", screen

    # PgDn / PgUp move a screen at a time and back.
    p.send("NPage")
    screen = p.wait(lambda s: s.focused_caption() not in (None, "IMG_0001.jpg"), "PgDn to move the focus")
    assert screen.focused_caption() > "IMG_0013.jpg", f"PgDn moved by less than two rows{screen}"
    p.press("PPage", "IMG_0001.jpg")
    assert p.screen().counts == (48, 500), p.screen()

    # Down, row by row, past the 8 rows of the first page: the next page is
    # there without Enter on Load-more, and the focus went straight down.
    for _ in range(8):
        p.send("j")
    screen = p.wait_focus("IMG_0049.jpg")
    assert screen.counts[0] > 48, f"the second page is not shown{screen}"
    assert screen.status.startswith("Enter pick"), screen

    # End: the real end, not the last loaded photo.
    p.send("End")
    screen = p.wait(lambda s: s.focused_caption() == "IMG_0500.jpg" and s.counts == (500, 500), "End to IMG_0500")
    assert screen.breadcrumb.rstrip().endswith("500 of 500 · name"), screen
    assert not any("Load" in tile.text for tile in screen.tiles()), f"a Load-more tile after everything loaded{screen}"
    # Nothing after the last photo: moving on keeps the focus there.
    p.send("l")
    p.send("j")
    p.send("Space")
    p.wait_selected("IMG_0500.jpg")
    # The tray is drawn below the tiles: a frame caught half written can
    # show the tile's marks before the tray's line.
    p.wait(lambda s: s.tray_names() == ["IMG_0500.jpg"], "the tray to list IMG_0500.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{big_folder}/IMG_0500.jpg\n".encode()


def test_end_reaches_the_last_of_20000_photos(picker, tmp_path):
    folder = hard_linked_photos(tmp_path / "many", 20_000)
    p = picker.start([str(folder)])
    screen = p.wait(lambda s: s.counts == (48, 20000), "the first page of 20000")
    p.send("G")
    screen = p.wait(
        lambda s: s.focused_caption() == "IMG_20000.jpg" and s.counts == (20000, 20000), "G to the 20000th photo"
    )
    # Back to the top and down again without losing the way.
    p.press("g", "IMG_00001.jpg")
    p.press("G", "IMG_20000.jpg")
    p.press("k", "IMG_19994.jpg")
    p.toggle("IMG_19994.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{folder}/IMG_19994.jpg\n".encode()


def test_load_more_tile_while_stdin_is_still_coming(picker, tmp_path):
    """Paths still arriving on stdin: the first pages show at once; moving
    past them shows what has come, then the Load-more tile says Loading…
    (and Enter's hint says "load more") until the rest arrives."""
    album = make_files(tmp_path / "album", [f"P{i:02d}.jpg" for i in range(1, 19)])
    fifo = tmp_path / "paths.fifo"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # never blocks; not inherited by tmux
    try:
        os.write(writer, b"".join(b"P%02d.jpg\n" % i for i in range(1, 13)))
        p = picker.start(["--page-size", "6"], stdin_path=fifo, cwd=album)
        screen = p.wait(
            lambda s: s.names()[:6] == [f"P{i:02d}.jpg" for i in range(1, 7)] and "Load more" in s.captions(),
            "the first 6 paths and a Load-more tile",
        )
        assert screen.counts[0] == 6, screen
        load_more = screen.tiles()[-1]
        assert load_more.caption == "Load more" and "Load 6" in load_more.text, screen
        # Down from the first row: the page fetched ahead is shown.
        p.send("j")
        p.wait(
            lambda s: s.counts is not None
            and s.counts[0] == 12
            and s.names()[:12] == [f"P{i:02d}.jpg" for i in range(1, 13)]
            and s.focused_caption() == "P07.jpg",
            "paths 7-12 to be shown, the focus on P07",
        )

        # Onto Load-more while the rest is still to come: Loading…
        p.send("j")
        screen = p.wait(lambda s: "Loading…" in s.tiles()[-1].text, "the Load-more tile to say Loading…")
        assert screen.focused_caption() == "Load more", screen
        assert screen.status.startswith("Enter load more"), screen
        assert not p.exited(), p.describe()

        os.write(writer, b"".join(b"P%02d.jpg\n" % i for i in range(13, 19)))
        screen = p.wait(lambda s: "P18.jpg" in s.names(), "paths 13-18 to arrive")
        assert screen.counts[0] == 18, screen
        assert screen.focused_caption() == "P13.jpg", f"the focus is not on the first path that arrived{screen}"
    finally:
        os.close(writer)
    screen = p.wait(lambda s: s.counts == (18, 18) and "Load more" not in s.captions(), "the end of stdin: 18 of 18")
    p.send("G")
    p.wait_focus("P18.jpg")
    p.send("Enter")
    assert p.finish(0) == b"P18.jpg\n"


@pytest.fixture(scope="module")
def folder_of_20000(tmp_path_factory):
    return hard_linked_photos(tmp_path_factory.mktemp("burst") / "many", 20_000)


def burst(p, *keys: str) -> None:
    """One send-keys for all: the keys reach the picker faster than pages list."""
    p.tmux("send-keys", "-t", p.target, *keys)


@pytest.mark.parametrize("count", [50, 200, 500])
def test_a_burst_of_moves_past_the_loaded_pages_is_never_dropped(picker, folder_of_20000, count):
    p = picker.start([str(folder_of_20000)])
    p.wait(lambda s: s.counts == (48, 20000), "the first page of 20000")
    burst(p, *(["Right"] * count), "Space", "Enter")
    assert p.finish(0) == f"{folder_of_20000}/IMG_{count + 1:05d}.jpg\n".encode()


def test_sixty_page_downs_in_one_burst_land_sixty_screens_down(picker, folder_of_20000):
    p = picker.start([str(folder_of_20000)])
    screen = p.wait(lambda s: s.counts == (48, 20000), "the first page of 20000")
    per_screen = screen.columns() * 3
    burst(p, *(["NPage"] * 60), "Space", "Enter")
    assert p.finish(0) == f"{folder_of_20000}/IMG_{1 + 60 * per_screen:05d}.jpg\n".encode()
