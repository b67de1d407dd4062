#!/usr/bin/env python3
"""Make a realistic photo library on disk for the picker's timeline tests and
benchmarks.

Usage:  scripts/make-library.py OUT_DIR --count N [--seed S] [--years Y]
                                [--end-date YYYY-MM-DD] [--manifest FILE]
        scripts/make-library.py OUT_DIR --small [--seed S] [--manifest FILE]

OUT_DIR must be empty or absent. Laid out as real libraries are:
  2019/2019-06/DSC_1234.JPG   import folders (the import month: may be later)
  Phone/PXL_20230614_101500123.jpg, IMG_20230614_101500.jpg, 20230614_101500.jpg,
        Screenshot_2023-06-14-10-15-00.png, 00000IMG_00000_BURST...jpg,
        WhatsApp Images/IMG-20230614-WA0003.jpg        one big phone dump
  Camera Uploads/2023-06-14 10.15.00.jpg
  Albums/[Travel/]Japan 2021/[Day 2/]Kyoto/Temples/...  event albums
  Scans/scan0001.jpg, Downloads/photo (3).jpg           no date but the mtime
  .thumbnails/ and Phone/Telegram Images/ (with .nomedia): to be skipped

Where the date taken comes from (proportions of the visible files, printed):
  ~80% "exif"      DateTimeOriginal, SubSecTimeOriginal, OffsetTimeOriginal on
                   some; DateTime is later on edited photos; GPS time is UTC
  ~8%  "filename"  no EXIF date, a date in the name (WhatsApp: a day only,
                   taken is its midnight)
  ~4%  impossible EXIF dates (0000:00:00, blanks, empty, 1800, 2999): half
                   with a dated name ("filename"), half without ("mtime")
  rest "mtime"     nothing but the mtime, which is set to the date
Every other mtime lies in the day after the end date, in random order (as if
copied), so mtime order, name order and folder order all differ from the
order taken.

Camera JPEGs: SOI, an EXIF APP1 (IFD0, Exif IFD, GPS IFD, on most an IFD1
with a 160x120 JPEG thumbnail), then a 64x48 JPEG whose frame header claims
4000x3000: libjpeg decodes it with a "premature end of data segment" warning,
the rest grey. A picture is its month's colour with the day written on (date
order shows colour bands), encoded once per day and spliced with each file's
EXIF. PNG and WebP exports carry EXIF (eXIf, EXIF chunks). The EXIF is packed
by scripts/photo_bytes.py.

--manifest writes one JSON line per photo, sorted by path: path, taken
("YYYY-MM-DDTHH:MM:SS[.fff]", the local wall clock the picker should read;
for "mtime" files time.localtime of the mtime, so read them in the same TZ or
use "mtime"), origin, make, model, lens (null without EXIF), mtime, skipped
(hidden or .nomedia folder) and bad_exif_date on impossible dates.

--small makes ~70 photos over 2022-07..2025-06 for end-to-end tests (ignores
--count, --years, --end-date): 2023-09-16 has many photos in several folders,
2024-02-29 just one; 2022-10, 2023-02, 2023-03, 2024-01 and 2024-11 have none;
at 2024-05-18 09:30:00 four photos share the second, ordered by subseconds
(DSC00501 .100, DSC00502 .500, DSC00503 .500, DSC00500 .900), the two at .500
by name; the year turns between IMG_0998 and IMG_0999; a Nikon counter wraps
from DSC_9999 to DSC_0001. Same seed, same files (and same TZ for mtimes).
"""

import argparse, datetime as dt, io, json, math, os, random, shutil, struct, sys, time
from collections import Counter, namedtuple
from types import SimpleNamespace as Photo
from PIL import Image, ImageDraw, ImageFont
from photo_bytes import (ASCII, BYTE, LONG, RATIONAL, SHORT, UNDEFINED, exif_tiff, jpeg_segment, jpeg_with_exif,
                         png_after_ihdr, png_with_exif, webp_with_exif)

Camera = namedtuple("Camera", "make model lens style order years subsec offset")
CAMERAS = {  # years: when in use; subsec: SubSecTimeOriginal digits; offset: writes OffsetTime*
    "xt4": Camera("FUJIFILM", "X-T4", "XF16-80mmF4 R OIS WR", "DSCF", "II", (2020, 9999), 0, True),
    "r6": Camera("Canon", "Canon EOS R6", "RF24-105mm F4 L IS USM", "IMG", "II", (2020, 9999), 2, True),
    "a7m3": Camera("SONY", "ILCE-7M3", "FE 24-70mm F2.8 GM", "DSC0", "II", (2018, 9999), 3, False),
    "d750": Camera("NIKON CORPORATION", "NIKON D750", "24.0-120.0 mm f/4.0", "DSC_", "MM", (2014, 2021), 2, False),
    "gx9": Camera("Panasonic", "DC-GX9", "LUMIX G VARIO 12-32/F3.5-5.6", "P10", "II", (2018, 2023), 0, False),
    "ip6s": Camera("Apple", "iPhone 6s", "iPhone 6s back camera 4.15mm f/2.2", "IMG", "MM", (2015, 2020), 3, False),
    "ip13": Camera("Apple", "iPhone 13", "iPhone 13 back dual wide camera 5.1mm f/1.6", "IMG", "MM",
                   (2021, 9999), 3, True),
    "pixel7": Camera("Google", "Pixel 7", "Pixel 7 back camera 6.81mm f/1.85", "PXL", "II", (2022, 9999), 3, True),
    "s9": Camera("samsung", "SM-G960F", None, "SAMS", "II", (2018, 2022), 3, False),
    "s6": Camera("samsung", "SM-G920F", None, "SAMS", "II", (2015, 2018), 3, False),
    "redmi": Camera("Xiaomi", "Redmi Note 8", None, "IMGD", "II", (2019, 2024), 3, False),
}
ANDROID = ["pixel7", "s9", "s6", "redmi"]  # they name files by date, into Phone/
CAMERA_LIKE = [k for k in CAMERAS if k not in ANDROID]  # numbered names, imported
# Numbered names (n counts up per camera and wraps as cameras do), and dated
# names with how much of the time they keep: 3 = ms, 0 = seconds, -1 = day.
NUMBERED = {
    "DSCF": lambda n: f"DSCF{(n - 1) % 9999 + 1:04d}.JPG", "IMG": lambda n: f"IMG_{(n - 1) % 9999 + 1:04d}.JPG",
    "DSC0": lambda n: f"DSC{(n - 1) % 99999 + 1:05d}.JPG", "DSC_": lambda n: f"DSC_{(n - 1) % 9999 + 1:04d}.JPG",
    "P10": lambda n: f"P{100 + (n - 1) // 9999 % 900}{(n - 1) % 9999 + 1:04d}.JPG",
    "scan": lambda n: f"scan{n:04d}.jpg", "dl": lambda n: f"photo ({n}).jpg",
    "thumb": lambda n: f"{1690000000 + n}.jpg",
}
DATED = {
    "PXL": (lambda t, n: f"PXL_{t:%Y%m%d_%H%M%S}{t.microsecond // 1000:03d}.jpg", 3),
    "IMGD": (lambda t, n: f"IMG_{t:%Y%m%d_%H%M%S}.jpg", 0),
    "SAMS": (lambda t, n: f"{t:%Y%m%d_%H%M%S}.jpg", 0),
    "WA": (lambda t, n: f"IMG-{t:%Y%m%d}-WA{n:04d}.jpg", -1),
    "DROP": (lambda t, n: f"{t:%Y-%m-%d %H.%M.%S}.jpg", 0),
    "BURST": (lambda t, n: f"{n:05d}IMG_{n:05d}_BURST{t:%Y%m%d%H%M%S}{t.microsecond // 1000:03d}"
                           f"{'' if n else '_COVER'}.jpg", 3),
    "SHOT": (lambda t, n: f"Screenshot_{t:%Y-%m-%d-%H-%M-%S}.png", 0),
}
BAD_DATES = ["0000:00:00 00:00:00", "    :  :     :  :  ", "", "1800:01:01 00:00:00", "2999:12:31 23:59:59"]
# Event albums: name, subfolders some photos go into, UTC offset there, place.
EVENTS = [("Wedding", ["Ceremony", "Party/Dance floor"], None, 0), ("Birthday", ["Cake"], None, 0),
          ("Summer holiday", ["Beach", "Beach/Sunset"], None, 4), ("Hiking", ["Summit/Panorama"], None, 4),
          ("Japan", ["Kyoto/Temples", "Tokyo"], "+09:00", 1), ("New York", ["Brooklyn"], "-04:00", 2),
          ("Christmas", [], None, 0)]
PLACES = [(48.8584, 2.2945), (35.0116, 135.7681), (40.7128, -74.0060), (51.5007, -0.1246), (46.5197, 6.6323)]
SKIPPED = (".thumbnails", "Phone/Telegram Images")


class Shoot:
    """Photos taken in one go by one device into one folder; kind says what the
    files hold: exif, nodate (EXIF without dates), bad (impossible EXIF date),
    plain (no EXIF), shot (PNG screenshot), png or webp (exports with EXIF)."""
    def __init__(self, start, n, cam, folder, kind="exif", style=None, times=None, first=None, offset=None,
                 place=None, subfolders=(), bad=None, step=90.0, exports=False):
        self.start = dt.datetime.fromisoformat(start) if isinstance(start, str) else start
        self.times = [dt.datetime.fromisoformat(t) for t in times] if times else None
        self.n = len(times) if times else n
        self.cam, self.folder, self.kind, self.first, self.bad, self.step = cam, folder, kind, first, bad, step
        self.style = style or CAMERAS[cam].style
        self.offset, self.place, self.subfolders, self.exports = offset, place, subfolders, exports


def truncate(t, digits):  # keep `digits` decimals of the second; -1: the day only
    if digits < 0:
        return dt.datetime(t.year, t.month, t.day)
    return t.replace(microsecond=t.microsecond // 10 ** (6 - digits) * 10 ** (6 - digits) if digits else 0)


def expand(shoots, rng, all_gps=False):
    """Shoots into photos, in time order so that camera counters grow with time.
    all_gps: every shoot has a position, each near one of PLACES (within
    about 20 km), so that the places looked up differ."""
    counters, photos, used = {}, [], set()
    for s in sorted(shoots, key=lambda s: s.start):
        cam = CAMERAS.get(s.cam)
        key = s.cam if s.style in ("DSCF", "IMG", "DSC0", "DSC_", "P10") else s.style
        if s.first is not None:
            counters[key] = s.first - 1
        gps_odds = 0.7 if s.cam in ANDROID or s.cam in ("ip6s", "ip13") else 0.1  # phones know where they are
        gps = s.place if s.place is not None else rng.randrange(len(PLACES)) if rng.random() < gps_odds else None
        if all_gps:
            lat, lon = PLACES[gps if gps is not None else rng.randrange(len(PLACES))]
            gps = (lat + rng.uniform(-0.2, 0.2), lon + rng.uniform(-0.2, 0.2))
        t = s.start
        for i in range(s.n):
            if s.times:
                t = s.times[i]
            elif i:  # a burst; else a minute or two apart, sometimes within the same second
                t += dt.timedelta(seconds=s.step if s.step < 1 else rng.uniform(0.1, 0.4) if rng.random() < 0.1
                                  else 1 + rng.expovariate(1 / s.step))
            if s.style == "WA":  # WhatsApp numbers each day's files from 0
                n = counters[("WA", t.date())] = counters.get(("WA", t.date()), -1) + 1
            elif s.style in DATED:
                n = i
            else:  # a camera's counter starts anywhere; scans and downloads at 1
                if key not in counters:
                    counters[key] = rng.randrange(1, 9000) if cam else 0
                n = counters[key] = counters[key] + 1
            name, digits = (DATED[s.style][0](t, n), DATED[s.style][1]) if s.style in DATED else (
                NUMBERED[s.style](n), None)
            folder = s.folder + ("/" + rng.choice(s.subfolders) if s.subfolders and rng.random() < 0.4 else "")
            kind = s.kind
            if s.exports and i % 25 == 7:  # exported from the album, keeping the EXIF
                kind = ("png", "webp")[len(photos) % 2]
            if kind in ("png", "webp"):  # named after the album
                name = f"{s.folder.split('/')[2 if '/Travel/' in s.folder else 1]}-{n:03d}.{kind}"
            path = f"{folder}/{name}"
            while path in used:  # phones add _1 to a name already taken that second
                path = "{}_1{}".format(*os.path.splitext(path))
            used.add(path)
            sub_digits = cam.subsec if cam else 0
            if kind in ("exif", "png", "webp"):
                origin, taken, frac = "exif", truncate(t, sub_digits), sub_digits > 0
            elif digits is not None:
                origin, taken, frac = "filename", truncate(t, digits), digits > 0
            else:
                origin, taken, frac = "mtime", t.replace(microsecond=0), False
            home = "+02:00" if 4 <= t.month <= 10 else "+01:00"
            photos.append(Photo(
                path=path, t=t, taken=taken, frac=frac, origin=origin, kind=kind, cam=cam,
                has_exif=cam is not None and kind != "plain", bad=s.bad if kind == "bad" else None,
                sub=f"{t.microsecond // 10 ** (6 - sub_digits):0{sub_digits}d}" if sub_digits else None,
                offset=s.offset or (home if cam and cam.offset and rng.random() < 0.9 else None),
                gps=gps, thumb=rng.random() < 0.88, edited=rng.random() < 0.1,
                orient=rng.choices([1, 6, 8, 3], [80, 15, 3, 2])[0],
                skipped=any(path.startswith(f + "/") for f in SKIPPED)))
    return photos


def random_library(rng, count, years, end):
    start = end - dt.timedelta(days=round(365.25 * years) - 1)
    all_days = [start + dt.timedelta(days=k) for k in range((end - start).days + 1)]
    months = sorted({(d.year, d.month) for d in all_days})
    gaps = set(rng.sample(months[1:-1], len(months) // 25))  # months nobody took a photo
    days = [d for d in all_days if (d.year, d.month) not in gaps]
    month_weight = [0.7, 0.7, 0.8, 0.9, 1.1, 1.3, 1.7, 1.7, 1.1, 1.0, 0.8, 1.4]
    cum, total = [], 0.0
    for d in days:  # more photos in recent years, in summer, at Christmas and at weekends
        total += (1 + 0.3 * (d.year - start.year)) * month_weight[d.month - 1] * (1.8 if d.weekday() >= 5 else 1)
        cum.append(total)

    def when():
        d = rng.choices(days, cum_weights=cum)[0]
        return dt.datetime(d.year, d.month, d.day, rng.randint(8, 21), rng.randrange(60), rng.randrange(60),
                           rng.randrange(1000000))

    def camera(t, among):
        fits = [k for k in among if CAMERAS[k].years[0] <= t.year <= CAMERAS[k].years[1]]
        return rng.choice(fits or among)

    def imported(t):  # the import folder is the month of the import, often weeks later
        t = t + dt.timedelta(days=rng.choice([0, 0, 0, 1, 3, 12, 40]))
        return f"{t.year}/{t.year}-{t.month:02d}"

    def fill(quota, sources):
        """Shoots from sources (weight, log-normal size mu, devices, folder, kind, style, step) up to quota."""
        while quota > 0:
            t = when()
            _, mu, among, folder, kind, style, step = rng.choices(sources, [s[0] for s in sources])[0]
            n = max(1, min(quota, int(rng.lognormvariate(mu, 0.8)) + 1))
            shoots.append(Shoot(t, n, among and camera(t, among), folder(t) if callable(folder) else folder, kind,
                                    style=style, step=step, bad=rng.choice(BAD_DATES) if kind == "bad" else None))
            quota -= n

    hide = 3 if count < 6000 else min(10, count // 2000)
    visible = count - 2 * hide
    q_exif, q_named, q_bad = round(0.80 * visible), round(0.08 * visible), round(0.04 * visible)
    shoots = [Shoot(when(), hide, None, SKIPPED[0], "plain", style="thumb"),
              Shoot(when(), hide, "redmi", SKIPPED[1])]
    albums = round(0.3 * q_exif)
    while albums > 0:  # event albums: one day, or a trip of several with a folder a day
        t = when()
        name, subs, offset, place = rng.choice(EVENTS)
        ndays = rng.choice([1, 1, 2, 3, 5]) if offset else 1
        base, cam = f"Albums/{'Travel/' if ndays > 1 else ''}{name} {t.year}", camera(t, CAMERA_LIKE)
        for k in range(ndays):
            n = max(1, min(albums, int(rng.lognormvariate(3.0, 0.8))))
            shoots.append(Shoot(t + dt.timedelta(days=k), n, cam, base + (f"/Day {k + 1}" if ndays > 1 else ""),
                                    offset=offset, place=place, subfolders=subs, step=120, exports=True))
            albums -= n
            if not albums:
                break
    fill(q_exif - round(0.3 * q_exif), [(4, 1.5, ANDROID, "Phone", "exif", None, 90),
                                         (6, 2.0, CAMERA_LIKE, imported, "exif", None, 90)])
    fill(q_named, [(35, 0.8, None, "Phone/WhatsApp Images", "plain", "WA", 1800),
                   (15, 0.0, None, "Phone", "shot", "SHOT", 600),
                   (15, 1.2, None, "Camera Uploads", "plain", "DROP", 90),
                   (10, 1.8, None, "Phone", "plain", "BURST", 0.15),
                   (25, 0.7, ANDROID, "Phone", "nodate", None, 90)])  # a phone app kept Make, Model, no date
    # A camera whose clock was never set, or a tool that blanked the date.
    fill(q_bad // 2, [(1, 0.7, ANDROID, "Phone", "bad", None, 90)])
    fill(q_bad - q_bad // 2, [(1, 0.7, CAMERA_LIKE, imported, "bad", None, 90)])
    fill(visible - q_exif - q_named - q_bad, [(4, 1.5, None, "Scans", "plain", "scan", 40),
                                              (3, 0.5, None, "Downloads", "plain", "dl", 3600),
                                              (3, 0.5, CAMERA_LIKE, imported, "plain", None, 90)])  # EXIF stripped
    return shoots


def small_library():
    S = Shoot
    return [
        S("2022-07-09 10:00:00", 3, "a7m3", "2022/2022-07", first=101),
        S("2022-08-20 11:00:00", 1, "d750", "2022/2022-08", "bad", first=42, bad=BAD_DATES[1]),
        S("2022-08-21 16:20:00", 2, "s9", "Phone"),
        S("2022-09-03 09:12:00", 2, None, "Phone/WhatsApp Images", "plain", style="WA", step=3000),
        S("2022-11-05 14:00:00", 3, None, "Scans", "plain", style="scan", step=40),
        S("2022-12-24 18:30:05", 2, None, "Camera Uploads", "plain", style="DROP", step=65),
        S("2022-12-30 12:00:00", 2, "d750", "2023/2023-01", first=600),
        S("2022-12-31 23:59:59", 2, "ip13", "2023/2023-01", first=998,
          times=["2022-12-31 23:59:59.250000", "2023-01-01 00:00:01.500000"]),
        S("2023-04-22 15:00:00", 3, "d750", "2023/2023-04", first=9998),
        S("2023-06-14 08:00:00", 3, None, "Phone/WhatsApp Images", "plain", style="WA", step=5000),
        S("2023-07-02 12:00:00", 2, "pixel7", "Phone", "nodate"),
        S("2023-08-19 19:45:00", 2, "pixel7", "Phone"),
        S("2023-09-16 14:00:00", 4, "xt4", "Albums/Wedding 2023/Ceremony", first=201),
        S("2023-09-16 15:30:12", 1, "pixel7", "Phone"),
        S("2023-09-16 18:00:00", 2, "xt4", "Albums/Wedding 2023", "webp", first=206),
        S("2023-09-16 18:30:00", 1, "xt4", "Albums/Wedding 2023", "png", first=300),
        S("2023-09-16 22:00:00", 3, "xt4", "Albums/Wedding 2023/Party/Dance floor", first=208),
        S("2023-12-03 10:00:00", 2, "r6", "2023/2023-12", first=400),
        S("2024-02-29 13:13:13", 1, "r6", "2024/2024-03", first=420),
        S("2024-04-09 10:00:00", 2, "ip13", "Albums/Travel/Japan 2024/Tokyo", offset="+09:00", place=1),
        S("2024-04-10 10:00:00", 3, "ip13", "Albums/Travel/Japan 2024/Kyoto/Day 2", offset="+09:00", place=1),
        S("2024-05-18 09:30:00", 4, "a7m3", "Albums/Race day 2024", first=500, times=[
            "2024-05-18 09:30:00.900000", "2024-05-18 09:30:00.100000", "2024-05-18 09:30:00.500000",
            "2024-05-18 09:30:00.500000"]),
        S("2024-06-02 21:15:00", 1, None, "Phone", "shot", style="SHOT"),
        S("2024-07-06 10:15:00", 2, None, "Phone", "plain", style="BURST", step=0.15),
        S("2024-08-10 18:15:00", 1, "redmi", "Phone", "bad", bad=BAD_DATES[0]),
        S("2024-10-12 17:00:00", 2, "gx9", "2024/2024-10"),
        S("2024-12-25 11:00:00", 2, None, "Camera Uploads", "plain", style="DROP"),
        S("2025-03-15 08:00:00", 1, "redmi", "Phone", "bad", bad=BAD_DATES[4]),
        S("2025-03-16 12:00:00", 1, "d750", "2025/2025-03", "bad", first=77, bad=BAD_DATES[3]),
        S("2025-05-01 20:00:00", 1, None, "Downloads", "plain", style="dl", first=3),
        S("2025-06-29 18:00:00", 2, "pixel7", "Phone"),
        S("2024-03-01 12:00:00", 3, None, SKIPPED[0], "plain", style="thumb"),
        S("2024-03-02 12:00:00", 2, "redmi", SKIPPED[1]),
    ]


FONT = ImageFont.load_default(size=18)
_pictures = {}


def picture(day, fmt, size=(160, 120)):
    """The day written on its month's colour, encoded once per day (JPEG without its JFIF APP0)."""
    key = (day, fmt, size)
    if key not in _pictures:
        colour = tuple(int(127 + 100 * math.cos(2 * math.pi * ((day.month - 1) / 12 - k / 3))) for k in range(3))
        image = Image.new("RGB", size, colour)
        ImageDraw.Draw(image).text((6, size[1] // 2 - 10), day.isoformat(), fill=(255, 255, 255), font=FONT)
        out = io.BytesIO()
        image.save(out, fmt, **({} if fmt == "PNG" else {"quality": 70}))
        data = out.getvalue()
        if fmt == "JPEG":  # camera files start with the EXIF APP1; JFIF is optional anyway
            assert data[2:4] == b"\xff\xe0"
            data = data[:2] + data[4 + struct.unpack(">H", data[4:6])[0]:]
        _pictures[key] = data
    return _pictures[key]


def claimed(day, width=4000, height=3000):
    """The month's 64x48 JPEG, its frame header (SOF0) patched to claim width x height."""
    key = (day.year, day.month, width, height)
    if key not in _pictures:
        data, i = bytearray(picture(day.replace(day=1), "JPEG", (64, 48))), 2
        while data[i + 1] != 0xDA:  # walk the segments up to the scan
            if data[i + 1] == 0xC0:
                data[i + 5:i + 9] = struct.pack(">HH", height, width)
            i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
        _pictures[key] = bytes(data)
    return _pictures[key]


def exif(p, thumbnail=None):
    """The TIFF structure of photo p's EXIF (no "Exif\\0\\0" prefix), with IFD1 and thumbnail if given.
    Built per file: a few dozen struct.pack calls cost less than patching a template."""
    cam = p.cam
    date = p.bad if p.bad is not None else None if p.kind == "nodate" else f"{p.t:%Y:%m:%d %H:%M:%S}"
    ifd0 = [(0x010F, ASCII, cam.make), (0x0110, ASCII, cam.model), (0x0112, SHORT, [p.orient]),
            (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, [2])]
    if date is not None and p.edited and p.bad is None:  # DateTime is when it was edited, not taken
        ifd0 += [(0x0131, ASCII, "Adobe Lightroom Classic 12.4"),
                 (0x0132, ASCII, f"{p.t + dt.timedelta(days=3, hours=5):%Y:%m:%d %H:%M:%S}")]
    elif date is not None:
        ifd0.append((0x0132, ASCII, date))
    sub = [(0x9000, UNDEFINED, b"0232")]
    if date is not None:
        sub += [(0x9003, ASCII, date), (0x9004, ASCII, date)]
    if p.offset and p.bad is None:
        sub += [(0x9010, ASCII, p.offset), (0x9011, ASCII, p.offset)]
    if p.sub and date is not None and p.bad is None:
        sub.append((0x9291, ASCII, p.sub))
    sub += [(0xA002, LONG, [4000]), (0xA003, LONG, [3000])] + ([(0xA434, ASCII, cam.lens)] if cam.lens else [])
    gps = []
    if p.gps is not None:
        lat, lon = PLACES[p.gps] if isinstance(p.gps, int) else p.gps
        dms = lambda v: [(int(v), 1), (int(v * 60 % 60), 1), (int(v * 360000 % 6000), 100)]
        gps = [(0, BYTE, b"\2\3\0\0"), (1, ASCII, "N" if lat >= 0 else "S"), (2, RATIONAL, dms(abs(lat))),
               (3, ASCII, "E" if lon >= 0 else "W"), (4, RATIONAL, dms(abs(lon)))]
        if p.offset and p.bad is None:  # GPS time is UTC: a trap for readers that prefer it
            u = p.t - (-1 if p.offset[0] == "-" else 1) * dt.timedelta(hours=int(p.offset[1:3]),
                                                                      minutes=int(p.offset[4:6]))
            gps += [(7, RATIONAL, [(u.hour, 1), (u.minute, 1), (u.second, 1)]), (0x1D, ASCII, f"{u:%Y:%m:%d}")]
    return exif_tiff(cam.order, ifd0, sub, gps, thumbnail=thumbnail)


def encode(p):
    day = p.t.date()
    if p.kind == "shot":
        return picture(day, "PNG", (96, 160))
    if not p.has_exif:
        return picture(day, "JPEG")
    if p.kind == "png":
        return png_with_exif(picture(day, "PNG"), exif(p))
    if p.kind == "webp":
        return webp_with_exif(picture(day, "WEBP"), exif(p), 160, 120)  # picture()'s size
    return jpeg_with_exif(claimed(day), exif(p, picture(day, "JPEG") if p.thumb else None))


def unique(data, path):
    """The file's own bytes: its path in a JPEG comment or a PNG tEXt chunk.
    Photos without EXIF taken the same day would otherwise be byte-identical,
    and the picker shows a photo and its copies once."""
    note = path.encode()
    if data[:2] == b"\xff\xd8":
        return data[:2] + jpeg_segment(0xFE, note) + data[2:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return png_after_ihdr(data, b"tEXt", b"Comment\0" + note)
    return data


def video_templates():
    """Two 1-second clips ffmpeg makes once: the moov after the media (as
    ffmpeg and phones write it) and before it (+faststart)."""
    import subprocess, tempfile
    made = []
    with tempfile.TemporaryDirectory() as folder:
        for index, flags in enumerate(([], ["-movflags", "+faststart"])):
            out = os.path.join(folder, f"t{index}.mp4")
            subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1",
                            "-c:v", "libx264", "-pix_fmt", "yuv420p", *flags, out], check=True)
            made.append(open(out, "rb").read())
    return made


def encode_video(p, template):
    """A template clip whose movie header says p's moment (UTC seconds since
    1904, on this machine's clock as the picker reads it back), and its path
    in a trailing free box, so no two files are copies."""
    at = template.index(b"mvhd") + 8  # past the type, the version and the flags
    created = int(time.mktime(p.t.timetuple())) + 2082844800
    note = p.path.encode()
    return (template[:at] + struct.pack(">I", created) + template[at + 4:]
            + struct.pack(">I", 8 + len(note)) + b"free" + note)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--count", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("--end-date", type=dt.date.fromisoformat, default=dt.date(2025, 6, 30))
    ap.add_argument("--manifest")
    ap.add_argument("--small", action="store_true", help="~70 hand-picked photos for end-to-end tests")
    ap.add_argument("--all-gps", action="store_true",
                    help="every photo with EXIF has a GPS position, near one of five cities (for the places bench)")
    ap.add_argument("--videos", type=float, default=0.0,
                    help="this share of the files written as MP4/MOV clips dated by their movie header instead")
    ap.add_argument("--copies", type=float, default=0.0,
                    help="this share of the photos also copied, byte for byte, into Albums/Copies/ (not in the manifest)")
    args = ap.parse_args()
    if not args.small and (args.count is None or args.count < 50 or args.years < 1):
        ap.error("give --count N (at least 50) and --years Y (at least 1), or --small")
    if os.path.isdir(args.out_dir) and os.listdir(args.out_dir):
        sys.exit(f"make-library: {args.out_dir} is not empty")
    began, rng = time.time(), random.Random(args.seed)
    end = dt.date(2025, 6, 30) if args.small else args.end_date
    photos = expand(small_library() if args.small else random_library(rng, args.count, args.years, end), rng,
                    all_gps=args.all_gps)
    # Copies all land in the day after the end, in random order; only the
    # files with nothing else keep their date as mtime.
    copied = time.mktime((end + dt.timedelta(days=1)).timetuple()) + 9 * 3600
    for p in photos:
        if p.origin == "mtime":
            p.mtime = time.mktime(p.taken.timetuple())
            p.taken = dt.datetime(*time.localtime(p.mtime)[:6])  # as read back, even in a DST gap
        else:
            p.mtime = round(copied + rng.uniform(0, 8 * 3600), 3)
    templates, videos = (video_templates() if args.videos else []), set()
    if args.videos:
        # Camera-dated photos become phone clips of the same moment.
        dated = [p for p in photos if p.kind == "exif" and p.bad is None and not p.skipped]
        shown = sum(not p.skipped for p in photos)
        for index, p in enumerate(rng.sample(dated, min(len(dated), int(shown * args.videos)))):
            p.path = os.path.splitext(p.path)[0] + (".MOV" if index % 2 else ".mp4")
            p.origin, p.frac, p.taken, p.kind = "quicktime", False, p.t.replace(microsecond=0), "video"
            videos.add(id(p))
    made, size = set(), 0
    for p in photos:
        full = os.path.join(args.out_dir, p.path)
        if os.path.dirname(full) not in made:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            made.add(os.path.dirname(full))
        data = encode_video(p, templates[len(p.path) % 2]) if id(p) in videos else unique(encode(p), p.path)
        size += len(data)
        with open(full, "wb") as f:
            f.write(data)
        os.utime(full, ns=(round(p.mtime * 1000) * 10**6,) * 2)
    open(os.path.join(args.out_dir, SKIPPED[1], ".nomedia"), "wb").close()
    # Copies, as a photo copied into an album folder is: the same bytes
    # under another folder (the picker shows each photo once).
    visible_paths = [p.path for p in photos if not p.skipped]
    for index, path in enumerate(rng.sample(visible_paths, int(len(visible_paths) * args.copies))):
        target = os.path.join(args.out_dir, "Albums", "Copies", f"{index // 1000:03d}", os.path.basename(path))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            shutil.copy2(os.path.join(args.out_dir, path), target)
    if args.manifest:
        with open(args.manifest, "w") as f:
            for p in sorted(photos, key=lambda p: p.path):
                row = {"path": p.path, "taken": f"{p.taken:%Y-%m-%dT%H:%M:%S}" + (
                    f".{p.taken.microsecond // 1000:03d}" if p.frac else ""), "origin": p.origin}
                row.update({k: getattr(p.cam, k) if p.has_exif else None for k in ("make", "model", "lens")})
                row.update(mtime=p.mtime, skipped=p.skipped, **({"bad_exif_date": p.bad} if p.bad is not None else {}))
                f.write(json.dumps(row) + "\n")
    visible = [p for p in photos if not p.skipped]
    print(f"{len(photos)} photos ({len(photos) - len(visible)} in skipped folders), {size / 1e6:.1f} MB of files, "
          f"{time.time() - began:.1f} s")
    origins = Counter((p.origin, p.bad is not None) for p in visible)
    for (origin, bad), n in sorted(origins.items()):
        label = origin + (" (impossible EXIF date)" if bad else "")
        print(f"  {label:<34} {n:7d} {100 * n / len(visible):5.1f}%")
    print("  kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(p.kind for p in photos).items())))


if __name__ == "__main__":
    main()
