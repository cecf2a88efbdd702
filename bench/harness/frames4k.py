"""Row 11: smooth frames at 4K. The stage's headless output is set to 3840×2160 at 144 Hz, at scale 2
and then 1.5 (swaymsg; put back after), and toastd (WAYLAND_DEBUG=1) goes through three scenes:
fades (a toast shown, then closed, five times), stack moves (five toasts, the oldest closed while
the others slide up, five times) and a burst of 1,000 Notify calls pipelined on one connection
(from 200 app names, 5 each, so flood control does not fold them into one toast), then all closed.

From the log, per surface: every `wl_callback.done` of a frame the daemon asked for, and the next
buffer commit (attach + commit) on that surface. toastd asks for a frame callback with every commit,
the last frame of an animation too, so a callback that the next harness request (a Notify or a
close, stamped on the same clock as the log) comes before any commit was not needed, and is left
out. Any other is *answered late* when its commit comes more than one refresh period (1/144 s)
after it. done → commit is wall time spent making the frame, an upper bound of its CPU (the machine
is shared). The CPU per drawn frame is the daemon's time on a CPU within that stretch, from the
scheduler's switches (`late_cause.py`, when perf can trace): its p99 is the target's figure. In the
burst that stretch also holds the Notify calls read in the same turn of the loop, so it is an upper
bound there; fades and stack moves have no input in it. The mean CPU per commit (the daemon's CPU
over the scenes divided by its buffer commits) counts everything, the calls too. Commits made while
the surface's previous frame callback was still pending are counted as in row 8.
"""

import os
import subprocess
import time

from jeepney.io.blocking import open_dbus_connection

from . import procs
from .late_cause import SchedRecorder, frame_cpu_us, sched_states, split
from .heavy import _close, _ids, _notify, _pipeline, frame_pacing
from .wayland_log import elapsed_us, parse_line

REFRESH_MHZ = 144000
PERIOD_US = 1e9 / REFRESH_MHZ
BURST_4K = 1000
SCALES = ("2", "1.5")


def frame_intervals(lines, marks):
    """[(done, commit)] stamps (µs mod 2^32) from a frame callback's done to the surface's next buffer
    commit, for each callback whose commit came before the next of `marks` (the harness's request
    stamps, µs mod 2^32), and the number of buffer commits, over WAYLAND_DEBUG lines."""
    marks = sorted(marks)
    owner, waiting, attached, intervals, commits = {}, {}, set(), [], 0

    def input_between(start, end):
        return any(elapsed_us(start, m) >= 0 and elapsed_us(m, end) >= 0 for m in marks)

    for line in lines:
        parsed = parse_line(line)
        if not parsed:
            continue
        stamp, message = parsed
        if message.startswith("-> wl_surface@"):
            surface = message[3:].split(".", 1)[0]
            if ".frame(new id wl_callback@" in message:
                owner[message.rsplit("wl_callback@", 1)[1].rstrip(")")] = surface
            elif ".attach(wl_buffer@" in message:
                attached.add(surface)
            elif message.endswith(".commit()") and surface in attached:
                attached.discard(surface)
                commits += 1
                done_at = waiting.pop(surface, None)
                if done_at is not None and not input_between(done_at, stamp):
                    intervals.append((done_at, stamp))
            elif message.endswith(".destroy()"):
                waiting.pop(surface, None)
        elif message.startswith("wl_callback@") and ".done(" in message:
            surface = owner.pop(message[len("wl_callback@"):].split(".", 1)[0], None)
            if surface is not None:
                waiting[surface] = stamp
    return intervals, commits


def frame_answers(lines, marks):
    """[µs from a frame callback's done to the surface's next buffer commit] (see `frame_intervals`),
    and the number of buffer commits."""
    intervals, commits = frame_intervals(lines, marks)
    return [elapsed_us(done, commit) for done, commit in intervals], commits


def _percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(q * len(xs) + 0.5)) - 1))] if xs else None


class Frames4K:
    def __init__(self, bench):
        self.bench = bench
        self.env = bench.env
        self.output = self.env.get("STAGE_OUTPUT", "HEADLESS-1")
        self.marks = []
        self.scene_starts = {}  # scene → realtime µs mod 2^32 when it began, in order
        self.trace_sched = os.environ.get("BENCH_SCHED") != "0" and SchedRecorder.usable()

    def _swaymsg(self, *words):
        subprocess.run(["swaymsg", "-s", self.env["SWAYSOCK"], "--", "output", self.output, *words],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=10)

    def _scenes(self, daemon):
        marks = self.marks
        bench_client = self.bench.client

        class Client:
            """The bench's client, stamping each request (frame_answers leaves out what input caused)."""
            def notify(self, *args, **kwargs):
                marks.append(procs.realtime_us32())
                return bench_client.notify(*args, **kwargs)

            def close(self, nid):
                marks.append(procs.realtime_us32())
                bench_client.close(nid)
        client = Client()
        self.scene_starts["fades"] = procs.realtime_us32()
        for i in range(5):  # fades
            nid = client.notify(f"Fade {i}", "in, then out", expire_ms=0, app=f"fade-{i}")
            daemon.wait_idle(0.2, timeout_s=10)
            client.close(nid)
            daemon.wait_idle(0.2, timeout_s=10)
        self.scene_starts["stack moves"] = procs.realtime_us32()
        ids = [client.notify(f"Stack {i}", "moves up", expire_ms=0, app=f"stack-{i}") for i in range(5)]
        daemon.wait_idle(0.2, timeout_s=10)
        for i in range(5, 10):  # stack moves: the oldest closes, the rest slide
            client.close(ids.pop(0))
            ids.append(client.notify(f"Stack {i}", "moves up", expire_ms=0, app=f"stack-{i}"))
            daemon.wait_idle(0.2, timeout_s=10)
        for nid in ids:
            client.close(nid)
        daemon.wait_idle(0.2, timeout_s=10)
        self.scene_starts["burst"] = procs.realtime_us32()
        conn = open_dbus_connection(bus=self.env["DBUS_SESSION_BUS_ADDRESS"])
        try:
            deadline = time.monotonic() + 120
            burst = [_notify(f"app-{i % 200}", f"Burst {i}", f"call {i} of {BURST_4K}", expire_ms=0)
                     for i in range(BURST_4K)]
            marks.append(procs.realtime_us32())
            ids = _ids(_pipeline(conn, burst, deadline))
            daemon.wait_idle(0.3, timeout_s=60)
            marks.append(procs.realtime_us32())
            _pipeline(conn, [_close(nid) for nid in ids], deadline)
            daemon.wait_idle(0.3, timeout_s=60)
        finally:
            conn.close()

    def _late_by_scene(self, lines):
        """Callbacks answered late in each scene's stretch of the log."""
        starts = list(self.scene_starts.items())
        late = {}
        for index, (scene, start) in enumerate(starts):
            end = starts[index + 1][1] if index + 1 < len(starts) else None

            def inside(line):
                parsed = parse_line(line)
                return bool(parsed) and elapsed_us(start, parsed[0]) >= 0 and (
                    end is None or elapsed_us(parsed[0], end) > 0)
            answered, _ = frame_answers([line for line in lines if inside(line)], self.marks)
            late[scene] = sum(1 for a in answered if a > PERIOD_US)
        return late

    def run_scale(self, scale):
        daemon = self.bench.toastd
        self._swaymsg("mode", "--custom", "3840x2160@144Hz", "scale", scale)
        daemon.start(debug=True)
        try:
            daemon.wait_idle(0.3)
            daemon.log.skip_to_end()
            self.marks, self.scene_starts = [], {}
            since = procs.realtime_us32()
            recorder = SchedRecorder() if self.trace_sched else None
            if recorder:
                recorder.start()
            cpu0 = procs.cpu_ns(daemon.pid)
            self._scenes(daemon)
            cpu = procs.cpu_ns(daemon.pid) - cpu0
            sched = sched_states(recorder.stop(), daemon.pid, recorder.offset_us) if recorder else None
            lines = daemon.log.new_lines()
            intervals, commits = frame_intervals(lines, self.marks)
            answered = [elapsed_us(done, commit) for done, commit in intervals]
            ahead = frame_pacing(lines, since)[2]
            daemon.check_alive()
        finally:
            daemon.stop()
        late = sum(1 for a in answered if a > PERIOD_US)
        if sched:
            self._say_late_causes(scale, intervals, sched)
        late_by_scene = self._late_by_scene(lines)
        r, key = self.bench.results, f"s{scale.replace('.', '_')}"
        r.set(f"frames4k_{key}_callbacks.toastd", len(answered))
        r.set(f"frames4k_{key}_late.toastd", late)
        r.set(f"frames4k_{key}_ahead.toastd", ahead)
        r.set(f"frames4k_{key}_commits.toastd", commits)
        if answered:
            r.set(f"frames4k_{key}_work_p50.toastd", _percentile(answered, 0.5) / 1000)
            r.set(f"frames4k_{key}_work_p99.toastd", _percentile(answered, 0.99) / 1000)
        if commits:
            r.set(f"frames4k_{key}_cpu_per_commit.toastd", cpu / commits / 1e6)
        for scene, count in late_by_scene.items():
            r.set(f"frames4k_{key}_late_{scene.replace(' ', '_')}.toastd", count)
        if sched:
            self._say_frame_cpu(key, scale, intervals, sched)
        self.bench.say(f"    scale {scale}: {commits} commits, {len(answered)} frame callbacks answered, {late} late, "
                       f"{ahead} commits ahead of their callback; done → commit p50 "
                       f"{(_percentile(answered, 0.5) or 0) / 1000:.2f} ms p99 {(_percentile(answered, 0.99) or 0) / 1000:.2f} ms; "
                       f"CPU per commit {cpu / max(commits, 1) / 1e6:.2f} ms; late by scene {late_by_scene}")

    def _scene_at(self, stamp):
        """The scene whose stretch holds `stamp` (µs mod 2^32)."""
        current = None
        for scene, start in self.scene_starts.items():
            if elapsed_us(start, stamp) >= 0:
                current = scene
        return current

    def _say_frame_cpu(self, key, scale, intervals, sched):
        """The daemon's CPU per drawn frame (callback → commit, on a CPU): p99 over all, and by scene."""
        r = self.bench.results
        cpu = frame_cpu_us(intervals, sched)
        if cpu:
            r.set(f"frames4k_{key}_frame_cpu_p99.toastd", _percentile(cpu, 0.99) / 1000)
        by_scene = {}
        for (done, commit), on_cpu in zip(intervals, (split(d, c, sched) for d, c in intervals)):
            if on_cpu:
                by_scene.setdefault(self._scene_at(done), []).append(on_cpu[0])
        for scene, values in by_scene.items():
            r.set(f"frames4k_{key}_frame_cpu_p99_{str(scene).replace(' ', '_')}.toastd", _percentile(values, 0.99) / 1000)
        self.bench.say(f"    scale {scale}: CPU per drawn frame p99 {(_percentile(cpu, 0.99) or 0) / 1000:.2f} ms "
                       f"(p50 {(_percentile(cpu, 0.5) or 0) / 1000:.2f}, n={len(cpu)}); by scene: " + ", ".join(
                           f"{scene} p99 {_percentile(v, 0.99) / 1000:.2f} max {max(v) / 1000:.2f} (n={len(v)})"
                           for scene, v in by_scene.items()))

    def _say_late_causes(self, scale, intervals, sched):
        """Each late callback's wall time split into the daemon on a CPU, waiting for one, and asleep."""
        for done, commit in intervals:
            wall = elapsed_us(done, commit)
            parts = split(done, commit, sched) if wall > PERIOD_US else None
            if parts:
                run, wait, sleep = (p / 1000 for p in parts)
                self.bench.say(f"    scale {scale}: late by {wall / 1000:.2f} ms: on a CPU {run:.2f}, "
                               f"waiting for one {wait:.2f}, asleep {sleep:.2f}")

    def run(self):
        if self.bench.toastd is None or not self.bench.toastd.uses_bus:
            return
        try:
            for scale in SCALES:
                self.bench.say(f"  4K frames at scale {scale}")
                try:
                    self.run_scale(scale)
                except (RuntimeError, OSError, subprocess.SubprocessError, TimeoutError) as e:
                    self.bench.results.deaths.append(f"4K frames, scale {scale}: {e}")
                    self.bench.say(f"  4K frames at scale {scale} cut short: {e}")
        finally:
            w, h = self.env.get("STAGE_WIDTH", "1280"), self.env.get("STAGE_HEIGHT", "720")
            self._swaymsg("mode", f"{w}x{h}", "scale", "1")
