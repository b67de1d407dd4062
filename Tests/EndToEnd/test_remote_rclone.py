"""rclone sources through the real rclone: remotes defined in the
environment (RCLONE_CONFIG_<NAME>_TYPE=…), as a user's rclone.conf would
define them; one `rclone rcd` per run, ended with the picker."""

import os
import shutil
import signal
import subprocess

import pytest

from dav import camera_jpeg, dav  # noqa: F401  (fixtures)
from images import gradient, solid, write_png
from remote import home, processes_mentioning, wait_until  # noqa: F401  (fixtures)
from test_thumbnails import wait_for_thumbnails

pytestmark = pytest.mark.skipif(shutil.which("rclone") is None, reason="rclone is not installed")

DAEMON = "rclone rcd --rc-addr 127.0.0.1:0"


def photos(tmp_path):
    """photos/{a.png, b.png, notes.txt}, photos/Trip/{c.png}."""
    folder = tmp_path / "photos"
    (folder / "Trip").mkdir(parents=True)
    write_png(folder / "a.png", 64, 48, solid((200, 30, 30)))
    write_png(folder / "b.png", 64, 48, gradient)
    write_png(folder / "Trip" / "c.png", 48, 64, solid((30, 30, 200)))
    (folder / "notes.txt").write_text("not a photo\n")
    return folder


def rclone_env(home, **remotes):
    """The test's XDG folders, no rclone.conf, and the remotes given."""
    variables = home.env(RCLONE_CONFIG="/dev/null")
    for name, settings in remotes.items():
        for key, value in settings.items():
            variables[f"RCLONE_CONFIG_{name.upper()}_{key.upper()}"] = value
    return variables


def daemons():
    """The rclone rcd processes themselves (not the shell watching each)."""
    return [pid for pid, text in processes_mentioning(DAEMON) if not text.startswith("/bin/sh")]


def test_browse_a_local_remote_pick_and_rclone_ends_with_the_picker(picker, home, tmp_path):
    folder = photos(tmp_path)
    home.write_config({"kind": "rclone", "name": "Disk", "remote": f"disk:{folder}"})
    before = set(daemons())
    p = picker.start(["--source", "Disk"], env=rclone_env(home, disk={"type": "local"}))
    screen = p.wait(lambda s: "a.png" in str(s) and "b.png" in str(s), "the remote's photos")
    assert "Trip/" in str(screen) and "notes.txt" not in str(screen), screen
    assert len(set(daemons()) - before) == 1, "one rclone rcd for the run"
    p.press("Right", "a.png")
    p.send("Space")
    p.wait_selected("a.png")
    p.press("Left", "Trip/")
    p.send("Enter")
    p.wait(lambda s: "c.png" in str(s), "the album's photo")
    p.press("Right", "c.png")
    p.send("Space")
    p.wait_selected("c.png")
    p.send("Enter")
    out = p.finish(0).decode().splitlines()
    assert [os.path.basename(line) for line in out] == ["a.png", "c.png"], out
    assert open(out[0], "rb").read() == (folder / "a.png").read_bytes()
    assert open(out[1], "rb").read() == (folder / "Trip" / "c.png").read_bytes()
    wait_until(lambda: not (set(daemons()) - before), "rclone rcd to end with the picker")


def test_a_remote_that_does_not_exist_shows_rclones_words(picker, home, tmp_path):
    home.write_config({"kind": "rclone", "name": "Nowhere", "remote": "nosuchremote:Photos"})
    p = picker.start(["--source", "Nowhere"], env=rclone_env(home), wait_ui=False)
    p.wait(lambda s: "Nowhere: didn't find section in config file" in str(s), "rclone's own words")
    p.leave("Escape")
    p.finish(130)


def test_rclone_ends_even_when_the_picker_is_killed(picker, home, tmp_path):
    # Its watchdog shell reads the pipe the picker holds: SIGKILL closes it.
    folder = photos(tmp_path)
    home.write_config({"kind": "rclone", "name": "Disk", "remote": f"disk:{folder}"})
    before = set(daemons())
    p = picker.start(["--source", "Disk"], env=rclone_env(home, disk={"type": "local"}))
    p.wait(lambda s: "a.png" in str(s), "the remote's photos")
    assert set(daemons()) - before
    (pid,) = [pid for pid, text in processes_mentioning("picker-tui --source Disk") if "/bin/sh" not in text]
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not (set(daemons()) - before), "rclone to end after the picker was killed")


def test_rclone_missing_is_an_error_in_that_source_only(picker, home, tmp_path):
    folder = photos(tmp_path)
    home.write_config({"kind": "rclone", "name": "Gone", "remote": "disk:/", "rclone": str(tmp_path / "no-rclone")})
    p = picker.start([str(folder), "--source", "Gone"], env=rclone_env(home, disk={"type": "local"}), wait_ui=False)
    p.wait(lambda s: "cannot start" in str(s), "the error in the rclone source's grid")
    # The folder source is unaffected.
    p.send("1")
    p.wait(lambda s: "a.png" in str(s), "the folder's photos")
    p.leave("Escape")
    p.finish(130)


def test_rclone_killed_mid_browse_is_started_again(picker, home, tmp_path):
    folder = photos(tmp_path)
    home.write_config({"kind": "rclone", "name": "Disk", "remote": f"disk:{folder}"})
    before = set(daemons())
    p = picker.start(["--source", "Disk"], env=rclone_env(home, disk={"type": "local"}))
    p.wait(lambda s: "a.png" in str(s), "the remote's photos")
    (first,) = set(daemons()) - before
    os.kill(first, signal.SIGKILL)
    wait_until(lambda: first not in daemons(), "rclone to die")
    p.press("Left", "Trip/")
    p.send("Enter")
    p.wait(lambda s: "c.png" in str(s), "the album, through a new rclone")
    assert len(set(daemons()) - before) == 1
    # Esc goes back out of the album; q cancels.
    p.send("Escape")
    p.wait(lambda s: "Trip/" in s.captions(), "the remote's top again")
    p.leave("q")
    p.finish(130)


def test_a_webdav_remote_reads_thumbnails_with_ranges_and_picks_byte_exact(picker, home, dav):
    camera_jpeg(dav.root / "red.jpg", (200, 40, 40))
    camera_jpeg(dav.root / "green.jpg", (40, 200, 40))
    obscured = subprocess.run(["rclone", "obscure", "secret"], capture_output=True, text=True, check=True).stdout
    home.write_config({"kind": "rclone", "name": "Cloud", "remote": "nas:"})
    remote = {"type": "webdav", "url": dav.url(), "vendor": "other", "user": "alice", "pass": obscured.strip()}
    env = rclone_env(home, nas=remote)
    env["COLORTERM"] = "truecolor"
    p = picker.start(["--source", "Cloud"], env=env)
    wait_for_thumbnails(p, 20)
    gets = [r for r in dav.requests() if r["method"] == "GET"]
    # rclone passes our Range on to the server: the photos' first bytes only.
    sizes = sum((dav.root / name).stat().st_size for name in ("red.jpg", "green.jpg"))
    assert gets and all(r["range"] and r["status"] == 206 for r in gets), gets
    assert sum(r["bytes"] for r in gets) < sizes / 4, (gets, sizes)
    p.toggle("green.jpg")
    p.send("Enter")
    out = p.finish(0).decode().splitlines()
    assert open(out[0], "rb").read() == (dav.root / "green.jpg").read_bytes()
