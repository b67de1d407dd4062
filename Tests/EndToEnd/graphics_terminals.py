"""Real terminal emulators on a virtual X display, for pixel-graphics tests.

tmux (conftest.py) shows what a program wrote as text; it cannot show whether
a sixel, kitty or iTerm2 image really became pixels. This module runs
programs inside real terminals (xterm as a VT340, kitty, mlterm, Konsole, and foot inside weston) on a private
Xvfb display, screenshots their windows, and measures the pictures:

    with XDisplay() as display:
        term = display.start_terminal("kitty", "chafa -f kitty photo.jpg", 80, 24)
        box = term.cell_box(0, 0, 40, 12)
        image = term.wait_for(lambda shot: detail_score(shot, box, term.cell.width) > 4,
                              "the photo as pixels")

It also records what tmux sends to the OUTER terminal (TmuxOuterStream), so a
test can check that graphics commands pass through tmux, answer queries as
that terminal would, and read the pane back (capture, styled_cells).

Rules kept throughout (see ../shared/PLATFORM-NOTES.md beside the
repository, "Terminal graphics"):

* every process started here runs under ``timeout -s KILL``, so nothing
  outlives a crashed test for long;
* whatever is started is stopped by its own PID (never by name);
* nothing waits a fixed time for something to happen: windows, pictures and
  replies are polled for, with a deadline.

Debian packages: xvfb, xterm, kitty, mlterm, konsole, foot, weston, imagemagick (import), xdotool,
python3-pil / Pillow, fonts-dejavu-core; tmux for TmuxOuterStream.
"""

# The pieces live in modules of their own, by concern; this one gathers
# them so tests import from one place:
#   gfx_processes    settings, processes under `timeout`, stopped by PID
#   gfx_display      the Xvfb display (XDisplay, CellGeometry)
#   gfx_terminal     one terminal window (Terminal), terminal_replies
#   gfx_metrics      screenshot measures and the pixels/symbols thresholds
#   gfx_fixtures     stripe photos, the xdisplay fixture, need()
#   gfx_tmux_stream  what tmux sends the outer terminal; styled pane cells

from gfx_display import *  # noqa: F401,F403
from gfx_fixtures import *  # noqa: F401,F403
from gfx_metrics import *  # noqa: F401,F403
from gfx_processes import *  # noqa: F401,F403
from gfx_terminal import *  # noqa: F401,F403
from gfx_tmux_stream import *  # noqa: F401,F403
