"""Everyday mistakes get the answer the person meant: a file deleted before
Enter, a typo in the path, folders piped in with the files, keys typed at a
terminal too small to show the grid, a negative --max, and a terminal
without an alternate screen."""

import os
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import TMUX_NOTICE, PickerRunner, make_files


def test_a_file_deleted_before_enter_is_not_printed_after_a_success(picker, tmp_path):
    root = make_files(tmp_path / "d", ["a.jpg", "b.jpg", "c.jpg"])
    p = picker.start([str(root)])
    p.toggle("a.jpg")
    p.press("l", "b.jpg")
    p.toggle("b.jpg")
    (root / "b.jpg").unlink()
    p.send("Enter")
    screen = p.wait_running(
        lambda s: "b.jpg no longer exists" in s.status, "'b.jpg no longer exists' on the bottom line"
    )
    assert "Enter again prints the other one" in screen.status, screen
    assert screen.tray_names() == ["a.jpg", "✗ b.jpg"], screen
    # Knowingly, a second time: the others are printed.
    p.send("Enter")
    assert p.finish(0) == f"{root}/a.jpg\n".encode()


def test_removing_the_deleted_file_from_the_tray_prints_the_rest(picker, tmp_path):
    root = make_files(tmp_path / "d", ["a.jpg", "b.jpg"])
    p = picker.start([str(root)])
    p.toggle("a.jpg")
    p.press("l", "b.jpg")
    p.toggle("b.jpg")
    (root / "a.jpg").unlink()
    p.send("Enter")
    p.wait_status("a.jpg no longer exists")
    p.send("t")
    p.send("Home")
    p.send("x")
    p.wait(lambda s: s.tray_names() == ["b.jpg"], "the tray without a.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{root}/b.jpg\n".encode()


def test_a_path_that_does_not_exist_alone_is_an_error(picker, tmp_path):
    typo = tmp_path / "Pictrues"
    p = picker.start([str(typo)], wait_ui=False)
    assert p.finish(2) == b""
    assert p.stderr().decode() == f"picker-tui: no such file or directory: {typo}\n"


def test_a_mistyped_subcommand_suggests_the_nearest_one(picker, tmp_path):
    p = picker.start(["idnex"], cwd=tmp_path, wait_ui=False)
    assert p.finish(2) == b""
    assert p.stderr().decode() == "picker-tui: no such file or directory: idnex (did you mean `picker-tui index`?)\n"


def test_one_missing_path_among_real_ones_is_shown_marked(picker, tmp_path):
    root = make_files(tmp_path / "m", ["a.jpg"])
    p = picker.start([str(root / "a.jpg"), str(root / "gone.jpg")])
    screen = p.wait(lambda s: s.captions() == ["a.jpg", "gone.jpg"], "both paths")
    assert "missing" in screen.tile("gone.jpg").text, screen
    p.leave("q")
    p.finish(130)


def test_folders_piped_in_are_skipped_with_a_note(picker, tmp_path):
    root = make_files(tmp_path / "Pictures", ["a.jpg", "Trip/b.jpg"])
    listing = "\n".join([str(root), str(root / "a.jpg"), str(root / "Trip"), str(root / "Trip" / "b.jpg")]) + "\n"
    p = picker.start([], stdin=listing.encode())
    screen = p.wait(lambda s: s.captions() == ["a.jpg", "b.jpg"], "the two files, no folders")
    note = "2 folders in the list skipped: only files are offered"
    if TMUX_NOTICE in screen.status:
        p.send("l")  # the first key clears the earlier notice
    p.wait_status(note)
    p.press("g", "a.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{root}/a.jpg\n".encode()


def test_keys_do_nothing_while_the_terminal_is_too_small(picker, tmp_path):
    root = make_files(tmp_path / "s", ["a.jpg", "b.jpg", "c.jpg"])
    p = picker.start([str(root)], width=20, height=8, wait_ui=False)
    p.wait_text("Terminal too small")
    # Help is one of the few keys that act while too small: sent last, its
    # overlay once the grid fits shows every key before it was read.
    for key in ("Right", "Right", "Space", "Enter", "?"):
        p.send(key)
    # A short settle: nothing but "Terminal too small" is drawn, so no key's
    # effect can be seen yet; the keys must be read before the resize, which
    # the picker would take first, and Enter must not have ended it.
    p.assert_running()
    p.resize(120, 40)
    p.wait_running(lambda s: "any key closes" in s, "the help opened while too small, drawn once the grid fits")
    p.send("?")
    screen = p.wait_running(
        lambda s: "any key closes" not in s and s.focused_caption() == "a.jpg", "the grid, the focus where it was"
    )
    assert screen.tray_names() == [], screen
    # Cancel still works while too small.
    p.resize(20, 8)
    p.wait_text("Terminal too small")
    p.leave("q")
    assert p.finish(130) == b""


@pytest.mark.parametrize("option", ["--max", "--min", "--page-size"])
def test_a_negative_number_says_what_is_wrong(picker, album_tree, option):
    p = picker.start([option, "-1", str(album_tree)], wait_ui=False)
    assert p.finish(2) == b""
    err = p.stderr().decode()
    assert err.startswith("picker-tui: ") and "Missing value" not in err, err
    assert f"{option} must be" in err, err


@pytest.mark.parametrize("term", ["linux", "vt100"])
def test_without_an_alternate_screen_the_last_frame_is_cleared(picker, tmp_path, term):
    root = make_files(tmp_path / "c", ["apple.jpg", "banana.jpg"])
    p = picker.start([str(root)], env={"TERM": term})
    p.wait(lambda s: "apple.jpg" in s.text, "the grid")
    p.leave("q")
    assert p.finish(130) == b""
    screen = p.screen()
    assert "apple.jpg" not in screen.text and "Picked" not in screen.text, f"the last frame is left behind{screen}"


def test_a_fifo_put_in_place_of_a_picked_file_is_not_printed(picker, tmp_path):
    root = make_files(tmp_path / "f", ["a.jpg", "b.jpg"])
    p = picker.start([str(root)])
    p.toggle("a.jpg")
    p.press("l", "b.jpg")
    p.toggle("b.jpg")
    (root / "b.jpg").unlink()
    os.mkfifo(root / "b.jpg")
    p.send("Enter")
    # It exists: it is named for what it is, not as gone.
    screen = p.wait_running(
        lambda s: "b.jpg is not a regular file" in s.status, "'b.jpg is not a regular file' on the bottom line"
    )
    assert screen.tray_names() == ["a.jpg", "✗ b.jpg"], screen
    p.send("Enter")
    assert p.finish(0) == f"{root}/a.jpg\n".encode()


def test_a_tmux_that_hangs_does_not_hang_the_start(picker, tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    # A duration no other test uses, to find it afterwards.
    (fake / "tmux").write_text("#!/bin/sh\nexec sleep 61\n")
    (fake / "tmux").chmod(0o755)
    root = make_files(tmp_path / "t", ["a.jpg"])
    started = time.monotonic()
    p = picker.start([str(root)], env={"PATH": f"{fake}:/usr/bin:/bin", "TMUX": "/tmp/fake-tmux,1,0"})
    assert time.monotonic() - started < 8, "the start waited for the hung tmux"
    p.send("Enter")
    assert p.finish(0) == f"{root}/a.jpg\n".encode()
    # The hung child was ended, not left behind.
    assert subprocess.run(["pgrep", "-x", "-f", "sleep 61"], capture_output=True).returncode == 1


def test_no_query_leaks_into_the_pane_title_without_tmux_in_the_environment(picker, tmp_path):
    # What ssh from a tmux pane gives: TERM says tmux, $TMUX is not passed.
    root = make_files(tmp_path / "s", ["a.jpg"])
    p = picker.start([str(root)], env={"TMUX": "", "TERM": "tmux-256color"})
    p.send("Enter")
    assert p.finish(0) == f"{root}/a.jpg\n".encode()
    title = p.display("#{pane_title}")
    assert "Gi=" not in title and "AAAA" not in title, title


def test_no_query_leaks_into_gnu_screens_status_line(tmux_server, picker_bin, tmp_path):
    """Inside GNU screen, an APC string sets screen's hardstatus: the kitty
    query must not be sent there. The picker runs with `env -i` (as over
    ssh from a screen window: TERM says screen, nothing else is passed)."""
    if shutil.which("screen") is None:
        pytest.fail("GNU screen is missing: scripts/install-deps.sh test installs it")
    root = make_files(tmp_path / "s", ["a.jpg", "b.jpg"])
    config = tmp_path / "screenrc"
    config.write_text('hardstatus alwayslastline "[%h]"\nstartup_message off\n')
    out = tmp_path / "out"
    inner = (f"env -i TERM=screen LANG=C.UTF-8 PATH=/usr/bin:/bin HOME={tmp_path} "
             f"{shlex.quote(str(picker_bin))} {shlex.quote(str(root))} > {shlex.quote(str(out))}")
    runner = PickerRunner(tmux_server, Path(shutil.which("screen")), tmp_path / "runs", "screen-status")
    try:
        p = runner.start(["-c", str(config), "sh", "-c", inner], wait_ui=False)
        screen = p.wait_text("b.jpg")
        status = screen.lines[-1]
        assert status.startswith("[") and "Gi=" not in status and "AAAA" not in status, screen
        p.send("Right")
        p.send("Enter")
        p.finish(0)
        assert out.read_bytes() == f"{root}/b.jpg\n".encode()
    finally:
        runner.close()
