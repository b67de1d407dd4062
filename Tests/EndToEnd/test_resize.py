"""Resizing the terminal while the picker runs."""

from conftest import HINTS, TMUX_NOTICE, make_files


def test_resize_redraws_and_keeps_working(picker, tmp_path):
    root = make_files(tmp_path / "r", [f"P{i:02d}.jpg" for i in range(1, 13)])
    p = picker.start([str(root)])
    screen = p.screen()
    assert screen.columns() == 6, screen
    assert screen.captions()[:6] == [f"P{i:02d}.jpg" for i in range(1, 7)], screen

    p.resize(80, 30)
    screen = p.wait(
        lambda s: s.columns() == 4 and s.status.strip() in (HINTS, TMUX_NOTICE),
        "4 columns and the hint line on line 29 at 80x30",
    )
    assert screen.captions()[:4] == [f"P{i:02d}.jpg" for i in range(1, 5)], screen
    assert screen.tray.strip() == "Picked 0  (Space picks the focused photo)", screen
    assert all(len(line) <= 80 for line in screen.lines), screen
    assert screen.breadcrumb.rstrip().endswith("12 of 12 · name") and len(screen.breadcrumb.rstrip()) == 80, screen

    # Down one row is four photos on at 80 columns.
    p.press("j", "P05.jpg")
    p.toggle("P05.jpg")

    p.resize(120, 40)
    screen = p.wait(lambda s: s.columns() == 6 and s.tray_names() == ["P05.jpg"], "6 columns again at 120x40")
    assert screen.tile("P05.jpg").selected, screen
    assert screen.breadcrumb.rstrip().endswith("12 of 12 · name") and len(screen.breadcrumb.rstrip()) == 120, screen
    assert screen.focused_caption() == "✓ P05.jpg", screen
    # Down one row is six photos on again.
    p.press("j", "P11.jpg")
    p.toggle("P11.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{root}/P05.jpg\n{root}/P11.jpg\n".encode()


def test_tiny_terminal_then_back(picker, tmp_path):
    """Shrinking below one tile must not crash; growing back redraws."""
    root = make_files(tmp_path / "r", ["a.jpg", "b.jpg"])
    p = picker.start([str(root)])
    p.resize(20, 6)
    p.wait_running(
        lambda s: s.lines[0].startswith("Terminal too small") and not s.tiles() and ".jpg" not in s,
        "'Terminal too small' alone at 20x6, no piece of the grid",
    )
    p.resize(120, 40)
    screen = p.wait(lambda s: s.captions() == ["a.jpg", "b.jpg"], "the grid after growing back")
    p.press("l", "b.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{root}/b.jpg\n".encode()
