#!/usr/bin/python3
"""Connected Notify → the commit that shows its picture, for a 256 px PNG (image-path, a new file
each time, so nothing comes from the cache) and 4K image-data, for one toastd binary.

    bench/pictures.py TOASTD_BINARY LABEL [-n SAMPLES]

Run on a stage (scripts/stage start; STAGE_DIR set). Pictures are decoded off the loop, so a toast is
first committed without its picture and again with it: the row is the last commit within a second
of the call (animations off, so nothing else commits). Compare a build with the picture helper and
one built with `-Xswiftc -DTOASTD_PICTURES_IN_PROCESS` (docs/security.md, "Pictures").
"""
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import dbus

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness"))
from wayland_log import WaylandLog, elapsed_us, parse_line  # noqa: E402

BUS_NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def png(path, side, seed):
    """A side × side RGBA PNG whose colours depend on seed (so each file is new)."""
    rows = b"".join(b"\x00" + bytes((x * 7 + seed) & 0xFF for x in range(side)) * 4 for _ in range(side))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


def stamp_us32():
    return time.clock_gettime_ns(time.CLOCK_REALTIME) // 1000 % (1 << 32)


def last_commit(log, since, quiet_s=0.4, limit_s=3.0):
    """The stamp of the last wl_surface commit at or after since, once the log is quiet."""
    last, end, quiet_until = None, time.monotonic() + limit_s, time.monotonic() + quiet_s
    while time.monotonic() < min(end, quiet_until):
        lines = log.new_lines()
        if lines:
            quiet_until = time.monotonic() + quiet_s
        for line in lines:
            parsed = parse_line(line)
            if parsed and elapsed_us(since, parsed[0]) >= 0 and ".commit()" in parsed[1]:
                last = parsed[0]
        time.sleep(0.002)
    return None if last is None else elapsed_us(since, last)


def main():
    binary, label = sys.argv[1], sys.argv[2]
    samples = int(sys.argv[sys.argv.index("-n") + 1]) if "-n" in sys.argv else 15
    stage = os.environ["STAGE_DIR"]
    env = dict(os.environ)
    for line in open(os.path.join(stage, "env")):
        key, _, value = line.strip().partition("=")
        env[key] = value
    work = tempfile.mkdtemp(prefix="toastd-bench-pictures-")
    config = os.path.join(work, "config")
    with open(config, "w") as f:
        f.write("animations = false\nshadow = none\n")
    log_path = os.path.join(work, "wayland.log")
    env.update(WAYLAND_DEBUG="1", TOASTD_SOCKET=os.path.join(work, "toastd.sock"))
    daemon = subprocess.Popen([binary, "--config", config], env=env, stdout=subprocess.DEVNULL,
                              stderr=open(log_path, "wb"))
    bus = dbus.bus.BusConnection(env["DBUS_SESSION_BUS_ADDRESS"])
    deadline = time.monotonic() + 15
    while not bus.name_has_owner(BUS_NAME) and time.monotonic() < deadline:
        time.sleep(0.05)
    log = WaylandLog(log_path)
    width, height = 3840, 2160
    four_k = dbus.Struct((width, height, width * 4, True, 8, 4, dbus.ByteArray(bytes([200, 40, 40, 255]) * (width * height))),
                         signature="iiibiiay")
    rows = {"256 px PNG": [], "4K image-data": []}
    try:
        for index in range(samples + 1):  # the first of each is the helper's start: left out
            for row in rows:
                if row == "256 px PNG":
                    path = os.path.join(work, f"picture-{index}.png")
                    png(path, 256, index)
                    hints = {"image-path": dbus.String(path)}
                else:
                    hints = {"image-data": four_k}
                last_commit(log, stamp_us32(), quiet_s=0.2)
                since = stamp_us32()
                nid = bus.call_blocking(BUS_NAME, PATH, BUS_NAME, "Notify", "susssasa{sv}i",
                                        ["bench", 0, "", row, "", [], hints, -1], timeout=30)
                latency = last_commit(log, since)
                bus.call_blocking(BUS_NAME, PATH, BUS_NAME, "CloseNotification", "u", [nid])
                if index > 0 and latency is not None:
                    rows[row].append(latency / 1000)
        for row, values in rows.items():
            print(f"{label}\t{row}\tmedian {statistics.median(values):.2f} ms\tmin {min(values):.2f}\t"
                  f"max {max(values):.2f}\tn={len(values)}")
    finally:
        daemon.terminate()
        daemon.wait()


if __name__ == "__main__":
    main()
