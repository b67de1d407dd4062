#!/usr/bin/env bash
# Builds the libFuzzer harnesses and runs each for FUZZ_SECONDS (`make fuzz`,
# `make fuzz-smoke`). Exits 1 if any harness crashed, hung or ran out of
# memory; the input that did it is kept under .build-fuzz/runs/<harness>/.
#   Fuzz/run.sh [harness...]   default: all of them
set -uo pipefail
cd "$(dirname "$0")/.."

swift="${SWIFT:-swift}"
seconds="${FUZZ_SECONDS:-60}"
# Only this folder: the default .build belongs to the normal build.
scratch=.build-fuzz
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(config jsonrpc web-listing input-decoder image-decoder dav-listing png-writer xmp-culling)

"$swift" build -c release --package-path Fuzz --scratch-path "$scratch" || exit 1
bin="$("$swift" build -c release --package-path Fuzz --scratch-path "$scratch" --show-bin-path)"

# The Swift runtime's backtracer would take over the crash signals and can
# hang after libFuzzer's own handler; libFuzzer and ASan print the trace.
export SWIFT_BACKTRACE=enable=no
# Leaks found inside Debian's libraries are listed there, with the reason.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0"

failed=0
for harness in "${harnesses[@]}"; do
  run="$scratch/runs/$harness"
  # A fresh copy of the seeds: what the fuzzer adds stays out of the repo.
  rm -rf "$run"
  mkdir -p "$run/corpus"
  cp Fuzz/corpus/"$harness"/* "$run/corpus/"
  # The tokens of the format: Swift's string compares are not instrumented,
  # so the fuzzer would hardly guess keywords such as "sources" alone.
  case $harness in
    jsonrpc | web-listing) dict=Fuzz/dict/json.dict ;;
    dav-listing) dict=Fuzz/dict/xml.dict ;;
    *) dict=Fuzz/dict/$harness.dict ;;
  esac
  # The PNG writer's input is pixels, with no tokens to guess.
  dict_option=()
  [ -f "$dict" ] && dict_option=(-dict="$dict")
  # Inputs past the decoder's 4096-byte sequence limit reach its drop path.
  max_len=4096
  [ "$harness" = input-decoder ] && max_len=6000
  # Images: room for an EXIF block with its thumbnail, or a small photo.
  [ "$harness" = image-decoder ] && max_len=65536
  # -timeout: an input taking 10 s counts as a hang (a finding).
  "$bin/fuzz-$harness" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 "${dict_option[@]}" -max_len=$max_len \
    -artifact_prefix="$run/" "$run/corpus" >"$run/log" 2>&1
  status=$?
  executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log")"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$run/log")"
  if [ $status -eq 0 ]; then
    printf '%-14s %10s executions %7s/s  no crash\n' "$harness" "${executions:-?}" "${rate:-?}"
  else
    failed=1
    artifact="$(sed -n 's/.*Test unit written to //p' "$run/log" | tail -1)"
    printf '%-14s %10s executions %7s/s  CRASHED (exit %s): %s, log %s\n' "$harness" "${executions:-?}" \
      "${rate:-?}" "$status" "${artifact:-no input saved}" "$run/log"
    grep -m1 -E 'Fatal error|ERROR: ' "$run/log" | sed 's/^/    /'
  fi
done
exit $failed
