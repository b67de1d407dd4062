"""doctor in tmux: the colours the picker would draw with, and why they
are fewer than asked or than the terminal may have."""

import pytest


@pytest.mark.parametrize(
    "env,colours,reason",
    [
        ({"COLORTERM": ""}, "colours: 256 (terminfo tmux-256color)", "  no 24-bit colours: COLORTERM=(unset)"),
        ({"COLORTERM": "truecolor"}, "colours: truecolor (terminfo tmux-direct)", None),
        ({"COLORTERM": "truecolor", "NO_COLOR": "1"}, "colours: none (terminfo tmux-direct)",
         "  no colours: NO_COLOR is set"),
    ],
    ids=["no-colorterm", "truecolor", "no-color"],
)
def test_doctor_says_which_colours_and_why_fewer(picker, env, colours, reason):
    p = picker.start(["doctor", "--thumbnails", "symbols"], env=env, wait_ui=False)
    report = p.finish(0).decode()
    lines = report.splitlines()
    assert "TERM=tmux-256color" in lines, report
    at = lines.index(colours)
    explained = lines[at + 1:]
    if reason is None:
        assert not any(line.startswith("  ") for line in explained), report
    else:
        assert explained and explained[0].startswith(reason), report


def test_doctor_says_whether_the_fonts_draw_every_mark(picker):
    """DejaVu Sans Mono (installed for the tests) draws every mark; the copy
    mark was one it lacked (⧉), and it showed as a box."""
    p = picker.start(["doctor", "--thumbnails", "symbols"], wait_ui=False)
    report = p.finish(0).decode()
    assert "marks: every mark has a font (✓✗▶★◫▤×░)" in report.splitlines(), report
