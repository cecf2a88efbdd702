"""Why a frame callback was answered late (row 11): the daemon's own work, or the machine's.

`perf record -a -e sched:sched_switch -e sched:sched_wakeup -k monotonic` during a run tells, for each
stretch from a frame callback's `done` to the commit that answered it, how long the daemon's thread was
on a CPU, runnable but waiting for one (other processes had both CPUs: the burst's client, the bus
daemon, sway compositing 4K with pixman), and asleep. A late frame with little on-CPU time is
scheduler noise; one with more than a refresh period on a CPU is ours to make cheaper.
The same split gives row 11's CPU per drawn frame: the daemon's time on a CPU from each callback's
`done` to the commit that answers it. The 4K row records it whenever perf can trace (BENCH_SCHED=0
turns it off).
"""

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from .wayland_log import WRAP, elapsed_us

# One `perf script -F comm,pid,tid,cpu,time,event,trace` line.
_LINE = re.compile(r"^\s*.*?\s+\d+/\d+\s+\[\d+\]\s+([\d.]+): sched:(sched_switch|sched_wakeup): (.*)$")
_FIELD = re.compile(r"(\w+)=(\S+)")


def sched_states(lines, pid, offset_us):
    """[(realtime µs, state)] of thread `pid` from perf script lines, in order: "run" when switched in,
    "wait" when woken or preempted (runnable), "sleep" when it switched out asleep. `offset_us` is
    CLOCK_REALTIME − CLOCK_MONOTONIC, the events being stamped on the monotonic clock."""
    pid, states = str(pid), []
    for line in lines:
        m = _LINE.match(line)
        if not m:
            continue
        at = float(m.group(1)) * 1e6 + offset_us
        fields = dict(_FIELD.findall(m.group(3).replace(" ==> ", " ")))
        if m.group(2) == "sched_switch":
            if fields.get("prev_pid") == pid:
                states.append((at, "wait" if fields.get("prev_state", "").startswith("R") else "sleep"))
            if fields.get("next_pid") == pid:
                states.append((at, "run"))
        elif fields.get("pid") == pid:
            states.append((at, "wait"))
    return states


def split(start_us32, end_us32, states):
    """(on a CPU, waiting for one, asleep) in µs between two WAYLAND_DEBUG stamps (µs mod 2^32), from
    `sched_states` (full realtime µs); None when the states do not reach that far back."""
    if not states or states[0][0] > states[-1][0]:
        return None
    base = states[0][0]
    base32 = int(base) % WRAP
    start, end = base + elapsed_us(base32, start_us32), base + elapsed_us(base32, end_us32)
    if start < base:
        return None
    spent = {"run": 0.0, "wait": 0.0, "sleep": 0.0}
    state, last = "sleep", start
    for at, new in states:
        if at <= start:
            state = new
            continue
        if at >= end:
            break
        spent[state] += at - last
        state, last = new, at
    spent[state] += end - last
    return spent["run"], spent["wait"], spent["sleep"]


def frame_cpu_us(intervals, states):
    """[µs on a CPU] for each (done, commit) stretch of `frame_intervals` that the recording covers."""
    parts = (split(done, commit, states) for done, commit in intervals)
    return [p[0] for p in parts if p]


class SchedRecorder:
    """perf recording every CPU's scheduler switches and wakeups while it runs."""

    @staticmethod
    def usable():
        """Whether perf is installed and may trace scheduler events here."""
        if shutil.which("perf") is None:
            return False
        probe = subprocess.run(["perf", "record", "-q", "-a", "-e", "sched:sched_switch", "-o", "/dev/null", "true"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        return probe.returncode == 0

    def __init__(self):
        self.path = os.path.join(tempfile.mkdtemp(prefix="toastd-bench-sched-"), "sched.perf")
        self.proc = None
        self.offset_us = 0.0

    def start(self):
        self.offset_us = (time.clock_gettime_ns(time.CLOCK_REALTIME) - time.clock_gettime_ns(time.CLOCK_MONOTONIC)) / 1000
        self.proc = subprocess.Popen(["perf", "record", "-q", "-a", "-k", "monotonic", "-e", "sched:sched_switch",
                                      "-e", "sched:sched_wakeup", "-o", self.path],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)  # perf opens its events before the run begins

    def stop(self):
        """The recording as perf script lines."""
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=60)
        out = subprocess.run(["perf", "script", "-i", self.path, "-F", "comm,pid,tid,cpu,time,event,trace"],
                             capture_output=True, text=True, timeout=300).stdout
        os.unlink(self.path)
        os.rmdir(os.path.dirname(self.path))
        return out.splitlines()
