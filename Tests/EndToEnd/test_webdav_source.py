"""WebDAV sources against a real WebDAV server (WsgiDAV, started by the
test on loopback): browsing, thumbnails from ranged reads, byte-exact
downloads, and hostile replies that must stay errors in that source."""

import json
import os
from pathlib import Path

import pytest
from PIL import Image

from conftest import equal
from dav import camera_jpeg, dav, rclone_dav, start_dav_server, stop  # noqa: F401  (fixtures)
from remote import home, sign_in_box  # noqa: F401  (fixtures)
from test_thumbnails import wait_for_thumbnails

def webdav_env(home, dav, url: str | None = None, token: str | None = "alice:secret", **extra):
    home.write_config({"kind": "webdav", "name": "NAS", "url": url or dav.url(), "auth": "basic"})
    if token is not None:
        extra["PICKER_TUI_NAS_TOKEN"] = token
    return home.env(**extra)


def small_jpeg(path: Path, colour=(90, 120, 150)) -> Path:
    Image.new("RGB", (64, 48), colour).save(path, "JPEG", quality=85)
    return path


def peak_memory_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_browse_thumbnails_from_ranged_reads_and_byte_exact_picks(picker, home, dav):
    (dav.root / "Trip").mkdir()
    camera_jpeg(dav.root / "img2.jpg", (200, 40, 40))
    camera_jpeg(dav.root / "img10.jpg", (40, 200, 40))
    camera_jpeg(dav.root / "Trip" / "Été 100%.jpg", (40, 40, 200))
    (dav.root / "notes.txt").write_text("not a photo\n")
    p = picker.start(["--source", "NAS"], env=webdav_env(home, dav, COLORTERM="truecolor"))
    screen = wait_for_thumbnails(p, 20)
    assert screen.captions()[:3] == ["Trip/", "img2.jpg", "img10.jpg"], screen
    assert "notes.txt" not in str(screen)
    gets = [r for r in dav.requests() if r["method"] == "GET"]
    assert gets and all(r["range"] == "bytes=0-65535" and r["status"] == 206 for r in gets), gets
    sizes = sum((dav.root / name).stat().st_size for name in ("img2.jpg", "img10.jpg"))
    assert sum(r["bytes"] for r in gets) <= 2 * 65536 < sizes / 4, (gets, sizes)
    p.press("Right", "img2.jpg")
    p.toggle("img2.jpg")
    p.press("Left", "Trip/")
    p.send("Enter")
    p.wait(lambda s: "Été 100%.jpg" in s.captions(), "the album's photo, its name decoded")
    p.press("Right", "Été 100%.jpg")
    p.toggle("Été 100%.jpg")
    p.send("Enter")
    out = p.finish(0).decode().splitlines()
    assert [Path(line).name for line in out] == ["img2.jpg", "Été 100%.jpg"], out
    assert Path(out[0]).read_bytes() == (dav.root / "img2.jpg").read_bytes()
    assert Path(out[1]).read_bytes() == (dav.root / "Trip" / "Été 100%.jpg").read_bytes()


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY a "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">]>
<d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/&e;.jpg</d:href></d:response></d:multistatus>"""


def foreign_hrefs(port: int) -> str:
    def response(href):
        return (f"<d:response><d:href>{href}</d:href><d:propstat><d:prop><d:resourcetype/>"
                "<d:getcontenttype>image/jpeg</d:getcontenttype></d:prop>"
                "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
    hrefs = ["http://127.0.0.2:1/dav/evil.jpg", "/etc/passwd.jpg", "/other/x.jpg", "/dav/../y.jpg",
             f"http://127.0.0.1:{port}/dav/ok.jpg", "/dav/a%2Fb.jpg"]
    return ('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">'
            + "".join(response(h) for h in hrefs) + "</d:multistatus>")


def test_hostile_replies_stay_errors_and_foreign_hrefs_are_dropped(picker, home, dav, tmp_path):
    local = tmp_path / "local"
    local.mkdir()
    Image.new("RGB", (40, 30), (10, 10, 10)).save(local / "here.png")
    # cheroot hands WsgiDAV the path with %2F as it came, so this is the
    # file the server sends for the href /dav/a%2Fb.jpg.
    slashed = small_jpeg(dav.root / "a%2Fb.jpg")
    dav.control(reply=BOMB)
    p = picker.start([str(local), "--source", "NAS"], env=webdav_env(home, dav), wait_ui=False)
    # libxml2 stops at the entity loop or the DOCTYPE; either way nothing is
    # expanded, and the error stays in this source's grid.
    p.wait(lambda s: "NAS: malformed XML" in str(s) or "DOCTYPE is refused" in str(s), "the refused bomb, at once",
           timeout=5)
    # The picker is alive: the other source still works.
    p.send("1")
    p.wait(lambda s: "here.png" in s.captions(), "the folder source")
    dav.control(reply=foreign_hrefs(dav.port))
    p.send("2")
    p.wait(lambda s: "ok.jpg" in s.captions(), "the hrefs inside the base")
    captions = p.screen().captions()
    assert captions == ["a/b.jpg", "ok.jpg"], captions
    # An encoded "/" is part of one name: asked for as it was listed, saved
    # under a name that is one path component.
    p.toggle("a/b.jpg")
    p.send("Enter")
    out = p.finish(0).decode().splitlines()
    assert Path(out[0]).name == "a_b.jpg" and Path(out[0]).parent == home.downloads, out
    assert Path(out[0]).read_bytes() == slashed.read_bytes()


def test_a_401_mid_session_asks_to_sign_in_again_and_keeps_the_picks(picker, home, dav):
    (dav.root / "Trip").mkdir()
    camera_jpeg(dav.root / "a.jpg", (200, 40, 40), size=(400, 300))
    p = picker.start(["--source", "NAS"], env=webdav_env(home, dav))
    p.wait(lambda s: "a.jpg" in s.captions(), "the listing")
    p.press("Right", "a.jpg")
    p.toggle("a.jpg")
    dav.control(fail_propfind=401)
    p.press("Left", "Trip/")
    p.send("Enter")
    screen = p.wait(lambda s: "NAS asks to sign in again" in str(s), "the request to sign in again")
    assert "NAS*" in screen.source_bar and "1 picked" in screen.lines[0], screen
    # Esc closes the form and says how to open it again; a second Esc goes
    # back out of the album, the pick kept; q cancels.
    p.send("Escape")
    p.wait_text("NAS needs you to sign in")
    p.send("Escape")
    p.wait(lambda s: "Trip/" in s.captions() and "1 picked" in s.lines[0], "the top again, the pick kept")
    p.leave("q")
    p.finish(130)


def test_a_server_that_goes_down_is_an_error_in_its_grid_and_the_picks_stay(picker, home, dav):
    (dav.root / "Trip").mkdir()
    small_jpeg(dav.root / "a.jpg")
    small_jpeg(dav.root / "b.jpg")
    p = picker.start(["--source", "NAS"], env=webdav_env(home, dav))
    p.wait(lambda s: "a.jpg" in s.captions(), "the listing")
    p.press("Right", "a.jpg")
    p.toggle("a.jpg")
    stop(dav.process)
    p.press("Left", "Trip/")
    p.send("Enter")
    screen = p.wait(lambda s: "Trip" in s.breadcrumb and "⚠" in str(s), "the error in the album's grid")
    assert "127.0.0.1" in str(screen) or "connect" in str(screen).lower(), screen
    assert "1 picked" in screen.lines[0], screen
    # Back at the root (listed before the server went), the pick is still
    # there and Enter prints it: a remote pick needs the server, so the
    # download fails with a message and the picker stays.
    p.send("BSpace")
    p.wait(lambda s: s.breadcrumb.strip().startswith("NAS") and s.focused_caption() == "Trip/", "the root again")
    p.press("Right", "✓ a.jpg")
    p.send("Enter")
    p.wait_text("Download failed")
    assert "1 picked" in p.screen().lines[0]
    p.send("C-c")
    p.finish(130)


def test_a_wrong_password_is_refused_in_the_form_and_the_right_one_signs_in(picker, home, dav):
    small_jpeg(dav.root / "a.jpg")
    p = picker.start(["--source", "NAS"], env=webdav_env(home, dav, token=None), wait_ui=False)
    screen = p.wait(sign_in_box, "the sign-in form")
    assert "Sign in to NAS" in screen and "User" in screen and "Password" in screen, screen
    assert dav.requests() == [], "a request was made that could only come back 401"
    p.type("alice")
    p.send("Tab")
    p.type("wrong")
    p.wait(lambda s: "•••••" in s and "wrong" not in s, "the masked password")
    p.send("Enter")
    screen = p.wait_text("⚠ wrong user or password")
    assert sign_in_box(screen), screen
    assert not home.credentials("NAS").exists()
    # Typing the password again (the user is kept) signs in and lists.
    p.send("C-u")
    p.type("secret")
    p.wait(lambda s: "••••••" in s, "the masked password")
    p.send("Enter")
    p.wait(lambda s: not sign_in_box(s) and equal(s.captions(), ["a.jpg"]), "the listing after signing in")
    assert json.loads(home.credentials("NAS").read_text()) == {"user": "alice", "password": "secret"}
    p.leave("Escape")
    p.finish(130)


def test_a_10000_file_folder_is_one_propfind_paged_to_its_end(picker, home, dav):
    first = small_jpeg(dav.root / "IMG_00001.jpg")
    for i in range(2, 10_001):
        os.link(first, dav.root / f"IMG_{i:05d}.jpg")
    p = picker.start(["--source", "NAS"], env=webdav_env(home, dav), wait_ui=False)
    # Both in one capture: the breadcrumb is drawn before the tiles.
    p.wait(
        lambda s: equal(s.counts, (48, 10000)) and equal(s.captions()[:2], ["IMG_00001.jpg", "IMG_00002.jpg"]),
        "the first page of 10,000",
        timeout=30,
    )
    p.send("G")
    p.wait(lambda s: s.focused_caption() == "IMG_10000.jpg" and s.counts == (10000, 10000), "G to the 10,000th")
    p.press("k", "IMG_09994.jpg")
    p.toggle("IMG_09994.jpg")
    p.press("g", "IMG_00001.jpg")
    propfinds = [r for r in dav.requests() if r["method"] == "PROPFIND"]
    assert len(propfinds) == 1, f"the listing was asked for {len(propfinds)} times"
    p.send("Enter")
    out = p.finish(0).decode().splitlines()
    assert [Path(line).name for line in out] == ["IMG_09994.jpg"]
    assert Path(out[0]).read_bytes() == first.read_bytes()


def test_a_100_mb_reply_is_an_error_not_a_hang_or_a_heap(picker, home, dav, tmp_path):
    local = tmp_path / "local"
    local.mkdir()
    Image.new("RGB", (40, 30), (10, 10, 10)).save(local / "here.png")
    dav.control(huge_reply=100 << 20)
    p = picker.start([str(local), "--source", "NAS"], env=webdav_env(home, dav), wait_ui=False)
    p.wait(lambda s: "NAS: response larger than 64 MB" in str(s), "the refused reply", timeout=20)
    pid = int((p.workdir / "pid").read_text())
    assert peak_memory_kib(pid) < 200 * 1024, f"peak RSS {peak_memory_kib(pid)} KiB"
    p.send("1")
    p.wait(lambda s: "here.png" in s.captions(), "the folder source, still working")
    p.leave("Escape")
    p.finish(130)


@pytest.fixture
def nextcloud(tmp_path):
    """The Nextcloud stand-in: WsgiDAV at /remote.php/dav/files/alice with
    file ids and the preview endpoint."""
    root = tmp_path / "nextcloud"
    root.mkdir()
    server = start_dav_server(root, "--mount", "/remote.php/dav/files/alice", "--nextcloud")
    server.files_url = f"http://127.0.0.1:{server.port}/remote.php/dav/files/alice/"
    yield server
    stop(server.process)


def test_nextcloud_previews_are_used_and_originals_come_from_the_files(picker, home, nextcloud):
    camera_jpeg(nextcloud.root / "red.jpg", (200, 40, 40))
    camera_jpeg(nextcloud.root / "blue.jpg", (40, 40, 200))
    env = webdav_env(home, nextcloud, url=nextcloud.files_url, COLORTERM="truecolor")
    p = picker.start(["--source", "NAS"], env=env)
    wait_for_thumbnails(p, 20)
    requests = nextcloud.requests()
    previews = [r for r in requests if r["path"] == "/index.php/core/preview"]
    assert len(previews) == 2 and all(r["status"] == 200 and r["authorization"] for r in previews), requests
    queries = sorted(r["query"] for r in previews)
    assert all(q.startswith("fileId=100") and "&x=256&y=256&a=1&c=" in q for q in queries), queries
    # No byte of the photos themselves went out for their thumbnails.
    assert not [r for r in requests if r["method"] == "GET" and r["path"].startswith("/remote.php/")], requests
    p.toggle("blue.jpg")
    p.send("Enter")
    out = p.finish(0).decode().splitlines()
    assert Path(out[0]).read_bytes() == (nextcloud.root / "blue.jpg").read_bytes()


def test_rclone_serve_webdav_is_browsed_and_picked_and_a_wrong_password_asks_again(picker, home, rclone_dav):
    (rclone_dav.root / "Trip").mkdir()
    camera_jpeg(rclone_dav.root / "img2.jpg", (200, 40, 40))
    camera_jpeg(rclone_dav.root / "Trip" / "Été.jpg", (40, 40, 200))
    # A refused password from the environment: the form, not an empty grid.
    p = picker.start(["--source", "NAS"], env=webdav_env(home, rclone_dav, token="alice:wrong"), wait_ui=False)
    p.wait(sign_in_box, "the sign-in form after the refused password")
    p.send("Escape")
    screen = p.wait(lambda s: not sign_in_box(s), "the form closed by Esc")
    assert "NAS asks to sign in again" in screen and "needs you to sign in" in screen.status, screen
    p.leave("Escape")
    p.finish(130)

    p = picker.start(["--source", "NAS"], env=webdav_env(home, rclone_dav, COLORTERM="truecolor"))
    screen = wait_for_thumbnails(p, 20)
    assert screen.captions()[:2] == ["Trip/", "img2.jpg"], screen
    p.press("Right", "img2.jpg")
    p.toggle("img2.jpg")
    p.press("Left", "Trip/")
    p.send("Enter")
    p.wait(lambda s: "Été.jpg" in s.captions(), "the album's photo")
    p.press("Right", "Été.jpg")
    p.toggle("Été.jpg")
    p.send("Enter")
    out = p.finish(0).decode().splitlines()
    assert [Path(line).name for line in out] == ["img2.jpg", "Été.jpg"], out
    assert Path(out[0]).read_bytes() == (rclone_dav.root / "img2.jpg").read_bytes()
    assert Path(out[1]).read_bytes() == (rclone_dav.root / "Trip" / "Été.jpg").read_bytes()
