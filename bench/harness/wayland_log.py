"""Reads a daemon's WAYLAND_DEBUG=1 log to find when it committed a buffer.

libwayland 1.21 prints every request and event as `[%7u.%03u] ...`, the two numbers being
(µs / 1000) and (µs % 1000) of CLOCK_REALTIME in µs truncated to 32 bits. Requests start with
` -> `. The harness stamps its own CLOCK_REALTIME µs (mod 2^32) when it spawns a CLI or sends a
request, then looks for the first `wl_surface@N.commit()` that follows a
`wl_surface@N.attach(wl_buffer@...)` stamped at or after that moment: the first frame with content
that the compositor could show. The same rule times every daemon (mako, wob, toastd).
"""

import os
import re
import time

WRAP = 1 << 32
_STAMP = re.compile(r"^\[\s*(\d+)\.(\d{3})\]\s+(.*)$")
_ATTACH = re.compile(r"^-> wl_surface@(\d+)\.attach\(wl_buffer@\d+")
_COMMIT = re.compile(r"^-> wl_surface@(\d+)\.commit\(\)")


def parse_line(line):
    """(stamp µs mod 2^32, message) of a WAYLAND_DEBUG line, or None for any other line."""
    m = _STAMP.match(line)
    if not m:
        return None
    return ((int(m.group(1)) * 1000 + int(m.group(2))) % WRAP, m.group(3).strip())


def elapsed_us(start, end):
    """end - start in µs on the 32-bit wrapping clock (negative if end is before start)."""
    d = (end - start) % WRAP
    return d - WRAP if d >= WRAP // 2 else d


class FirstCommitFinder:
    """Applies the attach-then-commit rule to lines fed in order."""

    def __init__(self, since_us32):
        self.since = since_us32
        self.attached = set()  # surfaces with a buffer attached since `since`

    def feed(self, stamp, message):
        """Returns the stamp of the first buffer commit, or None while there is none yet."""
        if elapsed_us(self.since, stamp) < 0:
            return None
        m = _ATTACH.match(message)
        if m:
            self.attached.add(m.group(1))
            return None
        m = _COMMIT.match(message)
        if m and m.group(1) in self.attached:
            return stamp
        return None


def first_commit_in(lines, since_us32):
    """The first buffer commit at or after since_us32 in an iterable of log lines (or None)."""
    finder = FirstCommitFinder(since_us32)
    for line in lines:
        parsed = parse_line(line)
        if parsed:
            hit = finder.feed(*parsed)
            if hit is not None:
                return hit
    return None


class WaylandLog:
    """Follows a log file a daemon writes its stderr to; reads only complete new lines."""

    def __init__(self, path):
        self.path = path
        self._file = open(path, "rb")
        self._partial = b""

    def size(self):
        """Bytes written so far (the harness waits for this to stop growing)."""
        return os.stat(self.path).st_size

    def new_lines(self):
        chunk = self._file.read()
        if not chunk:
            return []
        data = self._partial + chunk
        *lines, self._partial = data.split(b"\n")
        return [line.decode("utf-8", "replace") for line in lines]

    def skip_to_end(self):
        self.new_lines()

    def wait_first_commit(self, since_us32, timeout_s=2.0):
        """Reads lines until the first buffer commit at or after since_us32; returns the latency
        in µs, or None if none came within timeout_s."""
        finder = FirstCommitFinder(since_us32)
        deadline = time.monotonic() + timeout_s
        while True:
            for line in self.new_lines():
                parsed = parse_line(line)
                if parsed:
                    hit = finder.feed(*parsed)
                    if hit is not None:
                        return elapsed_us(since_us32, hit)
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.0005)

    def close(self):
        self._file.close()
