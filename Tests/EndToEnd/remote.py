"""Helpers for the end-to-end tests of remote sources: the photo web service
(Tests/Servers/photo_server.py) run as a real process on loopback, the
example command source, per-test config and state folders, and the files
the picker writes there (credentials, the log, downloads).

Fixtures here are imported by the test modules that use them.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Callable, Iterable

import pytest

REPO = Path(__file__).resolve().parents[2]
SERVERS = REPO / "Tests" / "Servers"
if str(SERVERS) not in sys.path:
    sys.path.insert(0, str(SERVERS))

import photo_server  # noqa: E402  (needs the path above)

# The interpreter running the tests, not a launcher in front of it: servers
# and command sources are started with it, so their pids are their own.
PYTHON = os.path.realpath(sys.executable)
PHOTO_SERVER = SERVERS / "photo_server.py"
FOLDER_SOURCE = REPO / "examples" / "folder_source.py"

TOKEN = "s3cret"
ORIGINAL_SIZE = (640, 480)
# Every sign-in variable the tests use, empty unless a test sets it: an
# empty value counts as unset, so nothing leaks in from the environment.
TOKEN_VARIABLES = ("PICKER_TUI_STOCK_TOKEN", "PICKER_TUI_HOLIDAY_TOKEN")

# Requests made by the tests themselves never go through a proxy.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


# --------------------------------------------------------------------------
# The photo web service.


class PhotoService:
    """One running photo_server.py, in a process group of its own."""

    def __init__(self, process: subprocess.Popen, host: str, port: int, log: Path):
        self.process = process
        self.host = host
        self.port = port
        self.log = log

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api(self) -> str:
        return self.origin + "/api"

    def original_url(self, photo_id: str) -> str:
        return f"{self.api}/originals/{photo_id}.png"

    def _call(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.origin + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        with _OPENER.open(request, timeout=10) as response:
            return json.loads(response.read())

    def control(self, **changes) -> None:
        """POST /_control: faults, delays, a new token; reset=True for the defaults."""
        answer = self._call("POST", "/_control", changes)
        assert answer == {"ok": True}, answer

    def requests(self) -> list[dict]:
        """What arrived so far: method, path (with the query) and headers."""
        return self._call("GET", "/_requests")

    def clear_requests(self) -> None:
        self._call("DELETE", "/_requests")

    def paths(self, prefix: str = "/api/") -> list[str]:
        return [entry["path"] for entry in self.requests() if entry["path"].startswith(prefix)]

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)
        if self.process.stdout:
            self.process.stdout.close()


def start_photo_service(folder: Path, *args: str, host: str = "127.0.0.1") -> PhotoService:
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"photo-server-{len(list(folder.glob('photo-server-*')))}.log"
    with open(log, "wb") as stderr:
        process = subprocess.Popen(
            [PYTHON, str(PHOTO_SERVER), "--port", "0", "--host", host, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            start_new_session=True,
        )
    deadline = time.monotonic() + 15
    line = b""
    while time.monotonic() < deadline and not line.endswith(b"\n"):
        ready, _, _ = select.select([process.stdout], [], [], 0.1)
        if ready:
            chunk = os.read(process.stdout.fileno(), 1)
            if not chunk:
                break
            line += chunk
    if not line.startswith(b"PORT "):
        service = PhotoService(process, host, 0, log)
        service.stop()
        pytest.fail(f"the photo server did not start: {line!r}, stderr: {log.read_bytes()!r}")
    return PhotoService(process, host, int(line.split()[1]), log)


@pytest.fixture
def services(tmp_path) -> Iterable[Callable[..., PhotoService]]:
    """Starts photo services (`services("--token", "x")`); all stop at the end."""
    started: list[PhotoService] = []

    def start(*args: str, host: str = "127.0.0.1") -> PhotoService:
        service = start_photo_service(tmp_path / "servers", *args, host=host)
        started.append(service)
        return service

    yield start
    for service in started:
        service.stop()


@pytest.fixture
def stock(services) -> PhotoService:
    """The photo service behind the "Stock" source: token auth."""
    return services("--token", TOKEN)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def original(photo_id: str) -> bytes:
    """The bytes the service serves for a photo's original."""
    return photo_server.original_bytes(photo_id, *ORIGINAL_SIZE)


def listing_titles(which: str = "root", limit: int | None = None) -> list[str]:
    """Captions of the service's listing, as the picker shows them."""
    items = photo_server.catalogue()[which] if which == "root" else photo_server.catalogue()["albums"][which]
    captions = [item["title"] + ("/" if item["kind"] == "album" else "") for item in items]
    return captions[:limit] if limit is not None else captions


# --------------------------------------------------------------------------
# Per-test folders, the config file and the files the picker writes.


class Home:
    """The XDG folders of one test: config, state and cache."""

    def __init__(self, runner):
        self.base: Path = runner.base
        self.config = self.base / "config"
        self.state = self.base / "state"
        self.cache = self.base / "cache"

    def env(self, **extra: str) -> dict[str, str]:
        variables = {name: "" for name in TOKEN_VARIABLES}
        variables.update({"XDG_CONFIG_HOME": str(self.config), "XDG_STATE_HOME": str(self.state)})
        variables.update(extra)
        return variables

    @property
    def config_file(self) -> Path:
        return self.config / "picker-tui" / "config.toml"

    def write_config(self, *sources: dict) -> Path:
        lines: list[str] = []
        for source in sources:
            lines.append("[[sources]]")
            lines += [f"{key} = {toml_value(value)}" for key, value in source.items()]
            lines.append("")
        self.config_file.parent.mkdir(parents=True, exist_ok=True)
        self.config_file.write_text("\n".join(lines))
        return self.config_file

    def credentials(self, source: str) -> Path:
        return self.state / "picker-tui" / "credentials" / f"{source}.json"

    @property
    def log(self) -> Path:
        return self.state / "picker-tui" / "picker-tui.log"

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    @property
    def downloads(self) -> Path:
        """The default download folder."""
        return self.cache / "picker-tui" / "picked"


@pytest.fixture
def home(picker) -> Home:
    return Home(picker)


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(element) for element in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def web_source(service: PhotoService | str, name: str = "Stock", auth: str = "token", **extra) -> dict:
    url = service if isinstance(service, str) else service.api
    return {"kind": "web", "name": name, "url": url, "auth": auth, **extra}


def command_source(name: str, command: list[str], **extra) -> dict:
    return {"kind": "command", "name": name, "command": command, **extra}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --------------------------------------------------------------------------
# Processes.


def processes_mentioning(needle: str) -> list[tuple[int, str]]:
    """(pid, command line) of every live process whose command line holds needle."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            raw = (entry / "cmdline").read_bytes()
            status = (entry / "stat").read_text()
        except OSError:
            continue
        # A zombie has an empty command line; one that has exited is gone.
        if not raw or status.rsplit(")", 1)[-1].split()[0] == "Z":
            continue
        text = raw.replace(b"\0", b" ").decode(errors="replace")
        if needle in text:
            found.append((int(entry.name), text))
    return found


def wait_until(condition: Callable[[], object], what: str, timeout: float = 10.0, poll: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(poll)


# --------------------------------------------------------------------------
# Screens.


def sign_in_box(screen) -> bool:
    return "Sign in to" in screen and "Esc back" in screen


def bar_labels(screen) -> list[str]:
    """The source tabs: ["[1 photos]", "[2 ☁ Stock*]"]."""
    labels = []
    rest = screen.source_bar
    while "[" in rest and "]" in rest:
        start = rest.index("[")
        end = rest.index("]", start)
        labels.append(rest[start : end + 1])
        rest = rest[end + 1 :]
    return labels
