"""Places: the facts panel names where a photo was taken, from the places
table the picker ships (Resources/places.bin), offline; on photos written
with GPS at known places, `/` finds them by town, country and year, day
headers name the day's places, the Places scope (P) counts them,
--place restricts the timeline and [places] names a circle."""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

from images import DEMO, photo_bytes

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "Resources" / "places.bin"
PHONE = ROOT / "demo" / "library" / "Phone"
PLACES_ENV = {"PICKER_TUI_PLACES": str(TABLE)}

# name: (date taken, latitude, longitude); names say nothing of places,
# since words match names too.
TRIP = {
    "DSC_0001.jpg": ("2023:06:14 10:00:00", 38.7169, -9.1390),  # Lisbon
    "DSC_0002.jpg": ("2023:06:14 11:00:00", 38.7100, -9.1450),  # Lisbon
    "DSC_0003.jpg": ("2024:03:02 12:00:00", 38.7223, -9.1393),  # Lisbon, a year later
    "DSC_0004.jpg": ("2023:06:15 12:00:00", 41.1496, -8.6110),  # Porto
    "DSC_0005.jpg": ("2024:04:05 09:00:00", 35.6895, 139.6917),  # Tokyo
    "DSC_0006.jpg": ("2023:06:13 09:00:00", 35.0, -40.0),  # at sea
    "DSC_0007.jpg": ("2023:06:13 10:00:00", 0.0, 0.0),  # no fix
}


def positioned_jpeg(date: str, latitude: float, longitude: float) -> bytes:
    """A demo landscape (real pixels) with EXIF: the date taken and a GPS
    position, as a camera writes them (its JFIF header dropped)."""
    jpeg = (DEMO / "IMG_2.jpg").read_bytes()
    if jpeg[2:4] == b"\xff\xe0":
        jpeg = jpeg[:2] + jpeg[4 + struct.unpack(">H", jpeg[4:6])[0]:]

    def dms(value: float):
        value = abs(value)
        degrees, minutes = int(value), int(value * 60 % 60)
        return [(degrees, 1), (minutes, 1), (round((value * 3600 % 60) * 1000), 1000)]

    b = photo_bytes
    gps = [(0, b.BYTE, b"\2\3\0\0"), (1, b.ASCII, "N" if latitude >= 0 else "S"), (2, b.RATIONAL, dms(latitude)),
           (3, b.ASCII, "E" if longitude >= 0 else "W"), (4, b.RATIONAL, dms(longitude))]
    tiff = b.exif_tiff("II", [(0x010F, b.ASCII, "FUJIFILM"), (0x0110, b.ASCII, "X-T4")],
                       [(0x9003, b.ASCII, date)], gps)
    return b.jpeg_with_exif(jpeg, tiff)


def trip(tmp_path: Path) -> Path:
    folder = tmp_path / "trip"
    folder.mkdir()
    for name, (date, latitude, longitude) in TRIP.items():
        (folder / name).write_bytes(positioned_jpeg(date, latitude, longitude))
    return folder


def search(p, words: str) -> None:
    p.send("/")
    p.type(words)
    p.send("Enter")
    p.wait(lambda s: f"search: {words}" in s.text, f"the results of {words}")


def shown(screen) -> set[str]:
    return {name for name in TRIP if name in screen.text}


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


def test_search_finds_photos_by_town_country_and_year(picker, tmp_path):
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(trip(tmp_path))], env=PLACES_ENV,
                     width=160, height=50)
    p.wait(lambda s: "DSC_0007.jpg" in s.text, "the trip listed")
    search(p, "lisbon")
    screen = p.wait(lambda s: shown(s) == {"DSC_0001.jpg", "DSC_0002.jpg", "DSC_0003.jpg"}, "the three in Lisbon")
    # The day header names the day's place.
    assert "Wed 14 Jun 2023 · Lisbon · 2 photos" in screen.text, screen.text
    search(p, "portugal")
    p.wait(lambda s: shown(s) == {"DSC_0001.jpg", "DSC_0002.jpg", "DSC_0003.jpg", "DSC_0004.jpg"}, "Portugal's four")
    search(p, "lisbon 2023")
    p.wait(lambda s: shown(s) == {"DSC_0001.jpg", "DSC_0002.jpg"}, "Lisbon in 2023")
    search(p, "japan x-t4")
    p.wait(lambda s: shown(s) == {"DSC_0005.jpg"}, "Tokyo by country and camera")
    p.send("C-c")
    p.finish(130)


def test_the_places_scope_counts_countries_then_towns(picker, tmp_path):
    p = picker.start(["--timeline", "--thumbnails", "symbols", str(trip(tmp_path))], env=PLACES_ENV,
                     width=160, height=50)
    p.wait(lambda s: "DSC_0007.jpg" in s.text, "the trip listed")
    p.send("P")
    # A country's count is on its tile's border, above its cover.
    screen = p.wait(lambda s: s.captions()[1:] == ["Portugal/", "Japan/"] and "▤4" in s.text and "▤1" in s.text,
                    "the countries")
    # At sea and at 0,0: in no country.
    assert "Elsewhere" not in screen.text, screen.text
    # Opened on its first country, not on Back.
    p.wait_focus("Portugal/")
    p.send("Enter")
    p.wait(lambda s: s.captions()[1:] == ["Lisbon/", "Porto/"] and "▤3" in s.text, "Portugal's towns")
    p.wait_focus("Lisbon/")
    p.send("Enter")
    screen = p.wait(lambda s: shown(s) == {"DSC_0001.jpg", "DSC_0002.jpg", "DSC_0003.jpg"}, "Lisbon's photos")
    # A one-photo day's header keeps its place before its weekday and year.
    assert "2 Mar · Lisbon" in screen.text, screen.text
    # Esc goes up a level at a time.
    p.send("Escape")
    p.wait_text("Porto/")
    p.send("Escape")
    p.wait_text("Japan/")
    p.send("Escape")
    p.wait(lambda s: "DSC_0007.jpg" in s.text, "the timeline again")
    p.send("C-c")
    p.finish(130)


def test_the_photo_at_sea_has_no_town(picker, tmp_path):
    folder = trip(tmp_path)
    p = picker.start([str(folder / "DSC_0006.jpg"), str(folder / "DSC_0004.jpg")], env=PLACES_ENV)
    p.send("v")
    p.send("i")
    screen = p.wait(lambda s: "35.00000, -40.00000" in s.text, "the position at sea")
    assert "Place" not in screen.text, screen.text
    p.send("Right")
    p.wait(lambda s: "Porto, Porto, Portugal" in s.text, "Porto in the facts panel")
    p.send("C-c")
    p.finish(130)


def test_place_option_and_a_named_circle(picker, tmp_path):
    folder = trip(tmp_path)
    p = picker.start(["--place", "japan", str(folder)], env=PLACES_ENV)
    p.wait(lambda s: shown(s) == {"DSC_0005.jpg"}, "only Tokyo")
    p.send("Enter")
    assert p.finish(0).decode().splitlines() == [str(folder / "DSC_0005.jpg")]
    config = tmp_path / "config.toml"
    config.write_text("[places]\nhome = [38.7169, -9.1390, 0.3]\n")
    p = picker.start(["--config", str(config), "--place", "home", str(folder)], env=PLACES_ENV)
    p.wait(lambda s: shown(s) == {"DSC_0001.jpg"}, "only the photo taken at home")
    p.send("C-c")
    p.finish(130)
