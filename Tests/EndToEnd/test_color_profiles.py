"""Embedded colour profiles are honoured: a photo saved in Adobe RGB or
ProPhoto (ROMM) RGB comes out in sRGB as it was meant, through the same
decoders as the grid (`picker-tui thumbnail`); sRGB and no profile are left
as they are."""

import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageCms

PROFILES = Path("/usr/share/color/icc/ghostscript")  # Debian's libgs-common
WANTED = (200, 60, 60)  # a red that wide-gamut encodings store very differently


def encoded_in(profile: str) -> tuple[Image.Image, bytes]:
    """WANTED (sRGB) converted to `profile`'s encoding, and the profile."""
    path = PROFILES / profile
    if not path.exists():
        pytest.skip(f"{path} is not installed (libgs-common)")
    srgb = ImageCms.createProfile("sRGB")
    target = ImageCms.getOpenProfile(str(path))
    image = ImageCms.profileToProfile(Image.new("RGB", (64, 48), WANTED), srgb, target, outputMode="RGB")
    return image, path.read_bytes()


def thumbnail_pixel(picker_bin, source: Path, tmp_path: Path) -> tuple[int, int, int]:
    out = tmp_path / "thumb.png"
    result = subprocess.run(
        [str(picker_bin), "thumbnail", "-s", "32", str(source), str(out)], capture_output=True, timeout=10
    )
    assert result.returncode == 0, result.stderr
    return Image.open(out).convert("RGB").getpixel((16, 12))


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
@pytest.mark.parametrize("profile", ["a98.icc", "rommrgb.icc"])
def test_a_wide_gamut_photo_comes_out_in_srgb(picker_bin, tmp_path, fmt, profile):
    image, icc = encoded_in(profile)
    stored = image.getpixel((10, 10))
    assert max(abs(a - b) for a, b in zip(stored, WANTED)) > 20, "the profile must change the stored values"
    source = tmp_path / f"wide.{fmt.lower()}"
    image.save(source, fmt, icc_profile=icc, **({"quality": 100} if fmt != "PNG" else {}))
    got = thumbnail_pixel(picker_bin, source, tmp_path)
    assert max(abs(a - b) for a, b in zip(got, WANTED)) <= 8, f"{profile} {fmt}: {got}, wanted {WANTED}, stored {stored}"


@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_srgb_and_no_profile_are_left_alone(picker_bin, tmp_path, fmt):
    srgb = (PROFILES / "srgb.icc").read_bytes() if (PROFILES / "srgb.icc").exists() else None
    for name, icc in (("none", None), ("srgb", srgb)):
        if name == "srgb" and icc is None:
            continue
        source = tmp_path / f"{name}.{fmt.lower()}"
        extra = {"icc_profile": icc} if icc else {}
        Image.new("RGB", (64, 48), WANTED).save(source, fmt, **extra, **({"quality": 100} if fmt != "PNG" else {}))
        got = thumbnail_pixel(picker_bin, source, tmp_path)
        assert max(abs(a - b) for a, b in zip(got, WANTED)) <= 4, f"{name} {fmt}: {got}"
