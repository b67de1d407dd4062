"""The picker embedded in another Swift program (examples/embedded): a
package of its own that depends on this one by path, with a photo source of
its own (generated photos, one album, paging). It is built by `make test`
before this suite runs; here it is driven in tmux like the command."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import REPO, PickerRunner

EXAMPLE = Path(os.environ.get("EMBEDDED_PICKER_BIN") or REPO / "examples/embedded/.build/release/embedded-picker")


@pytest.fixture
def embedded(request, tmux_server, tmp_path):
    if not EXAMPLE.is_file():
        pytest.fail(f"{EXAMPLE} is not built: run `make embedded-example`")
    runner = PickerRunner(tmux_server, EXAMPLE, tmp_path / "runs", request.node.name)
    yield runner
    runner.close()


def test_a_host_program_gets_the_picked_items_with_their_source_and_ids(embedded):
    # 24 photos: 12 cool ones at the root after the album, 12 warm ones
    # inside; pages of 4 (a row of 6 at this width) make both need paging.
    picker = embedded.start(["24", "4"])
    screen = picker.wait_text("Warm colours")
    assert "Generated" in screen.source_bar, screen
    picker.wait_focus("Warm colours/")
    picker.send("Right")
    picker.toggle("cool-01.png")
    # Into the album: its photos page in as the focus moves on.
    picker.send("Left")
    picker.wait_focus("Warm colours/")
    picker.send("Enter")
    picker.wait_text("warm-02.png")
    # Opened on its first photo, not on Back.
    picker.toggle("warm-02.png")
    picker.send("End")
    picker.wait_focus("warm-24.png")
    picker.send("Space")
    picker.wait_selected("warm-24.png")
    picker.send("Enter")
    out = picker.finish(0).decode()
    lines = out.splitlines()
    assert lines[0] == "SIGUSR1 handler: the program's own", out
    assert [line.split(" at ")[0] for line in lines[1:]] == [
        "picked cool-01.png from generated: cool-01.png",
        "picked warm-02.png from generated: warm-02.png",
        "picked warm-24.png from generated: warm-24.png",
    ], out
    for line in lines[1:]:
        path = line.split(" at ", 1)[1]
        assert path.startswith("/") and path.endswith(".png"), out


def test_a_cancel_returns_to_the_host_with_the_terminal_restored(embedded):
    picker = embedded.start(["3"])
    picker.wait_text("cool-01.png")
    picker.send("Escape")
    out = picker.finish(0).decode()
    assert out.splitlines() == ["SIGUSR1 handler: the program's own", "cancelled"], out


def test_a_signal_ends_the_picker_and_the_host_carries_on(embedded):
    picker = embedded.start(["3"])
    picker.wait_text("cool-01.png")
    os.kill(picker.pid(), 15)
    out = picker.finish(0).decode()
    assert out.splitlines() == ["SIGUSR1 handler: the program's own", "interrupted by signal 15"], out


@pytest.mark.parametrize("term", ["no-such-terminal", "dumb"])
def test_a_terminal_that_cannot_start_leaves_the_host_no_descriptor(embedded, term):
    # The tty was opened before the terminal was found wanting: it is
    # closed again, and the wake-up pipe with it.
    picker = embedded.start(["3"], env={"TERM": term}, wait_ui=False)
    assert picker.finish(2).decode().splitlines() == ["descriptors: as before"]
    assert term.encode() in picker.stderr()
