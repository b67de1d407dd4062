"""Every case of the thumbnail corpus (scripts/make-corpus.py) through
`picker-tui thumbnail -s 64 FILE OUT`.

The corpus is the marker picture stored every way a photo can be: EXIF
orientations 1-8, CMYK and greyscale JPEGs, stale and corrupt EXIF
thumbnails, 16-bit PNG without gAMA, wide-gamut profiles, TIFF, JPEG XL,
HEIF, BMP, DNG previews, 108 and 200 MP photos, and hostile files. The cases
are listed at collection time from the script itself (without making them);
the files are made once per module into a temporary folder, and the
manifest the script writes holds each case's expectations:

* "upright" / "upright-grey": exit 0, a PNG whose longest side is 64, the
  upright picture's aspect ratio within 3%, and the manifest's colour at the
  centre of each quadrant (within its tolerance: 40, or 16 for the
  wide-gamut profiles, whose red read without the profile is within 40 of
  sRGB red); "upright-grey" also wants grey pixels.
* "fails": a non-zero exit, exactly one stderr line starting "picker-tui: ",
  and no output file (nor a temporary one left behind).

A case whose tool is missing here is a pytest skip with the reason, never a
silent absence. The failing thumbnail stays in the test's tmp_path, named in
the failure message, to look at.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from markers import near, quadrant_samples

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "make-corpus.py"
SIZE = 64
TIMEOUT = 10.0  # seconds for one thumbnail, the 200 MP photo included
ASPECT_SLACK = 0.03
# Greyscale output: a colour EXIF thumbnail shown instead would be far off.
GREY_SPREAD = 8


def load_generator() -> ModuleType:
    # The script imports photo_bytes from its own folder, which only a run
    # as scripts/make-corpus.py puts on sys.path.
    sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("make_corpus", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    # dataclasses look the module up in sys.modules while making a class.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


CASES = load_generator().list_cases()


@dataclass
class Corpus:
    folder: Path
    entries: dict[str, dict]
    skipped: dict[str, str]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    folder = tmp_path_factory.mktemp("corpus")
    result = subprocess.run(
        [sys.executable, str(SCRIPT), str(folder)], capture_output=True, text=True, timeout=600
    )
    if result.returncode != 0:
        pytest.fail(f"scripts/make-corpus.py failed ({result.returncode}):\n{result.stderr}", pytrace=False)
    manifest = json.loads((folder / "manifest.json").read_text())
    return Corpus(
        folder,
        {entry["file"]: entry for entry in manifest["cases"]},
        {entry["file"]: entry["reason"] for entry in manifest["skipped"]},
    )


def case_params() -> list:
    params = []
    for case in CASES:
        marks = [pytest.mark.skip(reason=f"{case['file']}: {case['missing']}")] if case["missing"] else []
        params.append(pytest.param(case["file"], id=case["file"], marks=marks))
    return params


def thumbnail(picker_bin: Path, source: Path, out: Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(
            [str(picker_bin), "thumbnail", "-s", str(SIZE), str(source), str(out)],
            capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"picker-tui thumbnail {source.name}: no exit within {timeout:.0f} s", pytrace=False)


@pytest.mark.parametrize("name", case_params())
def test_corpus_thumbnail(picker_bin, corpus, tmp_path, name):
    if name in corpus.skipped:
        pytest.skip(f"{name}: {corpus.skipped[name]}")
    entry = corpus.entries[name]
    # A folder of its own: anything the thumbnailer leaves behind shows.
    outdir = tmp_path / "out"
    outdir.mkdir()
    out = outdir / "thumb.png"
    result = thumbnail(picker_bin, corpus.folder / name, out)
    if entry["expect"] == "fails":
        assert_fails(result, outdir)
        if "says" in entry:
            assert entry["says"] in result.stderr.decode(errors="replace"), result.stderr
    else:
        assert_upright(result, out, entry)


def assert_fails(result: subprocess.CompletedProcess, outdir: Path) -> None:
    lines = result.stderr.decode(errors="replace").splitlines()
    assert result.returncode != 0, f"exit 0 for a hostile file; stderr {lines}"
    assert len(lines) == 1 and lines[0].startswith("picker-tui: "), f"stderr must be one 'picker-tui: ' line: {lines}"
    left = sorted(p.name for p in outdir.iterdir())
    assert not left, f"files left behind: {left}"


def assert_upright(result: subprocess.CompletedProcess, out: Path, entry: dict) -> None:
    what = f"{entry['file']} ({entry['case']})"
    assert result.returncode == 0, f"{what}: exit {result.returncode}: {result.stderr.decode(errors='replace').strip()}"
    with Image.open(out) as image:
        assert image.format == "PNG", f"{what}: {out} is {image.format}, not PNG"
        size = image.size
        samples = quadrant_samples(image)
        # The pixels must be sRGB themselves, not carry a profile along.
        profile = image.info.get("icc_profile")
    wanted = [tuple(colour) for colour in entry["colours"]]
    problems = []
    # Every upright source is larger than SIZE: scaled down to SIZE exactly.
    if max(size) != SIZE:
        problems.append(f"longest side {max(size)}, wanted {SIZE}")
    aspect = size[0] / size[1]
    if abs(aspect / entry["aspect"] - 1) > ASPECT_SLACK:
        problems.append(f"aspect {size[0]}x{size[1]} = {aspect:.3f}, wanted {entry['aspect']:.3f}")
    if not all(near(got, want, entry["tolerance"]) for got, want in zip(samples, wanted)):
        problems.append(f"quadrants TL TR BL BR {samples}, wanted {wanted} (±{entry['tolerance']})")
    if profile:
        problems.append(f"an embedded ICC profile ({len(profile)} bytes): the thumbnail must be plain sRGB")
    if entry["expect"] == "upright-grey" and not all(max(s) - min(s) <= GREY_SPREAD for s in samples):
        problems.append(f"not grey: {samples}")
    assert not problems, f"{what}: " + "; ".join(problems) + f"\nthumbnail kept at {out}"


# A FIFO named like each kind of photo: every decoder must refuse it at
# once (nobody writes to it) instead of blocking on open or read.
@pytest.mark.parametrize("extension", ["jpg", "png", "webp", "tif", "jxl", "heic", "avif", "bmp", "dng"])
def test_a_fifo_fails_at_once_whatever_its_name(picker_bin, tmp_path, extension):
    source = tmp_path / f"fifo.{extension}"
    os.mkfifo(source)
    outdir = tmp_path / "out"
    outdir.mkdir()
    assert_fails(thumbnail(picker_bin, source, outdir / "thumb.png", timeout=5), outdir)
