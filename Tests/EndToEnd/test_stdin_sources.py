"""The Picked source: paths on stdin (newline- or NUL-separated) and file arguments."""

import os

from conftest import make_files


def test_stdin_paths_keep_their_order_and_print_as_given(picker, tmp_path):
    album = make_files(tmp_path / "album", ["c.jpg", "a.jpg"])
    folder = make_files(tmp_path / "folder", ["f1.jpg", "f2.jpg"])
    given_a = f"{album}/a.jpg"  # absolute
    stdin = f"./c.jpg\nmissing.jpg\n{given_a}\n".encode()
    p = picker.start([str(folder)], stdin=stdin, cwd=album)

    # The Picked source is shown first, in the order given (not sorted).
    screen = p.wait(lambda s: s.captions() == ["c.jpg", "missing.jpg", "a.jpg"], "the stdin paths in the given order")
    assert screen.source_bar.startswith("[1 ▤ Files] [2 ✓ Picked]"), screen
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
    assert screen.source_bar.startswith("[1 ✓ Picked]"), screen
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
    assert screen.source_bar.startswith("[1 ✓ Picked]"), screen
    p.toggle("z.jpg")
    p.press("l", "m.png")
    p.toggle("m.png")
    p.send("Enter")
    assert p.finish(0) == b"./z.jpg\nm.png\n"


def test_arguments_that_are_not_utf8_keep_their_bytes(picker, tmp_path):
    """A folder named in Latin-1 is still a folder; two file names that
    decode to the same text are still two files, printed byte for byte."""
    base = os.fsencode(tmp_path)
    folder = base + b"/lat\xe9"
    os.mkdir(folder)
    open(folder + b"/inside.jpg", "wb").close()
    first, second = base + b"/caf\xe9.jpg", base + b"/caf\xe8.jpg"
    for path in (first, second):
        open(path, "wb").close()
    p = picker.start([folder, first, second])
    screen = p.wait(lambda s: "[1 ▤ Files]" in s.lines[0] and "[2 ✓ Picked]" in s.lines[0], "both sources in the bar")
    assert screen.counts == (2, 2), screen
    p.send("Space")
    p.send("l")
    p.send("Space")
    p.wait(lambda s: "Picked 2" in s.lines[38], "two picks")
    p.send("1")
    p.wait_focus("inside.jpg")
    p.send("Space")
    p.wait(lambda s: "Picked 3" in s.lines[38], "three picks")
    p.send("Enter")
    assert p.finish(0) == first + b"\n" + second + b"\n" + folder + b"/inside.jpg\n"


def test_paths_trickling_in_show_without_waiting_for_a_full_page(picker, tmp_path):
    album = make_files(tmp_path / "album", ["one.jpg", "two.jpg"])
    fifo = tmp_path / "slow.fifo"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)
    try:
        os.write(writer, b"one.jpg\ntwo.jpg\n")
        p = picker.start([], stdin_path=fifo, cwd=album, wait_ui=False)
        screen = p.wait(lambda s: s.names()[:2] == ["one.jpg", "two.jpg"], "the two paths before stdin ends")
        assert "2 of 2+" in screen.breadcrumb, screen
        p.send("Enter")
        assert p.finish(0) == b"one.jpg\n"
    finally:
        os.close(writer)
