"""The Picked source: paths on stdin (newline- or NUL-separated) and file arguments."""

from conftest import make_files


def test_stdin_paths_keep_their_order_and_print_as_given(picker, tmp_path):
    album = make_files(tmp_path / "album", ["c.jpg", "a.jpg"])
    folder = make_files(tmp_path / "folder", ["f1.jpg", "f2.jpg"])
    given_a = f"{album}/a.jpg"  # absolute
    stdin = f"./c.jpg\nmissing.jpg\n{given_a}\n".encode()
    p = picker.start([str(folder)], stdin=stdin, cwd=album)

    # The Picked source is shown first, in the order given (not sorted).
    screen = p.wait(lambda s: s.captions() == ["c.jpg", "missing.jpg", "a.jpg"], "the stdin paths in the given order")
    assert screen.source_bar.startswith("[1 Files] [2 Picked]"), screen
    assert screen.counts == (3, 3), screen
    missing = screen.tile("missing.jpg")
    assert "missing" in "\n".join(missing.body[:-1]), f"the missing file's tile does not say 'missing'{screen}"

    # A missing file cannot be picked.
    p.press("l", "missing.jpg")
    p.send("Space")
    screen = p.wait_status("missing")
    assert screen.tray.strip() == "Picked 0  (Space picks the focused photo)", screen
    assert not screen.tile("missing.jpg").selected, screen

    # Source switching: 1 / 2, Tab and Shift-Tab.
    p.send("1")
    screen = p.wait(lambda s: s.captions() == ["f1.jpg", "f2.jpg"], "the Files source after '1'")
    assert screen.crumb_path == str(folder), screen
    p.send("2")
    p.wait(lambda s: s.captions() == ["c.jpg", "missing.jpg", "a.jpg"], "the Picked source after '2'")
    p.send("Tab")
    p.wait(lambda s: s.captions() == ["f1.jpg", "f2.jpg"], "the Files source after Tab")
    p.send("BTab")
    p.wait(lambda s: s.captions() == ["c.jpg", "missing.jpg", "a.jpg"], "the Picked source after Shift-Tab")

    p.send("End")
    p.wait_focus("a.jpg")
    p.toggle("a.jpg")
    p.press("g", "c.jpg")
    screen = p.toggle("c.jpg")
    assert screen.tray_names() == ["a.jpg", "c.jpg"], screen
    p.send("Enter")
    assert p.finish(0) == f"{given_a}\n./c.jpg\n".encode(), p.describe()


def test_stdin_only_picks_the_focused_photo(picker, tmp_path):
    album = make_files(tmp_path / "album", ["b.jpg", "a.jpg"])
    p = picker.start([], stdin=b"b.jpg\na.jpg\n", cwd=album)
    screen = p.wait(lambda s: s.captions() == ["b.jpg", "a.jpg"], "the stdin paths")
    assert screen.source_bar.startswith("[1 Picked]"), screen
    p.press("l", "a.jpg")
    p.send("Enter")
    assert p.finish(0) == b"a.jpg\n"


def test_read0_splits_stdin_on_nul(picker, tmp_path):
    album = make_files(tmp_path / "album", ["c.jpg", "with space.jpg", "a.jpg", "new\nline.jpg"])
    stdin = b"./c.jpg\0with space.jpg\0a.jpg\0new\nline.jpg\0"
    p = picker.start(["--read0", "-0"], stdin=stdin, cwd=album)
    p.wait(
        lambda s: s.captions() == ["c.jpg", "with space.jpg", "a.jpg", "new\\nline.jpg"],
        "four NUL-separated paths, the newline shown escaped",
    )
    p.press("l", "with space.jpg")
    p.toggle("with space.jpg")
    p.press("G", "new\\nline.jpg")
    p.toggle("new\\nline.jpg")
    p.send("Enter")
    assert p.finish(0) == b"with space.jpg\0new\nline.jpg\0", p.describe()


def test_file_arguments_form_the_picked_source(picker, tmp_path):
    album = make_files(tmp_path / "album", ["z.jpg", "m.png"])
    p = picker.start(["./z.jpg", "m.png"], cwd=album)
    screen = p.wait(lambda s: s.captions() == ["z.jpg", "m.png"], "the file arguments in order")
    assert screen.source_bar.startswith("[1 Picked]"), screen
    p.toggle("z.jpg")
    p.press("l", "m.png")
    p.toggle("m.png")
    p.send("Enter")
    assert p.finish(0) == b"./z.jpg\nm.png\n"
