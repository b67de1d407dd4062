#!/usr/bin/env python3
"""A stand-in for Flickr's REST API on loopback, replaying recorded replies.

Tests of examples/flickr_source.py point FLICKR_API_URL at it:

    python3 Tests/Servers/flickr_replay.py --api-key KEY [--port 0] [--host 127.0.0.1]
        [--fixtures Tests/EndToEnd/fixtures/flickr]

It prints `PORT <number>` once it listens. Or import it and call
`start_in_thread(...)`.

The fixtures folder holds:

- replies/*.json: one recorded exchange each, `{"request": {"method": ...,
  param: value, ...}, "reply": {...}}`. A request is answered with the reply
  whose method and parameters match exactly, leaving out api_key, format
  and nojsoncallback, which are checked on their own.
- errors/*.json: Flickr's error replies (a bad key, the service down).
- images/: the photos behind the url_* fields. Recorded replies name
  https://live.staticflickr.com/...; the server puts its own origin in their
  place, and serves images/<path> for GET /<path>.

Like Flickr, a key that is not 32 hexadecimal digits is refused with
"Invalid API Key (Key has invalid format)", and any other key but the
accepted one with "Invalid API Key (Key not found)". A request with no
recording is answered 404 and noted as unmatched, so a test sees it.

Test hooks: GET /_requests lists what arrived (path with query, and whether
it matched), DELETE /_requests forgets it; POST /_control with
{"fault": "none" | "status503" | "garbage" | "drop" | "slow" | "unavailable",
"times": N, "delay": seconds} makes the next N API calls fail that way
(times 0 means every call until the next control).
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

DEFAULT_FIXTURES = Path(__file__).resolve().parents[1] / "EndToEnd" / "fixtures" / "flickr"
REST_PATH = "/services/rest/"
RECORDED_ORIGIN = "https://live.staticflickr.com"
CHECKED_APART = {"api_key", "format", "nojsoncallback", "method"}
KEY_FORMAT = re.compile(r"^[0-9a-f]{32}$")
FAULTS = {"none", "status503", "garbage", "drop", "slow", "unavailable"}
IMAGE_TYPES = {".jpg": "image/jpeg", ".png": "image/png", ".gif": "image/gif"}
CLIENT_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


def request_key(method: str, params: dict[str, str]) -> tuple:
    return (method, tuple(sorted((k, v) for k, v in params.items() if k not in CHECKED_APART)))


class Recordings:
    def __init__(self, folder: Path):
        self.folder = folder
        self.replies: dict[tuple, dict] = {}
        for path in sorted((folder / "replies").glob("*.json")):
            recorded = json.loads(path.read_text())
            request = dict(recorded["request"])
            method = request.pop("method")
            key = request_key(method, request)
            if key in self.replies:
                raise ValueError(f"{path.name}: a second recording of {key}")
            self.replies[key] = recorded["reply"]
        self.errors = {path.stem: json.loads(path.read_text()) for path in (folder / "errors").glob("*.json")}

    def reply(self, method: str, params: dict[str, str]) -> dict | None:
        return self.replies.get(request_key(method, params))

    def image(self, path: str) -> Path | None:
        relative = path.lstrip("/")
        if not relative or ".." in relative.split("/"):
            return None
        file = self.folder / "images" / relative
        return file if file.is_file() else None


class FlickrReplay(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, recordings: Recordings, api_key: str):
        super().__init__(address, Handler)
        self.recordings = recordings
        self.api_key = api_key
        self.lock = threading.Lock()
        self.log: list[dict] = []
        self.fault = "none"
        self.fault_times = 0
        self.fault_delay = 3.0

    @property
    def origin(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def api_url(self) -> str:
        return self.origin + REST_PATH

    def take_fault(self) -> str:
        with self.lock:
            fault = self.fault
            if fault != "none" and self.fault_times > 0:
                self.fault_times -= 1
                if self.fault_times == 0:
                    self.fault = "none"
            return fault

    def note(self, entry: dict) -> None:
        with self.lock:
            self.log.append(entry)

    def requests(self) -> list[dict]:
        with self.lock:
            return list(self.log)

    def clear(self) -> None:
        with self.lock:
            self.log.clear()

    def control(self, fault: str = "none", times: int = 0, delay: float = 3.0) -> None:
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}")
        with self.lock:
            self.fault, self.fault_times, self.fault_delay = fault, int(times), float(delay)


class Handler(BaseHTTPRequestHandler):
    server: FlickrReplay
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # the request log at /_requests is the record; keys stay off stderr

    # -- plumbing -----------------------------------------------------------

    def send_body(self, status: int, body: bytes, content_type: str) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except CLIENT_GONE:
            pass

    def send_json(self, value, status: int = 200) -> None:
        self.send_body(status, json.dumps(value).encode(), "application/json")

    def read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    # -- routes -------------------------------------------------------------

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/_requests":
            self.send_json(self.server.requests())
        elif url.path == REST_PATH:
            self.rest(dict(parse_qsl(url.query, keep_blank_values=True)))
        else:
            self.image(url.path)

    do_HEAD = do_GET

    def do_POST(self):
        url = urlsplit(self.path)
        if url.path == "/_control":
            try:
                self.server.control(**json.loads(self.read_body() or b"{}"))
            except (ValueError, TypeError) as error:
                self.send_json({"ok": False, "error": str(error)}, 400)
                return
            self.send_json({"ok": True})
        elif url.path == REST_PATH:
            # Flickr takes its parameters as a form body as well.
            params = dict(parse_qsl(url.query, keep_blank_values=True))
            params.update(parse_qsl(self.read_body().decode("utf-8", "replace"), keep_blank_values=True))
            self.rest(params)
        else:
            self.send_body(404, b"not found\n", "text/plain")

    def do_DELETE(self):
        if urlsplit(self.path).path == "/_requests":
            self.server.clear()
            self.send_json({"ok": True})
        else:
            self.send_body(404, b"not found\n", "text/plain")

    def image(self, path: str) -> None:
        file = self.server.recordings.image(path)
        self.server.note({"path": self.path, "kind": "image", "matched": file is not None})
        if file is None:
            self.send_body(404, b"no such image\n", "text/plain")
            return
        self.send_body(200, file.read_bytes(), IMAGE_TYPES.get(file.suffix.lower(), "application/octet-stream"))

    def rest(self, params: dict[str, str]) -> None:
        entry = {"path": self.path, "kind": "rest", "method": params.get("method"), "params": params, "matched": True}
        self.server.note(entry)
        fault = self.server.take_fault()
        if fault == "drop":
            # Closes the connection without a word.
            self.close_connection = True
            try:
                self.connection.shutdown(2)
            except OSError:
                pass
            return
        if fault == "slow":
            time.sleep(self.server.fault_delay)
        if fault == "status503":
            self.send_body(503, b"<html><body><h1>503 Service Unavailable</h1></body></html>\n", "text/html")
            return
        if fault == "garbage":
            self.send_body(200, b"<html><body>Flickr is having a massage.</body></html>\n", "text/html")
            return
        recordings = self.server.recordings
        if params.get("format") != "json" or params.get("nojsoncallback") != "1":
            entry["matched"] = False
            self.send_body(400, b"this stand-in speaks only format=json&nojsoncallback=1\n", "text/plain")
            return
        key = params.get("api_key", "")
        if not KEY_FORMAT.match(key):
            self.send_reply(recordings.errors["invalid-key-format"])
            return
        if key != self.server.api_key:
            self.send_reply(recordings.errors["invalid-key-not-found"])
            return
        if fault == "unavailable":
            self.send_reply(recordings.errors["service-unavailable"])
            return
        reply = recordings.reply(params.get("method", ""), params)
        if reply is None:
            entry["matched"] = False
            self.send_body(404, b"no recorded reply for this request\n", "text/plain")
            return
        self.send_reply(reply)

    def send_reply(self, reply: dict) -> None:
        text = json.dumps(reply).replace(RECORDED_ORIGIN, self.server.origin)
        # Flickr answers its JSON as text/plain, whatever happened.
        self.send_body(200, text.encode(), "text/plain; charset=utf-8")


def start_in_thread(api_key: str, fixtures: Path = DEFAULT_FIXTURES, host: str = "127.0.0.1") -> FlickrReplay:
    """A running server on a free port; `shutdown()` and `server_close()` end it."""
    server = FlickrReplay((host, 0), Recordings(fixtures), api_key)
    threading.Thread(target=server.serve_forever, name="flickr-replay", daemon=True).start()
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Replays recorded Flickr API replies on loopback.")
    parser.add_argument("--api-key", required=True, help="the one key accepted")
    parser.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args(argv)
    server = FlickrReplay((arguments.host, arguments.port), Recordings(arguments.fixtures), arguments.api_key)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
