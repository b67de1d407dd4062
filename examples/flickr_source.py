#!/usr/bin/env python3
"""A picker-tui command source for one Flickr user's public photos.

    FLICKR_API_KEY=... python3 flickr_source.py USER [--per-page N] [--timeout SECONDS]

USER is an NSID ("24681357@N04") or a username (the screen name, looked up
with flickr.people.findByUsername). The top level lists the user's albums
first, as folders, then the photostream, newest first. Thumbnails are
Flickr's 150 px squares; a picked photo is downloaded at its original size
when the owner allows that, else at the largest size Flickr offers.

Only public photos are reached, so an API key is all it takes: get one at
https://www.flickr.com/services/apps/create/ and give it in the environment
as FLICKR_API_KEY (or in a file named by --key-file). Never put it on the
command line, where every user of the machine can read it. The key is sent
to Flickr and nowhere else: it is never printed or logged.

FLICKR_API_URL replaces https://api.flickr.com/services/rest/, for a
stand-in server in tests.

The picker starts this program and talks JSON-RPC 2.0 with it, one JSON
object per line: requests on stdin, answers on stdout. Diagnostics go to
stderr, which the picker writes to its log file. See docs/custom-sources.md.
Only the Python standard library is used, so the file can be copied as it is.
"""

import argparse
import http.client
import json
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import OrderedDict

DEFAULT_API_URL = "https://api.flickr.com/services/rest/"
KEY_VARIABLE = "FLICKR_API_KEY"
URL_VARIABLE = "FLICKR_API_URL"
NSID = re.compile(r"^[0-9]+@N[0-9]+$")
ALBUM_PREFIX = "album:"

DEFAULT_PER_PAGE = 100   # photos per Flickr request; Flickr allows up to 500
DEFAULT_TIMEOUT = 8.0    # seconds for one answer, under the picker's 10 s
MAX_REPLY_BYTES = 32 << 20

# What a listing asks Flickr to add to each photo. url_l is the 1024 px
# size (its file ends in _b), url_h 1600 px, url_k 2048 px; url_o, with
# originalsecret and originalformat, only comes when the owner lets others
# download originals.
PHOTO_EXTRAS = "date_taken,media,original_format,o_dims,url_q,url_z,url_c,url_l,url_h,url_k,url_o"
ALBUM_COVER_EXTRAS = "url_q,url_m"
# Sizes for the photo itself, largest first, and for its tile, smallest first.
PHOTO_SIZES = ("o", "k", "h", "l", "c", "z")
THUMBNAIL_SIZES = ("q", "z", "c", "l")

# JSON-RPC error codes. -32000 is this source's "Flickr failed" (the
# JSON-RPC range for an implementation's own errors); the picker shows the
# message of any error in the source's grid.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
FLICKR_FAILED = -32000

# Flickr's own error codes that get words of their own.
FLICKR_INVALID_KEY = 100


class RpcError(Exception):
    """Raised by a method to answer with a JSON-RPC error."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class FlickrRefusal(RpcError):
    """Flickr answered {"stat": "fail", "code": N, "message": ...}."""

    def __init__(self, method, flickr_code, flickr_message):
        self.method = method
        self.flickr_code = flickr_code
        self.flickr_message = flickr_message
        if flickr_code == FLICKR_INVALID_KEY:
            text = f"Flickr refused the API key: {flickr_message}. Check {KEY_VARIABLE}."
        else:
            text = f"Flickr: {flickr_message} (error {flickr_code} from {method})"
        super().__init__(FLICKR_FAILED, text)


def log(message):
    print(f"flickr_source: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# Flickr's REST API.
# ---------------------------------------------------------------------------

class Flickr:
    """Calls REST methods with format=json&nojsoncallback=1, within a
    deadline, turning every failure into an RpcError with readable words."""

    def __init__(self, api_url, api_key):
        self.api_url = api_url
        self.api_key = api_key
        self.deadline = None
        self.budget = DEFAULT_TIMEOUT

    def call(self, method, **params):
        if not self.api_key:
            raise RpcError(FLICKR_FAILED,
                           f"{KEY_VARIABLE} is not set: give the picker a Flickr API key in its environment")
        query = urllib.parse.urlencode({"method": method, "api_key": self.api_key, "format": "json",
                                        "nojsoncallback": "1", **{k: str(v) for k, v in params.items()}})
        url = self.api_url + ("&" if "?" in self.api_url else "?") + query
        remaining = self.remaining()
        if remaining <= 0.05:
            raise RpcError(FLICKR_FAILED, f"Flickr did not answer within {self.budget:g} s")
        request = urllib.request.Request(url, headers={"Accept": "application/json",
                                                        "User-Agent": "picker-tui-flickr-source/1"})
        try:
            with urllib.request.urlopen(request, timeout=remaining) as response:
                body = response.read(MAX_REPLY_BYTES + 1)
        except urllib.error.HTTPError as error:
            # Not str(error): the error carries the URL, and the URL the key.
            raise self.failure(method, f"Flickr answered HTTP {error.code} {error.reason}") from None
        except urllib.error.URLError as error:
            if isinstance(error.reason, (socket.timeout, TimeoutError)):
                raise self.failure(method, f"Flickr did not answer within {self.budget:g} s") from None
            raise self.failure(method, f"cannot reach Flickr: {reason(error.reason)}") from None
        except (socket.timeout, TimeoutError):
            raise self.failure(method, f"Flickr did not answer within {self.budget:g} s") from None
        except (OSError, http.client.HTTPException) as error:
            raise self.failure(method, f"cannot reach Flickr: {reason(error)}") from None
        if len(body) > MAX_REPLY_BYTES:
            raise self.failure(method, "Flickr's answer is too large")
        try:
            reply = json.loads(body.decode("utf-8"))
        except ValueError:
            raise self.failure(method, "Flickr answered something that is not JSON") from None
        if not isinstance(reply, dict):
            raise self.failure(method, "Flickr answered JSON of an unexpected shape")
        if reply.get("stat") != "ok":
            code = reply.get("code")
            message = self.scrub(str(reply.get("message") or "unknown error"))
            log(f"{method} failed: {message} (error {code})")
            raise FlickrRefusal(method, code, message)
        return reply

    def remaining(self):
        if self.deadline is None:
            return self.budget
        return self.deadline - time.monotonic()

    def failure(self, method, message):
        message = self.scrub(message)
        log(f"{method} failed: {message}")
        return RpcError(FLICKR_FAILED, message)

    def scrub(self, text):
        """Keeps the key out of anything shown or logged, whatever happened."""
        return text.replace(self.api_key, "[API key]") if self.api_key else text


def reason(error):
    if isinstance(error, (socket.timeout, TimeoutError)):
        return "timed out"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def number(value, default=0):
    """Flickr sends counts as numbers or as strings, depending on the method."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def content(value):
    """Titles are strings in photo listings and {"_content": ...} elsewhere."""
    if isinstance(value, dict):
        value = value.get("_content")
    return value if isinstance(value, str) else ""


# ---------------------------------------------------------------------------
# Paging: the picker asks for `limit` items from `offset`; Flickr hands out
# numbered pages of `per_page`. A picker page may start inside one Flickr
# page and end in the next.
# ---------------------------------------------------------------------------

class PagedListing:
    """The photostream or one album, readable at any offset.

    Pages are fetched once and kept (a few of them) while the picker reads
    on. Where each answer ended is remembered, so the next offset continues
    from the right place even if Flickr sent a short page in the middle
    (it does, when some photos of a page are hidden from the caller).
    """

    KEPT_PAGES = 8

    def __init__(self, fetch_page, per_page):
        self.fetch_page = fetch_page  # page number -> (photos, total, pages)
        self.per_page = per_page
        self.reset()

    def reset(self):
        self.pages = OrderedDict()
        self.cursors = {}
        self.total = None
        self.page_count = None

    def page(self, page_number):
        if page_number in self.pages:
            self.pages.move_to_end(page_number)
            return self.pages[page_number]
        photos, total, page_count = self.fetch_page(page_number)
        self.total, self.page_count = total, page_count
        self.pages[page_number] = photos
        while len(self.pages) > self.KEPT_PAGES:
            self.pages.popitem(last=False)
        return photos

    def ensure_total(self):
        if self.total is None:
            self.page(1)
        return self.total

    def read(self, offset, limit, flickr):
        """(photos, has_more) for `limit` photos from `offset`."""
        page, index = self.cursors.get(offset) or (offset // self.per_page + 1, offset % self.per_page)
        photos, ended = [], False
        while len(photos) < limit:
            if self.page_count is not None and page > self.page_count:
                ended = True
                break
            if photos and page not in self.pages and flickr.remaining() < flickr.budget / 2:
                break  # time is short: answer with what is here, the picker asks on
            batch = self.page(page)
            taken = batch[index:index + limit - len(photos)]
            photos += taken
            index += len(taken)
            if index >= len(batch):
                if not batch or page >= (self.page_count or 0):
                    ended = True
                    break
                page, index = page + 1, 0
        self.cursors[offset + len(photos)] = (page, index)
        return photos, not ended


# ---------------------------------------------------------------------------
# The source.
# ---------------------------------------------------------------------------

class FlickrSource:
    KEPT_ALBUMS = 8

    def __init__(self, flickr, user, per_page):
        self.flickr = flickr
        self.user = user
        self.per_page = per_page
        self.nsid = user if NSID.match(user) else None
        self.stream = PagedListing(self.fetch_stream_page, per_page)
        self.albums = None  # album items of the top level, once read
        self.album_listings = OrderedDict()

    def method(self, name):
        return {
            "initialize": self.initialize,
            "auth/status": self.auth_status,
            "list": self.list,
            "fetch": self.fetch,
        }.get(name)

    # -- methods ----------------------------------------------------------------

    def initialize(self, params):
        return {"title": f"Flickr: {self.user}", "icon": "●", "search": False, "auth": False}

    def auth_status(self, params):
        return {"authed": True, "fields": []}

    def list(self, params):
        folder = params.get("folder")
        offset, limit = paging(params)
        if folder is None:
            return self.list_top(offset, limit)
        if not isinstance(folder, str) or not folder.startswith(ALBUM_PREFIX):
            raise RpcError(INVALID_PARAMS, f"not an album of this source: {folder!r}")
        photoset_id = folder[len(ALBUM_PREFIX):]
        if not photoset_id.isdigit():
            raise RpcError(INVALID_PARAMS, f"not an album of this source: {folder!r}")
        listing = self.album_listing(photoset_id)
        if offset == 0:
            listing.reset()  # a fresh look at the album: see what is new
        try:
            photos, has_more = listing.read(offset, limit, self.flickr)
        except FlickrRefusal as refusal:
            if refusal.method == "flickr.photosets.getPhotos" and refusal.flickr_code == 1:
                raise RpcError(INVALID_PARAMS, f"no such album: {photoset_id} ({refusal.flickr_message})") from None
            raise
        return page_answer([photo_item(photo) for photo in photos], has_more, listing.total)

    def fetch(self, params):
        # Every URL handed out is an https:// one the picker downloads itself.
        raise RpcError(INVALID_PARAMS, f"not a URL of this source: {params.get('url')!r}")

    # -- the top level: albums, then the photostream ---------------------------

    def list_top(self, offset, limit):
        if offset == 0:
            # A fresh look at the top level: see what is new.
            self.albums = None
            self.stream.reset()
        albums = self.album_items()
        items = albums[offset:offset + limit]
        wanted = limit - len(items)
        if wanted > 0:
            photos, has_more = self.stream.read(max(0, offset - len(albums)), wanted, self.flickr)
            items += [photo_item(photo) for photo in photos]
        else:
            has_more = offset + len(items) < len(albums) + self.stream.ensure_total()
        return page_answer(items, has_more, len(albums) + (self.stream.total or 0))

    def album_items(self):
        if self.albums is None:
            albums, page = [], 1
            while True:
                reply = self.flickr.call("flickr.photosets.getList", user_id=self.user_id(), page=page,
                                         per_page=self.per_page, primary_photo_extras=ALBUM_COVER_EXTRAS)
                photosets = reply.get("photosets") or {}
                albums += [album_item(photoset) for photoset in photosets.get("photoset") or []]
                if page >= number(photosets.get("pages"), 1) or not photosets.get("photoset"):
                    break
                page += 1
            self.albums = albums
        return self.albums

    def album_listing(self, photoset_id):
        listing = self.album_listings.get(photoset_id)
        if listing is None:
            listing = PagedListing(lambda page: self.fetch_album_page(photoset_id, page), self.per_page)
            self.album_listings[photoset_id] = listing
            while len(self.album_listings) > self.KEPT_ALBUMS:
                self.album_listings.popitem(last=False)
        self.album_listings.move_to_end(photoset_id)
        return listing

    # -- Flickr pages ---------------------------------------------------------------

    def fetch_stream_page(self, page):
        reply = self.flickr.call("flickr.people.getPublicPhotos", user_id=self.user_id(), extras=PHOTO_EXTRAS,
                                 page=page, per_page=self.per_page)
        return page_of(reply.get("photos"), page)

    def fetch_album_page(self, photoset_id, page):
        reply = self.flickr.call("flickr.photosets.getPhotos", photoset_id=photoset_id, user_id=self.user_id(),
                                 extras=PHOTO_EXTRAS, page=page, per_page=self.per_page)
        return page_of(reply.get("photoset"), page)

    def user_id(self):
        if self.nsid is None:
            try:
                reply = self.flickr.call("flickr.people.findByUsername", username=self.user)
            except FlickrRefusal as refusal:
                if refusal.flickr_code == 1:
                    raise RpcError(FLICKR_FAILED, f"Flickr has no user named {self.user!r}") from None
                raise
            user = reply.get("user") or {}
            nsid = user.get("nsid") or user.get("id")
            if not isinstance(nsid, str) or not nsid:
                raise RpcError(FLICKR_FAILED, "Flickr answered findByUsername without a user id")
            self.nsid = nsid
            log(f"{self.user} is {nsid}")
        return self.nsid


def page_of(listing, requested):
    """(photos, total, pages) from a page of getPublicPhotos or getPhotos."""
    if not isinstance(listing, dict):
        raise RpcError(FLICKR_FAILED, "Flickr answered a listing of an unexpected shape")
    photos = [photo for photo in listing.get("photo") or [] if isinstance(photo, dict) and photo.get("id")]
    pages = number(listing.get("pages"))
    # Past the last page Flickr sends the last page again: that is no page.
    if number(listing.get("page"), requested) != requested:
        photos = []
    return photos, number(listing.get("total")), pages


def paging(params):
    offset = params.get("offset", 0)
    limit = params.get("limit", 100)
    for name, value in (("offset", offset), ("limit", limit)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RpcError(INVALID_PARAMS, f"{name} must be a whole number, 0 or more")
    return offset, limit


def page_answer(items, has_more, total):
    return {"items": items, "has_more": has_more, "total": total}


def album_item(photoset):
    item = {"id": ALBUM_PREFIX + str(photoset.get("id")), "kind": "album",
            "title": content(photoset.get("title")) or "Untitled album"}
    cover = photoset.get("primary_photo_extras") or {}
    thumbnail = cover.get("url_q") or cover.get("url_m")
    if thumbnail:
        item["thumbnail_url"] = thumbnail
    return item


def photo_item(photo):
    photo_id = str(photo["id"])
    title = content(photo.get("title")).strip() or photo_id
    if photo.get("media") == "video":
        # Flickr's sizes of a video are stills of it; say so.
        title += " (video)"
    item = {"id": photo_id, "kind": "photo", "title": title}
    thumbnail = next((photo[f"url_{size}"] for size in THUMBNAIL_SIZES if photo.get(f"url_{size}")), None)
    size = next((size for size in PHOTO_SIZES if photo.get(f"url_{size}")), None)
    if size is not None:
        item["url"] = photo[f"url_{size}"]
        width = number(photo.get(f"width_{size}") or (photo.get("o_width") if size == "o" else None))
        height = number(photo.get(f"height_{size}") or (photo.get("o_height") if size == "o" else None))
        if width > 0 and height > 0:
            item["width"], item["height"] = width, height
    elif thumbnail:
        item["url"] = thumbnail
    if thumbnail:
        item["thumbnail_url"] = thumbnail
    taken = photo.get("datetaken")
    if isinstance(taken, str) and taken and str(photo.get("datetakenunknown", "0")) != "1":
        # Flickr's time taken is the camera's local time, without a zone.
        item["taken_at"] = taken.replace(" ", "T", 1)
    return item


# ---------------------------------------------------------------------------
# JSON-RPC over stdin/stdout.
# ---------------------------------------------------------------------------

def send(message):
    line = json.dumps(message, ensure_ascii=False) + "\n"
    sys.stdout.buffer.write(line.encode("utf-8"))
    sys.stdout.buffer.flush()


def error_answer(request_id, code, message):
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def handle_line(source, line):
    """The answer to one line, or None for a notification."""
    try:
        request = json.loads(line.decode("utf-8"))
    except ValueError:
        return error_answer(None, PARSE_ERROR, "parse error: not a JSON line")
    if not isinstance(request, dict) or not isinstance(request.get("method"), str):
        return error_answer(request.get("id") if isinstance(request, dict) else None,
                            INVALID_REQUEST, "invalid request")
    name = request["method"]
    if name == "shutdown":
        if "id" in request:
            send({"jsonrpc": "2.0", "id": request["id"], "result": None})
        sys.exit(0)
    outcome = call(source, name, request.get("params"))
    if "id" not in request:
        return None
    return {"jsonrpc": "2.0", "id": request["id"], **outcome}


def call(source, name, params):
    method = source.method(name)
    if method is None:
        return {"error": {"code": METHOD_NOT_FOUND, "message": f"method not found: {name}"}}
    if params is None:
        params = {}
    if not isinstance(params, dict):
        return {"error": {"code": INVALID_PARAMS, "message": "params must be an object"}}
    # One deadline for everything this answer needs from Flickr.
    source.flickr.deadline = time.monotonic() + source.flickr.budget
    try:
        return {"result": method(params)}
    except RpcError as error:
        return {"error": {"code": error.code, "message": error.message}}
    except Exception as error:  # a bug or a reply of a shape never seen: keep serving
        message = source.flickr.scrub(f"{type(error).__name__}: {error}")
        log(f"{name} failed: {message}")
        return {"error": {"code": FLICKR_FAILED, "message": f"flickr_source failed: {message}"}}
    finally:
        source.flickr.deadline = None


def serve(source):
    for line in sys.stdin.buffer:
        if line.strip():
            answer = handle_line(source, line)
            if answer is not None:
                send(answer)


def read_key(path):
    if path:
        try:
            with open(os.path.expanduser(path), encoding="utf-8") as file:
                return file.read().strip()
        except OSError as error:
            log(f"cannot read the key file {path}: {error.strerror}")
            return ""
    return os.environ.get(KEY_VARIABLE, "").strip()


def main():
    parser = argparse.ArgumentParser(
        description="A picker-tui source serving a Flickr user's public albums and photostream. "
                    f"The API key comes from ${KEY_VARIABLE} (or --key-file), never from the command line.")
    parser.add_argument("user", help="the user's NSID (like 12345678@N00) or username")
    parser.add_argument("--per-page", type=int, default=DEFAULT_PER_PAGE,
                        help=f"photos per Flickr request, 1 to 500 (default {DEFAULT_PER_PAGE})")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help="seconds one answer may spend waiting for Flickr; keep it under the "
                             f"picker's timeout for the source (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--key-file", help=f"read the API key from this file instead of ${KEY_VARIABLE}")
    arguments = parser.parse_args()
    if not 1 <= arguments.per_page <= 500:
        parser.error("--per-page must be 1 to 500")
    if not arguments.timeout > 0:
        parser.error("--timeout must be more than 0")
    user = arguments.user.strip()
    if not user:
        parser.error("the user is empty")

    api_url = os.environ.get(URL_VARIABLE, "").strip() or DEFAULT_API_URL
    key = read_key(arguments.key_file)
    flickr = Flickr(api_url, key)
    flickr.budget = arguments.timeout
    where = urllib.parse.urlsplit(api_url).netloc or api_url
    if key:
        log(f"serving the public photos of {user} from {where}")
    else:
        log(f"{KEY_VARIABLE} is not set: every listing will fail until it is")
    try:
        serve(FlickrSource(flickr, user, arguments.per_page))
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
