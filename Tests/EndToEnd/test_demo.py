"""`make run`'s demo library shows what the timeline does: several years on
the scale, a burst as one stack, a pair of copies as one tile."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_library_shows_years_a_stack_and_copies(picker):
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(ROOT / "demo" / "library")], width=160, height=50)
    screen = p.wait(lambda s: "×5" in s.text, "the burst as one stack", timeout=30)
    years = {int(y) for y in re.findall(r"\b(20[12]\d)\s*$", screen.text, re.M)}
    assert len(years) >= 4, screen.text
    screen = p.wait_ui()
    for _ in range(40):
        if "◫2" in screen.text:
            break
        before = screen.focused_caption()
        p.send("PageDown")
        # Its own move waited for: on a screen from before it the loop would
        # send another, and the copies' screen could be paged past unseen.
        screen = p.wait(lambda s: s.focused_caption() not in (None, before), f"PageDown to move on from {before}")
    assert "◫2" in p.screen().text, p.screen().text
    p.leave("q")
    p.finish(130)
