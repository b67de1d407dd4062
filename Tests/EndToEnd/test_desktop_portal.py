"""The picker as the desktop's file chooser, the whole way: an app's
org.freedesktop.portal.FileChooser.OpenFile call through xdg-desktop-portal
on a private session bus, served by xdg-desktop-portal-termfilechooser
built from its source, answered with the file:// URIs of the photos picked.

scripts/try-desktop-portal.sh does it all (builds the backend out of tree,
starts the bus, the backend and the portal with a throwaway HOME, makes
the calls with scripts/portal_open_file.py and drives the picker in tmux);
these tests run it once and read what came back.

Opt-in: PICKER_PORTAL_SOURCE names the backend's source folder (its
meson.build at the top). CI has no copy of it and no network, so it skips.
test_desktop_chooser.py covers the wrapper alone, everywhere.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import urllib.parse
from pathlib import Path

import pytest

from picker_driver import REPO

SCRIPT = REPO / "scripts" / "try-desktop-portal.sh"
SOURCE = os.environ.get("PICKER_PORTAL_SOURCE", "")
# The build, and packages installed when missing; the three calls take
# seconds.
RUN_TIMEOUT = 900

pytestmark = pytest.mark.skipif(
    not SOURCE,
    reason="PICKER_PORTAL_SOURCE is not set: it names a copy of xdg-desktop-portal-termfilechooser's "
    "source, built and run by scripts/try-desktop-portal.sh with xdg-desktop-portal on a private bus",
)

# `  pick: response 0`, `  pick: uri file:///...`: the portal's answers.
ANSWER = re.compile(r"^\s+(pick|cancel|folder): (\w+) ?(.*)$")


class Run:
    """One run of the script: its output, the answers of its three calls
    (pick, cancel, folder) and the folder it worked in (kept)."""

    def __init__(self, result: subprocess.CompletedProcess, work: Path):
        self.result = result
        self.work = work
        self.answers: dict[str, dict[str, list[str]]] = {}
        for line in result.stdout.splitlines():
            match = ANSWER.match(line)
            if match:
                call, key, value = match.groups()
                self.answers.setdefault(call, {}).setdefault(key, []).append(value)

    @property
    def photos(self) -> Path:
        return self.work / "home" / "Pictures" / "trip"

    def response(self, call: str) -> int:
        return int(self.answers[call]["response"][0])

    def uris(self, call: str) -> list[str]:
        return self.answers[call].get("uri", [])

    def describe(self) -> str:
        return (f"\nexit status {self.result.returncode}\nstdout:\n{self.result.stdout}"
                f"\nstderr (last 3000 characters):\n{self.result.stderr[-3000:]}")


@pytest.fixture(scope="module")
def run(picker_bin, tmp_path_factory) -> Run:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed; the script opens the picker in it")
    if not (Path(SOURCE) / "meson.build").is_file():
        pytest.fail(f"PICKER_PORTAL_SOURCE={SOURCE} has no meson.build: not the backend's source", pytrace=False)
    base = tmp_path_factory.mktemp("portal")
    # The work folder under this test's own, kept for reading afterwards.
    env = {**os.environ, "PICKER_TUI": str(picker_bin), "TMPDIR": str(base), "PICKER_PORTAL_KEEP": "1"}
    result = subprocess.run([str(SCRIPT), SOURCE], env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=RUN_TIMEOUT)
    kept = re.findall(r"^kept: (.*)$", result.stdout, re.MULTILINE)
    assert kept and Path(kept[0]).parent == base, f"the work folder was not kept under {base}\n{result.stdout}"
    return Run(result, Path(kept[0]))


def path_of(uri: str) -> Path:
    assert uri.startswith("file:///"), uri
    return Path(urllib.parse.unquote(uri[len("file://"):]))


def test_the_script_passes(run):
    assert run.result.returncode == 0, run.describe()
    assert "PASS" in run.result.stdout.splitlines(), run.describe()


def test_two_photos_come_back_as_their_file_uris(run):
    assert run.response("pick") == 0, run.describe()
    uris = run.uris("pick")
    # In the order picked; the space and the accents percent-encoded (UTF-8).
    assert uris == [
        f"file://{urllib.parse.quote(str(run.photos))}/day%201.jpg",
        f"file://{urllib.parse.quote(str(run.photos))}/day%203%20%C3%A9t%C3%A9.jpg",
    ], run.describe()
    # The very files the picker showed.
    assert [path_of(uri) for uri in uris] == [run.photos / "day 1.jpg", run.photos / "day 3 été.jpg"]
    assert all(path_of(uri).is_file() for uri in uris)


def test_esc_is_a_cancel_without_uris(run):
    # The portal's 1 is "cancelled"; termfilechooser answers a cancel with
    # a D-Bus error, which xdg-desktop-portal turns into 2 ("other").
    assert run.response("cancel") in (1, 2), run.describe()
    assert run.uris("cancel") == [], run.describe()
    if run.response("cancel") == 2:
        log = (run.work / "portal.log").read_text(errors="replace")
        assert "Backend call failed" in log, f"a 2 that was no backend error{run.describe()}"


def test_a_folder_request_comes_back_as_the_folder_uri(run):
    assert run.response("folder") == 0, run.describe()
    assert run.uris("folder") == [f"file://{urllib.parse.quote(str(run.photos))}"], run.describe()
    assert path_of(run.uris("folder")[0]).is_dir()
