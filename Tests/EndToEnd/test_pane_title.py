"""A picker in a tmux pane it cannot see as one ($TMUX not passed, TERM
xterm's, as over ssh from a pane): the kitty query, an APC string, would
become the pane's title and stay after exit. XTVERSION is asked first, tmux
names itself, and no APC string is sent."""

from __future__ import annotations

import subprocess
import time
import uuid

from PIL import Image


def test_the_kitty_query_never_becomes_the_pane_title(tmux_server, picker_bin, tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    Image.new("RGB", (32, 24), (200, 80, 40)).save(folder / "a.jpg")
    session = f"title-{uuid.uuid4().hex[:8]}"

    def tmux(*args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", tmux_server, "-f", "/dev/null", *args], capture_output=True, text=True, check=True
        ).stdout

    command = (
        f"env -u TMUX -u TMUX_PANE TERM=xterm-256color LANG=C.UTF-8 XDG_CACHE_HOME={tmp_path}/cache "
        f"XDG_STATE_HOME={tmp_path}/state {picker_bin} {folder}; echo done; sleep 30"
    )
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    try:
        deadline = time.monotonic() + 10
        while "? help" not in tmux("capture-pane", "-p", "-t", session):
            assert time.monotonic() < deadline, tmux("capture-pane", "-p", "-t", session)
            time.sleep(0.05)
        tmux("send-keys", "-t", session, "q")
        while "done" not in tmux("capture-pane", "-p", "-t", session):
            assert time.monotonic() < deadline, tmux("capture-pane", "-p", "-t", session)
            time.sleep(0.05)
        title = tmux("display", "-p", "-t", session, "#{pane_title}")
        assert "Gi=" not in title and "a=q" not in title, title
    finally:
        subprocess.run(["tmux", "-L", tmux_server, "kill-session", "-t", session], capture_output=True)
