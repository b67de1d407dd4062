#!/usr/bin/env bash
# Installs the Debian packages picker-tui needs, only those missing.
#   scripts/install-deps.sh build   libraries to build and run
#   scripts/install-deps.sh test    the above plus what the tests drive (tmux, pytest)
#   scripts/install-deps.sh bench   the above plus the benchmark's photo generator
#                                   and the tools it compares against
set -euo pipefail

what="${1:-build}"
packages=(libncurses-dev ncurses-term pkg-config
  # Imaging: decoders, the thumbnail encoder (PNG) and cell rendering.
  # libchafa-dev does not pull in libglib2.0-dev, which its pkg-config needs.
  libchafa-dev libglib2.0-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libgif-dev libheif-dev
  # Web sources: HTTP(S) through libcurl.
  libcurl4-openssl-dev)
if [ "$what" = test ] || [ "$what" = bench ]; then
  packages+=(tmux python3)
fi
if [ "$what" = bench ]; then
  # Pillow writes the camera-like photos; chafa, timg and vipsthumbnail are
  # what the thumbnail benchmark compares against.
  packages+=(python3-pil chafa timg libvips-tools)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "install these packages with your package manager: ${missing[*]}" >&2
    exit 1
  fi
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
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
