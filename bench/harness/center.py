"""Row 12 (issues #29 and #34, target 6): the notification center opened with 1,000 entries in the
history → its first buffer commit, timed like the other rows from toastd's WAYLAND_DEBUG log: from
the moment the `center` request is sent on the control socket (no CLI start in the figure) to the
first attach-and-commit after it. It includes the compositor's round trip to the panel's first
configure. Absolute: neither anchor has a center.

Also its own paint of that first frame, read from toastd's log line ("drawing X ms"), with 1,000
entries and with 10: the center draws only the rows in view, so the two should be alike.
"""

import os
import re
import time

from jeepney.io.blocking import open_dbus_connection

from . import procs
from .heavy import _notify, _pipeline, _ids
from .report import stats

ENTRIES = 1_000
FEW = 10
SAMPLES = 24              # ≥ 20 opens for the p50/p90
FEW_SAMPLES = 12
TARGET_MS = 16.0          # one frame at 60 Hz
_DRAWING = re.compile(r"center open: (\d+) entries, first frame drawn ([\d.]+) ms after the request \(drawing ([\d.]+) ms\)")


class CenterOpen:
    def __init__(self, env, toastd, results, say, log_dir):
        self.env = env
        self.toastd = toastd
        self.results = results
        self.say = say
        self.config = os.path.join(log_dir, "center-bench.conf")

    def _fill(self, count):
        """`count` notifications sent and dismissed: the history holds them (newest first)."""
        self.toastd.dismiss_all()
        self.toastd._request(b'{"v":1,"request":"history_clear"}\n')
        conn = open_dbus_connection(bus=self.env["DBUS_SESSION_BUS_ADDRESS"])
        try:
            deadline = time.monotonic() + 120
            calls = [_notify(f"app-{i % 12}", f"Entry {i}", f"body of entry {i}, one line", expire_ms=0)
                     for i in range(count)]
            ids = _ids(_pipeline(conn, calls, deadline))
        finally:
            conn.close()
        if len(ids) != count:
            raise RuntimeError(f"{len(ids)} of {count} notifications accepted")
        self.toastd.wait_idle(0.3, timeout_s=60)
        self.toastd.dismiss_all()  # dismissed, they go to the history
        self.toastd.wait_idle(0.3, timeout_s=60)

    def _open_once(self):
        """(µs from the request to the first commit, ms its paint took per toastd's log, entries)."""
        daemon = self.toastd
        daemon.wait_idle(0.2)
        daemon.log.skip_to_end()
        t0 = procs.realtime_us32()
        daemon._request(b'{"v":1,"request":"center","mode":"open"}\n')
        latency = daemon.log.wait_first_commit(t0)
        # The log line comes with the first frame; the lines read for the commit are gone, so wait
        # on what follows as well as the file's tail.
        drawing = entries = None
        deadline = time.monotonic() + 2
        with open(daemon.log_path, errors="replace") as f:
            while drawing is None and time.monotonic() < deadline:
                for m in _DRAWING.finditer(f.read()):
                    entries, drawing = int(m.group(1)), float(m.group(3))
                if drawing is None:
                    time.sleep(0.005)
        daemon._request(b'{"v":1,"request":"center","mode":"close"}\n')
        return latency, drawing, entries

    def run(self):
        with open(self.config, "w") as f:
            f.write(f"history = {ENTRIES}\nshadow = none\n")
        daemon = self.toastd
        daemon.extra_args = ["--config", self.config]
        try:
            daemon.start(debug=True)
            for count, samples, key in ((ENTRIES, SAMPLES, "center_open"), (FEW, FEW_SAMPLES, "center_open_few")):
                self._fill(count)
                paints = []
                for _ in range(samples):
                    latency, drawing, entries = self._open_once()
                    self.results.add(f"{key}.toastd", latency)
                    if drawing is not None:
                        self.results.add(f"center_paint_{count}.toastd", drawing * 1000)
                        paints.append(drawing)
                    if entries is not None and entries != count:
                        self.results.miss(f"{key}.toastd", f"the center listed {entries}, not {count}")
                if paints:
                    paint = stats([p * 1000 for p in paints])
                    self.say(f"    center with {count} entries: paint of the first frame {paint['median']:.2f} ms "
                             f"(median of {paint['n']}; p90 {paint['p90']:.2f} ms)")
            daemon.check_alive()
        except (RuntimeError, OSError, TimeoutError) as e:
            self.results.deaths.append(f"center: toastd: {e}")
            for key in ("center_open", "center_open_few", f"center_paint_{ENTRIES}", f"center_paint_{FEW}"):
                self.results.miss(f"{key}.toastd", str(e)[:160])
        finally:
            daemon.stop()
            daemon.extra_args = []
