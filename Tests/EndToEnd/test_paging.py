"""A big folder is loaded page by page: "L of T", prefetch, the Load-more tile."""

import os

import pytest

from conftest import make_files


@pytest.fixture
def big_folder(tmp_path):
    return make_files(tmp_path / "big", [f"IMG_{i:04d}.jpg" for i in range(1, 501)], content=b"x")


def test_500_photos_load_page_by_page_and_the_last_can_be_picked(picker, big_folder):
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

    # The first page only, until the focus nears its end.
    assert p.screen().counts == (48, 500), p.screen()

    # End goes to the last loaded photo; the next page is fetched ahead but
    # waits behind the Load-more tile, which shows it at once on Enter.
    loaded = 48
    while loaded < 500:
        p.send("G")
        p.wait_focus(f"IMG_{loaded:04d}.jpg")
        screen = p.screen()
        assert screen.counts == (loaded, 500), f"a page was shown before Load-more was activated{screen}"
        p.send("l")
        screen = p.wait_focus("Load more")
        load_more = next(tile for tile in screen.tiles() if tile.focused)
        assert f"Load {min(48, 500 - loaded)} more" in load_more.text, screen
        p.send("Enter")
        # The focus lands on the first photo of the new page. (Waiting for
        # both: a capture may catch a frame half drawn.)
        screen = p.wait(
            lambda s: s.counts is not None and s.counts[0] > loaded and s.focused_caption() == f"IMG_{loaded + 1:04d}.jpg",
            f"more than {loaded} of 500 to be shown, focus on IMG_{loaded + 1:04d}.jpg",
        )
        assert screen.counts[1] == 500 and screen.counts[0] in (loaded + 48, 500), screen
        loaded = screen.counts[0]

    screen = p.wait(lambda s: s.counts == (500, 500), "500 of 500")
    assert screen.breadcrumb.rstrip().endswith("500 of 500 · name"), screen
    p.send("G")
    screen = p.wait_focus("IMG_0500.jpg")
    assert not any("Load" in tile.text for tile in screen.tiles()), f"a Load-more tile after everything loaded{screen}"
    # Nothing after the last photo: moving on keeps the focus there.
    p.send("l")
    p.send("j")
    p.send("Space")
    screen = p.wait_selected("IMG_0500.jpg")
    assert screen.focused_caption() == "✓ IMG_0500.jpg", screen
    assert screen.tray_names() == ["IMG_0500.jpg"], screen
    p.send("Enter")
    assert p.finish(0) == f"{big_folder}/IMG_0500.jpg\n".encode()


def test_load_more_tile_while_stdin_is_still_coming(picker, tmp_path):
    """Paths still arriving on stdin: the first pages show at once, a Load-more
    tile offers the next page, says Loading… once activated while the paths
    are still coming, shows them when they arrive, and goes once stdin ends."""
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
        p.send("j")
        p.wait_focus("Load more")
        p.send("Enter")
        screen = p.wait(lambda s: s.counts is not None and s.counts[0] == 12, "paths 7-12 to be shown")
        assert screen.names()[:12] == [f"P{i:02d}.jpg" for i in range(1, 13)], screen

        p.send("G")
        p.wait_focus("P12.jpg")
        p.send("j")
        p.wait_focus("Load more")
        p.send("Enter")
        screen = p.wait(lambda s: "Loading…" in s.tiles()[-1].text, "the Load-more tile to say Loading…")
        assert not p.exited(), p.describe()

        os.write(writer, b"".join(b"P%02d.jpg\n" % i for i in range(13, 19)))
        screen = p.wait(lambda s: "P18.jpg" in s.names(), "paths 13-18 to arrive")
        assert screen.counts[0] == 18, screen
    finally:
        os.close(writer)
    screen = p.wait(lambda s: s.counts == (18, 18) and "Load more" not in s.captions(), "the end of stdin: 18 of 18")
    p.send("G")
    p.wait_focus("P18.jpg")
    p.send("Enter")
    assert p.finish(0) == b"P18.jpg\n"
