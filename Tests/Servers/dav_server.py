#!/usr/bin/env python3
"""A real WebDAV server on loopback for testing picker-tui's "webdav" sources:
WsgiDAV (PyPI) serving a folder, behind cheroot.

    python3 Tests/Servers/dav_server.py --root DIR [--port 0] [--user U --password P]
                                        [--mount /dav] [--nextcloud]

It prints `PORT <number>` once it listens and serves until killed. The
folder is served under --mount (/dav/ by default). Around WsgiDAV a small WSGI layer records
every request (method, path, Range header, status, body bytes sent), which
`GET /_requests` returns as JSON and `DELETE /_requests` clears; tests use it
to check that thumbnails came from ranged reads. `POST /_control` with
{"fail_propfind": N} makes the next PROPFINDs answer N (401, 500...), and
{"reply": "<xml>"} makes them answer 207 with that body (hostile replies),
and {"huge_reply": N} makes them stream N bytes of well-formed multistatus.

--nextcloud is the stand-in for the one part of Nextcloud no free server
has, its preview endpoint, in the shape Nextcloud documents: PROPFIND
replies gain `oc:fileid` and `nc:has-preview` on image files, and
`GET /index.php/core/preview?fileId=N&x=W&y=H&a=1` answers a PNG of that
file scaled to fit W x H (basic auth as for the files; 404 for an unknown
id). Mount it at /remote.php/dav/files/USER, as Nextcloud does.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import sys
import threading
import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, unquote

from cheroot import wsgi
from wsgidav.wsgidav_app import WsgiDAVApp


class Recorder:
    """The WSGI layer around WsgiDAV: records requests, injects faults."""

    def __init__(self, app, nextcloud: "Nextcloud | None" = None):
        self.app = app
        self.nextcloud = nextcloud
        self.lock = threading.Lock()
        self.requests: list[dict] = []
        self.fail_propfind: int | None = None
        self.reply: bytes | None = None
        self.huge_reply: int | None = None

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        method = environ["REQUEST_METHOD"]
        if path == "/_requests":
            with self.lock:
                if method == "DELETE":
                    self.requests.clear()
                body = json.dumps(self.requests).encode()
            start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
            return [body]
        if path == "/_control":
            changes = json.loads(environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)) or b"{}")
            with self.lock:
                self.fail_propfind = changes.get("fail_propfind")
                self.reply = changes["reply"].encode() if changes.get("reply") is not None else None
                self.huge_reply = changes.get("huge_reply")
            start_response("200 OK", [("Content-Type", "application/json")])
            return [b'{"ok": true}']
        entry = {"method": method, "path": path, "query": environ.get("QUERY_STRING", ""),
                 "range": environ.get("HTTP_RANGE"), "status": None, "bytes": 0,
                 "authorization": environ.get("HTTP_AUTHORIZATION") is not None}
        with self.lock:
            self.requests.append(entry)
            fail, reply, huge = self.fail_propfind, self.reply, self.huge_reply
        if self.nextcloud and path == "/index.php/core/preview":
            return self.nextcloud.preview(environ, start_response, entry)
        if method == "PROPFIND" and fail:
            entry["status"] = fail
            start_response(f"{fail} Injected", [("Content-Length", "0"), *(
                [("WWW-Authenticate", 'Basic realm="dav"')] if fail == 401 else [])])
            return [b""]
        if method == "PROPFIND" and reply is not None:
            entry["status"] = 207
            start_response("207 Multi-Status", [("Content-Type", "application/xml"),
                                                ("Content-Length", str(len(reply)))])
            entry["bytes"] = len(reply)
            return [reply]
        if method == "PROPFIND" and huge:
            entry["status"] = 207
            start_response("207 Multi-Status", [("Content-Type", "application/xml")])
            return self._counted(huge_multistatus(path, huge), entry)

        def recording_start(status, headers, exc_info=None):
            entry["status"] = int(status.split()[0])
            return start_response(status, headers, exc_info)

        if self.nextcloud and method == "PROPFIND":
            return self._counted(self._with_nextcloud_properties(environ, start_response, entry), entry)
        return self._counted(self.app(environ, recording_start), entry)

    def _with_nextcloud_properties(self, environ, start_response, entry):
        """WsgiDAV's reply with Nextcloud's properties added, its length fixed."""
        started = {}

        def keep(status, headers, exc_info=None):
            started.update(status=status, headers=headers)

        body = self.app(environ, keep)
        try:
            whole = b"".join(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        status = started["status"]
        entry["status"] = int(status.split()[0])
        if entry["status"] == 207:
            whole = self.nextcloud.add_properties(whole)
        headers = [(k, v) for k, v in started["headers"] if k.lower() != "content-length"]
        start_response(status, headers + [("Content-Length", str(len(whole)))])
        return [whole]

    @staticmethod
    def _counted(body, entry):
        """The body as WsgiDAV sends it, its bytes counted."""
        try:
            for chunk in body:
                entry["bytes"] += len(chunk)
                yield chunk
        finally:
            if hasattr(body, "close"):
                body.close()


def huge_multistatus(path: str, size: int):
    """`size` bytes of multistatus, made as they are sent (a 100 MB reply
    never sits in this server's memory either)."""
    head = f'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">'.encode()
    sent = 0
    yield head
    sent += len(head)
    number = 0
    while sent < size:
        chunk = "".join(
            f"<d:response><d:href>{path.rstrip('/')}/photo-{number + i:09d}.jpg</d:href><d:propstat><d:prop>"
            "<d:resourcetype/><d:getcontenttype>image/jpeg</d:getcontenttype></d:prop>"
            "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>" for i in range(1000)).encode()
        number += 1000
        yield chunk
        sent += len(chunk)
    yield b"</d:multistatus>"


class Nextcloud:
    """Nextcloud's file ids and preview endpoint over a WsgiDAV folder."""

    DAV = "{DAV:}"
    OC = "http://owncloud.org/ns"
    NC = "http://nextcloud.org/ns"

    def __init__(self, root: str, mount: str, user: str | None, password: str | None):
        self.root = root
        self.mount = mount.rstrip("/")
        self.expected = None
        if user:
            self.expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        self.lock = threading.Lock()
        self.ids: dict[str, int] = {}
        self.paths: dict[int, str] = {}

    def file_id(self, relative: str) -> int:
        with self.lock:
            if relative not in self.ids:
                number = 1000 + len(self.ids)
                self.ids[relative] = number
                self.paths[number] = relative
            return self.ids[relative]

    def add_properties(self, body: bytes) -> bytes:
        ET.register_namespace("d", "DAV:")
        ET.register_namespace("oc", self.OC)
        ET.register_namespace("nc", self.NC)
        tree = ET.fromstring(body)
        for response in tree.iter(self.DAV + "response"):
            href = unquote(response.findtext(self.DAV + "href") or "")
            if not href.startswith(self.mount + "/"):
                continue
            relative = href[len(self.mount) + 1:]
            for propstat in response.iter(self.DAV + "propstat"):
                prop = propstat.find(self.DAV + "prop")
                if "200" not in (propstat.findtext(self.DAV + "status") or ""):
                    # WsgiDAV's "404" for the properties Nextcloud has.
                    for name in (f"{{{self.OC}}}fileid", f"{{{self.NC}}}has-preview"):
                        for element in prop.findall(name) if prop is not None else []:
                            prop.remove(element)
                    continue
                if prop is None or not (prop.findtext(self.DAV + "getcontenttype") or "").startswith("image/"):
                    continue
                ET.SubElement(prop, f"{{{self.OC}}}fileid").text = str(self.file_id(relative))
                ET.SubElement(prop, f"{{{self.NC}}}has-preview").text = "true"
        return b'<?xml version="1.0" encoding="utf-8"?>' + ET.tostring(tree)

    def preview(self, environ, start_response, entry):
        from PIL import Image

        def answer(status: str, body: bytes, kind: str = "text/plain"):
            entry["status"] = int(status.split()[0])
            entry["bytes"] = len(body)
            start_response(status, [("Content-Type", kind), ("Content-Length", str(len(body)))])
            return [body]

        if self.expected and environ.get("HTTP_AUTHORIZATION") != self.expected:
            return answer("401 Unauthorized", b"")
        query = parse_qs(environ.get("QUERY_STRING", ""))
        try:
            number, width, height = (int(query[key][0]) for key in ("fileId", "x", "y"))
        except (KeyError, ValueError):
            return answer("400 Bad Request", b"fileId, x and y are required")
        with self.lock:
            relative = self.paths.get(number)
        if relative is None:
            return answer("404 Not Found", b"")
        with Image.open(os.path.join(self.root, relative)) as image:
            image = image.convert("RGB")
            image.thumbnail((width, height))
            out = io.BytesIO()
            image.save(out, "PNG")
        return answer("200 OK", out.getvalue(), "image/png")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--mount", default="/dav")
    parser.add_argument("--nextcloud", action="store_true")
    args = parser.parse_args()
    auth = {"user_mapping": {"*": True}}
    if args.user:
        auth = {"user_mapping": {"*": {args.user: {"password": args.password}}}}
    config = {
        "provider_mapping": {args.mount.rstrip("/"): args.root},
        "simple_dc": auth,
        "http_authenticator": {"domain_controller": None, "accept_basic": True, "accept_digest": False,
                               "default_to_digest": False},
        "verbose": 0,
        "logging": {"enable": False},
        "property_manager": True,
        "lock_storage": True,
    }
    nextcloud = Nextcloud(args.root, args.mount, args.user, args.password) if args.nextcloud else None
    app = Recorder(WsgiDAVApp(config), nextcloud)
    server = wsgi.Server((args.host, args.port), app, numthreads=8)
    server.prepare()
    print(f"PORT {server.bind_addr[1]}", flush=True)
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
