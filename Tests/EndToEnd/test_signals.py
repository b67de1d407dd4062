"""Signals end the picker with 128+N, print nothing, and leave a sane terminal."""

import os
import signal

import pytest


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["TERM", "HUP"])
def test_signal_restores_the_terminal(picker, album_tree, signum, code):
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    p.toggle("Zoo.jpg")
    # While the UI runs: alternate screen, hidden cursor, raw-ish tty.
    assert p.display("#{alternate_on}") == "1", p.describe()
    os.kill(p.pid(), signum)
    assert p.finish(code) == b"", p.describe()
    assert p.stderr() == b""


def test_signal_in_the_help_overlay(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.send("?")
    p.wait_text("Backspace")
    os.kill(p.pid(), signal.SIGTERM)
    assert p.finish(143) == b""


@pytest.mark.parametrize("signum", [signal.SIGSEGV, signal.SIGABRT], ids=["SEGV", "ABRT"])
def test_a_crash_restores_the_terminal(picker, album_tree, signum):
    """A fault signal sent from outside runs the same handler a real crash
    would: reset sequences, saved tty modes, then death by the same signal."""
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    assert p.display("#{alternate_on}") == "1", p.describe()
    os.kill(p.pid(), signum)
    assert p.finish(128 + signum) == b"", p.describe()
