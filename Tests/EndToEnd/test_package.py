"""The binary people install runs where the Swift toolchain is not: the
`make install` copy and the one in `make deb`'s package run `--version`,
`doctor` and a pick in tmux with the toolchain's folder hidden (a private
mount namespace with an empty tmpfs over it); the package's Depends come
from dpkg-shlibdeps and lintian finds no error in it."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import PickerRunner, make_files

ROOT = Path(__file__).parents[2]


def make(*args):
    return subprocess.run(["make", "-s", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def toolchain() -> Path:
    """The folder the Swift toolchain lives in (/opt/swift here)."""
    swift = shutil.which("swift")
    if swift is None:
        pytest.skip("no Swift toolchain: nothing to hide")
    if os.geteuid() != 0 and subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode != 0:
        pytest.skip("mount namespaces need root or user namespaces")
    return Path(swift).resolve().parents[2]


def hidden(toolchain: Path, binary: Path, wrapper: Path) -> Path:
    """A script at `wrapper` that runs `binary` with an empty tmpfs over the
    toolchain."""
    prefix = "unshare --mount" if os.geteuid() == 0 else "unshare -rm"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec {prefix} sh -c 'mount -t tmpfs none \"$0\" && exec \"$@\"' '{toolchain}' '{binary}' \"$@\"\n"
    )
    wrapper.chmod(0o755)
    return wrapper


def check_runs_without_toolchain(binary: Path, toolchain: Path, tmux_server: str, tmp_path: Path, name: str):
    # The toolchain is really out of reach in there: the build folder's own
    # Swift programs would not start.
    ldd = subprocess.run(["ldd", str(binary)], capture_output=True, text=True).stdout
    assert str(toolchain) not in ldd, ldd
    assert "RUNPATH" not in subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True).stdout
    wrapper = hidden(toolchain, binary, tmp_path / "picker-without-toolchain")
    swift = hidden(toolchain, Path(shutil.which("swift")), tmp_path / "swift-without-toolchain")
    swift = subprocess.run([str(swift), "--version"], capture_output=True, text=True)
    assert swift.returncode != 0, "the toolchain was not hidden"
    version = subprocess.run([str(wrapper), "--version"], capture_output=True, text=True, timeout=30)
    assert version.returncode == 0 and version.stdout.strip(), version.stderr
    runner = PickerRunner(tmux_server, wrapper, tmp_path / "runs", name)
    try:
        doctor = runner.start(["doctor"], wait_ui=False)
        assert doctor.wait_exit() == 0, doctor.stderr()
        assert b"thumbnails:" in doctor.stdout()
        photos = make_files(tmp_path / "photos", ["a.jpg", "b.jpg"])
        p = runner.start([str(photos)])
        p.press("l", "b.jpg")
        p.send("Enter")
        assert p.finish(0) == f"{photos}/b.jpg\n".encode()
    finally:
        runner.close()


def test_the_installed_binary_runs_without_the_toolchain(toolchain, tmux_server, tmp_path):
    stage = tmp_path / "stage"
    result = make("install", "PREFIX=/usr", f"DESTDIR={stage}")
    assert result.returncode == 0, result.stderr
    check_runs_without_toolchain(stage / "usr/bin/picker-tui", toolchain, tmux_server, tmp_path, "installed")


def test_the_deb_package_installs_and_runs_without_the_toolchain(toolchain, tmux_server, tmp_path):
    result = make("deb")
    assert result.returncode == 0, result.stdout + result.stderr
    # lintian ran inside `make deb`; its errors fail it.
    assert "E:" not in result.stderr, result.stderr
    debs = sorted(ROOT.glob("picker-tui_*.deb"), key=lambda path: path.stat().st_mtime)
    deb = debs[-1]
    fields = subprocess.run(["dpkg-deb", "-f", str(deb), "Package", "Depends"], capture_output=True, text=True).stdout
    assert "Package: picker-tui" in fields
    # The codecs and libcurl, opened when first needed, are still Depends.
    for library in ("libc6", "libncursesw6", "libchafa0", "libsqlite3-0", "libjpeg62-turbo", "libheif1", "libjxl0.7",
                    "libraw20", "libcurl4", "libavcodec59", "libavformat59", "libswscale6"):
        assert library in fields, fields
    assert "swift" not in fields.lower(), fields
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True).stdout
    for path in ("./usr/bin/picker-tui", "./usr/share/man/man1/picker-tui.1.gz", "./usr/share/doc/picker-tui/copyright",
                 "./usr/share/thumbnailers/picker-tui.thumbnailer", "./usr/share/bash-completion/completions/picker-tui",
                 "./usr/share/zsh/vendor-completions/_picker-tui", "./usr/share/fish/vendor_completions.d/picker-tui.fish",
                 "./usr/share/picker-tui/places.bin", "./usr/share/picker-tui/zones.bin",
                 "./usr/share/picker-tui/termfilechooser-wrapper.sh", "./usr/share/picker-tui/termfilechooser-config"):
        assert path in listing, listing
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    check_runs_without_toolchain(root / "usr/bin/picker-tui", toolchain, tmux_server, tmp_path, "deb")
