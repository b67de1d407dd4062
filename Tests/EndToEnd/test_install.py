"""`make install` and `make uninstall` into a staging folder (DESTDIR), as a
packager runs them; the installed thumbnailer entry works as a file
manager would call it, the man page reads in `man`, and bash, zsh and fish
complete the pick options from the installed completion files."""

import shlex
import subprocess
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).parents[2]


def make(*args):
    return subprocess.run(["make", "-s", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=600)


def test_install_then_uninstall_into_a_staging_folder(tmp_path):
    stage = tmp_path / "stage"
    result = make("install", "PREFIX=/usr", f"DESTDIR={stage}")
    assert result.returncode == 0, result.stderr
    binary = stage / "usr/bin/picker-tui"
    entry = stage / "usr/share/thumbnailers/picker-tui.thumbnailer"
    assert binary.is_file() and binary.stat().st_mode & 0o111
    # The entry's Exec line, with %s %i %o filled in as file managers do.
    fields = dict(line.split("=", 1) for line in entry.read_text().splitlines() if "=" in line)
    assert "image/x-adobe-dng" in fields["MimeType"] and "image/bmp" in fields["MimeType"]
    photo = tmp_path / "photo.png"
    Image.new("RGB", (300, 200), (200, 30, 30)).save(photo)
    out = tmp_path / "thumb.png"
    command = [str(binary) if word == "picker-tui" else word for word in shlex.split(fields["Exec"])]
    command = [{"%s": "128", "%i": str(photo), "%o": str(out)}.get(word, word) for word in command]
    assert subprocess.run(command, timeout=10).returncode == 0
    assert Image.open(out).size == (128, 85)
    share = stage / "usr/share"
    installed = [share / "man/man1/picker-tui.1", share / "bash-completion/completions/picker-tui",
                 share / "zsh/site-functions/_picker-tui", share / "fish/vendor_completions.d/picker-tui.fish"]
    assert all(path.is_file() for path in installed), [path for path in installed if not path.is_file()]
    # The places table beside the binary, where it finds it.
    table = share / "picker-tui/places.bin"
    assert table.is_file()
    # Its places' time zones beside it (clips recorded in UTC go on their clock).
    assert (share / "picker-tui/zones.bin").is_file()
    # The desktop file chooser's wrapper (run by the portal, so executable)
    # and its example config.
    wrapper = share / "picker-tui/termfilechooser-wrapper.sh"
    assert wrapper.is_file() and wrapper.stat().st_mode & 0o777 == 0o755, oct(wrapper.stat().st_mode)
    assert "[filechooser]" in (share / "picker-tui/termfilechooser-config").read_text()
    verbose = subprocess.run([str(binary), "--version", "--verbose"], capture_output=True, text=True, timeout=20,
                             env={"PATH": "/usr/bin:/bin", "TERM": "dumb"}).stdout
    assert "places: GeoNames (CC BY 4.0, geonames.org)" in verbose, verbose
    check_man_page(installed[0])
    check_completions(*installed[1:], binary=binary)
    result = make("uninstall", "PREFIX=/usr", f"DESTDIR={stage}")
    assert result.returncode == 0, result.stderr
    assert not binary.exists() and not entry.exists()
    assert not any(path.exists() for path in installed)
    assert not table.exists() and not wrapper.exists() and not table.parent.exists()


def check_man_page(page: Path):
    result = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True, timeout=30,
                            env={"MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100", "LANG": "C.UTF-8",
                                 "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    text = result.stdout
    # The pick options a reader looks for, and the other subcommands.
    for needle in ("PICKER-TUI(1)", "--print0", "--max", "--thumbnails", "preview", "thumbnail", "doctor"):
        assert needle in text, f"{needle!r} is not in the man page:\n{text[:2000]}"


def check_completions(bash: Path, zsh: Path, fish: Path, binary: Path):
    env = {"PATH": f"{binary.parent}:/usr/bin:/bin", "HOME": str(binary.parent), "LANG": "C.UTF-8"}
    # bash: the function it registers completes subcommands, and pick's
    # options ("--col" to "--colors", then its values).
    def bash_completions(*words: str) -> list[str]:
        line = " ".join(words)
        script = f"""
            source {bash}
            complete -p picker-tui >/dev/null || exit 3
            COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; COMP_LINE="{line}"; COMP_POINT=${{#COMP_LINE}}
            _picker-tui picker-tui "{words[-1]}" "{words[-2]}"
            printf '%s\\n' "${{COMPREPLY[@]}}"
        """
        result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30, env=env)
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    assert bash_completions("picker-tui", "pre") == ["preview"]
    assert bash_completions("picker-tui", "pick", "--col") == ["--colors"]
    assert bash_completions("picker-tui", "pick", "--thumbnails", "s") == ["sixel", "symbols"]
    # zsh: compinit finds the function in its fpath.
    script = f"fpath=({zsh.parent} $fpath); autoload -Uz compinit; compinit -u -D; print -r -- $_comps[picker-tui]"
    result = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, text=True, timeout=30, env=env)
    assert result.stdout.strip() == "_picker-tui", (result.stdout, result.stderr)
    # fish: complete -C lists what the file offers.
    result = subprocess.run(["fish", "--no-config", "-c", f"source {fish}; complete -C 'picker-tui pick --col'"],
                            capture_output=True, text=True, timeout=30, env=env)
    assert "--colors" in result.stdout, (result.stdout, result.stderr)
