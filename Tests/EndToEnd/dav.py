"""WebDAV servers for the end-to-end tests: WsgiDAV through
Tests/Servers/dav_server.py (requests recorded, faults injected, the
Nextcloud stand-in) and rclone's own `rclone serve webdav`, on loopback
with basic auth alice:secret; and photos shaped like a camera's."""

import json
import os
import random
import select
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from PIL import Image

from remote import PYTHON

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


def start_dav_server(root: Path, *args: str) -> DavServer:
    """dav_server.py over root with basic auth alice:secret, once it listens."""
    process = subprocess.Popen([PYTHON, str(SERVER), "--root", str(root), "--user", "alice", "--password", "secret",
                                *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
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
    return server


def stop(process: subprocess.Popen) -> None:
    """Ends the server; one a test already stopped is left as it is."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    process.wait(timeout=5)


def camera_jpeg(path: Path, colour, size=(1600, 1200)) -> Path:
    """A photo far larger than 64 KB with a 160x120 EXIF thumbnail, as cameras write."""
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


class RcloneDavServer:
    """`rclone serve webdav` over a folder: a second, independent server."""

    def __init__(self, root: Path):
        self.root = root
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process = subprocess.Popen(
            ["rclone", "serve", "webdav", "--config", "/dev/null", "--addr", f"127.0.0.1:{self.port}",
             "--user", "alice", "--pass", "secret", str(root)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 15
        while True:
            try:
                with _OPENER.open(self.url(), timeout=2):
                    break
            except urllib.error.HTTPError:
                break  # 401: it listens
            except OSError:
                assert time.monotonic() < deadline, "rclone serve webdav did not start"
                time.sleep(0.1)

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}/{path}"


@pytest.fixture
def dav(tmp_path):
    """WsgiDAV over tmp_path/served."""
    root = tmp_path / "served"
    root.mkdir()
    server = start_dav_server(root)
    yield server
    stop(server.process)


@pytest.fixture
def rclone_dav(tmp_path):
    """rclone serve webdav over tmp_path/rclone-served."""
    if shutil.which("rclone") is None:
        pytest.skip("rclone is not installed")
    root = tmp_path / "rclone-served"
    root.mkdir()
    server = RcloneDavServer(root)
    yield server
    stop(server.process)
