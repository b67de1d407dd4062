#!/bin/sh
# picker-tui as the desktop's file chooser, through
# xdg-desktop-portal-termfilechooser, which runs its `cmd` as
#
#   termfilechooser-wrapper.sh MULTIPLE DIRECTORY SAVE PATH OUT DEBUG
#
# MULTIPLE, DIRECTORY, SAVE: 0 or 1. PATH: the folder to start in or a
# suggested file, maybe empty. OUT: the file to write the chosen absolute
# paths to, one a line. DEBUG: 1 (or, in forks that pass their log level,
# 4 and up) when the portal logs at debug level. An empty OUT or a
# non-zero exit is a cancel.
#
# The portal runs as a systemd user service whose PATH is short: give full
# paths in its config (env=TERMCMD=/usr/bin/foot, and
# env=PICKER_TUI=/path/to/picker-tui for a picker installed elsewhere than
# this script). env= values may be taken as written: no $HOME in them.
set -eu

if [ $# -lt 5 ]; then
    echo "usage: $0 MULTIPLE DIRECTORY SAVE PATH OUT [DEBUG]" >&2
    exit 2
fi
multiple=$1 directory=$2 save=$3 path=$4 out=$5 debug=${6:-0}

# The trace goes to stderr, which the portal's log keeps.
case $debug in 1 | 4 | 5) set -x ;; esac

# A photo picker opens files; saving is left to another chooser, given the
# same arguments.
if [ "$save" = 1 ]; then
    chooser=${PICKER_TUI_SAVE_CHOOSER:-}
    if [ -n "$chooser" ] && [ -x "$chooser" ]; then
        exec "$chooser" "$@"
    fi
    if [ -n "$chooser" ]; then
        echo "picker-tui: PICKER_TUI_SAVE_CHOOSER=$chooser is not an executable file" >&2
    fi
    echo "picker-tui chooses photos and folders; it does not save files: set" \
        "PICKER_TUI_SAVE_CHOOSER=/full/path/to/another-wrapper.sh (yazi-wrapper.sh, ...)" \
        "in the portal's config for saving" >&2
    exit 1
fi

# PICKER_TUI, else the picker installed with this script (PREFIX/share/
# picker-tui/ beside PREFIX/bin/, so a ~/.local install needs no setting),
# else the one on PATH.
picker=${PICKER_TUI:-}
if [ -z "$picker" ]; then
    picker=$(dirname -- "$0")/../../bin/picker-tui
    [ -x "$picker" ] || picker=picker-tui
fi
if ! command -v "$picker" >/dev/null 2>&1; then
    echo "picker-tui: '$picker' not found on PATH ($PATH): set env=PICKER_TUI=/full/path/to/picker-tui in the portal's config" >&2
    exit 1
fi

# Where to start. A folder is browsed; a suggested file (which may not exist
# yet) stands for its folder. Nothing, or the home folder, which is rarely
# where photos are, opens Photos, the whole library by date.
folder=
if [ -d "$path" ]; then
    folder=$path
elif [ -n "$path" ] && [ -d "$(dirname -- "$path")" ]; then
    folder=$(dirname -- "$path")
fi
home=${HOME:-}
case ${folder%/} in
    "" | "${home%/}") folder= ;;
esac

# TERMCMD is a command prefix, split on spaces on purpose
# (TERMCMD="kitty --title chooser"). It must not return before the picker
# exits: foot, kitty, alacritty and xterm wait; gnome-terminal needs
# `gnome-terminal --wait --`, wezterm `wezterm start --always-new-process --`.
# A terminal that forks into a running server (footclient, kitty's
# single instance) would make this a cancel at once.
termcmd=${TERMCMD:-}
if [ -z "$termcmd" ]; then
    for candidate in foot kitty "alacritty -e" "xterm -e"; do
        if command -v "${candidate%% *}" >/dev/null 2>&1; then
            termcmd=$candidate
            break
        fi
    done
fi
if [ -z "$termcmd" ]; then
    echo "picker-tui: no terminal found: set env=TERMCMD=/full/path/to/terminal in the portal's config" >&2
    exit 1
fi

set -- --chooser-file "$out"
if [ "$directory" = 1 ]; then
    set -- "$@" --choose-folder
elif [ "$multiple" != 1 ]; then
    set -- "$@" --max 1
fi
if [ -n "$folder" ]; then
    set -- "$@" "$folder"
fi

# Empty before the terminal opens: a picker that never starts leaves no
# stale paths behind.
: >"$out"

status=0
set -f
# shellcheck disable=SC2086 # TERMCMD is split into words on purpose
$termcmd "$picker" "$@" || status=$?
set +f

# Terminals that drop the picker's status still leave OUT empty on a cancel.
if [ ! -s "$out" ]; then
    [ "$status" -ne 0 ] || status=1
fi
exit "$status"
