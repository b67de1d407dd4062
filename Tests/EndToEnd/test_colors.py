"""Colours follow the terminal and the user: NO_COLOR and --colors none give a
monochrome screen that still shows focus; 256 colours reach the terminal as
palette colours. Read with capture-pane -e, which keeps the SGR sequences."""

import re

import pytest

SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def colour_codes(picker_run) -> set[str]:
    """The colour parts of every SGR sequence on the screen."""
    text = picker_run.tmux("capture-pane", "-e", "-p", "-t", picker_run.target)
    codes = set()
    for params in SGR.findall(text):
        parts = params.replace(":", ";").split(";")
        index = 0
        while index < len(parts):
            part = parts[index]
            if part in ("38", "48") and index + 1 < len(parts):
                width = 3 if parts[index + 1] == "5" else 5
                codes.add(";".join(parts[index : index + width]))
                index += width
                continue
            if part and (30 <= int(part) <= 37 or 40 <= int(part) <= 47 or 90 <= int(part) <= 107):
                codes.add(part)
            index += 1
    return codes


@pytest.mark.parametrize(
    ("args", "env"), [([], {"NO_COLOR": "1"}), (["--colors", "none"], {})], ids=["NO_COLOR", "colors-none"]
)
def test_monochrome_has_no_colours_but_shows_focus(picker, album_tree, args, env):
    p = picker.start([*args, str(album_tree)], env=env)
    screen = p.screen()
    assert screen.focused_caption() is not None, screen
    assert colour_codes(p) == set(), p.describe()
    text = p.tmux("capture-pane", "-e", "-p", "-t", p.target)
    assert "\x1b[7m" in text or re.search(r"\x1b\[[0-9;]*7[;m]", text), "no reverse video for the focus"
    p.leave("Escape")
    assert p.finish(130) == b""


def test_colours_reach_the_terminal(picker, album_tree):
    p = picker.start(["--colors", "256", str(album_tree)], env={"TERM": "screen-256color"})
    codes = colour_codes(p)
    # The focus border is bright yellow, the source tab has a cyan background.
    assert codes, p.describe()
    assert any(code in ("93", "38;5;11") for code in codes), codes
    p.leave("Escape")
    assert p.finish(130) == b""
