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
  # Little CMS turns embedded colour profiles (Adobe RGB, ProPhoto,
  # Display P3) into sRGB.
  liblcms2-dev
  # TIFF (first page, any bit depth, CMYK) through libtiff; JPEG XL through
  # libjxl.
  libtiff-dev libjxl-dev
  # Camera RAW previews through LibRaw; BMP through stb_image.
  libraw-dev libstb-dev
  # Videos' frames through FFmpeg's libraries (opened when the first video
  # is drawn, in the helper process the RAWs use).
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev
  # Web sources: HTTP(S) through libcurl; WebDAV replies through libxml2.
  libcurl4-openssl-dev libxml2-dev
  # The library index (dates taken, cameras) is an SQLite database.
  libsqlite3-dev
  # Stars, rejects and labels are written as XMP with exempi (the Adobe
  # XMP Toolkit's C API), opened when the first verdict is written.
  libexempi-dev
  # `make install` drops the toolchain folder SwiftPM writes into the
  # binary's RUNPATH (the Swift runtime is linked in).
  patchelf)
if [ "$what" = test ] || [ "$what" = bench ]; then
  # GNU screen: the start's queries must not leak into its status line.
  packages+=(tmux python3 screen)
  # Pixel thumbnails are checked in real terminal emulators on a virtual X
  # display: xterm (sixel as a VT340), kitty (kitty graphics), mlterm (sixel
  # and iTerm2 inline images); one font (DejaVu Sans Mono) so cell sizes are
  # known; screenshots by ImageMagick's import, keys and window sizes through
  # xdotool, pixels analysed with Pillow; chafa draws the reference pictures
  # that prove the harness itself.
  packages+=(xvfb xterm kitty mlterm fonts-dejavu-core imagemagick xdotool python3-pil chafa)
  # Konsole (kitty graphics), and foot (sixel), a Wayland terminal run inside
  # weston's x11 backend on the same virtual display.
  packages+=(konsole foot weston)
  # exiftool writes the EXIF facts the preview tests read back; Adobe RGB and
  # ProPhoto profiles (libgs-common) make the colour-profile test photos.
  packages+=(libimage-exiftool-perl libgs-common)
  # exiv2 reads back the XMP sidecars the culling tests write, as a second
  # opinion beside exiftool's.
  packages+=(exiv2)
  # ffmpeg makes the test videos the header reader's tests read (dates,
  # durations, a moov at the end or at the start).
  packages+=(ffmpeg)
  # The photo corpus (scripts/make-corpus.py): cjxl and djxl for JPEG XL,
  # jpegtran and djpeg for stale and corrupt EXIF thumbnails, heif-enc and
  # heif-convert for HEIC/AVIF, tiffcp for multi-page TIFFs, LibRaw's own
  # tools to check the hand-written DNGs.
  packages+=(libjxl-tools libjpeg-turbo-progs libheif-examples libtiff-tools libraw-bin)
  # fzf and lf run the README's preview one-liners.
  packages+=(fzf lf)
  # The locale matrix runs under C, C.UTF-8 and en_US.UTF-8.
  packages+=(locales)
  # rclone sources are tested against the real rclone (local and webdav
  # remotes defined in the environment).
  packages+=(rclone)
  # The installed man page and the bash, zsh and fish completions are
  # loaded by the real programs (man-db for `man -l`).
  packages+=(man-db zsh fish)
  # `make deb`: dpkg-shlibdeps for the Depends, lintian to check the package.
  packages+=(dpkg-dev lintian)
  # A real camera RAW: rawtran's documentation ships a Canon EOS 30D CR2.
  packages+=(rawtran-doc)
fi
if [ "$what" = bench ]; then
  # Pillow writes the camera-like photos; chafa, timg and vipsthumbnail are
  # what the thumbnail benchmark compares against.
  packages+=(python3-pil chafa timg libvips-tools)
  # ffmpegthumbnailer is what the video thumbnails are measured against.
  packages+=(ffmpegthumbnailer)
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

# A second real camera RAW, from another maker: the Sony ILCE-7RM3 ARW in
# the libraw-cffi sdist's tests (PyPI), kept in the user's cache once fetched.
if [ "$what" != build ]; then
  raws="${XDG_CACHE_HOME:-$HOME/.cache}/picker-tui-tests/camera-raw"
  if [ ! -s "$raws/_DSC2164.ARW" ]; then
    echo "fetching a Sony ARW sample (libraw-cffi 0.19.0 sdist, PyPI)"
    scratch=$(mktemp -d)
    python3 -m pip download -q --no-deps --no-binary :all: -d "$scratch" libraw-cffi==0.19.0
    mkdir -p "$raws"
    tar -xzO -f "$scratch/libraw_cffi-0.19.0.tar.gz" libraw_cffi-0.19.0/libraw_cffi/tests/_DSC2164.ARW \
      >"$raws/_DSC2164.ARW.part"
    mv "$raws/_DSC2164.ARW.part" "$raws/_DSC2164.ARW"
    rm -rf "$scratch"
  fi
fi

# en_US.UTF-8 is not generated by default on a minimal Debian.
if [ "$what" != build ] && ! locale -a 2>/dev/null | grep -qi '^en_US\.utf-\?8$'; then
  echo "generating the en_US.UTF-8 locale"
  $sudo localedef -i en_US -c -f UTF-8 -A /usr/share/locale/locale.alias en_US.UTF-8
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

# WsgiDAV, a real WebDAV server the webdav-source tests start on loopback
# (Tests/Servers/dav_server.py), behind cheroot; from PyPI, as Debian has
# no package of it.
if [ "$what" != build ] && ! python3 -c 'import wsgidav, cheroot' 2>/dev/null; then
  echo "installing WsgiDAV"
  python3 -m pip install --quiet wsgidav cheroot 2>/dev/null ||
    python3 -m pip install --quiet --user wsgidav cheroot
fi
