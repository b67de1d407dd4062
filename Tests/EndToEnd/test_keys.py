"""Help overlay, search, the tray, thumbnail size and sort order."""

import os

import pytest

from conftest import equal, make_files


def test_help_overlay_lists_the_keys_and_any_key_closes_it(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.send("?")
    # The last row: the overlay is drawn whole, not caught mid-frame.
    screen = p.wait_text("leave, print nothing")
    overlay = screen.lines[2:-2]
    text = "\n".join(overlay)
    for needle in ("Backspace", "PgUp", "PgDn", "Enter", "Space", "Tab", "Esc"):
        assert needle in text, f"help does not mention {needle!r}{screen}"
    assert any("Space" in line and ("select" in line or "toggle" in line) for line in overlay), screen
    p.send("x")
    screen = p.wait_no_text("Backspace")
    assert screen.focused() is not None and screen.captions()[0] == "Album1/", screen
    assert not p.exited()
    # Keys work again.
    p.press("G", "Zoo.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{album_tree}/Zoo.jpg\n".encode()


def test_search_in_the_current_folder(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.send("/")
    screen = p.wait_text("Search Files: ")
    p.type("img")
    p.wait_text("Search Files: img")
    p.send("Enter")
    screen = p.wait(lambda s: "search: img" in s.breadcrumb, "the search scope in the breadcrumb")
    # The current folder's match, then the photos of the folders below it.
    screen = p.wait(lambda s: s.captions() == [".. Back", "IMG_3.jpg", "Album1/IMG_1.jpg", "Album1/IMG_2.jpg",
                                               "Album1/IMG_10.j…"], "the matches in the folder and below")
    assert "3 found in folders below this one" in screen.status, screen.status
    # The focus starts on the first result.
    p.wait_focus("IMG_3.jpg")
    p.toggle("IMG_3.jpg")
    p.press("h", ".. Back")
    p.send("Enter")
    p.wait(lambda s: s.captions()[:2] == ["Album1/", "Album2/"], "the folder again after Back")
    p.send("Enter")  # on Album1/ opens it; nothing confirmed yet
    p.wait(lambda s: s.captions()[:1] == [".. Back"] and "Album1" in s.breadcrumb, "Album1")
    p.press("G", "IMG_10.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{album_tree}/IMG_3.jpg\n".encode()


def test_tray_removes_picks(picker, tmp_path):
    root = make_files(tmp_path / "t", ["a.jpg", "b.jpg", "c.jpg"])
    p = picker.start([str(root)])
    p.toggle("a.jpg")
    p.press("l", "b.jpg")
    p.toggle("b.jpg")
    p.press("l", "c.jpg")
    screen = p.toggle("c.jpg")
    assert screen.tray_names() == ["a.jpg", "b.jpg", "c.jpg"], screen
    p.send("t")
    p.wait(lambda s: "Picked 3" in s.tray and "Esc" in s.status, "the tray hints")
    for _ in range(3):
        p.send("Left")
    p.send("x")
    screen = p.wait(lambda s: s.tray_names() == ["b.jpg", "c.jpg"], "a.jpg removed from the tray")
    p.send("Escape")
    screen = p.wait_selected("a.jpg", selected=False)
    assert not p.exited(), "Esc in the tray must return to the grid, not cancel"
    p.wait(lambda s: "Space select" in s.status, "the grid hints again")
    p.send("Enter")
    assert p.finish(0) == f"{root}/b.jpg\n{root}/c.jpg\n".encode()


def test_thumbnail_size_keys(picker, tmp_path):
    root = make_files(tmp_path / "s", [f"P{i:02d}.jpg" for i in range(1, 21)])
    p = picker.start([str(root)])
    assert p.screen().columns() == 6
    p.send("-")
    # Both conditions in one predicate: a capture can land in the middle of a frame.
    p.wait(lambda s: s.columns() > 6 and all(t.width < 18 for t in s.tiles()), "more, smaller tiles after '-'")
    p.send("+")
    p.wait(lambda s: s.columns() == 6, "6 columns again after '+'")
    p.send("+")
    screen = p.wait(
        lambda s: 0 < s.columns() < 6 and all(t.width > 18 for t in s.tiles()), "fewer, bigger tiles after '+'"
    )
    focused = screen.focused_caption()
    p.send("Enter")
    assert p.finish(0) == f"{root}/{focused}\n".encode()


def test_sort_by_date(picker, tmp_path):
    root = make_files(tmp_path / "d", ["a.jpg", "b.jpg", "c.jpg"])
    for age, name in enumerate(["b.jpg", "c.jpg", "a.jpg"]):  # b newest, a oldest
        stamp = 1_600_000_000 - age * 86400
        os.utime(root / name, (stamp, stamp))
    p = picker.start([str(root)])
    assert p.screen().captions() == ["a.jpg", "b.jpg", "c.jpg"]
    p.send("s")
    screen = p.wait(lambda s: s.breadcrumb.rstrip().endswith("· date"), "the date order in the breadcrumb")
    screen = p.wait(lambda s: s.captions() in (["b.jpg", "c.jpg", "a.jpg"], ["a.jpg", "c.jpg", "b.jpg"]), "date order")
    p.send("s")
    p.wait(lambda s: s.breadcrumb.rstrip().endswith("· name") and s.captions() == ["a.jpg", "b.jpg", "c.jpg"], "name order")
    p.leave("Escape")
    assert p.finish(130) == b""


def test_a_wait_that_times_out_says_what_it_expected_and_what_was_there(picker, tmp_path):
    """The harness itself: a failed `wait` shows the last check's values."""
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "a.jpg").write_bytes(b"x")
    p = picker.start([str(folder)])
    with pytest.raises(AssertionError) as raised:
        p.wait(lambda s: equal(s.captions(), ["b.jpg"]), "b.jpg alone", timeout=0.3)
    message = str(raised.value)
    assert "waiting for b.jpg alone" in message and "expected ['b.jpg']" in message, message
    assert "got ['a.jpg']" in message, message
    p.leave("Escape")
    p.finish(130)


def test_the_config_rebinds_keys_and_help_shows_the_new_ones(picker, tmp_path):
    root = make_files(tmp_path / "k", ["a.jpg", "b.jpg", "c.jpg"])
    config = tmp_path / "keys.toml"
    config.write_text('[keys]\ntoggle = "x"\nmove-right = ["n", "right"]\n[keys.tray]\nremove = "d"\n')
    p = picker.start(["--config", str(config), str(root)])
    p.send("Space")  # no longer picks
    p.press("n", "b.jpg")
    p.send("x")
    p.wait_selected("b.jpg")
    assert p.screen().tray_names() == ["b.jpg"]
    p.send("?")
    screen = p.wait_text("leave, print nothing")
    assert any("│ x " in line and "select" in line for line in screen.lines), "\n".join(screen.lines)
    p.send("Escape")
    p.wait_no_text("leave, print nothing")
    p.send("t")
    p.wait_text("d remove")
    p.send("d")
    p.wait(lambda s: s.tray_names() == [], "the tray emptied by d")
    # Its last pick removed, the tray has closed itself: an Esc now would
    # cancel at the top, unless read with the Enter as one Alt+Enter.
    p.send("Enter")
    assert p.finish(0) == f"{root}/b.jpg\n".encode()


def test_a_bad_key_name_in_the_config_is_an_error_with_its_line(picker, tmp_path):
    config = tmp_path / "keys.toml"
    config.write_text('[keys]\n\ntoggle = "hyper-x"\n')
    p = picker.start(["--config", str(config), str(tmp_path)], wait_ui=False)
    assert p.wait_exit() == 2
    assert f"{config}:3: toggle: \"hyper-x\" is not a key".encode() in p.stderr()
