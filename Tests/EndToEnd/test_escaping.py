"""Hostile file names: control characters are escaped on screen, raw on stdout."""

import subprocess
import time
import uuid

from conftest import make_files

TITLE_NAME = b"\x1b]2;PWNED\x07.jpg"
# Enter on a name with a newline, without -0.
REFUSAL = "new\\nline.jpg has a newline in its path: use -0 (--print0) to pick it"


def test_title_escape_control(tmux_server, tmp_path):
    """Control: writing the raw sequence to the pane does set its title, so the
    check below can fail."""
    session = f"control-{uuid.uuid4().hex[:6]}"
    tmux = ["tmux", "-L", tmux_server, "-f", "/dev/null"]
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", session, "-x", "80", "-y", "10", "/bin/sh", "-c",
         r"printf '\033]2;PWNED\007'; exec sleep 600"],
        check=True,
    )
    try:
        deadline = time.monotonic() + 10
        title = ""
        while time.monotonic() < deadline and "PWNED" not in title:
            title = subprocess.run(
                [*tmux, "display-message", "-p", "-t", f"={session}:", "#{pane_title}"], capture_output=True, text=True
            ).stdout
            time.sleep(0.02)
        assert "PWNED" in title
    finally:
        subprocess.run([*tmux, "kill-session", "-t", f"={session}:"], capture_output=True)


def test_escape_sequence_in_a_name_is_shown_escaped(picker, tmp_path):
    root = make_files(tmp_path / "evil", [TITLE_NAME, b"zz.jpg"])
    p = picker.start([str(root)])
    screen = p.wait(lambda s: len(s.tiles()) == 2, "two tiles")
    caption = screen.tiles()[0].caption
    assert caption.startswith("\\e]2;PWNED"), f"caption {caption!r} does not show ESC as \\e{screen}"
    assert "\x1b" not in screen.text and "\x07" not in screen.text, screen
    assert "PWNED" not in p.display("#{pane_title}"), f"the pane title was changed: {p.display('#{pane_title}')!r}"
    # The tray shows it escaped too.
    p.send("Space")
    screen = p.wait(lambda s: s.tiles()[0].selected, "the escaped name to be selected")
    assert screen.tray_names()[0].startswith("\\e]2;PWNED"), screen
    assert "PWNED" not in p.display("#{pane_title}")
    p.send("Enter")
    out = p.finish(0)
    assert out == str(root).encode() + b"/" + TITLE_NAME + b"\n", p.describe()
    assert "PWNED" not in p.display("#{pane_title}")


def test_newline_in_a_name_needs_print0(picker, tmp_path):
    root = make_files(tmp_path / "nl", [b"new\nline.jpg", b"ok.jpg"])
    p = picker.start([str(root)])
    screen = p.screen()
    assert screen.captions() == ["new\\nline.jpg", "ok.jpg"], screen

    # Nothing selected: Enter on it is refused.
    p.send("Enter")
    screen = p.wait_running(
        lambda s: REFUSAL in s.status and s.tray_names() == [], "the refusal on the bottom line, nothing picked"
    )
    # Selected: Enter is refused as well, the picker stays open.
    p.toggle("new\\nline.jpg")
    p.send("Enter")
    screen = p.wait_running(
        lambda s: REFUSAL in s.status and s.tray_names() == ["new\\nline.jpg"],
        "the refusal on the bottom line, the pick kept",
    )
    assert screen.tiles(), screen
    p.leave("Escape")
    assert p.finish(130) == b""


def test_newline_in_a_name_prints_raw_with_print0(picker, tmp_path):
    root = make_files(tmp_path / "nl", [b"new\nline.jpg", b"ok.jpg"])
    p = picker.start(["-0", str(root)])
    p.toggle("new\\nline.jpg")
    p.send("Enter")
    assert p.finish(0) == str(root).encode() + b"/new\nline.jpg\0"
