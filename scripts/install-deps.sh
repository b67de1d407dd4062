#!/usr/bin/env bash
# Installs the Debian packages picker-tui needs, only those missing.
#   scripts/install-deps.sh build   libraries to build and run
#   scripts/install-deps.sh test    the above plus what the tests drive (tmux, pytest,
#                                   and real terminals under Xvfb for pixel thumbnails)
#   scripts/install-deps.sh bench   the above plus the benchmark's photo generator
#                                   and the tools it compares against
set -euo pipefail

what="${1:-build}"
packages=(libncurses-dev ncurses-term pkg-config
  # Imaging: decoders, the thumbnail encoder (PNG) and cell rendering.
  # libchafa-dev does not pull in libglib2.0-dev, which its pkg-config needs.
  libchafa-dev libglib2.0-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libgif-dev libheif-dev
  # libexif reads the preview's facts.
  libexif-dev
  # Web sources: HTTP(S) through libcurl.
  libcurl4-openssl-dev)
if [ "$what" = test ] || [ "$what" = bench ]; then
  packages+=(tmux python3)
  # Pixel thumbnails are checked in real terminal emulators on a virtual X
  # display: xterm (sixel as a VT340), kitty (kitty graphics), mlterm (sixel
  # and iTerm2 inline images); one font (DejaVu Sans Mono) so cell sizes are
  # known; screenshots by ImageMagick's import, keys and window sizes through
  # xdotool, pixels analysed with Pillow; chafa draws the reference pictures
  # that prove the harness itself.
  packages+=(xvfb xterm kitty mlterm fonts-dejavu-core imagemagick xdotool python3-pil chafa)
  # exiftool writes the EXIF facts the preview tests read back.
  packages+=(libimage-exiftool-perl)
  # fzf and lf run the README's preview one-liners.
  packages+=(fzf lf)
fi
if [ "$what" = bench ]; then
  # Pillow writes the camera-like photos; chafa, timg and vipsthumbnail are
  # what the thumbnail benchmark compares against.
  packages+=(python3-pil chafa timg libvips-tools)
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
for package in "${packages[@]}"; do
  # Listed by two groups (bench repeats some of test's): ask apt for it once.
  [[ " ${missing[*]} " == *" $package "* ]] && continue
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "install these packages with your package manager: ${missing[*]}" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "$what" != build ] && ! python3 -c 'import pytest' 2>/dev/null; then
  echo "installing pytest"
  python3 -m pip install --quiet pytest 2>/dev/null ||
    python3 -m pip install --quiet --user pytest 2>/dev/null ||
    { $sudo apt-get install -y -qq python3-pytest >/dev/null; }
fi

# The python3 on PATH may not be Debian's (pyenv, a venv), and then it does
# not see python3-pil: give it Pillow from PyPI the same way as pytest.
if [ "$what" != build ] && ! python3 -c 'import PIL' 2>/dev/null; then
  echo "installing Pillow"
  python3 -m pip install --quiet pillow 2>/dev/null ||
    python3 -m pip install --quiet --user pillow 2>/dev/null || true
fi
