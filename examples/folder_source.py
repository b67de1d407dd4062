#!/usr/bin/env python3
"""An example picker-tui command source: serves the photos of a local folder.

    python3 folder_source.py FOLDER [--token TOKEN]

Sub-folders show as albums. With a token (or FOLDER_SOURCE_TOKEN in the
environment) the picker must sign in with it before anything is listed.

The picker starts this program and talks JSON-RPC 2.0 with it, one JSON
object per line: requests on stdin, answers on stdout. Anything meant for a
human goes to stderr, which the picker writes to its log file. See
docs/custom-sources.md for the whole protocol.

Only the Python standard library is used, so the file can be copied and
adapted as it is.
"""

import argparse
import base64
import json
import os
import sys
from urllib.parse import quote, unquote

IMAGE_EXTENSIONS = {".jpg", ".jpeg", ".png", ".gif", ".webp", ".heic", ".heif", ".avif"}
THUMB_PREFIX = "folder-source://thumb/"
FILE_PREFIX = "folder-source://file/"
DEFAULT_LIMIT = 100

# JSON-RPC error codes. -32001 is picker-tui's "sign-in required / failed":
# the picker answers it with its sign-in prompt.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SIGN_IN_REQUIRED = -32001


class RpcError(Exception):
    """Raised by a method to answer with a JSON-RPC error."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


# ---------------------------------------------------------------------------
# The folder: safe paths and listings.
# ---------------------------------------------------------------------------

class Folder:
    def __init__(self, path):
        # The absolute path as the user spelled it, for the paths we hand
        # out, and the real one, to tell whether a path stays inside.
        self.root = os.path.abspath(path)
        self.real_root = os.path.realpath(path)

    def title(self):
        return os.path.basename(self.root) or self.root

    def inside(self, path):
        real = os.path.realpath(path)
        return os.path.commonpath([real, self.real_root]) == self.real_root

    def resolve(self, relative):
        """The absolute path of a relative id, refusing anything that would
        leave the folder: absolute paths, "..", or symlinks pointing out."""
        if not isinstance(relative, str) or relative.startswith("/") or "\0" in relative:
            raise RpcError(INVALID_PARAMS, f"not a path inside the folder: {relative!r}")
        if ".." in relative.split("/"):
            raise RpcError(INVALID_PARAMS, f"path leaves the folder: {relative!r}")
        path = os.path.join(self.root, relative) if relative else self.root
        if not self.inside(path):
            raise RpcError(INVALID_PARAMS, f"path leaves the folder: {relative!r}")
        return path

    def album_path(self, album_id):
        path = self.resolve(album_id or "")
        if not os.path.isdir(path):
            raise RpcError(INVALID_PARAMS, f"no such folder: {album_id!r}")
        return path

    def file_path(self, relative):
        path = self.resolve(relative)
        if not os.path.isfile(path):
            raise RpcError(INVALID_PARAMS, f"no such file: {relative!r}")
        return path

    def entries(self, album_id):
        """Items of one folder: sub-folders first, then photos, each by name."""
        path = self.album_path(album_id)
        prefix = f"{album_id}/" if album_id else ""
        albums, photos = [], []
        with os.scandir(path) as listing:
            for entry in listing:
                if not self.listable(entry.name, entry.path):
                    continue
                if entry.is_dir():
                    albums.append(entry.name)
                elif entry.is_file() and is_image(entry.name):
                    photos.append(entry.name)
        return ([album_item(prefix + name, name) for name in sorted(albums)]
                + [photo_item(prefix + name, name) for name in sorted(photos)])

    def search(self, query):
        """Photos anywhere below the root whose name contains `query`."""
        needle = query.casefold()
        found = []
        # Symlinked folders are not followed: that avoids loops, and the
        # listing check below keeps symlinked files that point out away.
        for directory, folders, files in os.walk(self.root):
            folders[:] = [f for f in folders if not f.startswith(".")]
            relative_dir = os.path.relpath(directory, self.root)
            for name in files:
                path = os.path.join(directory, name)
                if is_image(name) and needle in name.casefold() and self.listable(name, path):
                    relative = name if relative_dir == "." else f"{relative_dir}/{name}"
                    found.append(relative)
        return [photo_item(relative, os.path.basename(relative)) for relative in sorted(found)]

    def listable(self, name, path):
        if name.startswith(".") or not self.inside(path):
            return False
        try:
            # A name that is not valid UTF-8 cannot travel in JSON; skip it.
            name.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True


def is_image(name):
    return os.path.splitext(name)[1].lower() in IMAGE_EXTENSIONS


def album_item(relative, name):
    return {"id": relative, "kind": "album", "title": name}


def photo_item(relative, name):
    encoded = quote(relative, safe="/")
    return {
        "id": relative,
        "kind": "photo",
        "title": name,
        "thumbnail_url": THUMB_PREFIX + encoded,
        "url": FILE_PREFIX + encoded,
    }


# ---------------------------------------------------------------------------
# The source: one method per JSON-RPC method.
# ---------------------------------------------------------------------------

class FolderSource:
    def __init__(self, folder, token):
        self.folder = folder
        self.token = token
        self.authed = token is None

    def method(self, name):
        return {
            "initialize": self.initialize,
            "auth/status": self.auth_status,
            "auth/login": self.auth_login,
            "list": self.list,
            "search": self.search,
            "fetch": self.fetch,
        }.get(name)

    def initialize(self, params):
        return {"title": self.folder.title(), "icon": "▤", "search": True,
                "auth": self.token is not None}

    def auth_status(self, params):
        fields = [{"name": "token", "label": "Token", "secret": True}] if self.token else []
        return {"authed": self.authed, "fields": fields}

    def auth_login(self, params):
        answers = params.get("answers")
        if not isinstance(answers, dict):
            raise RpcError(INVALID_PARAMS, "answers must be an object")
        if self.token is not None and answers.get("token") != self.token:
            raise RpcError(SIGN_IN_REQUIRED, "wrong token")
        self.authed = True
        return {"authed": True}

    def list(self, params):
        self.require_sign_in()
        album_id = params.get("folder")
        if album_id is not None and not isinstance(album_id, str):
            raise RpcError(INVALID_PARAMS, "folder must be a string or null")
        return paged(self.folder.entries(album_id), params)

    def search(self, params):
        self.require_sign_in()
        query = params.get("query")
        if not isinstance(query, str):
            raise RpcError(INVALID_PARAMS, "query must be a string")
        return paged(self.folder.search(query), params)

    def fetch(self, params):
        self.require_sign_in()
        url = params.get("url")
        if not isinstance(url, str):
            raise RpcError(INVALID_PARAMS, "url must be a string")
        if not isinstance(params.get("thumbnail", False), bool):
            raise RpcError(INVALID_PARAMS, "thumbnail must be true or false")
        if url.startswith(FILE_PREFIX):
            # A local file: the picker reads it itself.
            return {"path": self.folder.file_path(unquote(url[len(FILE_PREFIX):]))}
        if url.startswith(THUMB_PREFIX):
            # A real source would make a small image here; the example sends
            # the file itself, which shows the inline form of the answer.
            path = self.folder.file_path(unquote(url[len(THUMB_PREFIX):]))
            with open(path, "rb") as image:
                return {"data": base64.b64encode(image.read()).decode("ascii")}
        raise RpcError(INVALID_PARAMS, f"not a URL of this source: {url!r}")

    def require_sign_in(self):
        if not self.authed:
            raise RpcError(SIGN_IN_REQUIRED, "sign-in required")


def paged(items, params):
    offset = params.get("offset", 0)
    limit = params.get("limit", DEFAULT_LIMIT)
    for name, value in (("offset", offset), ("limit", limit)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RpcError(INVALID_PARAMS, f"{name} must be a whole number, 0 or more")
    chosen = items[offset:offset + limit]
    return {"items": chosen, "has_more": offset + len(chosen) < len(items), "total": len(items)}


# ---------------------------------------------------------------------------
# JSON-RPC over stdin/stdout.
# ---------------------------------------------------------------------------

def send(message):
    line = json.dumps(message, ensure_ascii=False) + "\n"
    sys.stdout.buffer.write(line.encode("utf-8"))
    # Flush every line: the picker waits for each answer.
    sys.stdout.buffer.flush()


def error_answer(request_id, code, message):
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def handle_line(source, line):
    """Answers one line; returns None for notifications, which get no answer."""
    try:
        request = json.loads(line.decode("utf-8"))
    except ValueError:  # covers bad UTF-8 and bad JSON alike
        return error_answer(None, PARSE_ERROR, "parse error: not a JSON line")
    if not isinstance(request, dict) or not isinstance(request.get("method"), str):
        return error_answer(request.get("id") if isinstance(request, dict) else None,
                            INVALID_REQUEST, "invalid request")
    is_notification = "id" not in request
    request_id = request.get("id")
    name = request["method"]
    if name == "shutdown":
        if not is_notification:
            send({"jsonrpc": "2.0", "id": request_id, "result": None})
        sys.exit(0)
    outcome = call(source, name, request.get("params", {}))
    if is_notification:
        return None
    return {"jsonrpc": "2.0", "id": request_id, **outcome}


def call(source, name, params):
    method = source.method(name)
    if method is None:
        return {"error": {"code": METHOD_NOT_FOUND, "message": f"method not found: {name}"}}
    if params is None:
        params = {}
    if not isinstance(params, dict):
        return {"error": {"code": INVALID_PARAMS, "message": "params must be an object"}}
    try:
        return {"result": method(params)}
    except RpcError as error:
        return {"error": {"code": error.code, "message": error.message}}
    except OSError as error:
        # A file vanished or cannot be read: the picker shows the message.
        return {"error": {"code": INTERNAL_ERROR, "message": str(error)}}


def serve(source):
    # Requests are answered one at a time, in order; EOF means the picker is gone.
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        answer = handle_line(source, line)
        if answer is not None:
            send(answer)


def main():
    parser = argparse.ArgumentParser(description="A picker-tui source serving a local folder.")
    parser.add_argument("folder", help="the folder to serve; sub-folders become albums")
    parser.add_argument("--token", default=os.environ.get("FOLDER_SOURCE_TOKEN"),
                        help="require sign-in with this token (default: $FOLDER_SOURCE_TOKEN)")
    arguments = parser.parse_args()
    if not os.path.isdir(arguments.folder):
        print(f"folder_source: not a folder: {arguments.folder}", file=sys.stderr)
        return 2
    print(f"folder_source: serving {arguments.folder}", file=sys.stderr, flush=True)
    source = FolderSource(Folder(arguments.folder), arguments.token or None)
    try:
        serve(source)
    except (BrokenPipeError, KeyboardInterrupt):
        # The picker closed our stdout or we were interrupted: just leave.
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
