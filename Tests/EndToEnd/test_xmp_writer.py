"""The XMP writer (Sources/CXMP) on its own, built with the sanitizers by
scripts/test-xmp-sidecar.sh: new sidecars, darktable's and digiKam's kept
whole, hostile files (an XML bomb, 5 MiB, invalid UTF-8, deep nesting)
refused untouched, a JPEG's XMP replaced byte for byte around it, each
checked with exiftool and exiv2."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_xmp_writer_passes_its_checks():
    run = subprocess.run(["bash", str(ROOT / "scripts/test-xmp-sidecar.sh")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    assert "all checks passed" in run.stdout
