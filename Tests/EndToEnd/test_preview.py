"""The full-screen preview (v) and `picker-tui preview FILE` for other
programs' preview panes (fzf), in a real terminal (symbols: tmux)."""

import os
import shutil
import subprocess
import time

import pytest

from conftest import TIMEOUT, shell_word
from images import demo_photos

BLOCKS = set("▀▄▌▐█▖▗▘▙▚▛▜▝▞▟▁▂▃▅▆▇▉▊▋▍▎▏▔▕")


def blocks(line: str) -> int:
    return sum(ch in BLOCKS for ch in line)


def exiftool(path, *arguments):
    tool = shutil.which("exiftool")
    if tool is None:
        pytest.fail("exiftool is missing (make test installs it)")
    subprocess.run([tool, "-q", "-overwrite_original", *arguments, str(path)], check=True)


def test_preview_steps_selects_shows_facts_and_returns(picker, tmp_path):
    folder = tmp_path / "photos"
    names = demo_photos(folder)  # desert.jpg, IMG_10.jpg, IMG_101.jpg, IMG_2.jpg, IMG_9.jpg, sunset.png
    exiftool(folder / "IMG_9.jpg", "-Make=FUJIFILM", "-Model=X-T4", "-FNumber=2.8", "-ISO=400")
    p = picker.start([str(folder)], env={"COLORTERM": "truecolor"})
    order = [tile.name for tile in p.screen().tiles()]
    first = order[0]
    p.send("v")
    screen = p.wait(lambda s: f"1/{len(names)} · {first}" in s.lines[-1], "the preview's status line")
    assert "Esc back" in screen.lines[-1], screen
    # The photo fills the screen: many rows of block symbols, wider than a tile.
    screen = p.wait(lambda s: sum(blocks(line) > 40 for line in s.lines[:-1]) > 10, "a full-screen picture")
    p.send("l")
    second = order[1]
    p.wait(lambda s: f"2/{len(names)} · {second}" in s.lines[-1], "the next photo")
    p.send("Space")
    p.wait(lambda s: "✓ picked" in s.lines[-1], "the selection mark")
    # Step to the tagged photo and open its facts.
    target = order.index("IMG_9.jpg") + 1
    assert target > 2, order
    for _ in range(target - 2):
        p.send("l")
    p.wait(lambda s: f"{target}/{len(names)} · IMG_9.jpg" in s.lines[-1], "IMG_9.jpg")
    p.send("i")
    # Every fact waited for in one screen: a capture taken while a frame is
    # being written can hold some rows of the panel and not yet others.
    p.wait(
        lambda s: all(fact in str(s) for fact in ("FUJIFILM X-T4", "f/2.8", "JPEG", "400")),
        "the facts panel: camera, aperture, format and ISO")
    p.send("Escape")
    screen = p.wait(lambda s: s.focused() is not None and s.focused().name == "IMG_9.jpg", "the grid on IMG_9.jpg")
    assert screen.tray_names() == [second], screen
    p.send("Enter")
    assert p.finish(0) == f"{folder}/{second}\n".encode()


def test_preview_of_a_broken_file_says_why_and_keeps_going(picker, tmp_path):
    folder = tmp_path / "photos"
    demo_photos(folder)
    (folder / "aaa-broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really")
    p = picker.start([str(folder)])
    p.send("v")
    p.wait(lambda s: "aaa-broken.jpg" in s.lines[-1] and "✗" in str(s), "the error in the preview")
    p.send("l")
    p.wait(lambda s: "2/" in s.lines[-1], "the next photo")
    p.send("q")
    p.wait(lambda s: s.focused() is not None and s.counts is not None, "the grid again")
    p.leave("q")
    assert p.finish(130) == b""


def run_preview(picker_bin, *arguments, env=None):
    return subprocess.run(
        [str(picker_bin), "preview", *arguments], capture_output=True, timeout=TIMEOUT, env=env,
        stdin=subprocess.DEVNULL,
    )


def test_preview_command_prints_symbols_of_the_asked_size(picker_bin, tmp_path):
    folder = tmp_path / "photos"
    demo_photos(folder)
    result = run_preview(picker_bin, "--size", "40x12", "--format", "symbols", str(folder / "desert.jpg"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert 1 <= len(lines) <= 12 and all("\x1b[" in line for line in lines)
    assert max(blocks(line) for line in lines) > 20
    facts = run_preview(picker_bin, "--size", "40x12", "--facts", "--format", "symbols", str(folder / "desert.jpg"))
    text = facts.stdout.decode()
    assert "Format      JPEG" in text and "480 × 360" in text and len(text.splitlines()) <= 12
    kitty = run_preview(picker_bin, "--size", "40x12", "--format", "kitty", str(folder / "desert.jpg"))
    assert kitty.stdout.startswith(b"\x1b_Ga=T,f=24,") and kitty.stdout.rstrip().endswith(b"\x1b\\")


def test_preview_command_fails_cleanly(picker_bin, tmp_path):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff")
    result = run_preview(picker_bin, "--size", "20x5", str(broken))
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode().startswith("picker-tui: ") and result.stderr.count(b"\n") == 1
    result = run_preview(picker_bin, "--size", "nope", str(broken))
    assert result.returncode == 2 and b"--size" in result.stderr


def run_in_tmux(tmux_server, name: str, command: str, until, what: str) -> str:
    """Runs `command` in a tmux session of its own until the screen
    satisfies `until`; returns that screen. The session is left running
    for the caller to drive (see `tmux_send`) and is killed by `close`."""
    session = f"{name}-{os.getpid()}"
    tmux = ["tmux", "-L", tmux_server, "-f", "/dev/null"]
    subprocess.run(
        tmux + ["new-session", "-d", "-s", session, "-x", "120", "-y", "30", "/bin/sh", "-c", command + "; exec sleep 60"],
        check=True,
    )
    deadline = time.monotonic() + TIMEOUT
    screen = ""
    while time.monotonic() < deadline:
        screen = subprocess.run(tmux + ["capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout
        if until(screen):
            return session
        time.sleep(0.05)
    subprocess.run(tmux + ["kill-session", "-t", session], capture_output=True)
    pytest.fail(f"timed out waiting for {what}:\n{screen}")


def close(tmux_server, session: str) -> None:
    subprocess.run(["tmux", "-L", tmux_server, "kill-session", "-t", session], capture_output=True)


def shows_a_photo(screen: str) -> bool:
    return sum(blocks(line) > 15 for line in screen.splitlines()) > 5


def test_fzf_preview_one_liner(tmux_server, picker_bin, tmp_path):
    if shutil.which("fzf") is None:
        pytest.fail("fzf is missing (make test installs it)")
    folder = tmp_path / "photos"
    demo_photos(folder)
    out = tmp_path / "fzf-out"
    # The README's one-liner, with this test's binary.
    command = (
        f"cd {shell_word(str(folder))} && ls *.jpg | LANG=C.UTF-8 "
        f"fzf --preview {shell_word(str(picker_bin) + ' preview {}')} > {shell_word(str(out))}"
    )
    session = run_in_tmux(tmux_server, "fzf", command, shows_a_photo, "the photo in fzf's preview pane")
    try:
        subprocess.run(["tmux", "-L", tmux_server, "send-keys", "-t", session, "Enter"], check=True)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and not (out.exists() and out.read_text().strip()):
            time.sleep(0.05)
        assert out.read_text().strip().endswith(".jpg")
    finally:
        close(tmux_server, session)


def test_lf_previewer(tmux_server, picker_bin, tmp_path):
    if shutil.which("lf") is None:
        pytest.fail("lf is missing (make test installs it)")
    folder = tmp_path / "photos"
    demo_photos(folder)
    config = tmp_path / "config" / "lf"
    config.mkdir(parents=True)
    # The README's previewer script and lfrc line, with this test's binary.
    previewer = config / "preview"
    previewer.write_text(f'#!/bin/sh\nexec {shell_word(str(picker_bin))} preview --size "$2x$3" "$1"\n')
    previewer.chmod(0o755)
    (config / "lfrc").write_text(f"set previewer {previewer}\n")
    env = f"LANG=C.UTF-8 XDG_CONFIG_HOME={shell_word(str(tmp_path / 'config'))} HOME={shell_word(str(tmp_path))}"
    command = f"cd {shell_word(str(folder))} && {env} lf"
    close(tmux_server, run_in_tmux(tmux_server, "lf", command, shows_a_photo, "the photo in lf's preview"))
