#!/usr/bin/python3
"""Asks the desktop portal for files, as a desktop app does: one
org.freedesktop.portal.FileChooser.OpenFile call on the session bus
(DBUS_SESSION_BUS_ADDRESS), then the Response signal of its Request.

    portal_open_file.py [--multiple] [--directory] [--folder PATH] [--timeout SECONDS]

Prints the portal's answer, a line each:

    response N        0 chosen, 1 cancelled, 2 ended another way
    uri URI           one per chosen file or folder
    seconds S         from the call to the Response signal
    at T              when the Response came (seconds since the epoch)

and exits with N; 3 when no Response came in time, 4 when the call
failed. Needs PyGObject (Debian: python3-gi), hence /usr/bin/python3.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time

from gi.repository import Gio, GLib

PORTAL = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--multiple", action="store_true")
    parser.add_argument("--directory", action="store_true")
    parser.add_argument("--folder", help="current_folder: where the chooser starts")
    parser.add_argument("--title", default="Choose photos")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()

    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    # The Request's path is known before the call (handle_token and our
    # unique name): subscribing first cannot miss a quick Response.
    token = "picker_tui_" + secrets.token_hex(6)
    sender = bus.get_unique_name().lstrip(":").replace(".", "_")
    request = f"{PATH}/request/{sender}/{token}"
    loop = GLib.MainLoop()
    answer: dict = {}

    def on_response(_bus, _sender, path, _interface, _signal, parameters):
        if path != answer.get("request", request):
            return
        code, results = parameters.unpack()
        answer.update(code=code, results=results, seconds=time.monotonic() - started, at=time.time())
        loop.quit()

    bus.signal_subscribe(PORTAL, "org.freedesktop.portal.Request", "Response", None, None,
                         Gio.DBusSignalFlags.NONE, on_response)

    options = {
        "handle_token": GLib.Variant("s", token),
        "multiple": GLib.Variant("b", args.multiple),
        "directory": GLib.Variant("b", args.directory),
    }
    if args.folder:
        # A byte string ending in NUL, as the FileChooser interface asks.
        # xdg-desktop-portal 1.16 (FileChooser version 3) drops it for
        # OpenFile: the backend then starts in its default_dir.
        options["current_folder"] = GLib.Variant("ay", args.folder.encode() + b"\0")

    started = time.monotonic()
    try:
        # OpenFile returns at once with the Request's path; the choice
        # comes later, in its Response.
        reply = bus.call_sync(PORTAL, PATH, "org.freedesktop.portal.FileChooser", "OpenFile",
                              GLib.Variant("(ssa{sv})", ("", args.title, options)),
                              GLib.VariantType("(o)"), Gio.DBusCallFlags.NONE, 30_000, None)
    except GLib.Error as error:
        print(f"OpenFile failed: {error.message}", file=sys.stderr)
        return 4
    # Portals before 0.9 ignored handle_token: follow the path given.
    answer["request"] = reply.unpack()[0]
    print(f"request {answer['request']}", file=sys.stderr, flush=True)

    GLib.timeout_add(int(args.timeout * 1000), loop.quit)
    loop.run()
    if "code" not in answer:
        print(f"no Response within {args.timeout:.0f}s", file=sys.stderr)
        return 3
    print(f"response {answer['code']}")
    for uri in answer["results"].get("uris", []):
        print(f"uri {uri}")
    print(f"seconds {answer['seconds']:.3f}")
    print(f"at {answer['at']:.3f}")
    return answer["code"]


if __name__ == "__main__":
    sys.exit(main())
