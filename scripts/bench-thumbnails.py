#!/usr/bin/env python3
"""Thumbnail speed of picker-tui next to other tools, on the same photos.

Usage:
  scripts/bench-thumbnails.py BENCHDIR [--binary .build/release/picker-bench]
        [--runs 5] [--json] [--only-tools] [--tools vipsthumbnail,timg,chafa]
        [--sets exif,plain] [--jobs N]

BENCHDIR is made by scripts/make-bench-photos.py: BENCHDIR/exif holds
camera-like JPEGs with an embedded EXIF thumbnail, BENCHDIR/plain the same
pictures without one.

What runs, for each of the two folders:

  picker-tui   `BINARY thumbnails DIR --json --cold` (empty thumbnail
               cache) and `BINARY thumbnails DIR --json` (the command
               fills a private cache, then measures reading it). Each prints
               one JSON object: files, per_second, p50_ms, p95_ms,
               first40_ms, peak_rss_mb; those numbers are reported as given.
  vipsthumbnail  `vipsthumbnail --size 128 -o TMP/%s.jpg FILE...`
  chafa          `chafa --format symbols --size 16x8 --colors full FILE...`
               Both are single-image-at-a-time programs, so the files are
               dealt out over --jobs processes (default: one per CPU) run
               at once.
  timg           `timg -g16x8 -pq --threads=N FILE...`, one process, which
               decodes on N threads (N = --jobs; timg's own default is half
               the CPUs).

chafa and timg write to /dev/null, not a terminal. A tool that is not
installed is skipped with a note. For the tools, files/s is the number of
files over the wall time (time.perf_counter) from starting the first
process to the end of the last one.

Peak RSS of a tool is ru_maxrss of each of its processes, read from
os.wait4 for that process alone; the table shows the largest one and how
many ran at once (so the worst case together is at most that many times
it). picker-tui's peak RSS is what it reports itself.

To keep machine noise fair, the measurements are interleaved: every run
goes once through every (folder, tool) pair, starting one pair later than
the run before. Before the first run every photo is read once, so all tools
find the files in the page cache. The table shows the median over --runs
and the min-max; the ratio columns are picker-tui's files/s (cold and warm)
divided by the tool's. With --json the same numbers go to stdout as one
JSON object and the table to stderr.

Standard-library Python only.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PICKER_KEYS = ("files", "per_second", "p50_ms", "p95_ms", "first40_ms", "peak_rss_mb")
TOOLS = ("vipsthumbnail", "timg", "chafa")
SETS = ("exif", "plain")
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".JPG", ".JPEG")
RSS_NOTE = ("tools: ru_maxrss from os.wait4 per process, largest process shown, "
            "xN = processes at once; picker-tui: its own peak_rss_mb")


class BenchError(Exception):
    pass


def say(*parts):
    print(*parts, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# picker-tui
# --------------------------------------------------------------------------

def picker_command(binary, folder, cold):
    command = [binary, "thumbnails", folder, "--json"]
    if cold:
        command.append("--cold")
    return command


def run_picker(binary, folder, cold, timeout):
    command = picker_command(binary, folder, cold)
    shown = " ".join(command)
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=timeout)
    except FileNotFoundError:
        raise BenchError("picker-tui: %s not found; build it (make build) or pass "
                         "--binary, or use --only-tools to skip it" % binary)
    except PermissionError:
        raise BenchError("picker-tui: %s is not executable" % binary)
    except subprocess.TimeoutExpired:
        raise BenchError("picker-tui: `%s` took longer than %d s" % (shown, timeout))
    stderr = done.stderr.decode("utf-8", "replace").strip()
    if done.returncode != 0:
        raise BenchError(
            "picker-tui: `%s` failed (exit status %d)%s\n"
            "  (does this build have picker-bench's `thumbnails` subcommand? "
            "--only-tools skips picker-tui)"
            % (shown, done.returncode, ":\n  " + tail(stderr) if stderr else ""))
    text = done.stdout.decode("utf-8", "replace").strip()
    try:
        result = json.loads(text)
    except ValueError:
        raise BenchError("picker-tui: `%s` did not print one JSON object; it printed:\n  %s"
                         % (shown, tail(text) or "(nothing)"))
    if not isinstance(result, dict):
        raise BenchError("picker-tui: `%s` printed JSON that is not an object: %s"
                         % (shown, text[:200]))
    missing = [k for k in PICKER_KEYS if not isinstance(result.get(k), (int, float))]
    if missing:
        raise BenchError("picker-tui: `%s` printed JSON without numbers for %s: %s"
                         % (shown, ", ".join(missing), text[:300]))
    return {k: float(result[k]) for k in PICKER_KEYS}


def tail(text, lines=6):
    return "\n  ".join(text.splitlines()[-lines:])


# --------------------------------------------------------------------------
# Other tools
# --------------------------------------------------------------------------

def deal(files, jobs):
    """Files dealt round-robin into at most jobs non-empty chunks."""
    chunks = [files[i::jobs] for i in range(jobs)]
    return [c for c in chunks if c]


def tool_commands(tool, files, jobs, scratch):
    """The processes to start at once for one run of a tool."""
    if tool == "vipsthumbnail":
        return [["vipsthumbnail", "--size", "128", "-o", os.path.join(scratch, "%s.jpg")] + chunk
                for chunk in deal(files, jobs)]
    if tool == "chafa":
        return [["chafa", "--format", "symbols", "--size", "16x8", "--colors", "full"] + chunk
                for chunk in deal(files, jobs)]
    if tool == "timg":
        return [["timg", "-g16x8", "-pq", "--threads=%d" % jobs] + files]
    raise ValueError(tool)


def describe(tool, jobs):
    return {
        "vipsthumbnail": "vipsthumbnail --size 128 -o TMP/%%s.jpg, files over %d processes" % jobs,
        "chafa": "chafa --format symbols --size 16x8 --colors full > /dev/null, "
                 "files over %d processes" % jobs,
        "timg": "timg -g16x8 -pq --threads=%d > /dev/null, one process" % jobs,
    }[tool]


def maxrss_mb(usage):
    # Linux reports KiB, macOS bytes.
    if sys.platform == "darwin":
        return usage.ru_maxrss / (1024 * 1024)
    return usage.ru_maxrss / 1024


def run_tool(tool, files, jobs, scratch):
    """Run one tool over all files; returns (files/s, seconds, largest
    process RSS in MB, process count)."""
    commands = tool_commands(tool, files, jobs, scratch)
    started = []
    begin = time.perf_counter()
    try:
        for command in commands:
            err = tempfile.TemporaryFile()
            try:
                process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                           stdout=subprocess.DEVNULL, stderr=err)
            except OSError as error:
                err.close()
                raise BenchError("%s could not be started: %s" % (tool, error))
            started.append((process, err))
        peaks, failures = [], []
        for process, err in started:
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            peaks.append(maxrss_mb(usage))
            if process.returncode != 0:
                err.seek(0)
                message = err.read().decode("utf-8", "replace").strip()
                failures.append("exit status %d%s" % (
                    process.returncode, ": " + tail(message, 3) if message else ""))
        seconds = time.perf_counter() - begin
    finally:
        for process, err in started:
            if process.returncode is None:
                process.kill()
                process.wait()
            err.close()
        for name in os.listdir(scratch):
            os.remove(os.path.join(scratch, name))
    if failures:
        raise BenchError("%s failed on %s/: %s" % (tool, os.path.basename(
            os.path.dirname(files[0])), failures[0]))
    return len(files) / seconds, seconds, max(peaks), len(commands)


# --------------------------------------------------------------------------
# Numbers and table
# --------------------------------------------------------------------------

def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def fmt_spread(s, digits=1):
    if s is None:
        return "-"
    form = "%%.%df" % digits
    return (form + " (" + form + "-" + form + ")") % (s["median"], s["min"], s["max"])


def fmt_ratio(r):
    return "-" if r is None else "%.2fx" % r


def photo_files(folder):
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(PHOTO_SUFFIXES))
    except FileNotFoundError:
        return []
    return [os.path.join(folder, n) for n in names]


def read_all(files):
    """Read every photo once so every tool starts with them in the page cache."""
    total = 0
    for path in files:
        with open(path, "rb") as f:
            while True:
                block = f.read(1 << 20)
                if not block:
                    break
                total += len(block)
    return total


def table(report):
    lines = []
    header = ("%-24s %-24s %-21s %-21s %-21s %-14s %-12s %-12s"
              % ("", "files/s", "p50 ms", "p95 ms", "first40 ms", "peak RSS MB",
                 "cold/tool", "warm/tool"))
    for name, s in report["sets"].items():
        lines.append("")
        lines.append("%s/: %d files, %.2f-%.2f MB each; median (min-max) of %d runs, %d CPUs"
                     % (name, s["files"], s["min_mb"], s["max_mb"], report["runs"],
                        report["cpus"]))
        lines.append(header)
        picker = s.get("picker")
        if picker:
            for mode, label in (("cold", "picker-tui cold"), ("warm", "picker-tui warm")):
                m = picker[mode]
                lines.append("%-24s %-24s %-21s %-21s %-21s %-14s %-12s %-12s" % (
                    label, fmt_spread(m["per_second"]), fmt_spread(m["p50_ms"], 2),
                    fmt_spread(m["p95_ms"], 2), fmt_spread(m["first40_ms"], 1),
                    "%.1f" % m["peak_rss_mb"]["median"], "", ""))
                if m["files"]["median"] != s["files"]:
                    lines.append("  note: picker-tui counted %d files, the folder has %d"
                                 % (m["files"]["median"], s["files"]))
        for tool, t in s["tools"].items():
            ratios = s["ratios"].get(tool, {})
            lines.append("%-24s %-24s %-21s %-21s %-21s %-14s %-12s %-12s" % (
                tool, fmt_spread(t["per_second"]), "-", "-", "-",
                "%.1f x%d" % (t["peak_rss_mb"]["median"], t["processes"]),
                fmt_ratio(ratios.get("cold")), fmt_ratio(ratios.get("warm"))))
    lines.append("")
    lines.append("ratios: picker-tui files/s (cold, warm) / the tool's files/s")
    lines.append("peak RSS: " + RSS_NOTE)
    for tool, how in report["commands"].items():
        lines.append("%s: %s" % (tool, how))
    for tool, why in report["skipped"].items():
        lines.append("skipped %s: %s" % (tool, why))
    return "\n".join(lines)


# --------------------------------------------------------------------------

def resolve_binary(binary):
    if os.path.isabs(binary) or os.path.exists(binary):
        return os.path.abspath(binary)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidate = os.path.join(repo, binary)
    return candidate if os.path.exists(candidate) else os.path.abspath(binary)


def main(argv):
    parser = argparse.ArgumentParser(
        description="Thumbnail speed of picker-tui next to vipsthumbnail, timg and chafa.")
    parser.add_argument("benchdir", help="folder made by scripts/make-bench-photos.py")
    parser.add_argument("--binary", default=".build/release/picker-bench",
                        help="picker-bench to measure with (default .build/release/picker-bench, "
                             "from here or the repository root)")
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (5)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object on stdout (the table goes to stderr)")
    parser.add_argument("--only-tools", action="store_true", help="do not run picker-tui")
    parser.add_argument("--tools", default=",".join(TOOLS),
                        help="tools to compare with (default %s)" % ",".join(TOOLS))
    parser.add_argument("--sets", default=",".join(SETS),
                        help="sub-folders of BENCHDIR (default %s)" % ",".join(SETS))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes (threads for timg) per tool (default: CPUs)")
    parser.add_argument("--timeout", type=int, default=1800,
                        help="seconds one picker-tui run may take (1800)")
    args = parser.parse_args(argv[1:])
    if args.runs < 1 or args.jobs < 1:
        parser.error("--runs and --jobs must be at least 1")
    tools = [t for t in args.tools.split(",") if t]
    unknown = [t for t in tools if t not in TOOLS]
    if unknown:
        parser.error("unknown tool %s (known: %s)" % (", ".join(unknown), ", ".join(TOOLS)))
    sets = [s for s in args.sets.split(",") if s]

    folders = {}
    for name in sets:
        folder = os.path.join(args.benchdir, name)
        files = photo_files(folder)
        if not files:
            say("bench-thumbnails: no photos in %s; make them with "
                "scripts/make-bench-photos.py %s" % (folder, args.benchdir))
            return 2
        folders[name] = (os.path.abspath(folder), [os.path.abspath(f) for f in files])

    skipped = {}
    present = []
    for tool in tools:
        if shutil.which(tool):
            present.append(tool)
        else:
            skipped[tool] = "not installed (Debian: %s)" % {
                "vipsthumbnail": "libvips-tools", "timg": "timg", "chafa": "chafa"}[tool]
            say("note: %s is not installed, skipping it" % tool)
    binary = None if args.only_tools else resolve_binary(args.binary)
    if binary is None:
        skipped["picker-tui"] = "--only-tools"
    elif not os.path.exists(binary):
        say("bench-thumbnails: picker-tui: %s not found; build it (make build) or pass "
            "--binary, or use --only-tools to skip it" % binary)
        return 1
    if binary is None and not present:
        say("bench-thumbnails: nothing to measure")
        return 2

    # Every (folder, what) pair, visited once per run in a rotating order.
    tasks = []
    for name in sets:
        if binary:
            tasks += [(name, "picker-cold"), (name, "picker-warm")]
        tasks += [(name, tool) for tool in present]

    total = sum(read_all(files) for _, files in folders.values())
    say("%d photos (%.0f MB) read into the page cache; %d run%s of %d measurements"
        % (sum(len(f) for _, f in folders.values()), total / 1e6, args.runs,
           "" if args.runs == 1 else "s", len(tasks)))

    samples = {task: [] for task in tasks}
    scratch = tempfile.mkdtemp(prefix="bench-thumbnails-")
    try:
        for run in range(args.runs):
            shift = run % len(tasks)
            for task in tasks[shift:] + tasks[:shift]:
                name, what = task
                folder, files = folders[name]
                if what.startswith("picker-"):
                    result = run_picker(binary, folder, what == "picker-cold", args.timeout)
                    samples[task].append(result)
                    say("run %d %s/ %s: %.1f files/s" % (run + 1, name, what,
                                                        result["per_second"]))
                else:
                    per_second, seconds, rss, processes = run_tool(what, files, args.jobs, scratch)
                    samples[task].append({"per_second": per_second, "seconds": seconds,
                                          "peak_rss_mb": rss, "processes": processes})
                    say("run %d %s/ %s: %.1f files/s (%.2f s)" % (run + 1, name, what,
                                                                 per_second, seconds))
    except BenchError as error:
        say("bench-thumbnails: %s" % error)
        return 1
    except KeyboardInterrupt:
        say("bench-thumbnails: interrupted")
        return 130
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    report = {
        "benchdir": os.path.abspath(args.benchdir),
        "binary": binary,
        "runs": args.runs,
        "cpus": os.cpu_count(),
        "jobs": args.jobs,
        "rss_measure": RSS_NOTE,
        "commands": {t: describe(t, args.jobs) for t in present},
        "skipped": skipped,
        "sets": {},
    }
    if binary:
        report["commands"]["picker-tui"] = " ".join(
            picker_command(binary, "DIR", True)) + " (cold) / without --cold (warm)"
    for name in sets:
        folder, files = folders[name]
        sizes = [os.path.getsize(f) for f in files]
        entry = {"files": len(files), "min_mb": min(sizes) / 1e6, "max_mb": max(sizes) / 1e6,
                 "picker": None, "tools": {}, "ratios": {}}
        if binary:
            entry["picker"] = {
                mode: {k: spread([r[k] for r in samples[(name, "picker-" + mode)]])
                       for k in PICKER_KEYS}
                for mode in ("cold", "warm")}
        for tool in present:
            runs = samples[(name, tool)]
            entry["tools"][tool] = {
                "per_second": spread([r["per_second"] for r in runs]),
                "seconds": spread([r["seconds"] for r in runs]),
                "peak_rss_mb": spread([r["peak_rss_mb"] for r in runs]),
                "processes": runs[0]["processes"],
            }
            if binary:
                tool_rate = entry["tools"][tool]["per_second"]["median"]
                entry["ratios"][tool] = {
                    mode: entry["picker"][mode]["per_second"]["median"] / tool_rate
                    for mode in ("cold", "warm")}
        report["sets"][name] = entry

    text = table(report)
    if args.json:
        say(text)
        print(json.dumps(report, indent=2))
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
