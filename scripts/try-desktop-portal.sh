#!/usr/bin/env bash
# picker-tui as the desktop's file chooser, for real: builds
# xdg-desktop-portal-termfilechooser from its source (out of tree, in a
# temporary folder), runs it and xdg-desktop-portal on a private session
# bus with a throwaway HOME, and asks org.freedesktop.portal.FileChooser
# for photos (scripts/portal_open_file.py) as a desktop app does. The
# picker opens in a tmux session (the "terminal") and is driven with keys:
#   1. OpenFile multiple=true: two photos picked, Enter: response 0 and
#      their two file:// URIs;
#   2. OpenFile, Esc: no URIs, response 1 (cancelled) or 2 (termfilechooser
#      answers every cancel with an error, which the portal reports as 2);
#   3. OpenFile directory=true, Enter: the folder's URI.
# Exits 0 when all three are as expected.
#
#   scripts/try-desktop-portal.sh SOURCE_DIR   (or PICKER_PORTAL_SOURCE=SOURCE_DIR)
#
# PICKER_TUI: the picker (default .build/release/picker-tui);
# PICKER_PORTAL_KEEP=1 keeps the temporary folder (logs, build).
set -euo pipefail
# tmux's screens and the photos' names are UTF-8.
export LC_ALL=C.UTF-8

root=$(cd "$(dirname "$0")/.." && pwd)
source_dir=${1:-${PICKER_PORTAL_SOURCE:-}}
[ -n "$source_dir" ] && [ -f "$source_dir/meson.build" ] || {
  echo "usage: $0 SOURCE_DIR (xdg-desktop-portal-termfilechooser's source, with meson.build)" >&2; exit 2; }
source_dir=$(cd "$source_dir" && pwd)
picker=${PICKER_TUI:-$root/.build/release/picker-tui}
wrapper=$root/share/picker-tui/termfilechooser-wrapper.sh
[ -x "$picker" ] || { echo "no picker at $picker (set PICKER_TUI)" >&2; exit 2; }
# The backend passes its config's values through wordexp, and runs `cmd
# ARGS` with system(), unquoted: paths with spaces or shell characters
# cannot be given to it.
plain() { case $1 in *[!A-Za-z0-9/._+-]*) echo "a path with spaces or shell characters: $1" >&2; exit 2 ;; esac; }
plain "$wrapper"; plain "$picker"; plain "${TMPDIR:-/tmp}"

die() { echo "FAIL: $*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
portal_bin() { for p in ${PICKER_PORTAL_BIN:-} /usr/libexec/xdg-desktop-portal /usr/lib/xdg-desktop-portal; do
  [ -x "$p" ] && { echo "$p"; return; }; done; }

# -- what it needs (Debian names) ---------------------------------------------
need=()
have meson || need+=(meson)
have ninja || need+=(ninja-build)
have pkg-config || need+=(pkg-config)
have cc || need+=(gcc libc6-dev)
pkg-config --exists inih 2>/dev/null || need+=(libinih-dev)
pkg-config --exists libsystemd 2>/dev/null || need+=(libsystemd-dev)
{ have dbus-daemon && have dbus-send; } || need+=(dbus)
have tmux || need+=(tmux)
[ -n "$(portal_bin)" ] || need+=(xdg-desktop-portal)
/usr/bin/python3 -c 'import gi; gi.require_version("Gio", "2.0")' 2>/dev/null || need+=(python3-gi)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && have apt-get; then
    echo "installing: ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    die "missing packages; run: sudo apt-get install ${need[*]}"
  fi
fi
portal=$(portal_bin)

# -- a throwaway world: HOME, runtime folder, bus, tmux server ----------------
work=$(mktemp -d "${TMPDIR:-/tmp}/picker-portal.XXXXXX")
home=$work/home photos=$work/home/Pictures/trip
mkdir -p "$home/.config/xdg-desktop-portal-termfilechooser" "$work/run" "$work/portals" "$work/term" "$photos"
chmod 700 "$work/run"
socket=picker-portal-$$
tmux_bin=$(command -v tmux)
tmux_() { "$tmux_bin" -L "$socket" -f /dev/null "$@"; }
pids=()
stop() {
  status=$?
  # The tmux server first: its end lets a waiting wrapper (and so the
  # backend) return; then the rest, newest first.
  tmux_ kill-server 2>/dev/null || true
  rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$socket"
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" != 0 ]; then
    for log in backend portal bus; do echo "--- $log.log (last lines)" >&2; tail -n 15 "$work/$log.log" >&2 || true; done
  fi
  if [ "${PICKER_PORTAL_KEEP:-}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
  exit "$status"
}
trap stop EXIT
trap 'exit 130' INT TERM

# -- the backend, built out of tree -------------------------------------------
# Installed under the temporary folder: nothing goes to /usr. No systemd
# unit and no man page: neither is used here.
echo "building $source_dir"
meson setup "$work/build" "$source_dir" --prefix="$work/prefix" -Dsystemd=disabled -Dman-pages=disabled \
  >"$work/meson.log" 2>&1 && ninja -C "$work/build" >>"$work/meson.log" 2>&1 &&
  meson install -C "$work/build" --quiet >>"$work/meson.log" 2>&1 || { tail -n 30 "$work/meson.log" >&2; die "the build failed"; }
backend=$work/prefix/libexec/xdg-desktop-portal-termfilechooser
commit=$(git -C "$source_dir" rev-parse HEAD 2>/dev/null || echo "not a git work tree")
echo "backend: $("$backend" -v) ($commit); portal: $("$portal" --version)"

# -- photos: real JPEGs of the demo album; a space and an accent in the names
#    show the URIs' percent-encoding ------------------------------------------
cp "$root/demo/album/IMG_2.jpg" "$photos/day 1.jpg"
cp "$root/demo/album/IMG_9.jpg" "$photos/day 2.jpg"
cp "$root/demo/album/IMG_10.jpg" "$photos/day 3 été.jpg"
cp "$root/demo/album/desert.jpg" "$photos/day 4.jpg"

# -- the terminal: TERMCMD="terminal.sh --title NAME" opens a tmux session and
#    returns with the command's status once it exits, as foot and kitty do ---
cat >"$work/term/terminal.sh" <<EOF
#!/bin/sh
set -eu
[ "\${1:-}" = --title ] && { printf '%s\n' "\$2" > $work/term/title; shift 2; }
# The caller's environment (the backend's), for the picker: tmux gives a
# new session its server's.
export -p > $work/term/env
rm -f $work/term/rc
$tmux_bin -L $socket -f /dev/null new-session -d -s chooser -x 120 -y 40 /bin/sh $work/term/inside.sh "\$@"
$tmux_bin -L $socket -f /dev/null wait-for chooser-done
exit "\$(cat $work/term/rc)"
EOF
cat >"$work/term/inside.sh" <<EOF
#!/bin/sh
[ "\${1:-}" = --clean ] || exec /usr/bin/env -i TERM="\$TERM" TMUX="\$TMUX" /bin/sh "\$0" --clean "\$@"
shift
. $work/term/env
"\$@"
echo \$? > $work/term/rc
$tmux_bin -L $socket -f /dev/null wait-for -S chooser-done
exec sleep 600
EOF
chmod +x "$work/term/terminal.sh" "$work/term/inside.sh"
# A session that outlives the choosers': tmux exits with its last one.
tmux_ new-session -d -s keep-alive 'exec sleep 86400'

# -- the backend's config and the portal's .portal file -----------------------
# env= values go through wordexp here: TERMCMD is split into words and
# joined with single spaces; the wrapper splits it again.
cat >"$home/.config/xdg-desktop-portal-termfilechooser/config" <<EOF
[filechooser]
cmd=$wrapper
default_dir=$photos
env=TERMCMD=$work/term/terminal.sh --title picker-tui
env=PICKER_TUI=$picker
EOF
# xdg-desktop-portal 1.16 has no portals.conf: a backend is used where its
# UseIn= names XDG_CURRENT_DESKTOP; XDG_DESKTOP_PORTAL_DIR replaces
# /usr/share/xdg-desktop-portal/portals, so no other backend is seen.
sed 's/^UseIn=.*/UseIn=picker-tui/' "$work/prefix/share/xdg-desktop-portal/portals/termfilechooser.portal" \
  >"$work/portals/termfilechooser.portal"

# -- a private session bus: no service is activatable on it, nothing of the
#    machine's (document portal, permission store) is started ----------------
cat >"$work/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
EOF
bus=unix:path=$work/bus
# What a systemd user service gets: a short PATH, no TERM; the user's
# folders are the throwaway ones.
session_env=(HOME="$home" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 XDG_RUNTIME_DIR="$work/run"
  XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_STATE_HOME="$home/.local/state"
  XDG_DATA_HOME="$home/.local/share" XDG_CURRENT_DESKTOP=picker-tui XDG_DESKTOP_PORTAL_DIR="$work/portals"
  DBUS_SESSION_BUS_ADDRESS="$bus" ${TMUX_TMPDIR:+TMUX_TMPDIR="$TMUX_TMPDIR"})
until_() { # SECONDS COMMAND...: polls every 0.05 s; false at the deadline
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do [ $SECONDS -lt "$deadline" ] || return 1; sleep 0.05; done; }
wait_for() { until_ "$2" "${@:3}" || die "no $1 within $2s"; }
owned() { dbus-send --bus="$bus" --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
  org.freedesktop.DBus.NameHasOwner "string:$1" 2>/dev/null | grep -q 'boolean true'; }

env -i "${session_env[@]}" dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile >"$work/bus.log" 2>&1 &
pids+=($!)
wait_for "bus socket" 10 test -S "$work/bus"
# Nothing can be activated on this bus: the backend is on it before any call.
env -i "${session_env[@]}" "$backend" -l DEBUG >"$work/backend.log" 2>&1 </dev/null &
pids+=($!)
wait_for "termfilechooser on the bus" 10 owned org.freedesktop.impl.portal.desktop.termfilechooser
env -i "${session_env[@]}" "$portal" -v >"$work/portal.log" 2>&1 </dev/null &
pids+=($!)
wait_for "xdg-desktop-portal on the bus" 20 owned org.freedesktop.portal.Desktop
grep -q 'Using termfilechooser.portal for org.freedesktop.impl.portal.FileChooser' "$work/portal.log" ||
  die "the portal did not choose termfilechooser for FileChooser"

# -- the app's side: one OpenFile call, in the background ---------------------
call() { # NAME OPTIONS...
  rm -f "$work/$1.out"
  DBUS_SESSION_BUS_ADDRESS=$bus /usr/bin/python3 "$root/scripts/portal_open_file.py" --timeout 60 "${@:2}" \
    >"$work/$1.tmp" 2>"$work/$1.err" && status=0 || status=$?
  echo "exit $status" >>"$work/$1.tmp"
  mv "$work/$1.tmp" "$work/$1.out"
}
screen() { tmux_ capture-pane -p -t =chooser: 2>/dev/null; }
on_screen() { screen | grep -qF -- "$1"; }
# An answer before the expected screen (a picker that did not start) fails
# at once.
seen() { on_screen "$1" || answered "$current"; }
see() { until_ 20 seen "$1" || { screen >&2; die "no '$1' on the picker's screen within 20s"; }
  ! answered "$current" || die "answered before '$1' was on the picker's screen: $(cat "$work/$current.out")"; }
key() { tmux_ send-keys -t =chooser: "$1"; }
answered() { test -f "$work/$1.out"; }
finish() { # NAME: waits for the answer, closes the window, prints the answer
  wait_for "Response to $1" 30 answered "$1"
  tmux_ kill-session -t =chooser 2>/dev/null || true
  cat "$work/$1.out"
}
window() { tmux_ has-session -t =chooser 2>/dev/null; }
start() { current=$1; call "$@" & pids+=($!); wait_for "chooser window" 20 window; }
uri() { /usr/bin/python3 -c 'import sys, urllib.parse; print("file://" + urllib.parse.quote(sys.argv[1]))' "$1"; }

# 1. Two photos. The focused tile has a heavy border: ┃ before its caption.
start pick --multiple
see "┃day 1.jpg"
key Space; see "┃✓ day 1.jpg"
key Right; see "┃day 2.jpg"
key Right; see "┃day 3 été.jpg"
key Space; see "Picked 2:"
entered=$(date +%s.%N)
key Enter
answer=$(finish pick)
echo "$answer" | sed 's/^/  pick: /'
expected="uri $(uri "$photos/day 1.jpg")
uri $(uri "$photos/day 3 été.jpg")"
[ "$(echo "$answer" | grep '^response')" = "response 0" ] || die "the choice was not a success"
[ "$(echo "$answer" | grep '^uri')" = "$expected" ] || die "expected:
$expected"
[ "$(cat "$work/term/title")" = picker-tui ] || die "TERMCMD's --title did not reach the terminal"
awk -v a="$(echo "$answer" | sed -n 's/^at //p')" -v b="$entered" \
  'BEGIN { printf "ok: two photos chosen; from Enter to the Response: %.3fs\n", a - b }'

# 2. Esc: a cancel.
start cancel --multiple
see "┃day 1.jpg"
key Escape
answer=$(finish cancel)
echo "$answer" | sed 's/^/  cancel: /'
echo "$answer" | grep -q '^uri' && die "a cancel returned URIs"
case $(echo "$answer" | grep '^response') in
  "response 1") echo "ok: Esc is response 1 (cancelled)" ;;
  "response 2") echo "ok: Esc is response 2 (termfilechooser reports a cancel as an error; the portal logs:" \
    "$(grep -o 'Backend call failed: .*' "$work/portal.log" | tail -n 1))" ;;
  *) die "Esc gave no cancel" ;;
esac

# 3. A folder: the one the picker is in (default_dir; portal 1.16 does not
#    pass an app's current_folder to OpenFile backends).
start folder --directory
see "┃day 1.jpg"
key Enter
answer=$(finish folder)
echo "$answer" | sed 's/^/  folder: /'
[ "$(echo "$answer" | grep '^uri')" = "uri $(uri "$photos")" ] || die "expected uri $(uri "$photos")"
echo "ok: directory=true chose $(uri "$photos")"
echo "PASS"
