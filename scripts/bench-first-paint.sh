#!/usr/bin/env bash
# First paint on a 100,000-entry folder: makes the folder once (empty files
# named like camera photos, plus a few sub-folders and non-photos), then runs
# the project's own benchmark command on it.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${BENCH_DIR:-bench-data/100k}"
count="${BENCH_COUNT:-100000}"
bin="${PICKER_BENCH_BIN:-.build/release/picker-bench}"

if [ ! -f "$dir/.complete-$count" ]; then
  echo "making $dir with $count entries…"
  rm -rf "$dir"
  python3 - "$dir" "$count" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])
os.makedirs(root)
for n in range(20):
    os.makedirs(os.path.join(root, f"Album {n}"))
for n in range(count - 20):
    # Mostly photos, some other files the listing has to skip.
    name = f"IMG_{n:06d}.jpg" if n % 50 else f"notes_{n}.txt"
    open(os.path.join(root, name), "wb").close()
open(os.path.join(root, f".complete-{count}"), "wb").close()
PY
fi
"$bin" first-paint "$dir" --runs "${BENCH_RUNS:-7}" "$@"
