#!/usr/bin/env python3
"""A real WebDAV server on loopback for testing picker-tui's "webdav" sources:
WsgiDAV (PyPI) serving a folder, behind cheroot.

    python3 Tests/Servers/dav_server.py --root DIR [--port 0] [--user U --password P]

It prints `PORT <number>` once it listens and serves until killed. The
folder is served under /dav/. Around WsgiDAV a small WSGI layer records
every request (method, path, Range header, status, body bytes sent), which
`GET /_requests` returns as JSON and `DELETE /_requests` clears; tests use it
to check that thumbnails came from ranged reads. `POST /_control` with
{"fail_propfind": N} makes the next PROPFINDs answer N (401, 500...), and
{"reply": "<xml>"} makes them answer 207 with that body (hostile replies).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading

from cheroot import wsgi
from wsgidav.wsgidav_app import WsgiDAVApp


class Recorder:
    """The WSGI layer around WsgiDAV: records requests, injects faults."""

    def __init__(self, app):
        self.app = app
        self.lock = threading.Lock()
        self.requests: list[dict] = []
        self.fail_propfind: int | None = None
        self.reply: bytes | None = None

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
            start_response("200 OK", [("Content-Type", "application/json")])
            return [b'{"ok": true}']
        entry = {"method": method, "path": path, "range": environ.get("HTTP_RANGE"), "status": None, "bytes": 0,
                 "authorization": environ.get("HTTP_AUTHORIZATION") is not None}
        with self.lock:
            self.requests.append(entry)
            fail, reply = self.fail_propfind, self.reply
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

        def recording_start(status, headers, exc_info=None):
            entry["status"] = int(status.split()[0])
            return start_response(status, headers, exc_info)

        return self._counted(self.app(environ, recording_start), entry)

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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--user")
    parser.add_argument("--password")
    args = parser.parse_args()
    auth = {"user_mapping": {"*": True}}
    if args.user:
        auth = {"user_mapping": {"*": {args.user: {"password": args.password}}}}
    config = {
        "provider_mapping": {"/dav": args.root},
        "simple_dc": auth,
        "http_authenticator": {"domain_controller": None, "accept_basic": True, "accept_digest": False,
                               "default_to_digest": False},
        "verbose": 0,
        "logging": {"enable": False},
        "property_manager": True,
        "lock_storage": True,
    }
    app = Recorder(WsgiDAVApp(config))
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
