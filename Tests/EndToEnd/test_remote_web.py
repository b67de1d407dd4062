"""Web sources against a real photo service on loopback: sign-in and saved
credentials, albums, paging and search, downloads of the picked originals,
and the service failing in the ways services fail."""

import json
import time

import pytest

from images import gradient, solid, write_png
from remote import (  # noqa: F401  (fixtures)
    TOKEN,
    bar_labels,
    closed_port,
    home,
    listing_titles,
    mode,
    original,
    services,
    sign_in_box,
    stock,
    web_source,
)

HELP_TITLE = "Keys · any key closes"
ROOT_12 = listing_titles("root", 12)


def local_photos(tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    write_png(folder / "a.png", 32, 24, solid((200, 30, 30)))
    write_png(folder / "b.png", 32, 24, gradient)
    return folder


def token_line(screen) -> str:
    return next(line for line in screen.lines if "Token" in line)


def authorizations(service, prefix: str) -> set:
    return {entry["headers"].get("Authorization") for entry in service.requests() if entry["path"].startswith(prefix)}


def open_help_and_close(p):
    p.send("?")
    p.wait_text(HELP_TITLE, timeout=1.5)
    p.send("?")
    p.wait_no_text(HELP_TITLE, timeout=1.5)


def sign_in(p, token: str):
    p.wait(sign_in_box, "the sign-in form")
    p.type(token)
    p.wait(lambda s: "•" * len(token) in token_line(s), "the masked token")
    p.send("Enter")


def test_sign_in_browse_search_and_download_the_picks(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock))
    # Originals arrive a little late, so the progress line can be seen.
    stock.control(delay=0.6, delay_paths=["/api/originals/"])
    p = picker.start(["--page-size", "12", str(folder)], env=home.env())

    # Stock needs a sign-in: marked in the bar, and nothing was asked of the
    # service that could only come back 401.
    screen = p.wait(lambda s: bar_labels(s) == ["[1 ▤ Files]", "[2 ☁ Stock*]"], "Stock marked as needing a sign-in")
    assert stock.paths() == [], stock.requests()

    # The form; a wrong token is refused and emptied.
    p.send("2")
    screen = p.wait(sign_in_box, "the sign-in form")
    assert "Sign in to Stock" in screen and "Token" in screen, screen
    p.type("wrong")
    screen = p.wait(lambda s: "•••••" in token_line(s), "the masked token")
    assert "wrong" not in str(screen), f"the token is shown in clear{screen}"
    p.send("Enter")
    screen = p.wait_text("⚠ the token was refused")
    assert sign_in_box(screen) and "•" not in token_line(screen), screen
    assert not home.credentials("Stock").exists()

    # The right one: the form closes and the root loads.
    sign_in(p, TOKEN)
    screen = p.wait(lambda s: s.captions() == ROOT_12 + ["Load more"] and not sign_in_box(s), "Stock's first page")
    assert "Signed in to Stock" in screen.status, screen
    assert bar_labels(screen) == ["[1 ▤ Files]", "[2 ☁ Stock]"], screen
    assert screen.crumb_path == "Stock" and screen.counts == (12, 63), screen
    assert screen.focused_caption() == "Album 1/", screen
    credentials = home.credentials("Stock")
    assert json.loads(credentials.read_text()) == {"token": TOKEN}
    assert mode(credentials) == 0o600 and mode(credentials.parent) == 0o700
    assert authorizations(stock, "/api/me") == {"Bearer wrong", f"Bearer {TOKEN}"}
    assert authorizations(stock, "/api/photos") == {f"Bearer {TOKEN}"}

    # Album 1: Back first, a page one short; pick Beach 9 there.
    p.send("Enter")
    album = listing_titles("album-1")
    screen = p.wait(
        lambda s: s.crumb_path == "Stock / Album 1" and s.captions() == [".. Back"] + album[:11] + ["Load more"], "Album 1's first page"
    )
    assert screen.counts == (11, 30), screen
    # Opened on its first photo; from Back, a row down.
    p.press("Home", ".. Back")
    p.press("j", "Desert 6")
    for caption in ("Harbour 7", "Meadow 8", "Beach 9"):
        p.press("l", caption)
    screen = p.toggle("Beach 9")
    assert screen.tray_names() == ["Beach 9"], screen

    # Right past the last loaded photo: the next page comes by itself.
    p.press("l", "Forest 10")
    p.press("l", "City 11")
    p.send("l")
    screen = p.wait(
        lambda s: s.counts == (23, 30) and s.focused_caption() == "Mountain 12", "the second page of Album 1"
    )
    assert authorizations(stock, "/api/albums/") == {f"Bearer {TOKEN}"}

    # Back to the root, where the focus was.
    p.send("BSpace")
    p.wait(lambda s: s.crumb_path == "Stock" and s.focused_caption() == "Album 1/", "Stock's root again")

    # Search.
    p.send("/")
    p.wait(lambda s: s.status.startswith("Search Stock: "), "the search prompt")
    p.type("beach")
    p.wait(lambda s: "Search Stock: beach" in s.status, "the typed query")
    p.send("Enter")
    found = [f"Beach {n}" for n in (1, 9, 17, 25, 33, 41, 49, 57, 1, 9, 17)]
    screen = p.wait(
        lambda s: s.crumb_path == "Stock / search: beach" and s.names() == [".. Back"] + found + ["Load more"], "the search results"
    )
    assert screen.counts == (11, 20), screen
    # Album 1's Beach 9 is in the results too, already picked.
    assert screen.captions().count("✓ Beach 9") == 1 and screen.captions()[10] == "✓ Beach 9", screen

    # A local photo next, then the root's Beach 9 from the results.
    p.send("1")
    p.wait(lambda s: s.captions() == ["a.png", "b.png"], "the local folder")
    p.press("l", "b.png")
    p.toggle("b.png")
    p.send("2")
    p.wait(lambda s: s.crumb_path == "Stock / search: beach", "the search results again")
    p.wait_focus("Beach 1")
    p.press("l", "Beach 9")
    screen = p.toggle("Beach 9")
    assert screen.tray_header() == "Picked 3", screen
    assert screen.tray_names() == ["Beach 9", "b.png", "Beach 9"], screen

    # Confirm: the originals are downloaded with a progress line, then every
    # path is printed in selection order.
    p.send("Enter")
    p.wait(lambda s: s.status.startswith("Downloading 1/2 ["), "the progress line for the first download")
    p.wait(lambda s: s.status.startswith("Downloading 2/2 ["), "the progress line for the second download")
    out = p.finish(0, timeout=15)
    downloads = home.downloads
    assert out == f"{downloads}/Beach 9.png\n{folder}/b.png\n{downloads}/Beach 9 (2).png\n".encode(), p.describe()
    assert p.stderr() == b""
    assert (downloads / "Beach 9.png").read_bytes() == original("album-1-photo-9")
    assert (downloads / "Beach 9 (2).png").read_bytes() == original("photo-9")
    assert sorted(path.name for path in downloads.iterdir()) == ["Beach 9 (2).png", "Beach 9.png"]
    assert mode(downloads / "Beach 9.png") == 0o600
    assert authorizations(stock, "/api/originals/") == {f"Bearer {TOKEN}"}
    # The remote thumbnails came through the source, with its credentials.
    assert authorizations(stock, "/api/thumbs/") == {f"Bearer {TOKEN}"}


def test_print_urls_prints_the_remote_urls_and_downloads_nothing(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock))
    p = picker.start(["--print-urls", str(folder)], env=home.env(PICKER_TUI_STOCK_TOKEN=TOKEN))
    p.send("2")
    p.wait(lambda s: s.captions()[:12] == listing_titles("root", 12), "Stock's root")
    for caption in ("Album 2/", "Album 3/", "Beach 1", "Forest 2", "City 3"):
        p.press("l", caption)
    p.toggle("City 3")
    p.send("1")
    p.wait_focus("a.png")
    p.toggle("a.png")
    p.send("2")
    p.press("h", "Forest 2")
    p.press("h", "Beach 1")
    screen = p.toggle("Beach 1")
    assert screen.tray_names() == ["City 3", "a.png", "Beach 1"], screen
    p.send("Enter")
    out = p.finish(0)
    assert out == f"{stock.original_url('photo-3')}\n{folder}/a.png\n{stock.original_url('photo-1')}\n".encode()
    assert not home.downloads.exists()
    assert stock.paths("/api/originals/") == []


def test_a_token_in_the_environment_signs_in_without_a_prompt(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock))
    p = picker.start([str(folder)], env=home.env(PICKER_TUI_STOCK_TOKEN=TOKEN))
    p.send("2")
    screen = p.wait(lambda s: s.crumb_path == "Stock" and s.captions()[:3] == ["Album 1/", "Album 2/", "Album 3/"], "Stock's root")
    assert not sign_in_box(screen), screen
    assert bar_labels(screen) == ["[1 ▤ Files]", "[2 ☁ Stock]"], screen
    assert authorizations(stock, "/api/photos") == {f"Bearer {TOKEN}"}
    p.leave("q")
    p.finish(130)
    # The environment's token is never written down.
    assert not home.credentials("Stock").exists()


def test_a_refused_token_from_the_environment_brings_the_form(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock))
    p = picker.start([str(folder)], env=home.env(PICKER_TUI_STOCK_TOKEN="stale"))
    p.wait(lambda s: bar_labels(s) == ["[1 ▤ Files]", "[2 ☁ Stock*]"], "Stock marked as needing a sign-in")
    p.send("2")
    sign_in(p, TOKEN)
    p.wait(lambda s: s.captions()[:3] == ["Album 1/", "Album 2/", "Album 3/"] and not sign_in_box(s), "Stock's root")
    p.leave("q")
    p.finish(130)


def test_a_service_that_is_down_shows_why_and_the_picker_keeps_going(picker, home, services):
    port = closed_port()
    home.write_config(web_source(f"http://127.0.0.1:{port}/api", auth="none"))
    p = picker.start(["--source", "Stock"], env=home.env(), wait_ui=False)
    message = f"127.0.0.1:{port}: cannot connect"
    screen = p.wait(lambda s: f"⚠ {message}" in s and message in s.status, f"{message!r} under the grid and below")
    assert screen.breadcrumb.rstrip().endswith("load failed"), screen
    assert screen.focused_caption() == "Retry loading", screen
    open_help_and_close(p)
    # Enter on Retry asks again: still down.
    p.send("Enter")
    p.wait(lambda s: message in s.status, "the error again after Retry")
    # Once the service is up, Retry loads the page.
    services("--port", str(port))
    p.send("Enter")
    p.wait(lambda s: s.captions()[:3] == ["Album 1/", "Album 2/", "Album 3/"] and "⚠" not in s, "the root after Retry")
    p.leave("q")
    assert p.finish(130) == b""
    assert p.stderr() == b""


def test_a_slow_listing_does_not_hold_up_the_keys(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock, timeout=20))
    stock.control(delay=10)
    began = time.monotonic()
    p = picker.start([str(folder)], env=home.env(PICKER_TUI_STOCK_TOKEN=TOKEN))
    wait_for_request = time.monotonic()
    while not stock.paths("/api/photos"):
        assert time.monotonic() - wait_for_request < 5, "the picker never asked for Stock's root"
        time.sleep(0.05)

    # Help, the Stock tab (still loading), back, and a pick: all at once.
    open_help_and_close(p)
    p.send("Tab")
    screen = p.wait(lambda s: s.crumb_path == "Stock" and "loading…" in s.breadcrumb, "the loading Stock tab", timeout=1.5)
    assert "Loading…" in screen, screen
    p.send("Tab")
    p.wait_focus("a.png", timeout=1.5)
    p.send("Space")
    p.wait_selected("a.png")
    assert time.monotonic() - began < 8, "the keys waited for the slow listing"

    # The page arrives when the service answers.
    p.send("Tab")
    screen = p.wait(lambda s: "Album 1/" in s.captions(), "Stock's root after the delay", timeout=20)
    assert time.monotonic() - began >= 9.5, f"the page came before the service's delay was over{screen}"
    assert screen.tray_names() == ["a.png"], screen
    p.leave("q")
    p.finish(130)


@pytest.mark.parametrize(
    "fault, message",
    [
        ("error500", "Stock: server error (HTTP 500)"),
        ("malformed", "Stock sent malformed JSON"),
        ("huge", "response larger than 16 MB"),
    ],
)
def test_a_broken_listing_shows_why_and_retry_loads_it(picker, home, stock, fault, message):
    home.write_config(web_source(stock))
    stock.control(fault=fault)
    p = picker.start(["--source", "Stock"], env=home.env(PICKER_TUI_STOCK_TOKEN=TOKEN), wait_ui=False)
    screen = p.wait(
        lambda s: f"⚠ {message}" in s and message in s.status and s.focused_caption() == "Retry loading",
        f"{message!r} and the Retry tile",
    )
    assert "Retry" in screen.focused().text, screen
    open_help_and_close(p)
    assert not p.exited()
    stock.control(reset=True)
    p.send("Enter")
    screen = p.wait(
        lambda s: s.captions()[:3] == ["Album 1/", "Album 2/", "Album 3/"] and "⚠" not in s, "the root after Retry"
    )
    p.leave("q")
    p.finish(130)


def test_a_service_that_repeats_its_pages_cannot_duplicate_tiles(picker, home, stock):
    home.write_config(web_source(stock))
    stock.control(fault="repeat")
    p = picker.start(["--source", "Stock", "--page-size", "12"], env=home.env(PICKER_TUI_STOCK_TOKEN=TOKEN))
    # The page fetched ahead repeats the first: Load-more goes, nothing is added.
    screen = p.wait(lambda s: s.captions() == ROOT_12, "the first page alone, without Load-more")
    assert screen.counts == (12, 12), screen
    p.send("G")
    p.send("l")
    p.wait_focus(ROOT_12[-1])
    # The service was not asked again and again.
    time.sleep(0.5)
    assert len(stock.paths("/api/photos")) <= 3, stock.paths("/api/photos")
    p.leave("q")
    p.finish(130)


def test_a_401_mid_session_brings_the_form_back_and_keeps_the_selection(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock))
    p = picker.start([str(folder)], env=home.env())
    p.send("2")
    sign_in(p, TOKEN)
    p.wait(lambda s: s.captions()[:4] == listing_titles("root", 4) and not sign_in_box(s), "Stock's root")
    for caption in ("Album 2/", "Album 3/", "Beach 1"):
        p.press("l", caption)
    p.toggle("Beach 1")

    # The service changes its token: the next listing is refused.
    stock.control(token="new-token")
    p.press("g", "Album 1/")
    p.send("Enter")
    screen = p.wait(sign_in_box, "the sign-in form again")
    assert "Sign in to Stock" in screen, screen
    assert screen.tray_names() == ["Beach 1"], screen
    assert "Stock*" in screen.source_bar, screen

    p.type("new-token")
    p.send("Enter")
    screen = p.wait(
        lambda s: s.crumb_path == "Stock / Album 1" and s.captions()[:2] == [".. Back", "Beach 1"] and not sign_in_box(s),
        "Album 1 after signing in again",
    )
    assert "Stock*" not in screen.source_bar, screen
    assert json.loads(home.credentials("Stock").read_text()) == {"token": "new-token"}

    # The kept pick downloads with the new token (Enter in the tray).
    p.send("t")
    p.wait(lambda s: "Esc back to the grid" in s.status, "the tray's hints")
    p.send("Enter")
    out = p.finish(0)
    assert out == f"{home.downloads}/Beach 1.png\n".encode(), p.describe()
    assert (home.downloads / "Beach 1.png").read_bytes() == original("photo-1")


def test_a_401_on_download_brings_the_form_back(picker, home, stock, tmp_path):
    home.write_config(web_source(stock))
    p = picker.start(["--source", "Stock"], env=home.env(), wait_ui=False)
    sign_in(p, TOKEN)
    p.wait(lambda s: "Beach 1" in s.captions() and not sign_in_box(s), "Stock's root")
    for caption in ("Album 2/", "Album 3/", "Beach 1"):
        p.press("l", caption)
    p.toggle("Beach 1")
    stock.control(token="new-token")
    p.send("Enter")
    screen = p.wait(lambda s: sign_in_box(s) or "Download failed" in s.status, "the download's end")
    assert sign_in_box(screen), f"no sign-in form after the service refused the download{screen}"
    assert screen.tray_names() == ["Beach 1"], screen
    sign_in(p, "new-token")
    p.wait(lambda s: not sign_in_box(s) and s.focused_caption() == "✓ Beach 1", "the grid after signing in again")
    p.send("Enter")
    out = p.finish(0)
    assert out == f"{home.downloads}/Beach 1.png\n".encode(), p.describe()
    assert (home.downloads / "Beach 1.png").read_bytes() == original("photo-1")


def test_credentials_stay_home_when_the_service_redirects(picker, home, services):
    first = services("--token", TOKEN)
    other = services()  # no sign-in at all, another origin
    redirect_to = f"http://localhost:{other.port}"
    first.control(fault="redirect", redirect_to=redirect_to)
    home.write_config(web_source(first))
    p = picker.start(["--source", "Stock"], env=home.env(PICKER_TUI_STOCK_TOKEN=TOKEN))
    p.wait(lambda s: s.captions()[:3] == ["Album 1/", "Album 2/", "Album 3/"], "the root, served after the redirect")
    followed = [entry for entry in other.requests() if entry["path"].startswith("/api/photos")]
    assert followed, "the redirect was not followed"
    for entry in followed:
        assert "Authorization" not in entry["headers"], f"the token went to another origin: {entry}"
    assert authorizations(first, "/api/photos") == {f"Bearer {TOKEN}"}
    p.leave("q")
    p.finish(130)


def test_a_failed_download_keeps_the_picker_and_the_selection(picker, home, stock, tmp_path):
    downloads = tmp_path / "downloads"
    home.write_config(web_source(stock))
    stock.control(fault="error500", fault_paths=["/api/originals/"])
    p = picker.start(
        ["--source", "Stock", "--download-dir", str(downloads)], env=home.env(PICKER_TUI_STOCK_TOKEN=TOKEN)
    )
    p.wait(lambda s: "Forest 2" in s.captions(), "Stock's root")
    for caption in ("Album 2/", "Album 3/", "Beach 1", "Forest 2"):
        p.press("l", caption)
    p.toggle("Forest 2")
    p.send("Enter")
    screen = p.wait_running(lambda s: "Download failed" in s.status, "the download failure")
    assert "Download failed: Stock: server error (HTTP 500) (the selection is kept)" in screen.status, screen
    assert screen.tray_names() == ["Forest 2"], screen
    assert screen.focused_caption() == "✓ Forest 2", screen
    assert list(downloads.iterdir()) == [], "a failed download left a file behind"

    stock.control(reset=True)
    p.send("Enter")
    out = p.finish(0)
    assert out == f"{downloads}/Forest 2.png\n".encode(), p.describe()
    assert (downloads / "Forest 2.png").read_bytes() == original("photo-2")


def test_saved_credentials_sign_in_and_sign_out_forgets_them(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock))
    p = picker.start([str(folder)], env=home.env())
    p.send("2")
    sign_in(p, TOKEN)
    p.wait(lambda s: "Album 1/" in s.captions() and not sign_in_box(s), "Stock's root")
    p.leave("q")
    p.finish(130)
    credentials = home.credentials("Stock")
    assert credentials.exists()

    # The next run signs in with the saved token.
    p = picker.start([str(folder)], env=home.env())
    p.send("2")
    screen = p.wait(lambda s: "Album 1/" in s.captions(), "Stock's root without a prompt")
    assert not sign_in_box(screen) and bar_labels(screen) == ["[1 ▤ Files]", "[2 ☁ Stock]"], screen

    # O signs out: the file goes, the form comes back.
    p.send("O")
    screen = p.wait(sign_in_box, "the sign-in form after signing out")
    assert "Sign in to Stock" in screen and "Stock*" in screen.source_bar, screen
    assert not credentials.exists()
    p.send("Escape")
    p.wait(lambda s: not sign_in_box(s) and "needs you to sign in" in s.status, "the form closed")
    p.leave("q")
    p.finish(130)

    # And the run after that asks again.
    p = picker.start([str(folder)], env=home.env())
    p.wait(lambda s: "Stock*" in s.source_bar, "Stock marked as needing a sign-in")
    p.send("2")
    p.wait(sign_in_box, "the sign-in form on the next run")
    p.send("Escape")
    # Esc and q within the escape delay would be Alt+q: wait for the form to go.
    p.wait(lambda s: not sign_in_box(s), "the form closed")
    p.leave("q")
    p.finish(130)


def test_preview_of_a_remote_photo_fetches_the_original_with_its_credentials(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock))
    p = picker.start([str(folder)], env=home.env())
    p.send("2")
    sign_in(p, TOKEN)
    p.wait(lambda s: s.captions()[:1] == ["Album 1/"] and not sign_in_box(s), "Stock's root")
    first_photo = next(name for name in ROOT_12 if not name.endswith("/"))
    # One key at a time, each waited for: keys sent faster than the screen
    # is read would carry the focus past the photo, and at the last tile
    # "l" does nothing, which once made this loop spin for ever.
    for _ in ROOT_12:
        before = p.screen().focused_caption()
        if before == first_photo:
            break
        p.send("l")
        p.wait(lambda s: s.focused_caption() not in (None, before), f"the focus to move on from {before}")
    assert p.screen().focused_caption() == first_photo
    stock.clear_requests()
    p.send("v")
    p.wait(lambda s: first_photo in s.lines[-1] and "Loading" not in str(s), "the remote photo in the preview")
    originals = [entry for entry in stock.requests() if "/originals/" in entry["path"]]
    assert originals and all(entry["headers"].get("Authorization") == f"Bearer {TOKEN}" for entry in originals)
    p.send("i")
    screen = p.wait(lambda s: "remote photo" in str(s), "the facts from the listing")
    assert " × " in str(screen), screen
    p.send("Escape")
    p.wait(lambda s: s.focused_caption() == first_photo, "the grid again")
    p.leave("q")
    assert p.finish(130) == b""


def test_an_expired_saved_token_marks_the_source_before_it_is_opened(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock, icon="S"))
    credentials = home.credentials("Stock")
    credentials.parent.mkdir(parents=True, exist_ok=True)
    credentials.write_text(json.dumps({"token": "expired-token"}))
    credentials.chmod(0o600)
    p = picker.start([str(folder)], env=home.env())
    # Files is shown; Stock, never opened, is already marked, with the
    # config's icon, and no form covers the photos the user is looking at.
    screen = p.wait(lambda s: bar_labels(s) == ["[1 ▤ Files]", "[2 S Stock*]"], "Stock marked at start")
    assert not sign_in_box(screen), screen
    p.send("2")
    screen = p.wait(sign_in_box, "the form when Stock is opened")
    assert "Sign in to Stock" in screen, screen
    p.send("C-c")
    p.finish(130)


def test_without_a_utf8_locale_the_icons_are_ascii(picker, home, stock, tmp_path):
    folder = local_photos(tmp_path)
    home.write_config(web_source(stock))
    p = picker.start([str(folder)], env=home.env(LANG="C", LC_ALL="C"))
    p.wait(lambda s: bar_labels(s) == ["[1 # Files]", "[2 @ Stock*]"], "ASCII icons in the bar")
    p.leave("q")
    p.finish(130)
