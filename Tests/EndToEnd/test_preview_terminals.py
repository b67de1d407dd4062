"""`picker-tui preview FILE` in real terminals draws what the picker would
there: run straight from the shell it asks the terminal (as the picker
does); run by another program, its output a pipe (fzf, lf), it asks nothing
and goes by the terminal's variables. Judged on screenshots: 2-px stripes
survive only as real pixels (see detail_score)."""

from __future__ import annotations

import shlex

import pytest

from graphics_terminals import (
    SYMBOLS_AT_MOST,
    count_colour,
    detail_score,
    make_stripe_photo,
    need,
    xdisplay,  # noqa: F401 - the fixture
)

# (terminal, pixels when piped, pixels when run from the shell). xterm
# draws sixel only in VT340 mode, which its variables do not tell.
CASES = [
    ("kitty", True, True),
    ("konsole", True, True),
    ("foot", True, True),
    ("mlterm", True, True),
    ("xterm-sixel", False, True),
]
BORDER_RED = ((180, 0, 0), (255, 80, 80))
# The photo is fitted to the cells, so its stripes come out 2 px wide only
# where the cells make the scale 0.4: foot's 17-px rows make 2.1 px, which
# scores 2.86 (3.75 at 2 px). Block symbols stay at or under 2.2 however
# fine the photo, so 2.5 still tells them apart.
PIXELS_HERE = 2.5


@pytest.mark.parametrize("way", ["piped", "from-shell"])
@pytest.mark.parametrize("kind,piped_pixels,shell_pixels", CASES, ids=[case[0] for case in CASES])
def test_preview_draws_what_the_picker_would(xdisplay, picker_bin, tmp_path, kind, piped_pixels,  # noqa: F811
                                             shell_pixels, way):
    need(kind)
    # 640x480 shown in 40x12 cells is about 256x192 px: stripes of 5 px
    # come out 2 px wide.
    photo = make_stripe_photo(tmp_path / "stripes.png", stripe=5)
    command = " ".join(shlex.quote(str(part)) for part in [picker_bin, "preview", "--size", "40x12", photo])
    if way == "piped":
        command += " | cat"
    # The cursor hidden after it, so no cursor cell lands in a screenshot.
    term = xdisplay.start_terminal(kind, command + "; printf '\\033[?25l'", 60, 20)
    try:
        assert term.wait_exit() == 0, (term.workdir / "terminal.log").read_text(errors="replace")
        pixels = piped_pixels if way == "piped" else shell_pixels
        inside = term.cell_box(2, 2, 20, 8)

        def check(image):
            if count_colour(image, term.cell_box(0, 0, 40, 12), *BORDER_RED) < 200:
                return "no red border drawn yet"
            score = detail_score(image, inside, term.cell.width)
            if pixels and score < PIXELS_HERE:
                return f"detail {score:.2f} < {PIXELS_HERE}: not pixels"
            if not pixels and score > SYMBOLS_AT_MOST:
                return f"detail {score:.2f} > {SYMBOLS_AT_MOST}: pixels where symbols were expected"
            return None

        image = term.wait_settled(check, f"the preview as {'pixels' if pixels else 'symbols'} in {kind} ({way})")
        print(f"\n{kind} {way}: detail {detail_score(image, inside, term.cell.width):.2f}")
    finally:
        term.stop()
