"""Processes the harness starts, and what /proc says about them.

Every process is started through `spawn`, which records it, so `stop_all` (run at exit and on
SIGINT/SIGTERM/SIGHUP) can end exactly the processes this run started, by pid, and nothing else.
"""

import os
import signal
import subprocess
import time

_started = []  # Popen objects this run started, oldest first.


def realtime_us32():
    """CLOCK_REALTIME in µs, truncated to 32 bits: the clock of libwayland's WAYLAND_DEBUG stamps."""
    return (time.clock_gettime_ns(time.CLOCK_REALTIME) // 1000) & 0xFFFFFFFF


def monotonic_s():
    return time.monotonic()


def spawn(argv, env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
    """Starts argv and records it for cleanup."""
    proc = subprocess.Popen(argv, env=env, stdin=stdin, stdout=stdout, stderr=stderr)
    _started.append(proc)
    return proc


def stop(proc, timeout_s=3.0):
    """SIGTERM, then SIGKILL if it has not exited within timeout_s. Returns the exit status."""
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        except ProcessLookupError:
            pass
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            try:
                pipe.close()
            except OSError:
                pass
    if proc in _started:
        _started.remove(proc)
    return proc.returncode


def stop_all():
    """Stops every process this run started that still runs, newest first."""
    for proc in reversed(list(_started)):
        stop(proc, timeout_s=2.0)


def install_cleanup(extra=None):
    """Stops everything on SIGINT, SIGTERM and SIGHUP (then exits), and lets callers run `extra`."""
    def on_signal(signum, _frame):
        stop_all()
        if extra:
            extra()
        os._exit(128 + signum)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)


# ---- /proc readers -------------------------------------------------------------------------------

def _tasks(pid):
    try:
        return os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return []


def cpu_ns(pid):
    """Nanoseconds on CPU of all the process's live threads (/proc/PID/task/*/schedstat field 1)."""
    total = 0
    for tid in _tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            pass
    return total


def context_switches(pid):
    """Voluntary + nonvoluntary context switches of all the process's live threads."""
    total = 0
    for tid in _tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                        total += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def rss_kib(pid):
    """VmRSS in KiB (resident anonymous + file + shmem pages)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


def memory_mb(pid):
    """(Anonymous, PSS, RSS) in MB from /proc/PID/smaps_rollup. Anonymous is what no page cache gives
    back (heap, stacks, relocated data): the memory the desktop pays for this process alone. PSS shares
    each resident page among the processes that map it. RSS counts file pages too, which stay in the
    page cache whether a process maps them or not: reported for reference only."""
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                fields[parts[0][:-1]] = int(parts[1])
    return fields.get("Anonymous", 0) / 1024, fields.get("Pss", 0) / 1024, fields.get("Rss", 0) / 1024


def alive(pid):
    """Running and not a zombie (PID 1 here may reap orphans late)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_until_idle(pid, quiet_s=0.10, timeout_s=5.0, also_quiet=None):
    """Waits until the process has used no CPU for quiet_s (and `also_quiet()`, if given, reports
    no change either), polling every 5 ms. Returns False on timeout."""
    deadline = time.monotonic() + timeout_s
    last = (cpu_ns(pid), also_quiet() if also_quiet else None)
    since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.005)
        now = (cpu_ns(pid), also_quiet() if also_quiet else None)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return True
    return False


def poll_until(predicate, timeout_s, interval_s=0.0002):
    """Calls predicate until it returns a truthy value (returned) or timeout_s passes (None)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(interval_s)
