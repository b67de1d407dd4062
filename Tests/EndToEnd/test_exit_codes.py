"""Nothing to pick from (1) and errors (2)."""

import subprocess

import pytest

from conftest import make_files


@pytest.mark.parametrize("contents", [[], ["notes.txt", ".hidden.jpg"]], ids=["empty", "no-photos"])
def test_folder_without_photos_exits_1(picker, tmp_path, contents):
    root = make_files(tmp_path / "empty", contents)
    p = picker.start([str(root)], wait_ui=False)
    assert p.finish(1) == b""
    assert p.stderr() == b"picker-tui: nothing to pick from\n"


def test_empty_stdin_without_arguments_exits_1(picker, tmp_path):
    p = picker.start([], stdin=b"", wait_ui=False)
    assert p.finish(1) == b""
    assert p.stderr() == b"picker-tui: nothing to pick from\n"


def test_folders_alone_on_stdin_exit_1_saying_they_were_skipped(picker, tmp_path):
    root = make_files(tmp_path / "Pictures", ["Trip/a.jpg", "Home/b.jpg"])
    listing = "".join(f"{folder}\n" for folder in (root / "Trip", root / "Home"))
    p = picker.start([], stdin=listing.encode(), wait_ui=False)
    assert p.finish(1) == b""
    assert p.stderr() == (
        b"picker-tui: nothing to pick from: the 2 folders in the list on stdin skipped (a list names photo files; "
        b"to browse a folder, give it as an argument: picker-tui DIR)\n"
    )


@pytest.mark.parametrize(
    ("args", "mention"),
    [(["--max", "0"], "--max"), (["--min", "3", "--max", "2"], "--min"), (["--bogus"], "--bogus")],
    ids=["max-0", "min-above-max", "unknown-option"],
)
def test_bad_options_exit_2(picker, album_tree, args, mention):
    p = picker.start([*args, str(album_tree)], wait_ui=False)
    assert p.finish(2) == b""
    err = p.stderr().decode()
    assert err.startswith("picker-tui: ") and mention in err, err


def test_no_terminal_exits_2(picker_bin, album_tree):
    """No controlling terminal (setsid, stdin not a tty): nothing to draw on."""
    result = subprocess.run(
        [str(picker_bin), str(album_tree)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        start_new_session=True,
        timeout=20,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "screen"},
    )
    assert result.returncode == 2, result
    assert result.stdout == b""
    assert result.stderr.startswith(b"picker-tui: ") and b"terminal" in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("term", "mention"), [("", "TERM is not set"), ("dumb", "cannot move the cursor")], ids=["unset", "dumb"]
)
def test_a_terminal_that_cannot_draw_a_grid_exits_2(picker, album_tree, term, mention):
    p = picker.start([str(album_tree)], env={"TERM": term}, wait_ui=False)
    assert p.finish(2) == b""
    err = p.stderr().decode()
    assert err.startswith("picker-tui: ") and mention in err, err


def test_a_huge_page_size_is_refused(picker, album_tree):
    p = picker.start(["--page-size", "9223372036854775807", str(album_tree)], wait_ui=False)
    assert p.finish(2) == b""
    assert "--page-size" in p.stderr().decode()


@pytest.mark.parametrize("ask", [["--help"], ["-h"], ["help"]])
def test_help_shows_the_pick_options_then_the_subcommands(picker_bin, ask, tmp_path):
    result = subprocess.run([str(picker_bin), *ask], capture_output=True, text=True, timeout=20, cwd=tmp_path,
                            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "COLUMNS": "80"})
    assert result.returncode == 0 and result.stderr == "", result
    text = result.stdout
    assert text.index("USAGE: picker-tui [<options>] [<paths> ...]") < text.index("-0, --print0") < text.index(
        "SUBCOMMANDS:") < text.index("  preview "), text
    for option in ("--max", "--min", "--read0", "--thumbnails", "--print-urls"):
        assert option in text


def test_help_as_a_folder_name_is_browsed_not_answered(picker, tmp_path):
    (tmp_path / "help").mkdir()
    (tmp_path / "help" / "a.jpg").write_bytes(b"x")
    p = picker.start(["help"], cwd=tmp_path)
    p.wait(lambda s: "a.jpg" in s.captions(), "the folder named help")
    p.leave("Escape")
    p.finish(130)


LIBRARIES = ("libjpeg-turbo ", "libpng ", "libwebp ", "giflib ", "libheif ", "libjxl ", "libtiff ", "LibRaw ",
             "Little CMS ", "libchafa ", "libcurl ", "libxml2 ", "ncurses ")


def test_version_verbose_names_the_libraries_and_the_terminal(picker, picker_bin, tmp_path):
    plain = subprocess.run([str(picker_bin), "--version"], capture_output=True, text=True, timeout=20)
    assert plain.returncode == 0 and plain.stdout.strip().count("\n") == 0, plain
    version = plain.stdout.strip()
    # Without a terminal: the libraries, and that there is none to ask.
    result = subprocess.run([str(picker_bin), "--version", "--verbose"], capture_output=True, text=True, timeout=20,
                            stdin=subprocess.DEVNULL, start_new_session=True,
                            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color"})
    assert result.returncode == 0, result
    lines = result.stdout.splitlines()
    assert lines[0] == f"picker-tui {version}", lines
    for name in LIBRARIES:
        assert any(line.startswith(name) and any(c.isdigit() for c in line) for line in lines), (name, lines)
    assert "  TERM=xterm-256color" in lines and "  no terminal: /dev/tty cannot be opened" in lines, lines
    # In a terminal: what it was detected as.
    p = picker.start(["--version", "--verbose"], wait_ui=False)
    out = p.finish(0).decode().splitlines()
    assert out[0] == f"picker-tui {version}" and any(line.startswith("  thumbnails: ") for line in out), out
