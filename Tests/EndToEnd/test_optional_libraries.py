"""libheif, libjxl, LibRaw and libcurl are opened the first time a file or
a source needs them, not at exec: a start that meets only JPEGs never loads
them (they and theirs were two thirds of the start-up time), and a system
without one still runs the picker, that format's files saying what is
missing."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from images import gradient, write_png

LIBRARY_FOLDER = Path("/usr/lib/x86_64-linux-gnu")


def loaded_libraries(picker_bin: Path, *args: str) -> str:
    """The shared objects the dynamic loader opened for one run (its own
    account, LD_DEBUG=files), as text."""
    env = dict(os.environ, LD_DEBUG="files")
    result = subprocess.run([str(picker_bin), *args], capture_output=True, text=True, env=env, timeout=60)
    return result.stderr


@pytest.fixture(scope="module")
def photos(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("optional")
    png = write_png(folder / "source.png", 64, 48, gradient)
    made = {"png": png}
    jpeg = folder / "photo.jpg"
    subprocess.run(["convert", str(png), str(jpeg)], check=True)
    made["jpeg"] = jpeg
    if shutil.which("heif-enc"):
        heic = folder / "photo.heic"
        subprocess.run(["heif-enc", "-q", "60", "-o", str(heic), str(png)], check=True, capture_output=True)
        made["heic"] = heic
    return made


def test_a_start_and_a_jpeg_load_none_of_them(picker_bin, photos, tmp_path):
    text = loaded_libraries(picker_bin, "thumbnail", str(photos["jpeg"]), str(tmp_path / "out.png"))
    assert (tmp_path / "out.png").exists(), text[-2000:]
    for soname in ("libheif.so", "libjxl.so", "libraw_r.so", "libcurl.so", "libhwy.so", "libx265.so"):
        assert soname not in text, f"{soname} was loaded for a JPEG"


def test_a_heic_opens_libheif_when_it_is_met(picker_bin, photos, tmp_path):
    if "heic" not in photos:
        pytest.skip("heif-enc (libheif-examples) is not installed")
    text = loaded_libraries(picker_bin, "thumbnail", str(photos["heic"]), str(tmp_path / "out.png"))
    assert (tmp_path / "out.png").exists(), text[-2000:]
    assert "libheif.so.1" in text


def test_version_names_every_library_opened_later(picker_bin):
    result = subprocess.run([str(picker_bin), "--version", "--verbose"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    for name in ("libheif ", "libjxl ", "LibRaw ", "libcurl ", "libavcodec "):
        line = next((line for line in result.stdout.splitlines() if line.startswith(name)), None)
        assert line is not None and "not installed" not in line, result.stdout


def hiding(soname: str, binary: Path, tmp_path: Path) -> Path:
    """A script that runs `binary` where `soname` cannot be loaded: a private
    mount namespace with an empty file bound over it."""
    if os.geteuid() != 0 and subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode != 0:
        pytest.skip("mount namespaces need root or user namespaces")
    library = LIBRARY_FOLDER / soname
    if not library.exists():
        pytest.skip(f"{library} is not here")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    prefix = "unshare --mount" if os.geteuid() == 0 else "unshare -rm"
    wrapper = tmp_path / f"picker-without-{soname}"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec {prefix} sh -c 'mount --bind \"$0\" \"$1\" && shift && exec \"$@\"' '{empty}' '{library}' "
        f"'{binary}' \"$@\"\n"
    )
    wrapper.chmod(0o755)
    return wrapper


def test_without_libheif_a_heic_says_so_and_jpegs_still_work(picker_bin, photos, tmp_path):
    if "heic" not in photos:
        pytest.skip("heif-enc (libheif-examples) is not installed")
    picker = hiding("libheif.so.1", picker_bin, tmp_path)
    version = subprocess.run([str(picker), "--version", "--verbose"], capture_output=True, text=True, timeout=30)
    assert version.returncode == 0, version.stderr
    assert "libheif not installed" in version.stdout, version.stdout
    heic = subprocess.run(
        [str(picker), "thumbnail", str(photos["heic"]), str(tmp_path / "heic.png")],
        capture_output=True, text=True, timeout=30)
    assert heic.returncode == 1, heic.stderr
    assert "HEIC/AVIF needs libheif, not installed" in heic.stderr, heic.stderr
    assert not (tmp_path / "heic.png").exists()
    jpeg = subprocess.run(
        [str(picker), "thumbnail", str(photos["jpeg"]), str(tmp_path / "jpeg.png")],
        capture_output=True, text=True, timeout=30)
    assert jpeg.returncode == 0, jpeg.stderr
    assert (tmp_path / "jpeg.png").stat().st_size > 0


def test_without_libavcodec_a_video_says_so(picker_bin, tmp_path):
    clip = tmp_path / "clip.mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1",
                    "-c:v", "mpeg4", str(clip)], check=True, timeout=60)
    soname = min((path.name for path in LIBRARY_FOLDER.glob("libavcodec.so.[0-9]*")), key=len)
    picker = hiding(soname, picker_bin, tmp_path)
    made = subprocess.run([str(picker), "thumbnail", str(clip), str(tmp_path / "clip.png")],
                          capture_output=True, text=True, timeout=30)
    assert made.returncode == 1, made.stderr
    assert "videos need FFmpeg's libraries, not installed" in made.stderr, made.stderr
