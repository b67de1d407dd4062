#!/usr/bin/env python3
"""Make Resources/zones.bin, the IANA time zone of every place of
Resources/places.bin, so that a video's UTC time can be put on the local
clock (and day) of where it was shot: the zone of the place nearest the
video's position, then that date's offset from the zone's rules.

Usage:  scripts/make-zones.py [--places FILE] [--out FILE] [--zoneinfo DIR]
                              [--check N] [--seed S]

Needs timezonefinder from PyPI (`python3 -m pip install timezonefinder`,
which brings its boundary data, the timezonefinder-data package). Each
place's zone is timezonefinder's answer at the place's position as
places.bin stores it; a place whose position falls at sea (an "Etc/GMT±N"
answer: one place, a GeoNames position off the coast) takes the land zone
of the nearest place of its country. The table is committed, so building
the picker never needs the network; make it again when places.bin is made
again (the header keeps places.bin's CRC-32, and the tests compare it).

The data: the time-zone boundaries of timezone-boundary-builder
(https://github.com/evansiroky/timezone-boundary-builder), made from
OpenStreetMap data, under the Open Database License (ODbL) 1.0
(https://opendatacommons.org/licenses/odbl/1-0/), as packaged by
timezonefinder-data (PyPI; timezonefinder itself is MIT). The file built
in the repository came from timezonefinder 9.0.0, timezonefinder-data
3.2026.3.post1, boundary release 2026c; the release is kept in the header.

Every zone name is checked against DIR (/usr/share/zoneinfo, Debian's
tzdata): a name missing there is replaced by the zone it links to in
DIR/tzdata.zi (the "backward" links), and the count of those is printed.
With Debian 12's tzdata 2025b none is missing (Debian builds the zones of
"backzone" too). Foundation's TimeZone (Swift 6) answers from the ICU
data linked into it rather than from DIR: the unit tests check that it
knows every name of the table.

--check N measures what the picker will do: N positions within 20 km of
random places (on land or in territorial waters: where timezonefinder
answers a land zone), the zone of the nearest place against
timezonefinder's zone at the exact position, by name and by clock (the
same UTC offsets in January and July of 2015, 2020 and 2025); then N
positions more than 50 km from every place, timezonefinder's answer
against the nautical zone Etc/GMT±N of round(longitude / 15).

The file is read in place (mapped, not parsed), little-endian:

  header   "PKZONES1", then u32: places (as places.bin's), zones, string
           bytes, CRC-32 of places.bin (zlib's); then the boundary release,
           8 bytes of ASCII padded with NULs ("2026c")      -- 32 bytes
  places   u16 per place, in places.bin's record order: the zone's index,
           0xFFFF for none; then 0 or 2 bytes of padding to a multiple of 4
  zones    u32 per zone, sorted by name: the name's string offset
  strings  NUL-terminated ASCII zone names
"""

from __future__ import annotations

import argparse
import math
import random
import struct
import sys
import time
import zlib
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NONE = 0xFFFF


def read_places(path: Path) -> tuple[bytes, list[tuple[float, float, int]]]:
    """places.bin's records in file order: latitude, longitude, country."""
    data = path.read_bytes()
    if data[:8] != b"PKPLACE1":
        sys.exit(f"{path}: not a places table")
    count = struct.unpack_from("<I", data, 8)[0]
    start = 24 + (180 * 360 + 1) * 4
    places = []
    for latitude, longitude, country in struct.iter_unpack("<ii22xBx", data[start : start + count * 32]):
        places.append((latitude / 1e5, longitude / 1e5, country))
    return data, places


def is_ocean(zone: str | None) -> bool:
    return zone is not None and zone.startswith("Etc/GMT")


def nautical_zone(longitude: float) -> str:
    hours = math.floor(longitude / 15 + 0.5)
    return "Etc/GMT" if hours == 0 else f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}"


def zones_at(finder, latitudes: list[float], longitudes: list[float]) -> list[str | None]:
    if hasattr(finder, "timezone_names_at"):  # newer timezonefinder: one call for all
        return finder.timezone_names_at(lngs=longitudes, lats=latitudes)
    return [finder.timezone_at(lng=lng, lat=lat) for lat, lng in zip(latitudes, longitudes)]


def unit(latitude: float, longitude: float) -> tuple[float, float, float]:
    phi, lam = math.radians(latitude), math.radians(longitude)
    return math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi)


def canonical_names(names: set[str], zoneinfo: Path) -> dict[str, str]:
    """Each name as the system's zoneinfo has it: itself where its file is
    there, else the zone it links to in tzdata.zi."""
    links: dict[str, str] = {}
    tzdata = zoneinfo / "tzdata.zi"
    if tzdata.is_file():
        for line in tzdata.read_text(encoding="utf-8").splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[0] == "L":
                links[fields[2]] = fields[1]
    mapped = {}
    for name in names:
        target, seen = name, {name}
        while not (zoneinfo / target).is_file() and links.get(target, name) not in seen:
            target = links[target]
            seen.add(target)
        if not (zoneinfo / target).is_file():
            sys.exit(f"{name}: not in {zoneinfo}, and no link names it")
        mapped[name] = target
    return mapped


def check(finder, places, zone_of_place, count: int, seed: int) -> None:
    """The accuracy of "the zone of the nearest place" (see the docstring)."""
    import numpy as np  # timezonefinder needs numpy: it is there

    rng = random.Random(seed)
    vectors = np.array([unit(lat, lon) for lat, lon, _ in places])

    def nearest(points: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
        query = np.array([unit(lat, lon) for lat, lon in points])
        best, index = [], []
        for at in range(0, len(query), 256):
            dots = query[at : at + 256] @ vectors.T
            chosen = dots.argmax(axis=1)
            index.append(chosen)
            best.append(dots[np.arange(len(chosen)), chosen])
        cosines = np.clip(np.concatenate(best), -1, 1)
        return np.concatenate(index), np.degrees(np.arccos(cosines)) * 111.195

    def jittered() -> tuple[float, float]:
        lat, lon, _ = places[rng.randrange(len(places))]
        distance = 20 * math.sqrt(rng.random()) / 6371.0088
        bearing = rng.uniform(0, 2 * math.pi)
        phi, lam = math.radians(lat), math.radians(lon)
        phi2 = math.asin(math.sin(phi) * math.cos(distance) + math.cos(phi) * math.sin(distance) * math.cos(bearing))
        lam2 = lam + math.atan2(
            math.sin(bearing) * math.sin(distance) * math.cos(phi), math.cos(distance) - math.sin(phi) * math.sin(phi2)
        )
        return math.degrees(phi2), (math.degrees(lam2) + 540) % 360 - 180

    from zoneinfo import ZoneInfo

    instants = [datetime(year, month, 15, 12, tzinfo=timezone.utc) for year in (2015, 2020, 2025) for month in (1, 7)]
    clocks: dict[str, tuple] = {}

    def clock(name: str) -> tuple:
        if name not in clocks:
            zone = ZoneInfo(name)
            clocks[name] = tuple(instant.astimezone(zone).utcoffset() for instant in instants)
        return clocks[name]

    # Near places, on land.
    points, at_sea = [], 0
    while len(points) < count:
        batch = [jittered() for _ in range(count)]
        for point, zone in zip(batch, zones_at(finder, [p[0] for p in batch], [p[1] for p in batch])):
            if zone is None or is_ocean(zone):
                at_sea += 1
            elif len(points) < count:
                points.append((point, zone))
    index, _ = nearest([point for point, _ in points])
    same_name = same_clock = 0
    misses: dict[tuple[str, str], int] = {}
    for (point, truth), place in zip(points, index):
        guess = zone_of_place[int(place)]
        if guess == truth:
            same_name += 1
            same_clock += 1
            continue
        if guess is not None and clock(guess) == clock(truth):
            same_clock += 1
        else:
            misses[(str(guess), truth)] = misses.get((str(guess), truth), 0) + 1
    print(
        f"near places: {count} positions within 20 km of a place, on land ({at_sea} drawn at sea left out): "
        f"nearest place's zone = timezonefinder's for {same_name} ({100 * same_name / count:.2f}%), "
        f"same clock for {same_clock} ({100 * same_clock / count:.2f}%)"
    )
    worst = sorted(misses.items(), key=lambda item: -item[1])[:8]
    print("  different clocks, most often (nearest place's, true):", ", ".join(f"{a} for {b} x{n}" for (a, b), n in worst))

    # Far from places.
    far = []
    while len(far) < count:
        batch = []
        for _ in range(count):
            z = rng.uniform(-1, 1)
            batch.append((math.degrees(math.asin(z)), rng.uniform(-180, 180)))
        _, distances = nearest(batch)
        far += [point for point, distance in zip(batch, distances) if distance > 50]
    far = far[:count]
    zones = zones_at(finder, [p[0] for p in far], [p[1] for p in far])
    nautical = sum(1 for (lat, lon), zone in zip(far, zones) if zone == nautical_zone(lon))
    ocean_other = sum(1 for (lat, lon), zone in zip(far, zones) if is_ocean(zone) and zone != nautical_zone(lon))
    land: dict[str, int] = {}
    for zone in zones:
        if not is_ocean(zone):
            land[str(zone)] = land.get(str(zone), 0) + 1
    print(
        f"far from places: {count} positions over 50 km from every place: the nautical zone for {nautical} "
        f"({100 * nautical / count:.2f}%), another Etc/GMT zone for {ocean_other}, a land zone for "
        f"{sum(land.values())} ({100 * sum(land.values()) / count:.2f}%)"
    )
    print("  land zones there, most often:", ", ".join(f"{z} x{n}" for z, n in sorted(land.items(), key=lambda i: -i[1])[:10]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--places", type=Path, default=ROOT / "Resources" / "places.bin")
    parser.add_argument("--out", type=Path, default=ROOT / "Resources" / "zones.bin")
    parser.add_argument("--zoneinfo", type=Path, default=Path("/usr/share/zoneinfo"))
    parser.add_argument("--check", type=int, default=0, metavar="N", help="measure the accuracy on N positions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.monotonic()
    try:
        from importlib.metadata import version

        from timezonefinder import TimezoneFinder
    except ImportError:
        sys.exit("needs timezonefinder: python3 -m pip install timezonefinder")

    places_bin, places = read_places(args.places)
    finder = TimezoneFinder()
    release = getattr(finder, "data_version", "unknown")
    if len(release.encode("ascii")) > 8:
        sys.exit(f"boundary release {release!r} is longer than the header's 8 bytes")
    zones = zones_at(finder, [p[0] for p in places], [p[1] for p in places])

    # A place at sea (its position a little off the coast) takes the land
    # zone of the nearest place of its country.
    at_sea = [index for index, zone in enumerate(zones) if zone is None or is_ocean(zone)]
    for index in at_sea:
        lat, lon, country = places[index]
        here = unit(lat, lon)
        best, best_dot = None, -2.0
        for other, (lat2, lon2, country2) in enumerate(places):
            if country2 != country or zones[other] is None or is_ocean(zones[other]):
                continue
            there = unit(lat2, lon2)
            dot = here[0] * there[0] + here[1] * there[1] + here[2] * there[2]
            if dot > best_dot:
                best, best_dot = other, dot
        if best is not None:
            zones[index] = zones[best]

    mapped = canonical_names({zone for zone in zones if zone is not None}, args.zoneinfo)
    renamed = sorted(name for name, target in mapped.items() if name != target)
    zones = [mapped[zone] if zone is not None else None for zone in zones]

    names = sorted({zone for zone in zones if zone is not None})
    index_of = {name: index for index, name in enumerate(names)}
    strings = bytearray()
    offsets = []
    for name in names:
        offsets.append(len(strings))
        strings += name.encode("ascii") + b"\0"
    body = struct.pack(f"<{len(zones)}H", *(NONE if zone is None else index_of[zone] for zone in zones))
    body += b"\0" * (-len(body) % 4)
    header = b"PKZONES1" + struct.pack(
        "<IIII8s", len(places), len(names), len(strings), zlib.crc32(places_bin), release.encode("ascii")
    )
    data = header + body + struct.pack(f"<{len(names)}I", *offsets) + strings
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)

    with_zone = sum(1 for zone in zones if zone is not None)
    print(
        f"{args.out}: {len(places)} places, {with_zone} with a zone, {len(names)} zones, {len(data):,} bytes "
        f"(timezonefinder {version('timezonefinder')}, boundary release {release}; "
        f"{time.monotonic() - started:.1f} s)"
    )
    print(
        f"{len(at_sea)} places at sea given their country's nearest land zone; "
        f"{len(renamed)} names missing from {args.zoneinfo}, renamed by its links"
        + (f": {', '.join(f'{n} -> {mapped[n]}' for n in renamed)}" if renamed else "")
    )
    if args.check:
        check(finder, places, zones, args.check, args.seed)


if __name__ == "__main__":
    main()
