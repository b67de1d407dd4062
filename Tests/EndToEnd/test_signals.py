"""Signals end the picker with 128+N, print nothing, and leave a sane terminal."""

import os
import signal

import pytest


ENDING = [signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGVTALRM,
          signal.SIGXCPU, signal.SIGXFSZ, signal.SIGPWR, signal.SIGPROF]


@pytest.mark.parametrize(("signum", "code"), [(s, 128 + s) for s in ENDING], ids=[s.name for s in ENDING])
def test_signal_restores_the_terminal(picker, album_tree, signum, code):
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    p.toggle("Zoo.jpg")
    # While the UI runs: alternate screen, hidden cursor, raw-ish tty.
    assert p.display("#{alternate_on}") == "1", p.describe()
    os.kill(p.pid(), signum)
    assert p.finish(code) == b"", p.describe()
    assert p.stderr() == b""
    p.assert_terminal_restored()


def test_signal_in_the_help_overlay(picker, album_tree):
    p = picker.start([str(album_tree)])
    p.send("?")
    p.wait_text("Backspace")
    os.kill(p.pid(), signal.SIGTERM)
    assert p.finish(143) == b""


@pytest.mark.parametrize("signum", [signal.SIGSEGV, signal.SIGABRT, signal.SIGSYS], ids=["SEGV", "ABRT", "SYS"])
def test_a_crash_restores_the_terminal(picker, album_tree, signum):
    """A fault signal sent from outside runs the same handler a real crash
    would: reset sequences, saved tty modes, then death by the same signal."""
    p = picker.start([str(album_tree)])
    p.press("G", "Zoo.jpg")
    assert p.display("#{alternate_on}") == "1", p.describe()
    os.kill(p.pid(), signum)
    assert p.finish(128 + signum) == b"", p.describe()
