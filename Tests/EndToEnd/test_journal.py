"""Nothing picked is lost: the selection is journalled while the picker runs;
a cancel, a hang-up or a kill leaves the journal, --resume (or R when the
footer offers it) brings the picks back, and a confirm that printed
everything removes it."""

import json
import os
import signal
import time

from conftest import make_files


def journal_path(p):
    return p.workdir.parent / "state" / "picker-tui" / "selection.json"


def picked_paths(journal: dict) -> list[bytes]:
    import base64

    return [base64.b64decode(entry["path"]) for entry in journal["picks"]]


def wait_for_journal(p, count: int, timeout: float = 5.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            journal = json.loads(journal_path(p).read_text())
            if len(journal["picks"]) == count:
                return journal
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    raise AssertionError(f"no journal with {count} picks at {journal_path(p)}")


def pick_two(picker, root):
    p = picker.start([str(root)])
    p.toggle("a.jpg")
    p.press("l", "b.jpg")
    p.toggle("b.jpg")
    return p


def test_a_cancel_leaves_the_picks_and_resume_brings_them_back(picker, tmp_path):
    root = make_files(tmp_path / "j", ["a.jpg", "b.jpg", "c.jpg"])
    p = pick_two(picker, root)
    p.leave("q")
    p.finish(130)
    journal = json.loads(journal_path(p).read_text())
    assert picked_paths(journal) == [f"{root}/a.jpg".encode(), f"{root}/b.jpg".encode()]
    assert oct(journal_path(p).stat().st_mode & 0o777) == "0o600"

    p2 = picker.start([str(root), "--resume"])
    screen = p2.wait(lambda s: s.tray_names() == ["a.jpg", "b.jpg"], "the two picks restored")
    assert screen.status.startswith("Restored 2 picks"), screen
    p2.send("Enter")
    assert p2.finish(0) == f"{root}/a.jpg\n{root}/b.jpg\n".encode()
    assert not journal_path(p2).exists(), "the journal outlived a confirm that printed everything"


def test_the_footer_offers_the_picks_of_a_killed_run(picker, tmp_path):
    root = make_files(tmp_path / "j", ["a.jpg", "b.jpg", "c.jpg"])
    p = pick_two(picker, root)
    wait_for_journal(p, 2)
    os.kill(p.pid(), signal.SIGKILL)
    p.wait_exit()
    (root / "a.jpg").unlink()

    p2 = picker.start([str(root)])
    # a.jpg is gone: one pick can come back.
    screen = p2.wait_status("1 pick from a run that did not finish: R restores it")
    assert screen.tray_names() == [], screen
    p2.send("R")
    screen = p2.wait(lambda s: s.tray_names() == ["b.jpg"], "b.jpg restored, a.jpg gone")
    assert "1 gone or from a source not open, skipped" in screen.status, screen
    p2.send("Enter")
    assert p2.finish(0) == f"{root}/b.jpg\n".encode()


def test_a_hang_up_right_after_a_pick_still_journals_it(picker, tmp_path):
    root = make_files(tmp_path / "j", ["a.jpg", "b.jpg"])
    p = picker.start([str(root)])
    p.toggle("a.jpg")
    # At once, inside the journal's quiet time: the exit path writes it.
    os.kill(p.pid(), signal.SIGHUP)
    p.wait_exit()
    assert picked_paths(json.loads(journal_path(p).read_text())) == [f"{root}/a.jpg".encode()]


def test_no_offer_for_picks_from_other_sources(picker, tmp_path):
    first = make_files(tmp_path / "one", ["a.jpg"])
    other = make_files(tmp_path / "two", ["z.jpg"])
    p = picker.start([str(first)])
    p.toggle("a.jpg")
    p.leave("q")
    p.finish(130)
    p2 = picker.start([str(other)])
    p2.send("l")
    time.sleep(0.3)
    assert "R restores" not in p2.screen().status, p2.screen()
    p2.send("R")
    p2.wait_status("Nothing to restore")
    p2.leave("q")
    p2.finish(130)
    assert journal_path(p2).exists(), "an unrelated run removed the journal"
