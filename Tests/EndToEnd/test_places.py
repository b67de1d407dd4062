"""Places: the facts panel names where a photo was taken, from the places
table the picker ships (Resources/places.bin), offline."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "Resources" / "places.bin"
PHONE = ROOT / "demo" / "library" / "Phone"


def photos(tmp_path: Path) -> Path:
    """Berlin (IMG_4021, first by name) and Lisbon, with their GPS, and a
    photo of the demo album without any position."""
    folder = tmp_path / "trip"
    folder.mkdir()
    shutil.copy(PHONE / "IMG_4021.JPG", folder / "IMG_4021.JPG")
    shutil.copy(PHONE / "PXL_20230612_195500832.jpg", folder / "PXL_20230612_195500832.jpg")
    return folder


def test_the_facts_panel_names_the_city_region_and_country(picker, tmp_path):
    # The binary under test is a copy outside the checkout: it is told
    # where the table is, as an installed one finds it beside itself.
    p = picker.start([str(photos(tmp_path))], env={"PICKER_TUI_PLACES": str(TABLE)})
    p.send("v")
    p.send("i")
    # GeoNames calls the region "State of Berlin"; the panel breaks the
    # value at a space.
    screen = p.wait(lambda s: "Berlin, State of Berlin," in s.text and "Germany" in s.text, "Berlin in the panel")
    assert "52.52000, 13.40500" in screen.text, screen.text
    p.send("Right")
    p.wait(lambda s: "Lisbon, Lisbon, Portugal" in s.text, "Lisbon in the facts panel")
    p.send("C-c")
    p.finish(130)


def test_without_a_table_the_position_is_shown_alone(picker, tmp_path):
    p = picker.start([str(photos(tmp_path))], env={"PICKER_TUI_PLACES": str(tmp_path / "missing.bin")})
    p.send("v")
    p.send("i")
    screen = p.wait(lambda s: "52.52000, 13.40500" in s.text, "the position in the facts panel")
    assert "Place" not in screen.text and "Berlin" not in screen.text, screen.text
    p.send("C-c")
    p.finish(130)


def test_version_verbose_credits_geonames(picker_bin):
    out = subprocess.run([str(picker_bin), "--version", "--verbose"], capture_output=True, text=True, timeout=20,
                         env={"PICKER_TUI_PLACES": str(TABLE), "PATH": "/usr/bin:/bin", "TERM": "dumb"}).stdout
    assert "places: GeoNames (CC BY 4.0, geonames.org), 155210 places" in out, out
