"""WebDAV sources against a real WebDAV server (WsgiDAV, started by the
test on loopback): browsing, thumbnails from ranged reads, byte-exact
downloads, and hostile replies that must stay errors in that source."""

import json
import os
import select
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from PIL import Image

from remote import PYTHON, home  # noqa: F401  (fixtures)
from test_thumbnails import wait_for_thumbnails

SERVER = Path(__file__).parents[1] / "Servers" / "dav_server.py"
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class DavServer:
    def __init__(self, process, port):
        self.process = process
        self.port = port

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}/dav/{path}"

    def requests(self) -> list[dict]:
        with _OPENER.open(f"http://127.0.0.1:{self.port}/_requests", timeout=10) as response:
            return json.loads(response.read())

    def control(self, **changes) -> None:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/_control", data=json.dumps(changes).encode(),
                                         method="POST")
        with _OPENER.open(request, timeout=60) as response:
            assert json.loads(response.read()) == {"ok": True}


@pytest.fixture
def dav(tmp_path):
    """WsgiDAV over tmp_path/served, basic auth alice:secret."""
    root = tmp_path / "served"
    root.mkdir()
    process = subprocess.Popen([PYTHON, str(SERVER), "--root", str(root), "--user", "alice", "--password", "secret"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    line = b""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not line.endswith(b"\n"):
        if select.select([process.stdout], [], [], 0.1)[0]:
            chunk = os.read(process.stdout.fileno(), 1)
            if not chunk:
                break
            line += chunk
    assert line.startswith(b"PORT "), f"WsgiDAV did not start: {line!r}"
    server = DavServer(process, int(line.split()[1]))
    server.root = root
    yield server
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=5)


def camera_jpeg(path: Path, colour, size=(1600, 1200)) -> Path:
    """A photo far larger than 64 KB with a 160x120 EXIF thumbnail, as cameras write."""
    import random

    rng = random.Random(hash(path.name))
    image = Image.new("RGB", size, colour)
    # Noise, so the file is large like a camera's.
    noise = Image.frombytes("RGB", (size[0] // 4, size[1] // 4), rng.randbytes(size[0] * size[1] * 3 // 16))
    image.paste(noise.resize(size), (0, 0), Image.new("L", size, 40))
    thumbnail = image.resize((160, 120))
    exif = Image.Exif()
    exif[0x0112] = 1
    image.save(path, "JPEG", quality=90, exif=exif.tobytes())
    tpath = path.with_suffix(".thumb.jpg")
    thumbnail.save(tpath, "JPEG", quality=80)
    subprocess.run(["exiftool", "-q", "-overwrite_original", f"-ThumbnailImage<={tpath}", str(path)], check=True)
    tpath.unlink()
    return path


def webdav_env(home, dav, **extra):
    home.write_config({"kind": "webdav", "name": "NAS", "url": dav.url(), "auth": "basic"})
    return home.env(PICKER_TUI_NAS_TOKEN="alice:secret", **extra)


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
             f"http://127.0.0.1:{port}/dav/ok.jpg"]
    return ('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">'
            + "".join(response(h) for h in hrefs) + "</d:multistatus>")


def test_hostile_replies_stay_errors_and_foreign_hrefs_are_dropped(picker, home, dav, tmp_path):
    local = tmp_path / "local"
    local.mkdir()
    Image.new("RGB", (40, 30), (10, 10, 10)).save(local / "here.png")
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
    p.wait(lambda s: "ok.jpg" in s.captions(), "the one href inside the base")
    captions = p.screen().captions()
    assert captions == ["ok.jpg"], captions
    p.send("Escape")
    p.finish(130)


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
    p.send("C-c")
    p.finish(130)
