"""Closed or full standard descriptors: nothing picked is ever reported as
printed when it was not (exit 2 and a message), and a closed stdin is no
list of paths."""

from conftest import make_files


def test_closed_stdout_is_an_error_at_confirm(picker, tmp_path):
    root = make_files(tmp_path / "d", ["a.jpg", "b.jpg"])
    p = picker.start([str(root)], stdout_redirect=">&-")
    p.toggle("a.jpg")
    p.send("Enter")
    assert p.wait_exit() == 2
    assert b"stdout was closed" in p.stderr(), p.stderr()
    p.assert_terminal_restored()


def test_full_stdout_is_an_error(picker, tmp_path):
    root = make_files(tmp_path / "d", ["a.jpg"])
    p = picker.start([str(root)], stdout_redirect="> /dev/full")
    p.send("Enter")
    assert p.wait_exit() == 2
    assert b"cannot write to stdout" in p.stderr(), p.stderr()


def test_closed_stdin_adds_no_picked_source(picker, tmp_path):
    root = make_files(tmp_path / "d", ["a.jpg"])
    p = picker.start([str(root)], stdin_closed=True)
    screen = p.screen()
    assert screen.source_bar.startswith("[1 ▤ Files]") and "Picked" not in screen.source_bar, screen
    p.send("Enter")
    assert p.finish(0) == f"{root}/a.jpg\n".encode()
