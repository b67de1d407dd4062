"""End-to-end harness for picker-tui: drives the real binary inside tmux.

The recipe follows fzf's test suite and ../shared/PLATFORM-NOTES.md:

* one private tmux server per pytest session (``tmux -L <unique socket> -f
  /dev/null``) kept alive by a session of its own, one tmux session per test,
  killed in teardown;
* the program runs under plain ``sh`` (never an interactive shell, which would
  repair tty modes and hide bugs) with ``LANG=C.UTF-8``; its stdout and stderr
  go to files, its exit status to an ``rc`` file, and its pid to a ``pid``
  file; the pane then stays alive (``exec sleep``) so that terminal
  restoration can be checked after the program has gone;
* tests send keys and poll ``tmux capture-pane -p`` until the expected screen
  appears (10 s timeout); every failure message contains the whole screen.

Environment:
  PICKER_TUI_BIN  the binary (default <repo>/.build/release/picker-tui)
  CI=true         a missing tmux fails the run instead of skipping it
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path
from typing import Iterable

import pytest

# The driver, re-exported: tests import these from conftest.
from picker_driver import (  # noqa: F401
    DEFAULT_BIN,
    HEIGHT,
    HINTS,
    POLL,
    REPO,
    TIMEOUT,
    TMUX_NOTICE,
    WIDTH,
    Picker,
    PickerExited,
    PickerRunner,
    equal,
    hard_linked_photos,
    make_files,
    shell_word,
)


# --------------------------------------------------------------------------
# Session-wide fixtures: the binary and the private tmux server.


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


@pytest.fixture(scope="session")
def picker_bin(tmp_path_factory) -> Path:
    """A private copy of the binary under test.

    The binary may be rebuilt while the suite runs (and be missing for a
    moment); copying it once keeps every test on the same build.
    """
    source = Path(os.environ.get("PICKER_TUI_BIN") or DEFAULT_BIN)
    deadline = time.monotonic() + 30
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        if source.is_file() and os.access(source, os.X_OK):
            copy = tmp_path_factory.mktemp("bin") / "picker-tui"
            try:
                shutil.copy2(source, copy)
                # A half-written binary (a link in progress) fails --version.
                probe = subprocess.run(
                    [str(copy), "--version"], capture_output=True, timeout=20, stdin=subprocess.DEVNULL
                )
                if probe.returncode == 0:
                    return copy
                last_error = RuntimeError(f"--version exited {probe.returncode}: {probe.stderr!r}")
            except (OSError, subprocess.SubprocessError) as error:
                last_error = error
        time.sleep(0.5)
    pytest.fail(
        f"picker-tui binary not usable at {source} (set PICKER_TUI_BIN or build it with "
        f"`swift build -c release`): {last_error or 'file does not exist or is not executable'}",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def tmux_server():
    """The socket name of a private tmux server, killed at the end."""
    if shutil.which("tmux") is None:
        message = "tmux is not installed; the end-to-end tests need it"
        if _in_ci():
            pytest.fail(message + " (CI=true: failing instead of skipping)", pytrace=False)
        pytest.skip(message)
    socket = f"picker-e2e-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    # A session that outlives the tests': tmux exits with its last session,
    # and a test's new-session racing that exit failed with "server exited
    # unexpectedly".
    subprocess.run(
        ["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "keep-alive",
         "/bin/sh", "-c", "exec sleep infinity"],
        check=True, capture_output=True,
    )
    yield socket
    subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
    # The server is gone (or exited with its last session); its socket file stays.
    socket_dir = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
    try:
        (socket_dir / socket).unlink()
    except OSError:
        pass


@pytest.fixture
def picker(request, tmux_server, picker_bin, tmp_path) -> Iterable[PickerRunner]:
    runner = PickerRunner(tmux_server, picker_bin, tmp_path / "runs", request.node.name)
    yield runner
    runner.close()



@pytest.fixture
def album_tree(tmp_path) -> Path:
    """root/{Album1,Album2}/ photos, three top-level photos, and things to skip."""
    root = tmp_path / "photos"
    make_files(
        root,
        [
            "Album1/IMG_10.jpg",
            "Album1/IMG_2.jpg",
            "Album1/IMG_1.jpg",
            "Album2/sunset.jpeg",
            "Album2/beach.png",
            "Album2/notes.txt",
            "Zoo.jpg",
            "apple.jpg",
            "IMG_3.jpg",
            "notes.txt",
            ".hidden.jpg",
        ],
    )
    (root / ".hidden-folder").mkdir()
    return root
