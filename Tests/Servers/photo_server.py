#!/usr/bin/env python3
"""A photo web service on loopback for testing picker-tui's "web" sources.

Run it as a program:

    python3 Tests/Servers/photo_server.py [--port 0] [--host 127.0.0.1]
        [--token T | --user U --password P] [--photos 60] [--albums 3]
        [--album-photos 30] [--original-size 640x480]

It prints `PORT <number>` on one line once it listens, then serves until it
is killed. The JSON API lives under /api; /_control injects faults and
/_requests reports what arrived, so tests can check what the picker sent.

Or import it: the images and the listing are pure functions of their
arguments (`original_bytes`, `thumbnail_bytes`, `catalogue`), so a test can
compare what the picker downloaded with what the server must have served.
"""

from __future__ import annotations

import argparse
import base64
import functools
import hashlib
import json
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import photo_bytes  # noqa: E402  (needs the path above)

THUMBNAIL_SIZE = (160, 120)
DEFAULT_ORIGINAL_SIZE = (640, 480)
TAKEN_AT = "2024-06-01T10:00:00Z"
TITLE_WORDS = ["Beach", "Forest", "City", "Mountain", "River", "Desert", "Harbour", "Meadow"]

DEFAULT_LIMIT = 50
MAX_LIMIT = 500
MEGABYTE = 1024 * 1024

LISTING_PATHS = ["/api/photos", "/api/albums/", "/api/search"]
FAULTS = {"none", "error500", "malformed", "repeat", "huge", "redirect", "drop"}
MALFORMED_BODY = b'{"items": [{"id": '

# Errors that only mean the client went away; nothing to report.
CLIENT_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


# ---------------------------------------------------------------------------
# Images: deterministic PNGs derived from the photo id.
# ---------------------------------------------------------------------------

def _palette(photo_id: str) -> tuple[tuple[int, ...], tuple[int, ...], float]:
    """Two colours and a band position, all from a hash of the id, so that
    every photo looks different from its neighbours."""
    digest = hashlib.sha256(photo_id.encode()).digest()
    return tuple(digest[0:3]), tuple(digest[3:6]), digest[6] / 255


def _diagonal_line(photo_id: str, length: int) -> bytes:
    """The colours along the image's diagonal: a two-colour gradient with a
    lighter band. Pixel (x, y) takes entry x + y, so each row is a slice of
    this line and no per-pixel work is done for the whole image."""
    start, end, band = _palette(photo_id)
    line = bytearray()
    for i in range(length):
        t = i / max(length - 1, 1)
        colour = [round(a + (b - a) * t) for a, b in zip(start, end)]
        if abs(t - band) < 0.06:
            colour = [c + (255 - c) // 2 for c in colour]
        line += bytes(colour)
    return bytes(line)


def _render(photo_id: str, width: int, height: int, noise_bits: int) -> bytes:
    line = _diagonal_line(photo_id, width + height)
    rgb = b"".join(line[y * 3:(y + width) * 3] for y in range(height))
    if noise_bits:
        rgb = _add_noise(photo_id, rgb, width, height, noise_bits)
    return photo_bytes.png_bytes(width, height, rgb)


def _add_noise(photo_id: str, rgb: bytes, width: int, height: int, bits: int) -> bytes:
    """Flips the low `bits` of every byte with deterministic noise so the
    PNG does not compress to almost nothing. Done as whole-image big-integer
    operations because a per-byte Python loop would be far too slow."""
    seed = f"noise:{photo_id}:{width}x{height}".encode()
    noise = hashlib.shake_256(seed).digest(len(rgb))
    mask = int.from_bytes(bytes([(1 << bits) - 1]) * len(rgb), "big")
    mixed = int.from_bytes(rgb, "big") ^ (int.from_bytes(noise, "big") & mask)
    return mixed.to_bytes(len(rgb), "big")


@functools.lru_cache(maxsize=512)
def original_bytes(photo_id: str, width: int, height: int) -> bytes:
    """The full-size PNG of a photo (a few hundred KB at 640x480)."""
    return _render(photo_id, width, height, noise_bits=2)


@functools.lru_cache(maxsize=1024)
def thumbnail_bytes(photo_id: str) -> bytes:
    """The 160x120 thumbnail PNG of a photo."""
    return _render(photo_id, *THUMBNAIL_SIZE, noise_bits=0)


# ---------------------------------------------------------------------------
# The listing.
# ---------------------------------------------------------------------------

def photo_title(number: int) -> str:
    return f"{TITLE_WORDS[(number - 1) % len(TITLE_WORDS)]} {number}"


def photo_item(photo_id: str, number: int, size: tuple[int, int]) -> dict:
    return {
        "id": photo_id,
        "kind": "photo",
        "title": photo_title(number),
        "thumbnail_url": f"thumbs/{photo_id}.png",
        "url": f"originals/{photo_id}.png",
        "width": size[0],
        "height": size[1],
        "taken_at": TAKEN_AT,
    }


def catalogue(photos: int = 60, albums: int = 3, album_photos: int = 30,
              original_size: tuple[int, int] = DEFAULT_ORIGINAL_SIZE) -> dict:
    """Everything the server lists:

    - "root": the root listing (albums first, then the root photos);
    - "albums": album id -> that album's photo items;
    - "photos": every photo item (root photos, then album by album), which
      is also the order search results come in.
    """
    album_contents = {}
    album_items = []
    for k in range(1, albums + 1):
        album_id = f"album-{k}"
        contents = [photo_item(f"{album_id}-photo-{n}", n, original_size)
                    for n in range(1, album_photos + 1)]
        album_contents[album_id] = contents
        album = {"id": album_id, "kind": "album", "title": f"Album {k}"}
        if contents:
            album["thumbnail_url"] = contents[0]["thumbnail_url"]
        album_items.append(album)
    root_photos = [photo_item(f"photo-{n}", n, original_size) for n in range(1, photos + 1)]
    every_photo = root_photos + [p for contents in album_contents.values() for p in contents]
    return {"root": album_items + root_photos, "albums": album_contents, "photos": every_photo}


def page(items: list, offset: int, limit: int) -> dict:
    chosen = items[offset:offset + limit]
    return {"items": chosen, "has_more": offset + len(chosen) < len(items), "total": len(items)}


# ---------------------------------------------------------------------------
# Server state: settings changed through /_control, and the request log.
# ---------------------------------------------------------------------------

class Settings:
    """What /_control can change. `defaults` are the command-line values
    that `{"reset": true}` goes back to."""

    def __init__(self, token: str | None, user: str | None, password: str | None):
        self.defaults = {
            "fault": "none",
            "fault_paths": list(LISTING_PATHS),
            "delay": 0.0,
            "delay_paths": list(LISTING_PATHS),
            "token": token,
            "user": user,
            "password": password,
            "redirect_to": None,
            "huge_mb": 64,
        }
        self.values = dict(self.defaults)
        self.lock = threading.Lock()

    def snapshot(self) -> dict:
        with self.lock:
            return dict(self.values)

    def update(self, changes: dict) -> None:
        """Applies a /_control body; raises ValueError before changing
        anything when a field is wrong, so a typo in a test shows up."""
        checked = _checked_control(changes)
        with self.lock:
            if changes.get("reset"):
                self.values = dict(self.defaults)
            if "token" in checked:
                # A new token means bearer auth from now on.
                self.values["user"] = self.values["password"] = None
            self.values.update(checked)


def _checked_control(changes: dict) -> dict:
    checks = {
        "fault": lambda v: v in FAULTS,
        "fault_paths": lambda v: isinstance(v, list) and all(isinstance(p, str) for p in v),
        "delay": lambda v: _is_number(v) and v >= 0,
        "delay_paths": lambda v: isinstance(v, list) and all(isinstance(p, str) for p in v),
        "token": lambda v: isinstance(v, str),
        "redirect_to": lambda v: isinstance(v, str),
        "huge_mb": lambda v: _is_number(v) and v > 0,
    }
    checked = {}
    for name, value in changes.items():
        if name == "reset":
            continue
        if name not in checks:
            raise ValueError(f"unknown control field {name!r}")
        if not checks[name](value):
            raise ValueError(f"bad value for {name!r}: {value!r}")
        checked[name] = value
    return checked


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class RequestLog:
    def __init__(self):
        self.entries: list[dict] = []
        self.lock = threading.Lock()

    def add(self, method: str, path: str, headers) -> None:
        with self.lock:
            self.entries.append({"method": method, "path": path, "headers": dict(headers.items())})

    def all(self) -> list[dict]:
        with self.lock:
            return list(self.entries)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


# ---------------------------------------------------------------------------
# HTTP handling.
# ---------------------------------------------------------------------------

class BadRequest(Exception):
    pass


def _matches(path: str, prefixes: list[str]) -> bool:
    return any(path.startswith(prefix) for prefix in prefixes)


def _paging(query: dict) -> tuple[int, int]:
    def number(name: str, default: int) -> int:
        values = query.get(name)
        if not values:
            return default
        try:
            value = int(values[-1])
        except ValueError:
            raise BadRequest(f"{name} must be a whole number") from None
        if value < 0:
            raise BadRequest(f"{name} must not be negative")
        return value

    return number("offset", 0), min(number("limit", DEFAULT_LIMIT), MAX_LIMIT)


class PhotoHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle's algorithm the
    # second waits for the client's delayed ACK (about 40 ms) on a kept-alive
    # connection, which real servers avoid and the tests should not measure.
    disable_nagle_algorithm = True
    server_version = "PhotoServer/1"

    # The server object carries `catalogue`, `settings`, `log` and `original_size`.

    def log_message(self, format, *args):
        pass  # quiet: tests read stdout for the port and nothing else

    def do_GET(self):
        self.dispatch()

    def do_HEAD(self):
        self.dispatch()

    def do_POST(self):
        self.dispatch()

    def do_PUT(self):
        self.dispatch()

    def do_DELETE(self):
        self.dispatch()

    def do_PATCH(self):
        self.dispatch()

    # -- plumbing --------------------------------------------------------

    def read_body(self) -> bytes:
        # Always drain the body so the next request on a kept-alive
        # connection starts at the right place.
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def send_bytes(self, status: int, body: bytes, content_type: str, headers: dict | None = None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_json(self, status: int, value, headers: dict | None = None):
        self.send_bytes(status, json.dumps(value).encode(), "application/json", headers)

    def send_error_json(self, status: int, message: str, headers: dict | None = None):
        self.send_json(status, {"error": message}, headers)

    # -- routing ---------------------------------------------------------

    def dispatch(self):
        body = self.read_body()
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        try:
            if path in ("/_control", "/_requests"):
                self.handle_control(path, body)
                return
            self.server.log.add(self.command, self.path, self.headers)
            settings = self.server.settings.snapshot()
            if settings["delay"] and _matches(path, settings["delay_paths"]):
                time.sleep(settings["delay"])
            fault = settings["fault"]
            if fault != "none" and _matches(path, settings["fault_paths"]):
                if self.inject_fault(fault, settings):
                    return
            if not path.startswith("/api/"):
                self.send_error_json(404, "not found")
                return
            if not self.authorized(settings):
                self.refuse(settings)
                return
            repeat = fault == "repeat" and _matches(path, settings["fault_paths"])
            self.handle_api(path, query, repeat)
        except BadRequest as error:
            self.send_error_json(400, str(error))
        except CLIENT_GONE:
            self.close_connection = True

    def handle_control(self, path: str, body: bytes):
        if path == "/_requests" and self.command == "GET":
            self.send_json(200, self.server.log.all())
        elif path == "/_requests" and self.command == "DELETE":
            self.server.log.clear()
            self.send_json(200, {"ok": True})
        elif path == "/_control" and self.command == "POST":
            try:
                changes = json.loads(body or b"{}")
                if not isinstance(changes, dict):
                    raise ValueError("the body must be a JSON object")
                self.server.settings.update(changes)
            except ValueError as error:
                self.send_error_json(400, str(error))
                return
            self.send_json(200, {"ok": True})
        else:
            self.send_error_json(405, "method not allowed")

    def handle_api(self, path: str, query: dict, repeat: bool):
        if self.command not in ("GET", "HEAD"):
            self.send_error_json(405, "method not allowed")
            return
        catalogue_ = self.server.catalogue
        if path == "/api/me":
            self.send_json(200, {"name": "tester"})
        elif path == "/api/photos":
            self.send_listing(catalogue_["root"], query, repeat)
        elif path == "/api/search":
            needle = (query.get("q") or [""])[-1].casefold()
            found = [p for p in catalogue_["photos"] if needle in p["title"].casefold()]
            self.send_listing(found, query, repeat)
        elif path.startswith("/api/albums/") and path.endswith("/photos"):
            album_id = unquote(path[len("/api/albums/"):-len("/photos")])
            if album_id not in catalogue_["albums"]:
                self.send_error_json(404, f"no album {album_id}")
                return
            self.send_listing(catalogue_["albums"][album_id], query, repeat)
        elif path.startswith("/api/thumbs/") or path.startswith("/api/originals/"):
            self.send_image(path)
        else:
            self.send_error_json(404, "not found")

    def send_listing(self, items: list, query: dict, repeat: bool):
        offset, limit = _paging(query)
        if repeat:
            # A broken server that ignores the offset and always claims more.
            result = page(items, 0, limit)
            result["has_more"] = True
        else:
            result = page(items, offset, limit)
        self.send_json(200, result)

    def send_image(self, path: str):
        folder, _, name = path[len("/api/"):].partition("/")
        photo_id = unquote(name[:-len(".png")]) if name.endswith(".png") else None
        if photo_id not in self.server.photo_ids:
            self.send_error_json(404, "no such image")
            return
        if folder == "thumbs":
            data = thumbnail_bytes(photo_id)
        else:
            data = original_bytes(photo_id, *self.server.original_size)
        self.send_bytes(200, data, "image/png")

    # -- auth --------------------------------------------------------------

    def authorized(self, settings: dict) -> bool:
        given = self.headers.get("Authorization", "")
        if settings["token"] is not None:
            return given == f"Bearer {settings['token']}"
        if settings["user"] is not None:
            pair = f"{settings['user']}:{settings['password'] or ''}".encode()
            return given == "Basic " + base64.b64encode(pair).decode()
        return True

    def refuse(self, settings: dict):
        scheme = "Bearer" if settings["token"] is not None else "Basic"
        self.send_error_json(401, "unauthorized", {"WWW-Authenticate": f'{scheme} realm="photos"'})

    # -- faults ------------------------------------------------------------

    def inject_fault(self, fault: str, settings: dict) -> bool:
        """Answers with the fault; False for faults that shape a normal
        answer instead ("repeat")."""
        if fault == "error500":
            self.send_error_json(500, "injected server error")
        elif fault == "malformed":
            self.send_bytes(200, MALFORMED_BODY, "application/json")
        elif fault == "redirect":
            self.redirect(settings["redirect_to"])
        elif fault == "drop":
            self.close_connection = True
        elif fault == "huge":
            self.stream_huge(settings["huge_mb"])
        else:
            return False
        return True

    def redirect(self, target: str | None):
        if not target:
            self.send_error_json(500, "redirect fault set without redirect_to")
            return
        self.send_bytes(302, b"", "text/plain", {"Location": target.rstrip("/") + self.path})

    def stream_huge(self, megabytes: float):
        """An endless-looking JSON body, written a megabyte at a time so
        the server itself never holds it. No Content-Length: the client
        cannot tell the size up front and must stop reading on its own."""
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        total = int(megabytes * MEGABYTE)
        head = b'{"items":[],"padding":"'
        chunk = b"x" * MEGABYTE
        try:
            self.wfile.write(head)
            sent = len(head)
            while sent < total:
                piece = chunk if total - sent >= MEGABYTE else chunk[:total - sent]
                self.wfile.write(piece)
                sent += len(piece)
        except CLIENT_GONE:
            pass


class PhotoServer(ThreadingHTTPServer):
    # A slow answer (delay, huge) must never hold up the others.
    daemon_threads = True

    def __init__(self, address, settings: Settings, photos: int, albums: int,
                 album_photos: int, original_size: tuple[int, int]):
        super().__init__(address, PhotoHandler)
        self.settings = settings
        self.log = RequestLog()
        self.original_size = original_size
        self.catalogue = catalogue(photos, albums, album_photos, original_size)
        self.photo_ids = {p["id"] for p in self.catalogue["photos"]}

    def handle_error(self, request, client_address):
        # A client hanging up is normal in these tests; anything else is a
        # real bug in the server and worth a traceback.
        if not isinstance(sys.exc_info()[1], CLIENT_GONE):
            super().handle_error(request, client_address)


# ---------------------------------------------------------------------------
# Command line.
# ---------------------------------------------------------------------------

def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError("expected WIDTHxHEIGHT, e.g. 640x480") from None
    if width < 1 or height < 1:
        raise argparse.ArgumentTypeError("width and height must be positive")
    return width, height


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Photo web service for tests.")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--token", help="require 'Authorization: Bearer TOKEN'")
    parser.add_argument("--user", help="require HTTP Basic auth with --password")
    parser.add_argument("--password")
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--albums", type=int, default=3)
    parser.add_argument("--album-photos", type=int, default=30)
    parser.add_argument("--original-size", type=_size, default=DEFAULT_ORIGINAL_SIZE)
    arguments = parser.parse_args(argv)
    if arguments.token is not None and arguments.user is not None:
        parser.error("use either --token or --user/--password, not both")
    if (arguments.user is None) != (arguments.password is None):
        parser.error("--user and --password go together")
    return arguments


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    settings = Settings(arguments.token, arguments.user, arguments.password)
    server = PhotoServer((arguments.host, arguments.port), settings, arguments.photos,
                         arguments.albums, arguments.album_photos, arguments.original_size)
    # SIGTERM is how tests stop the server; leave through the normal path.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
