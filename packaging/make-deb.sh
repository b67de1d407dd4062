#!/usr/bin/env bash
# Builds picker-tui_VERSION_ARCH.deb from what `make install` puts in a
# staging folder: the binary (the Swift runtime linked in), its man page and
# shell completions, the thumbnailer entry, the desktop file chooser's
# wrapper and example config, the copyright and a changelog.
# Depends comes from dpkg-shlibdeps, never by hand; lintian must report no
# error.   packaging/make-deb.sh [OUTDIR]   (run by `make deb`)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.}"
bin=.build/release/picker-tui
version="$("$bin" --version)"
arch="$(dpkg --print-architecture)"
# Who built it, the Debian way ($DEBFULLNAME <$DEBEMAIL>).
maintainer="${DEBFULLNAME:-picker-tui developers} <${DEBEMAIL:-developers@picker-tui.example}>"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="$work/picker-tui_${version}_${arch}"

make -s install PREFIX=/usr DESTDIR="$stage" >/dev/null
# Debian's places and forms: zsh's vendor folder, compressed pages and logs.
mkdir -p "$stage/usr/share/zsh/vendor-completions"
mv "$stage/usr/share/zsh/site-functions/_picker-tui" "$stage/usr/share/zsh/vendor-completions/"
rmdir "$stage/usr/share/zsh/site-functions"
gzip -9n "$stage/usr/share/man/man1/picker-tui.1"
doc="$stage/usr/share/doc/picker-tui"
install -d "$doc"
install -m 0644 packaging/copyright "$doc/copyright"
date="$(date -R -u -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")"
printf 'picker-tui (%s) unstable; urgency=medium\n\n  * Built from the project'"'"'s sources (git %s).\n\n -- %s  %s\n' \
  "$version" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$maintainer" "$date" | gzip -9n >"$doc/changelog.gz"
# Stripped, as Debian ships binaries (a crash's backtrace then shows
# addresses; the build folder's binary keeps its symbols).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/picker-tui"
chmod -R u=rwX,go=rX "$stage"

# dpkg-shlibdeps reads the package's name from a debian/control.
mkdir -p "$work/src/debian"
printf 'Source: picker-tui\n\nPackage: picker-tui\nArchitecture: any\n' >"$work/src/debian/control"
# The codecs, libcurl and exempi are opened when first needed, not linked
# (Sources/CImaging/optional_codecs.h, Sources/CNetworking/optional_curl.h),
# so the binary's own entries do not name them. A program built here (not
# shipped) that uses the same functions from the same lists lets
# dpkg-shlibdeps name their packages, and the versions those functions
# need, as it does for the binary's.
cat >"$work/opened-later.c" <<'PROGRAM'
#define PK_OPTIONAL_CODECS_FILLING_IN
#define PK_OPTIONAL_CURL_FILLING_IN
#define PK_OPTIONAL_EXEMPI_FILLING_IN
#include "optional_codecs.h"
#include "optional_curl.h"
#include "optional_exempi.h"
#define PK_USE(name) (void (*)(void))name,
void (*const used[])(void) = {PK_HEIF_FUNCTIONS(PK_USE) PK_JXL_FUNCTIONS(PK_USE) PK_RAW_FUNCTIONS(PK_USE)
  PK_AVUTIL_FUNCTIONS(PK_USE) PK_AVCODEC_FUNCTIONS(PK_USE) PK_AVFORMAT_FUNCTIONS(PK_USE)
  PK_SWSCALE_FUNCTIONS(PK_USE) PK_CURL_FUNCTIONS(PK_USE) PK_EXEMPI_FUNCTIONS(PK_USE)};
int main(void) { return used[0] == 0; }
PROGRAM
cc "$work/opened-later.c" -o "$work/opened-later" -ISources/CImaging -ISources/CSystemCalls/include \
  -ISources/CNetworking -ISources/CXMP -lheif -ljxl -lraw_r -lavutil -lavcodec -lavformat -lswscale -lcurl -lexempi
depends="$(cd "$work/src" && dpkg-shlibdeps -O -e"$stage/usr/bin/picker-tui" -e"$work/opened-later" 2>/dev/null |
  sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "dpkg-shlibdeps found no dependencies" >&2; exit 1; }

mkdir -p "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<CONTROL
Package: picker-tui
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Section: graphics
Priority: optional
Description: photo picker for the terminal
 Browse photos from folders, a list on stdin, web and WebDAV services,
 rclone remotes or programs of your own, in a grid of real thumbnails
 (kitty, sixel, iTerm2 or block symbols); pick some with the keyboard,
 and the picked paths come out on stdout for the next command.
 Photos, a timeline of the library by the date each photo was taken,
 is indexed in the background.
CONTROL

deb="$out/picker-tui_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
if command -v lintian >/dev/null; then
  # Errors fail the build; warnings are shown.
  lintian --tag-display-limit 0 "$deb" | tee "$work/lintian.txt" >&2 || true
  if grep -q '^E:' "$work/lintian.txt"; then
    echo "lintian reports errors" >&2
    exit 1
  fi
fi
