"""Keys as real terminals send them: no sequence may cancel by mistake.

Home and End inside tmux with TERM=xterm-256color arrive as `ESC [1~` and
`ESC [4~` while terminfo says `ESC OH`; Alt+letter is `ESC x`; an arrow typed
before the picker switched the terminal to application mode is `ESC [C`.
Read as a bare Esc, each of these cancelled the picker and lost the picks.
"""

import pytest

from conftest import TMUX_NOTICE, make_files

NAMES = [f"P{i:02d}.jpg" for i in range(1, 9)]


def wait_focus_name(p, name):
    """Waits for the focus on `name`, selected or not (its caption has a ✓ then)."""
    return p.wait(lambda s: s.focused() is not None and s.focused().name == name, f"focus on {name}")


@pytest.mark.parametrize("term", ["xterm-256color", "tmux-256color", "screen-256color", "xterm", "linux", "vt100"])
def test_home_end_and_alt_keep_the_selection(picker, tmp_path, term):
    root = make_files(tmp_path / "k", NAMES)
    p = picker.start([str(root)], env={"TERM": term})
    p.toggle("P01.jpg")
    # tmux sends Home/End in its own form whatever the inner TERM says.
    p.send("End")
    wait_focus_name(p, "P08.jpg")
    p.send("Home")
    wait_focus_name(p, "P01.jpg")
    p.send("M-x")  # Alt+x: no action
    p.send("Right")
    # Right's move shows that Alt+x, sent before it, was read and did not cancel.
    p.wait_running(
        lambda s: s.focused() is not None and s.focused().name == "P02.jpg" and s.tile("P01.jpg").selected,
        "focus on P02.jpg after Alt+x, P01.jpg still picked",
    )
    p.toggle("P02.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{root}/P01.jpg\n{root}/P02.jpg\n".encode()


def test_sequences_of_other_terminals_act_or_are_ignored(picker, tmp_path):
    root = make_files(tmp_path / "k", NAMES)
    p = picker.start([str(root)])
    p.toggle("P01.jpg")
    # Normal-mode arrows (typed before application mode was on), rxvt's
    # Home/End, the console's F1, SS3 Home/End, and sequences nobody binds.
    raw = {
        "\x1b[C": "P02.jpg",
        "\x1b[8~": "P08.jpg",
        "\x1b[7~": "P01.jpg",
        "\x1bOF": "P08.jpg",
        "\x1bOH": "P01.jpg",
    }
    for sequence, focus in raw.items():
        p.type(sequence)
        wait_focus_name(p, focus)
    for unknown in ("\x1b[2~", "\x1b[99~", "\x1b[1;5X", "\x1b[200~", "\x1bOz", "\x1b[?62;4c"):
        p.type(unknown)
    p.type("\x1b[[A")  # F1 on the console: help
    p.wait_text("leave, print nothing")
    p.send("x")
    p.wait_running(
        lambda s: "leave, print nothing" not in s
        and s.focused_caption() == "✓ P01.jpg"
        and s.tray_names() == ["P01.jpg"],
        "the grid again after x closed the help, P01.jpg focused and still picked",
    )
    p.send("Enter")
    assert p.finish(0) == f"{root}/P01.jpg\n".encode()


def test_a_lone_escape_still_cancels(picker, tmp_path):
    root = make_files(tmp_path / "k", NAMES)
    p = picker.start([str(root)])
    p.toggle("P01.jpg")
    p.leave("Escape")
    assert p.finish(130) == b""


def test_keys_typed_before_the_first_page_are_applied_in_order(picker, tmp_path):
    """`Right Right Space Enter` typed while the listing has not come yet
    picks the third photo, as fzf keeps a query typed while it starts."""
    import os

    album = make_files(tmp_path / "album", ["one.jpg", "two.jpg", "three.jpg", "four.jpg"])
    fifo = tmp_path / "paths"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)
    try:
        p = picker.start([], stdin_path=fifo, cwd=album, wait_ui=False)
        p.wait(lambda s: "loading" in str(s), "the picker waiting for its listing")
        p.send("Right", "Right", "Space", "Enter")
        # Typed ahead, the keys show nothing until the listing comes. The first
        # one clears the start notice (when tmux's is shown): a sign they are
        # being read while the breadcrumb still says loading.
        p.wait_running(
            lambda s: TMUX_NOTICE not in s.status and "loading…" in s.breadcrumb,
            "the start notice cleared by the first key, the listing still loading",
        )
        # A short settle all the same: nothing on screen can show that the
        # last keys were read before the listing is written, nor that Enter
        # on no photos yet did not end the picker.
        p.assert_running()
        os.write(writer, b"one.jpg\ntwo.jpg\nthree.jpg\nfour.jpg\n")
        os.close(writer)
        writer = -1
        assert p.finish(0) == b"three.jpg\n"
    finally:
        if writer >= 0:
            os.close(writer)
