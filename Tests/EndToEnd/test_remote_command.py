"""Command sources: real programs speaking JSON-RPC on their stdin and
stdout. The example folder source behind a token, its log and lifecycle,
and programs that crash, hang, or write garbage."""

import json
import textwrap
import time

from images import gradient, solid, write_png
from remote import (  # noqa: F401  (fixtures)
    FOLDER_SOURCE,
    PYTHON,
    bar_labels,
    command_source,
    home,
    mode,
    processes_mentioning,
    sign_in_box,
    wait_until,
)

HOLIDAY_TOKEN = "letmein"
HELP_TITLE = "Keys · any key closes"
HOLIDAY_ROOT = ["Day 2/", "beach.png", "sunset.png"]


def holiday_folder(tmp_path):
    """holiday/{beach,sunset}.png, holiday/Day 2/{harbour,beach day2}.png, and a file to skip."""
    folder = tmp_path / "holiday"
    (folder / "Day 2").mkdir(parents=True)
    write_png(folder / "beach.png", 40, 30, solid((20, 90, 200)))
    write_png(folder / "sunset.png", 40, 30, solid((250, 120, 20)))
    write_png(folder / "Day 2" / "harbour.png", 48, 32, gradient)
    write_png(folder / "Day 2" / "beach day2.png", 30, 40, solid((240, 230, 160)))
    (folder / "notes.txt").write_text("not a photo\n")
    return folder


def holiday_source(folder, **extra):
    return command_source("Holiday", [PYTHON, str(FOLDER_SOURCE), str(folder), "--token", HOLIDAY_TOKEN], **extra)


def local_photos(tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    write_png(folder / "a.png", 32, 24, solid((200, 30, 30)))
    write_png(folder / "b.png", 32, 24, gradient)
    return folder


def token_line(screen) -> str:
    return next(line for line in screen.lines if "Token" in line)


def open_help_and_close(p):
    p.send("?")
    p.wait_text(HELP_TITLE, timeout=1.5)
    p.send("?")
    p.wait_no_text(HELP_TITLE, timeout=1.5)


def script(tmp_path, name: str, body: str):
    folder = tmp_path / "scripts"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(body))
    return path


def test_sign_in_browse_search_and_fetch_the_picks(picker, home, tmp_path):
    folder = holiday_folder(tmp_path)
    photos = local_photos(tmp_path)
    downloads = tmp_path / "downloads"
    home.write_config(holiday_source(folder))
    p = picker.start([str(photos), "--download-dir", str(downloads)], env=home.env())
    p.wait(lambda s: bar_labels(s) == ["[1 ▤ Files]", "[2 ▤ Holiday*]"], "Holiday marked as needing a sign-in")

    # The form asks for the fields the program named; its refusal is shown.
    p.send("2")
    screen = p.wait(sign_in_box, "the sign-in form")
    assert "Sign in to Holiday" in screen and "Token" in screen, screen
    p.type("nope")
    p.wait(lambda s: "••••" in token_line(s), "the masked token")
    p.send("Enter")
    p.wait_text("⚠ wrong token")
    assert not home.credentials("Holiday").exists()
    p.type(HOLIDAY_TOKEN)
    p.wait(lambda s: "•" * len(HOLIDAY_TOKEN) in token_line(s), "the masked token")
    p.send("Enter")
    screen = p.wait(lambda s: s.captions() == HOLIDAY_ROOT and not sign_in_box(s), "Holiday's root")
    assert "Signed in to Holiday" in screen.status, screen
    assert bar_labels(screen) == ["[1 ▤ Files]", "[2 ▤ Holiday]"], screen
    credentials = home.credentials("Holiday")
    assert json.loads(credentials.read_text()) == {"token": HOLIDAY_TOKEN}
    assert mode(credentials) == 0o600

    # The sub-folder is an album.
    p.send("Enter")
    p.wait(
        lambda s: s.crumb_path == "Holiday / Day 2" and s.captions() == [".. Back", "beach day2.png", "harbour.png"],
        "the Day 2 album",
    )
    p.wait_focus("beach day2.png")
    p.press("l", "harbour.png")
    p.toggle("harbour.png")

    # Search (the example matches file names anywhere in the folder).
    p.send("/")
    p.type("beach")
    p.wait(lambda s: "Search Holiday: beach" in s.status, "the typed query")
    p.send("Enter")
    p.wait(
        lambda s: s.crumb_path.endswith("search: beach") and s.captions() == [".. Back", "beach day2.png", "beach.png"],
        "the search results",
    )
    p.wait_focus("beach day2.png")
    p.press("l", "beach.png")
    screen = p.toggle("beach.png")
    assert screen.tray_names() == ["harbour.png", "beach.png"], screen
    p.send("Enter")
    out = p.finish(0)
    assert out == f"{downloads}/harbour.png\n{downloads}/beach.png\n".encode(), p.describe()
    assert (downloads / "harbour.png").read_bytes() == (folder / "Day 2" / "harbour.png").read_bytes()
    assert (downloads / "beach.png").read_bytes() == (folder / "beach.png").read_bytes()
    assert p.stderr() == b""

    # The next run signs in by itself with the saved answers.
    p = picker.start([str(photos)], env=home.env())
    p.send("2")
    screen = p.wait(lambda s: s.captions() == HOLIDAY_ROOT, "Holiday's root without a prompt")
    assert not sign_in_box(screen), screen
    assert bar_labels(screen) == ["[1 ▤ Files]", "[2 ▤ Holiday]"], screen
    p.leave("q")
    p.finish(130)


def test_the_programs_stderr_goes_to_the_log_and_it_ends_with_the_picker(picker, home, tmp_path):
    folder = holiday_folder(tmp_path)
    home.write_config(holiday_source(folder))
    p = picker.start(["--source", "Holiday"], env=home.env(PICKER_TUI_HOLIDAY_TOKEN=HOLIDAY_TOKEN))
    screen = p.wait(lambda s: s.captions() == HOLIDAY_ROOT, "Holiday's root, signed in by the environment")
    running = processes_mentioning(str(folder))
    assert len(running) == 1, running

    wait_until(lambda: f"folder_source: serving {folder}" in home.log_text(), "the program's stderr in the log")
    assert "folder_source" not in str(screen), screen
    assert mode(home.log) == 0o600

    p.leave("q")
    p.finish(130)
    assert p.stderr() == b"", "the program's stderr reached the picker's"
    # shutdown was sent and the program left on its own, before the picker.
    assert processes_mentioning(str(folder)) == [], processes_mentioning(str(folder))
    log = home.log_text()
    assert "source Holiday: exited with status 0 at shutdown" in log, log
    assert HOLIDAY_TOKEN not in log, log
    # The environment's token is not saved.
    assert not home.credentials("Holiday").exists()


CRASHES = """
    import sys
    sys.stdin.readline()
    sys.exit(3)
"""

HANGS = """
    import time
    time.sleep(3600)
"""

GARBAGE = """
    import sys
    for line in sys.stdin:
        print("hello, I am not JSON", flush=True)
"""

# A well-behaved source, except that its first `list` ever crashes it: a
# marker file (the first argument) remembers that it has.
FLAKY = """
    import json, os, sys

    marker, photos = sys.argv[1], sys.argv[2:]

    def send(message):
        print(json.dumps(dict(jsonrpc="2.0", **message)), flush=True)

    for line in sys.stdin:
        request = json.loads(line)
        method = request.get("method")
        if "id" not in request:
            if method == "shutdown":
                sys.exit(0)
            continue
        if method == "initialize":
            send({"id": request["id"], "result": {"title": "Flaky", "icon": "F", "search": False, "auth": False}})
        elif method == "list":
            if not os.path.exists(marker):
                open(marker, "w").close()
                sys.exit(4)
            items = [{"id": p, "kind": "photo", "title": os.path.basename(p), "path": p} for p in photos]
            send({"id": request["id"], "result": {"items": items, "has_more": False, "total": len(items)}})
        else:
            send({"id": request["id"], "error": {"code": -32601, "message": "method not found"}})
"""


def test_programs_that_crash_hang_or_write_garbage_leave_the_picker_working(picker, home, tmp_path):
    photos = local_photos(tmp_path)
    home.write_config(
        command_source("Crashy", [PYTHON, str(script(tmp_path, "crashes.py", CRASHES))], timeout=2),
        command_source("Hangs", [PYTHON, str(script(tmp_path, "hangs.py", HANGS))], timeout=2),
        command_source("Garbage", [PYTHON, str(script(tmp_path, "garbage.py", GARBAGE))], timeout=2),
    )
    hangs = str(tmp_path / "scripts" / "hangs.py")
    began = time.monotonic()
    p = picker.start([str(photos)], env=home.env())
    # Every source starts at once; the time-out runs from Hangs' start.
    wait_until(lambda: processes_mentioning(hangs), "the Hangs program to run", timeout=5, poll=0.01)
    seen = time.monotonic()

    # Hangs: still loading, and the keys still work meanwhile.
    p.send("3")
    p.wait(lambda s: s.crumb_path == "Hangs" and "Loading…" in s, "the Hangs tab, loading", timeout=1.5)
    open_help_and_close(p)
    message = "Hangs did not answer within 2 s"
    screen = p.wait(lambda s: f"⚠ {message}" in s and message in s.status, "the time-out", timeout=6)
    now = time.monotonic()
    assert now - began >= 1.9 and now - seen <= 4, (
        f"the time-out came {now - began:.1f}s after the start, {now - seen:.1f}s after the program ran{screen}"
    )
    assert screen.focused_caption() == "Retry loading", screen
    # The program that did not answer was ended.
    wait_until(lambda: not processes_mentioning(hangs), "the hanging program to be ended", timeout=3)

    p.send("2")
    p.wait(lambda s: s.crumb_path == "Crashy" and "⚠ Crashy exited with status 3" in s, "the crash")
    p.send("4")
    p.wait(
        lambda s: s.crumb_path == "Garbage" and "⚠ Garbage wrote a line that is not JSON: hello, I am not JSON" in s,
        "the garbage",
    )

    # The folder still works: pick from it.
    p.send("1")
    p.wait_focus("a.png")
    p.press("l", "b.png")
    p.send("Enter")
    assert p.finish(0) == f"{photos}/b.png\n".encode()
    assert p.stderr() == b""
    assert processes_mentioning(str(tmp_path / "scripts")) == []


def flaky_setup(tmp_path, home):
    photos = local_photos(tmp_path)
    marker = tmp_path / "crashed-once"
    flaky = script(tmp_path, "flaky.py", FLAKY)
    home.write_config(
        command_source("Flaky", [PYTHON, str(flaky), str(marker), str(photos / "a.png"), str(photos / "b.png")])
    )
    return photos, marker


def test_retry_starts_a_crashed_program_again(picker, home, tmp_path):
    photos, marker = flaky_setup(tmp_path, home)
    p = picker.start(["--source", "Flaky"], env=home.env(), wait_ui=False)
    screen = p.wait(lambda s: "⚠ Flaky exited with status 4" in s and s.focused_caption() == "Retry loading", "the crash")
    assert marker.exists()
    p.send("Enter")
    p.wait(lambda s: s.captions() == ["a.png", "b.png"] and "⚠" not in s, "the photos after Retry")
    assert home.log_text().count("source Flaky: started") == 2, home.log_text()
    p.press("l", "b.png")
    p.send("Enter")
    assert p.finish(0) == f"{photos}/b.png\n".encode()


def test_switching_to_a_crashed_program_starts_it_again(picker, home, tmp_path):
    """docs/custom-sources.md: "The next action on it (switching to it, Load
    more, Enter) starts the program again." """
    photos, marker = flaky_setup(tmp_path, home)
    p = picker.start([str(photos)], env=home.env())
    wait_until(lambda: "source Flaky: exited with status 4" in home.log_text(), "Flaky's crash at start")
    p.send("2")
    p.wait(lambda s: s.crumb_path == "Flaky", "the Flaky tab")
    p.wait(lambda s: s.captions() == ["a.png", "b.png"], "Flaky's photos after switching to it", timeout=5)
    p.leave("q")
    p.finish(130)
