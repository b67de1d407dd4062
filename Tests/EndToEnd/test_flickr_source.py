"""examples/flickr_source.py against recorded Flickr replies.

A stand-in for Flickr's REST API (Tests/Servers/flickr_replay.py) replays
the replies under fixtures/flickr/ and serves the photos they name. The
source runs as a real process: first spoken to directly, JSON-RPC over its
stdin and stdout (listings, paging across Flickr's pages, albums, errors,
the API key kept secret), then through the real picker in tmux.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from remote import (  # noqa: F401  (fixtures)
    PYTHON,
    REPO,
    closed_port,
    command_source,
    home,
    processes_mentioning,
)

import flickr_replay  # noqa: E402  (Tests/Servers is on the path once remote is imported)

FLICKR_SOURCE = REPO / "examples" / "flickr_source.py"
FIXTURES = REPO / "Tests" / "EndToEnd" / "fixtures" / "flickr"
# A made-up key in Flickr's format: 32 hexadecimal digits.
API_KEY = "5c1e7f0d9b8a4c3e2f1a0b9c8d7e6f5a"
OTHER_KEY = "00112233445566778899aabbccddeeff"

MARTA = "24681357@N04"  # "marta.k": 13 public photos, 2 albums, originals allowed
OLD = "11223344@N00"  # no originals for others, 3 photos, 3 albums; recorded with --per-page 2
HARBOUR = "72177720316000001"
WINTER = "72177720316000002"
TRIPS = "72157634301000011"
SCANS = "72157634301000013"  # its page 1 comes back short
UNKNOWN_ALBUM = "72177720399999999"


# --------------------------------------------------------------------------
# The recordings, read the way a test expects them.


def recorded(name: str) -> dict:
    return json.loads((FIXTURES / "replies" / f"{name}.json").read_text())["reply"]


def stream_photos(prefix: str, pages: int) -> list[dict]:
    return [photo for page in range(1, pages + 1) for photo in recorded(f"{prefix}-page{page}")["photos"]["photo"]]


def album_photos(prefix: str, pages: int) -> list[dict]:
    return [photo for page in range(1, pages + 1) for photo in recorded(f"{prefix}-page{page}")["photoset"]["photo"]]


MARTA_STREAM = stream_photos("people.getPublicPhotos-marta.k", 3)
MARTA_ALBUMS = ["album:" + HARBOUR, "album:" + WINTER]
HARBOUR_PHOTOS = album_photos("photosets.getPhotos-harbour", 2)
OLD_STREAM = stream_photos("people.getPublicPhotos-11223344", 2)


def ids(photos: list[dict]) -> list[str]:
    return [photo["id"] for photo in photos]


def local(server: flickr_replay.FlickrReplay, url: str) -> str:
    """A recorded static URL as the stand-in serves it."""
    return url.replace(flickr_replay.RECORDED_ORIGIN, server.origin)


def image_file(url: str) -> Path:
    return FIXTURES / "images" / urlsplit(url).path.lstrip("/")


# --------------------------------------------------------------------------
# The stand-in server and the source as a process.


def rest_calls(server, method: str | None = None) -> list[dict]:
    calls = [entry for entry in server.requests() if entry["kind"] == "rest"]
    return [entry for entry in calls if method is None or entry["method"] == method]


def pages_asked(server, method: str) -> list[int]:
    return [int(entry["params"]["page"]) for entry in rest_calls(server, method)]


@pytest.fixture
def flickr():
    server = flickr_replay.start_in_thread(API_KEY, FIXTURES)
    yield server
    server.shutdown()
    server.server_close()
    unmatched = [entry["path"] for entry in server.requests() if not entry["matched"]]
    assert unmatched == [], f"requests with no recording: {unmatched}"


class Source:
    """flickr_source.py running, spoken to over its stdin and stdout."""

    def __init__(self, args: list[str], env: dict[str, str], stderr_path: Path):
        self.stderr_path = stderr_path
        with open(stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(
                [PYTHON, str(FLICKR_SOURCE), *args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                env=env,
            )
        self.buffer = b""
        self.received: list[bytes] = []
        self.next_id = 0

    def send_line(self, line: bytes) -> None:
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_line(json.dumps(message).encode())

    def read_line(self, timeout: float = 10.0) -> bytes:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no answer within {timeout}s; stderr: {self.stderr()}")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    raise AssertionError(f"the source closed its stdout; stderr: {self.stderr()}")
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        self.received.append(line)
        return line

    def answer(self, method: str, params: dict | None = None, timeout: float = 10.0) -> dict:
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.send(request)
        answer = json.loads(self.read_line(timeout))
        assert answer.get("jsonrpc") == "2.0" and answer.get("id") == self.next_id, answer
        assert ("result" in answer) != ("error" in answer), answer
        return answer

    def result(self, method: str, params: dict | None = None, timeout: float = 10.0):
        answer = self.answer(method, params, timeout)
        assert "result" in answer, f"{method} {params}: {answer}"
        return answer["result"]

    def error(self, method: str, params: dict | None = None, timeout: float = 10.0) -> dict:
        answer = self.answer(method, params, timeout)
        assert "error" in answer, f"{method} {params}: expected an error, got {answer}"
        return answer["error"]

    def list(self, folder: str | None = None, offset: int = 0, limit: int = 50) -> dict:
        return self.result("list", {"folder": folder, "offset": offset, "limit": limit})

    def list_error(self, folder: str | None = None, offset: int = 0, limit: int = 50) -> dict:
        return self.error("list", {"folder": folder, "offset": offset, "limit": limit})

    def read_all(self, folder: str | None, limit: int) -> tuple[list[dict], list[dict]]:
        """Every item of a listing, page after page as the picker asks; and the pages."""
        items: list[dict] = []
        pages: list[dict] = []
        while True:
            page = self.list(folder, len(items), limit)
            pages.append(page)
            assert len(page["items"]) <= limit, page
            items += page["items"]
            if not page["has_more"]:
                return items, pages
            assert page["items"], f"has_more with an empty page at {len(items)}"
            assert len(pages) < 100, "the listing never ends"

    def alive(self) -> bool:
        return self.process.poll() is None

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def stdout_text(self) -> str:
        return b"\n".join(self.received + [self.buffer]).decode(errors="replace")

    def close(self) -> int:
        if self.alive():
            try:
                self.send({"jsonrpc": "2.0", "method": "shutdown"})
            except BrokenPipeError:
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        rest = self.process.stdout.read()
        self.buffer += rest
        self.process.stdin.close()
        self.process.stdout.close()
        return self.process.returncode


def source_env(api_url: str, key: str | None = API_KEY, **extra: str) -> dict[str, str]:
    """A clean environment: nothing from the one running the tests (a real
    FLICKR_API_KEY there must never reach the stand-in, nor a proxy)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "FLICKR_API_URL": api_url,
           "NO_PROXY": "*", "no_proxy": "*"}
    if key is not None:
        env["FLICKR_API_KEY"] = key
    env.update(extra)
    return env


@pytest.fixture
def sources(flickr, tmp_path):
    """Starts sources (`sources("marta.k", "--per-page", "5")`). At the end each is
    shut down, must exit 0, and must not have written the key anywhere."""
    started: list[Source] = []

    def start(*args: str, key: str | None = API_KEY, api_url: str | None = None, **extra_env: str) -> Source:
        env = source_env(api_url or flickr.api_url, key, **extra_env)
        source = Source(list(args), env, tmp_path / f"source-{len(started)}.err")
        started.append(source)
        return source

    yield start
    for source in started:
        assert source.close() == 0, source.stderr()
        for secret in (API_KEY, OTHER_KEY):
            assert secret not in source.stdout_text(), "the key is on stdout"
            assert secret not in source.stderr(), "the key is on stderr"


def marta(sources, *extra: str) -> Source:
    return sources("marta.k", "--per-page", "5", *extra)


# --------------------------------------------------------------------------
# Listings.


def test_the_top_level_lists_the_albums_then_the_photostream(sources, flickr):
    source = marta(sources)
    assert source.result(
        "initialize", {"protocol": 1, "client": "picker-tui", "version": "test"}
    ) == {"title": "Flickr: marta.k", "icon": "●", "search": False, "auth": False}

    page = source.list(None, 0, 4)
    assert page["total"] == 2 + 13 and page["has_more"] is True, page
    harbour, winter, gull, quay = page["items"]
    assert harbour == {
        "id": "album:" + HARBOUR,
        "kind": "album",
        "title": "Harbour",
        "thumbnail_url": local(flickr, MARTA_STREAM[1]["url_q"]),
    }
    assert winter["id"] == "album:" + WINTER and winter["title"] == "Winter", winter
    recorded_gull = MARTA_STREAM[0]
    assert gull == {
        "id": "53820001013",
        "kind": "photo",
        "title": "Gull on a post",
        # The owner allows originals: url_o is the photo, url_q its tile.
        "url": local(flickr, recorded_gull["url_o"]),
        "thumbnail_url": local(flickr, recorded_gull["url_q"]),
        "width": 640,
        "height": 480,
        "taken_at": "2024-05-18T07:12:40",
    }
    assert quay["title"] == "Quay at dusk", quay

    # The username was looked up once; then albums and the first page.
    assert [entry["method"] for entry in rest_calls(flickr)] == [
        "flickr.people.findByUsername",
        "flickr.photosets.getList",
        "flickr.people.getPublicPhotos",
    ]
    calls = rest_calls(flickr)
    assert calls[0]["params"]["username"] == "marta.k"
    assert {key: calls[2]["params"][key] for key in ("user_id", "page", "per_page", "format", "nojsoncallback")} == {
        "user_id": MARTA, "page": "1", "per_page": "5", "format": "json", "nojsoncallback": "1"}
    assert set(calls[2]["params"]["extras"].split(",")) >= {"url_q", "url_z", "url_o", "original_format", "o_dims"}


@pytest.mark.parametrize("limit", [1, 3, 4, 6, 7, 13, 100])
def test_paging_reads_every_item_once_whatever_the_limit(sources, flickr, limit):
    """The picker's offset/limit over Flickr's pages of 5: pages that start
    and end inside Flickr's, and each Flickr page asked for once."""
    source = marta(sources)
    items, pages = source.read_all(None, limit)
    assert [item["id"] for item in items] == MARTA_ALBUMS + ids(MARTA_STREAM)
    assert all(page["total"] == 15 for page in pages), pages
    assert all(len(page["items"]) == limit for page in pages[:-1]), [len(page["items"]) for page in pages]
    assert pages[-1]["has_more"] is False
    assert pages_asked(flickr, "flickr.people.getPublicPhotos") == [1, 2, 3]
    assert pages_asked(flickr, "flickr.photosets.getList") == [1]
    assert len(rest_calls(flickr, "flickr.people.findByUsername")) == 1

    # The video is listed as what Flickr has of it: a still.
    ferry = next(item for item in items if item["id"] == "53820001011")
    assert ferry["title"] == "Ferry (video)" and ferry["url"].endswith("_z.jpg"), ferry
    # A photo without a title is named by its id.
    assert next(item for item in items if item["id"] == "53820001006")["title"] == "53820001006"


def test_an_offset_lands_on_the_right_photo_and_offset_0_looks_again(sources, flickr):
    source = marta(sources)
    # Straight to the middle, as after a restart of the source: stream
    # positions 7 to 10, across Flickr's pages 2 and 3.
    page = source.list(None, 9, 4)
    assert [item["id"] for item in page["items"]] == ids(MARTA_STREAM[7:11]), page
    assert page["has_more"] is True and page["total"] == 15
    assert pages_asked(flickr, "flickr.people.getPublicPhotos") == [2, 3]
    # The end, and past it.
    page = source.list(None, 13, 4)
    assert [item["id"] for item in page["items"]] == ids(MARTA_STREAM[11:]) and page["has_more"] is False, page
    page = source.list(None, 15, 4)
    assert page == {"items": [], "has_more": False, "total": 15}
    assert pages_asked(flickr, "flickr.people.getPublicPhotos") == [2, 3]

    # Offset 0 is a fresh listing: the albums and the first page again.
    source.list(None, 0, 3)
    assert pages_asked(flickr, "flickr.photosets.getList") == [1, 1]
    assert pages_asked(flickr, "flickr.people.getPublicPhotos") == [2, 3, 1]


def test_albums_page_across_flickr_pages(sources, flickr):
    source = marta(sources)
    # Below the top level the picker's first page is one short (the Back
    # tile takes a cell): 4, then 5.
    first = source.list("album:" + HARBOUR, 0, 4)
    assert [item["id"] for item in first["items"]] == ids(HARBOUR_PHOTOS[:4]), first
    assert first["total"] == 7 and first["has_more"] is True
    second = source.list("album:" + HARBOUR, 4, 5)
    assert [item["id"] for item in second["items"]] == ids(HARBOUR_PHOTOS[4:]), second
    assert second["has_more"] is False and second["total"] == 7
    assert pages_asked(flickr, "flickr.photosets.getPhotos") == [1, 2]
    call = rest_calls(flickr, "flickr.photosets.getPhotos")[0]["params"]
    assert (call["photoset_id"], call["user_id"], call["per_page"]) == (HARBOUR, MARTA, "5")

    # The PNG original keeps its own extension.
    lighthouse = next(item for item in first["items"] if item["title"] == "Lighthouse")
    assert lighthouse["url"].endswith("_o.png"), lighthouse

    items, _ = source.read_all("album:" + WINTER, 2)
    assert [item["title"] for item in items] == ["Frost", "Snowy lane", "Icicles"]


def test_without_originals_the_largest_size_is_the_photo(sources, flickr):
    """An NSID needs no lookup. The owner keeps originals to themselves:
    the photo is the largest size given (1024, 800 or 640 px)."""
    source = sources(OLD, "--per-page", "2")
    items, pages = source.read_all(None, 50)
    assert len(pages) == 1
    assert [item["title"] for item in items] == ["Trips", "Family", "Scans", "Tram", "Canal", "Scan 1987"]
    # Three albums over two pages of getList; counts sent as strings.
    assert pages_asked(flickr, "flickr.photosets.getList") == [1, 2]
    assert pages[0]["total"] == 6
    assert rest_calls(flickr, "flickr.people.findByUsername") == []
    tram, canal, scan = items[3:]
    assert (tram["url"], tram["width"], tram["height"]) == (local(flickr, OLD_STREAM[0]["url_l"]), 1024, 683)
    assert tram["url"].endswith("_b.jpg")
    assert (canal["url"], canal["width"], canal["height"]) == (local(flickr, OLD_STREAM[1]["url_c"]), 800, 534)
    assert (scan["url"], scan["width"], scan["height"]) == (local(flickr, OLD_STREAM[2]["url_z"]), 640, 452)
    assert scan["thumbnail_url"] == local(flickr, OLD_STREAM[2]["url_q"])

    # An album recorded with page numbers as strings.
    items, pages = source.read_all("album:" + TRIPS, 2)
    assert [item["title"] for item in items] == ["Tram", "Canal", "Scan 1987"]
    assert [page["total"] for page in pages] == [3, 3]
    assert pages_asked(flickr, "flickr.photosets.getPhotos") == [1, 2]


def test_a_short_page_in_the_middle_neither_repeats_nor_skips(sources, flickr):
    """Flickr counts photos the caller may not see in `total` and leaves
    them out of their page: page 1 of Scans has 1 photo, not 2. The next
    offset goes on from where the last answer ended, not from offset //
    per_page, which would list Canal twice."""
    source = sources(OLD, "--per-page", "2")
    items, pages = source.read_all("album:" + SCANS, 1)
    assert [item["title"] for item in items] == ["Scan 1987", "Canal", "Tram"]
    assert [page["has_more"] for page in pages] == [True, True, False]
    assert all(page["total"] == 4 for page in pages), pages
    assert pages_asked(flickr, "flickr.photosets.getPhotos") == [1, 2]


def test_a_slow_flickr_gets_a_shorter_page_not_a_timeout(sources, flickr):
    """With half of its time gone, an answer ends with the photos it has
    (has_more still true) rather than risk the picker's timeout."""
    source = sources(MARTA, "--per-page", "5", "--timeout", "2")
    flickr.control("slow", times=2, delay=0.6)  # getList, then page 1
    page = source.list(None, 0, 12)
    assert [item["id"] for item in page["items"]] == MARTA_ALBUMS + ids(MARTA_STREAM[:5]), page
    assert page["has_more"] is True and page["total"] == 15
    rest = source.list(None, len(page["items"]), 12)
    assert [item["id"] for item in rest["items"]] == ids(MARTA_STREAM[5:]) and rest["has_more"] is False, rest
    assert pages_asked(flickr, "flickr.people.getPublicPhotos") == [1, 2, 3]


# --------------------------------------------------------------------------
# Errors.


def test_flickrs_refusals_become_errors_the_picker_can_show(sources, flickr):
    bad_format = sources("marta.k", key="not-a-flickr-key")
    error = bad_format.list_error()
    assert error == {
        "code": -32000,
        "message": "Flickr refused the API key: Invalid API Key (Key has invalid format). Check FLICKR_API_KEY.",
    }
    # Not the sign-in code: there is nothing to type into a form.
    assert bad_format.alive() and bad_format.result("initialize", {"protocol": 1})["title"] == "Flickr: marta.k"

    unknown_key = sources("marta.k", key=OTHER_KEY)
    assert unknown_key.list_error()["message"] == (
        "Flickr refused the API key: Invalid API Key (Key not found). Check FLICKR_API_KEY."
    )

    nobody = sources("nobody.at.all")
    assert nobody.list_error() == {"code": -32000, "message": "Flickr has no user named 'nobody.at.all'"}

    source = marta(sources)
    error = source.list_error("album:" + UNKNOWN_ALBUM)
    assert error == {"code": -32602, "message": f"no such album: {UNKNOWN_ALBUM} (Photoset not found)"}

    # Flickr down for a moment: its words, then the listing once it is back.
    flickr.control("unavailable", times=1)
    error = source.list_error()
    assert error["code"] == -32000 and error["message"].startswith("Flickr: Service currently unavailable (error 105"), error
    assert [item["title"] for item in source.list(None, 0, 3)["items"]] == ["Harbour", "Winter", "Gull on a post"]


def test_a_missing_key_is_named_and_nothing_is_sent(sources, flickr, tmp_path):
    source = sources("marta.k", key=None)
    assert source.result("initialize", {"protocol": 1})["search"] is False
    error = source.list_error()
    assert error["code"] == -32000 and "FLICKR_API_KEY is not set" in error["message"], error
    assert rest_calls(flickr) == []
    assert "FLICKR_API_KEY is not set" in source.stderr()

    # --key-file reads it from a file instead.
    key_file = tmp_path / "flickr-key"
    key_file.write_text(API_KEY + "\n")
    from_file = sources("marta.k", "--per-page", "5", "--key-file", str(key_file), key=None)
    assert [item["title"] for item in from_file.list(None, 0, 2)["items"]] == ["Harbour", "Winter"]


@pytest.mark.parametrize(
    "fault, message",
    [
        ("status503", "Flickr answered HTTP 503 Service Unavailable"),
        ("garbage", "Flickr answered something that is not JSON"),
        ("drop", "cannot reach Flickr: Remote end closed connection without response"),
        ("slow", "Flickr did not answer within 1 s"),
    ],
)
def test_network_failures_become_errors_and_the_source_keeps_serving(sources, flickr, fault, message):
    source = sources(MARTA, "--per-page", "5", "--timeout", "1")
    flickr.control(fault, times=1, delay=3)
    began = time.monotonic()
    error = source.list_error()
    assert error == {"code": -32000, "message": message}
    assert time.monotonic() - began < 2.5, "the error came after the source's own timeout"
    assert source.alive()
    assert message in source.stderr()
    # The next request goes through.
    assert [item["title"] for item in source.list(None, 0, 3)["items"]] == ["Harbour", "Winter", "Gull on a post"]


def test_an_unreachable_flickr_is_an_error_every_time(sources):
    source = sources("marta.k", api_url=f"http://127.0.0.1:{closed_port()}/services/rest/")
    for _ in range(2):
        assert source.list_error() == {"code": -32000, "message": "cannot reach Flickr: Connection refused"}
    assert source.result("initialize", {"protocol": 1})["title"] == "Flickr: marta.k"
    assert source.alive()


def test_the_key_goes_to_flickr_and_nowhere_else(sources, flickr):
    source = marta(sources)
    source.read_all(None, 4)
    source.read_all("album:" + HARBOUR, 4)
    flickr.control("status503", times=1)
    source.list_error("album:" + WINTER)
    source.list_error("album:" + UNKNOWN_ALBUM)
    # Not in the program's arguments, where any user can read them.
    assert API_KEY not in Path(f"/proc/{source.process.pid}/cmdline").read_bytes().decode(errors="replace")
    # In every call to the API, as api_key; in nothing else.
    calls = rest_calls(flickr)
    assert calls and all(parse_qs(urlsplit(entry["path"]).query)["api_key"] == [API_KEY] for entry in calls)
    images = [entry for entry in flickr.requests() if entry["kind"] != "rest"]
    assert all(API_KEY not in entry["path"] for entry in images)
    # (The fixture checks stdout and stderr when the source is shut down.)
    assert API_KEY not in source.stdout_text() and API_KEY not in source.stderr()


def test_protocol_odds_and_ends(sources, flickr):
    source = marta(sources)
    assert source.error("search", {"query": "gull", "offset": 0, "limit": 5})["code"] == -32601
    assert source.error("list", {"folder": None, "offset": -1, "limit": 5})["code"] == -32602
    assert source.error("list", {"folder": "Harbour", "offset": 0, "limit": 5})["code"] == -32602
    assert source.error("list", {"folder": "album:../x", "offset": 0, "limit": 5})["code"] == -32602
    assert source.error("list", [1, 2])["code"] == -32602
    assert source.error("fetch", {"url": "https://example.com/x.jpg", "thumbnail": False})["code"] == -32602
    # A line that is not JSON: answered with id null.
    source.send_line(b"this is not json")
    assert json.loads(source.read_line()) == {
        "jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error: not a JSON line"}}
    # A notification gets no answer: the next line answers the next request.
    source.send({"jsonrpc": "2.0", "method": "list", "params": {"folder": None, "offset": 0, "limit": 1}})
    assert source.result("initialize", {"protocol": 1})["auth"] is False
    assert rest_calls(flickr) != []  # the notification did run
    # Requests sent together are answered in order.
    for n in (101, 102):
        source.send({"jsonrpc": "2.0", "id": n, "method": "list", "params": {"folder": None, "offset": 0, "limit": 1}})
    assert [json.loads(source.read_line())["id"] for _ in range(2)] == [101, 102]
    # shutdown ends it at once.
    source.send({"jsonrpc": "2.0", "method": "shutdown"})
    assert source.process.wait(timeout=5) == 0


# --------------------------------------------------------------------------
# Through the picker.


def test_browse_flickr_in_the_picker_and_download_the_originals(picker, home, flickr, tmp_path):
    downloads = tmp_path / "downloads"
    home.write_config(command_source("Flickr", [PYTHON, str(FLICKR_SOURCE), "marta.k", "--per-page", "5"]))
    env = home.env(FLICKR_API_KEY=API_KEY, FLICKR_API_URL=flickr.api_url, NO_PROXY="*", no_proxy="*")
    p = picker.start(["--source", "Flickr", "--page-size", "6", "--download-dir", str(downloads)], env=env)

    # Albums first, then the photostream; 6 of 15 loaded.
    root = ["Harbour/", "Winter/", "Gull on a post", "Quay at dusk", "Ferry (video)", "Nets"]
    screen = p.wait(lambda s: s.captions() == root + ["Load more"], "the Flickr top level")
    assert screen.crumb_path == "Flickr" and screen.counts == (6, 15), screen
    assert screen.focused_caption() == "Harbour/", screen

    # The Harbour album: Back, then a first page one short (5 of 7).
    p.send("Enter")
    album = [".. Back", "Quay at dusk", "Gull on a post", "Nets", "Lighthouse", "Rope", "Load more"]
    screen = p.wait(lambda s: s.crumb_path == "Flickr / Harbour" and s.captions() == album, "the Harbour album")
    assert screen.counts == (5, 7), screen
    for caption in ("Quay at dusk", "Gull on a post", "Nets", "Lighthouse"):
        if screen.focused_caption() != caption:
            screen = p.press("l", caption)
    p.toggle("Lighthouse")

    # Back on the top level, right past Nets: the next page arrives, from
    # the end of Flickr's first page into its second.
    p.send("BSpace")
    p.wait(lambda s: s.crumb_path == "Flickr" and s.focused_caption() == "Harbour/", "the top level again")
    for caption in ("Winter/", "Gull on a post", "Quay at dusk", "Ferry (video)", "Nets"):
        p.press("l", caption)
    p.send("l")
    screen = p.wait(lambda s: s.counts == (12, 15) and s.focused_caption() == "✓ Lighthouse", "the second page")
    # The same photo as in the album (the same id): already picked.
    assert screen.names()[6:] == ["Lighthouse", "Snowy lane", "Frost", "53820001006", "Rope", "Boats", "Load more"], screen
    for caption in ("Snowy lane", "Frost"):
        p.press("l", caption)
    screen = p.toggle("Frost")
    assert screen.tray_names() == ["Lighthouse", "Frost"], screen

    p.send("Enter")
    out = p.finish(0, timeout=20)
    assert out == f"{downloads}/Lighthouse.png\n{downloads}/Frost.jpg\n".encode(), p.describe()
    lighthouse = next(photo for photo in MARTA_STREAM if photo["title"] == "Lighthouse")
    frost = next(photo for photo in MARTA_STREAM if photo["title"] == "Frost")
    assert (downloads / "Lighthouse.png").read_bytes() == image_file(lighthouse["url_o"]).read_bytes()
    assert (downloads / "Frost.jpg").read_bytes() == image_file(frost["url_o"]).read_bytes()
    assert p.stderr() == b""

    # The originals came from the stand-in, the tiles from url_q; the
    # source's stderr went to the log, without the key.
    fetched = {entry["path"] for entry in flickr.requests() if entry["kind"] == "image"}
    assert urlsplit(lighthouse["url_o"]).path in fetched and urlsplit(frost["url_o"]).path in fetched
    assert urlsplit(MARTA_STREAM[0]["url_q"]).path in fetched
    log = home.log_text()
    assert "flickr_source: serving the public photos of marta.k" in log, log
    assert API_KEY not in log
    assert processes_mentioning(str(FLICKR_SOURCE)) == []
