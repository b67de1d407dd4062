"""--max and --min."""

from conftest import make_files


def test_max_refuses_a_third_pick(picker, tmp_path):
    root = make_files(tmp_path / "m", ["a.jpg", "b.jpg", "c.jpg"])
    p = picker.start(["--max", "2", str(root)])
    assert p.screen().tray.strip().startswith("Picked 0/2"), p.screen()
    p.toggle("a.jpg")
    p.press("l", "b.jpg")
    screen = p.toggle("b.jpg")
    assert screen.tray_header() == "Picked 2/2", screen
    p.press("l", "c.jpg")
    p.send("Space")
    screen = p.wait_status("At most 2 photos can be picked (--max 2)")
    assert screen.tray_header() == "Picked 2/2" and screen.tray_names() == ["a.jpg", "b.jpg"], screen
    assert not screen.tile("c.jpg").selected, screen
    # Enter on an unselected photo confirms the selection.
    p.send("Enter")
    assert p.finish(0) == f"{root}/a.jpg\n{root}/b.jpg\n".encode()


def test_min_refuses_too_few(picker, tmp_path):
    root = make_files(tmp_path / "m", ["a.jpg", "b.jpg", "c.jpg"])
    p = picker.start(["--min", "2", str(root)])
    p.toggle("a.jpg")
    p.send("Enter")
    screen = p.wait_running(
        lambda s: "Pick at least" in s.status and s.tray_names() == ["a.jpg"], "the refusal, a.jpg still picked"
    )
    assert "2" in screen.status, screen
    p.press("G", "c.jpg")
    p.toggle("c.jpg")
    p.send("Enter")
    assert p.finish(0) == f"{root}/a.jpg\n{root}/c.jpg\n".encode()
