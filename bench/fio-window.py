#!/usr/bin/env python3
"""Runs fio and measures it the way bench/device-vs-fio.sh measures ssdpulse: over a steady window, all threads.

Usage: fio-window.py SKIP_SECONDS WINDOW_SECONDS fio ARGS...  (ARGS without --runtime, --time_based, --output-format)

fio runs time-based for SKIP + WINDOW + 1 seconds and prints its cumulative JSON status every second. The window
starts at the first status at or after SKIP seconds and ends WINDOW seconds later; over it the script takes
  - the I/Os fio completed (from the status documents), hence IOPS, and
  - the CPU time of every process and thread of fio (the parent with its helper thread, the job process, and the
    kernel's io_uring workers, which run as threads of the job process), read from /proc/PID/stat at each status.
Printed: IOPS, CPU us per I/O over the window (all threads), and fio's own CPU us per I/O for the whole job
(usr_cpu + sys_cpu x job_runtime / I/Os), which fio takes with getrusage(RUSAGE_THREAD): the job's own thread only.

Why: ssdpulse's figure is its whole process (JIT, GC, its I/O threads and the io_uring workers they start) over
the test phase after a warm-up. fio's own figure leaves out the io_uring workers (on a loop device they did 40 % of
the job's work: 1,083 of 2,720 ms over 6 s of 4 KiB random reads at QD256) and its parent's helper thread, and a
whole-run figure from outside adds fio's start-up and teardown (140-170 ms of CPU per run, measured as the
difference between 1-s and 5-s runs). A window measured alike on both sides compares like with like.
Resolution: /proc's CPU times are in clock ticks (10 ms); a window of 5 s at 0.3-1 CPU is 150-500 ticks.
"""
import json
import os
import subprocess
import sys

TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(root):
    """utime + stime of root and its descendants (each includes its threads, live and exited)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                parents[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
            except (OSError, IndexError, ValueError):
                pass  # the process ended meanwhile
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        if pid in parents:
            total += parents[pid][1]
        todo.extend(p for p, (ppid, _) in parents.items() if ppid == pid)
    return total * TICK_S


def main():
    skip_s, window_s = float(sys.argv[1]), float(sys.argv[2])
    runtime_s = int(skip_s + window_s + 1.999)
    cmd = sys.argv[3:] + [f"--runtime={runtime_s}", "--time_based", "--output-format=json", "--status-interval=1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    decoder, buf, docs = json.JSONDecoder(), "", []
    start = end = None
    for line in proc.stdout:
        buf += line
        stripped = buf.lstrip()
        try:
            doc, used = decoder.raw_decode(stripped)
        except ValueError:
            continue  # the document is not complete yet
        buf = stripped[used:]
        cpu = tree_cpu_seconds(proc.pid)
        job = doc["jobs"][0]
        point = (job["job_runtime"] / 1e3, job["read"]["total_ios"] + job["write"]["total_ios"], cpu)
        docs.append(doc)
        if start is None and point[0] >= skip_s:
            start = point
        elif start is not None and end is None and point[0] >= start[0] + window_s - 0.05:
            end = point
    err = proc.stderr.read()
    if proc.wait() != 0 or not docs:
        sys.exit(f"fio failed ({proc.returncode}): {err.strip()}")
    if start is None or end is None:
        sys.exit(f"fio printed no status at {skip_s} s and {window_s} s later ({len(docs)} documents)")
    final = docs[-1]["jobs"][0]
    n_all = final["read"]["total_ios"] + final["write"]["total_ios"]
    ios = end[1] - start[1]
    print(round(ios / (end[0] - start[0])), f"{(end[2] - start[2]) * 1e6 / max(ios, 1):.2f}",
          f"{(final['usr_cpu'] + final['sys_cpu']) / 100 * final['job_runtime'] * 1e3 / max(n_all, 1):.2f}")


if __name__ == "__main__":
    main()
