"""Browsing folders, picking, confirming, cancelling; what goes to stdout."""

import pytest

from conftest import HINTS, TMUX_NOTICE, equal, make_files


def test_pick_three_photos_across_two_albums(picker, album_tree):
    root = str(album_tree)
    p = picker.start([root])

    screen = p.screen()
    # Sub-folders first, then photos in case-insensitive natural order;
    # notes.txt and hidden entries are not shown.
    assert screen.captions() == ["Album1/", "Album2/", "apple.jpg", "IMG_3.jpg", "Zoo.jpg"], screen
    assert screen.crumb_path == root, screen
    assert screen.counts == (5, 5), screen
    assert screen.breadcrumb.rstrip().endswith("5 of 5 · name"), screen
    assert screen.focused_caption() == "Album1/", screen
    assert screen.source_bar.startswith("[1 ▤ Files]"), screen
    assert screen.source_bar.rstrip().endswith("0 picked"), screen
    assert screen.tray.strip() == "Picked 0  (Space picks the focused photo)", screen
    # Inside tmux without passthrough the first footer says how to get
    # pixel thumbnails after the key hints, where both fit.
    # Enter opens the focused album.
    hints = HINTS.replace("Enter pick", "Enter open")
    assert screen.status.strip() in (hints, hints + " · " + TMUX_NOTICE), screen
    assert len(screen.tiles()) == 5 and all(t.width == 18 and t.height == 11 for t in screen.tiles()), screen

    # Album2: the last photo first.
    p.press("l", "Album2/")
    assert p.screen().status.strip() == HINTS.replace("Enter pick", "Enter open"), p.screen()
    p.send("Enter")
    screen = p.wait(lambda s: s.crumb_path == f"{root} / Album2", "the breadcrumb of Album2")
    screen = p.wait(lambda s: s.captions() == [".. Back", "beach.png", "sunset.jpeg"], "Album2's tiles")
    p.press("G", "sunset.jpeg")
    screen = p.toggle("sunset.jpeg")
    assert screen.tray_header() == "Picked 1" and screen.tray_names() == ["sunset.jpeg"], screen
    assert screen.source_bar.rstrip().endswith("1 picked"), screen

    # Back to the root with the Back tile.
    p.press("g", ".. Back")
    p.send("Enter")
    p.wait(lambda s: s.crumb_path == root and "Album1/" in s.captions(), "the root folder again")

    # Album1: natural order, IMG_2 between IMG_1 and IMG_10.
    p.press("g", "Album1/")
    p.send("Enter")
    screen = p.wait(
        lambda s: s.crumb_path == f"{root} / Album1" and s.captions()[:1] == [".. Back"], "Album1's tiles"
    )
    screen = p.wait(lambda s: s.captions() == [".. Back", "IMG_1.jpg", "IMG_2.jpg", "IMG_10.jpg"], "Album1's photos")
    # Opened on its first photo, not on Back.
    p.wait_focus("IMG_1.jpg")
    p.press("l", "IMG_2.jpg")
    screen = p.toggle("IMG_2.jpg")
    assert screen.tray_names() == ["sunset.jpeg", "IMG_2.jpg"], screen

    # Back to the root with Backspace; the Album2 pick is remembered.
    p.send("BSpace")
    screen = p.wait(lambda s: s.crumb_path == root and "Zoo.jpg" in s.names(), "the root folder after Backspace")
    p.press("G", "Zoo.jpg")
    screen = p.toggle("Zoo.jpg")
    assert screen.tray_header() == "Picked 3", screen
    assert screen.tray_names() == ["sunset.jpeg", "IMG_2.jpg", "Zoo.jpg"], screen
    assert screen.source_bar.rstrip().endswith("3 picked"), screen

    p.send("Enter")
    out = p.finish(0)
    assert out == (f"{root}/Album2/sunset.jpeg\n{root}/Album1/IMG_2.jpg\n{root}/Zoo.jpg\n").encode(), p.describe()
    assert p.stderr() == b""


def test_enter_on_a_photo_with_nothing_selected_picks_it(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    p.press("h", "IMG_3.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{album_tree}/IMG_3.jpg\n".encode()


def test_space_toggles_a_selection_off_again(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    p.toggle("Zoo.jpg")
    p.send("Space")
    p.wait_selected("Zoo.jpg", selected=False)
    p.wait(lambda s: equal(s.tray.strip(), "Picked 0  (Space picks the focused photo)"), "the tray emptied")
    p.press("h", "IMG_3.jpg")
    p.toggle("IMG_3.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{album_tree}/IMG_3.jpg\n".encode()


def test_print0_output_is_byte_exact(picker, tmp_path):
    # The root is given relative to the working directory, and printed as given.
    make_files(tmp_path / "shots", ["my photo.jpg", "café.jpg", "plain.png"])
    p = picker.start(["-0", "shots"], cwd=tmp_path)
    screen = p.screen()
    assert screen.captions() == ["café.jpg", "my photo.jpg", "plain.png"], screen
    assert screen.crumb_path == "shots", screen
    p.press("l", "my photo.jpg")
    p.toggle("my photo.jpg")
    p.press("h", "café.jpg")
    p.toggle("café.jpg")
    p.send("Enter")
    out = p.finish(0)
    assert out == "shots/my photo.jpg\0shots/café.jpg\0".encode("utf-8"), p.describe()


def test_ctrl_c_cancels_at_once_with_picks(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    p.toggle("Zoo.jpg")  # a selection must not be printed on cancel
    p.send("C-c")
    assert p.finish(130) == b""
    assert p.stderr() == b""


@pytest.mark.parametrize("key", ["Escape", "q"])
def test_leaving_with_picks_asks_once_then_a_second_key_leaves(picker, album_tree, key):
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    p.toggle("Zoo.jpg")
    p.send(key)
    p.wait_status("1 picked: Enter prints it, Esc leaves without it")
    p.send(key)
    assert p.finish(130) == b""
    assert p.stderr() == b""


@pytest.mark.parametrize("key", ["Escape", "q"])
def test_leaving_without_picks_does_not_ask(picker, album_tree, key):
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    p.send(key)
    assert p.finish(130) == b""


def test_three_picks_then_esc_at_the_top_asks_and_enter_prints_them(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    p.toggle("Zoo.jpg")
    p.press("h", "IMG_3.jpg")
    p.toggle("IMG_3.jpg")
    p.send("h")
    p.send("Space")
    p.wait(lambda s: s.tray.lstrip().startswith("Picked 3"), "three picks")
    p.send("Escape")
    p.wait_status("3 picked: Enter prints them")
    p.send("Enter")
    out = p.finish(0)
    assert len(out.splitlines()) == 3, p.describe()
    assert out.splitlines()[0] == f"{album_tree}/Zoo.jpg".encode(), p.describe()


def test_another_key_on_the_question_goes_back_to_the_grid(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    p.toggle("Zoo.jpg")
    p.send("Escape")
    p.wait_status("1 picked:")
    p.send("h")
    p.wait_running(lambda s: "1 picked:" not in s.status, "the grid again")
    p.send("Enter")
    assert p.finish(0) == f"{album_tree}/Zoo.jpg\n".encode(), p.describe()


@pytest.mark.parametrize("stdout_pipe", [False, True], ids=["stdout-file", "stdout-pipe"])
def test_paths_go_only_to_stdout(picker, album_tree, stdout_pipe):
    """`picker-tui DIR > out` and `picker-tui DIR | cat > out`: the UI is on the
    terminal, stdout holds exactly the picked paths."""
    p = picker.start([str(album_tree)], stdout_pipe=stdout_pipe)
    assert (p.workdir / "out").read_bytes() == b"", "nothing may reach stdout while the UI is open"
    p.press("G", "Zoo.jpg")
    p.toggle("Zoo.jpg")
    p.press("h", "IMG_3.jpg")
    p.toggle("IMG_3.jpg")
    p.send("Enter")
    out = p.finish(0)
    assert out == f"{album_tree}/Zoo.jpg\n{album_tree}/IMG_3.jpg\n".encode(), p.describe()
    assert p.stderr() == b""


def test_a_folder_named_like_a_subcommand_is_a_folder(picker, tmp_path):
    make_files(tmp_path / "bench", ["shot.jpg"])
    p = picker.start(["bench"], cwd=tmp_path)
    p.wait_focus("shot.jpg")
    p.send("Enter")
    assert p.finish(0) == b"bench/shot.jpg\n"
