#!/usr/bin/env bash
# Installs the Debian packages picker-tui needs, only those missing.
#   scripts/install-deps.sh build   libraries to build and run
#   scripts/install-deps.sh test    the above plus what the tests drive (tmux, pytest)
set -euo pipefail

what="${1:-build}"
packages=(libncurses-dev ncurses-term pkg-config)
if [ "$what" = test ]; then
  packages+=(tmux python3)
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

if [ "$what" = test ] && ! python3 -c 'import pytest' 2>/dev/null; then
  echo "installing pytest"
  python3 -m pip install --quiet pytest 2>/dev/null ||
    python3 -m pip install --quiet --user pytest 2>/dev/null ||
    { $sudo apt-get install -y -qq python3-pytest >/dev/null; }
fi
