"""Heavy input, side by side (rows 8 and 9): a burst of 10,000 Notify calls pipelined on one
connection, and a seeded storm of 4,000 random ones with pictures and text in many scripts.

Both speak D-Bus through jeepney (pure Python, no main loop), which can send every call before
reading any reply; python3-dbus cannot. Each daemon runs alone with WAYLAND_DEBUG=1 (all alike), so
its commits and frame callbacks during the burst can be counted from its own log.
"""

import random
import time

from jeepney import DBusAddress, MessageType, new_method_call
from jeepney.io.blocking import open_dbus_connection
from jeepney.low_level import HeaderFields

from . import procs
from .wayland_log import elapsed_us, parse_line

BURST_CALLS = 10_000
STORM_CALLS = 4_000
STORM_WINDOW = 32          # storm calls in flight at once
STORM_SEED = 18
SETTLE_S = 1.0
# Each daemon's burst, and its storm, must be answered within this: dunst draws every notification
# with a compositor round trip and would take many minutes; its rows then say how far it got.
ANSWER_BUDGET_S = 120.0
# The result keys each measurement sets (a daemon that dies leaves them n/a, saying why).
KEYS = {"burst": ["burst_drain", "burst_answered", "burst_cpu", "burst_peak_rss", "burst_commits",
                  "burst_commits_ahead", "burst_anon_after", "burst_pss_after"],
        "storm": ["storm_peak_rss", "storm_anon_after", "storm_pss_after"]}             # after the last close: fade-outs end, idle memory release runs

NOTIFICATIONS = DBusAddress("/org/freedesktop/Notifications", bus_name="org.freedesktop.Notifications",
                            interface="org.freedesktop.Notifications")


def _notify(app, summary, body, hints=None, expire_ms=-1):
    return new_method_call(NOTIFICATIONS, "Notify", "susssasa{sv}i",
                           (app, 0, "", summary, body, [], hints or {}, expire_ms))


def _close(nid):
    return new_method_call(NOTIFICATIONS, "CloseNotification", "u", (nid,))


def _pipeline(conn, messages, deadline, on_reply=None):
    """Sends every message, then reads until each has its reply; returns the replies in order.
    Raises TimeoutError saying how many were answered if `deadline` (monotonic) passes first."""
    serials = {}
    for index, message in enumerate(messages):
        serial = next(conn.outgoing_serial)
        conn.send(message, serial=serial)
        serials[serial] = index
    replies = [None] * len(serials)
    while serials:
        left = deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            message = conn.receive(timeout=left)
        except TimeoutError:
            raise TimeoutError(f"{len(replies) - len(serials)} of {len(replies)} calls answered within the "
                               f"{ANSWER_BUDGET_S:.0f} s allowed") from None
        serial = message.header.fields.get(HeaderFields.reply_serial)
        if serial in serials:
            replies[serials.pop(serial)] = message
            if on_reply:
                on_reply()
    return replies


def _ids(replies):
    return [r.body[0] for r in replies if r.header.message_type == MessageType.method_return]


def _peak_rss_mb(pid):
    """VmHWM: the most the process has had resident (its burst peak, as nothing before was larger)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return None


def frame_pacing(lines, since_us32):
    """(buffer commits, frame callbacks fired, commits made while the surface's previous frame
    callback was still pending) in WAYLAND_DEBUG lines stamped at or after since_us32."""
    requested, pending, owner, attached = {}, {}, {}, set()
    commits = callbacks = ahead = 0
    for line in lines:
        parsed = parse_line(line)
        if not parsed or elapsed_us(since_us32, parsed[0]) < 0:
            continue
        message = parsed[1]
        if message.startswith("-> wl_surface@"):
            surface = message[3:].split(".", 1)[0]
            if ".frame(new id wl_callback@" in message:
                callback = message.rsplit("wl_callback@", 1)[1].rstrip(")")
                requested[surface] = callback
                owner[callback] = surface
            elif ".attach(wl_buffer@" in message:
                attached.add(surface)
            elif message.endswith(".commit()") and surface in attached:
                attached.discard(surface)
                commits += 1
                if surface in pending:
                    ahead += 1
                if surface in requested:
                    pending[surface] = requested.pop(surface)
            elif message.endswith(".destroy()"):
                requested.pop(surface, None)
                pending.pop(surface, None)
        elif message.startswith("wl_callback@") and ".done(" in message:
            callback = message[len("wl_callback@"):].split(".", 1)[0]
            surface = owner.pop(callback, None)
            if surface is not None and pending.get(surface) == callback:
                del pending[surface]
                callbacks += 1
    return commits, callbacks, ahead


class StormText:
    """Random text in many scripts (so fonts fall back), optionally with markup; seeded."""

    BLOCKS = [(0x20, 0x7e), (0xa0, 0x24f), (0x370, 0x3ff), (0x400, 0x4ff), (0x590, 0x5ff), (0x600, 0x6ff),
              (0x900, 0x97f), (0xe00, 0xe7f), (0x10a0, 0x10ff), (0x1100, 0x11ff), (0x2000, 0x2bff),
              (0x3040, 0x30ff), (0x3400, 0x4dbf), (0x4e00, 0x9fff), (0xac00, 0xd7a3), (0xf900, 0xfaff),
              (0x1f300, 0x1f6ff), (0x20000, 0x2a6df)]

    def __init__(self, seed):
        self.random = random.Random(seed)

    def text(self, max_bytes, markup):
        r, out, size, open_tags = self.random, [], 0, []
        target = r.randint(0, max_bytes)
        while size < target - 8:
            if markup and r.randrange(12) == 0:
                if open_tags and r.random() < 0.5:
                    piece = f"</{open_tags.pop()}>"
                else:
                    tag = r.choice("biu")
                    open_tags.append(tag)
                    piece = f"<{tag}>"
            else:
                lo, hi = r.choice(self.BLOCKS)
                code = r.randint(lo, hi)
                if 0xd800 <= code <= 0xdfff or (markup and chr(code) in "<>&"):
                    continue
                piece = chr(code)
            out.append(piece)
            size += len(piece.encode())
        out.extend(f"</{t}>" for t in reversed(open_tags))
        return "".join(out)

    def notification(self):
        r = self.random
        hints = {"urgency": ("y", r.randint(0, 2))}
        if r.random() < 0.5:
            hints["x-dunst-stack-tag"] = ("s", f"tag-{r.randrange(50)}")
        if r.randrange(4) == 0:
            hints["category"] = ("s", self.text(20, False))
        if r.randrange(5) == 0:
            hints["value"] = ("i", r.randint(-10, 110))
        if r.randrange(5) == 0:
            w, h = r.randint(1, 512), r.randint(1, 512)
            pixels = bytes([r.randrange(256)]) * (w * h * 4)
            hints["image-data"] = ("(iiibiiay)", (w, h, w * 4, True, 8, 4, pixels))
        app = f"app-{r.randrange(200)}" + self.text(24, False)
        expire = r.choice([-1, -1, 0, 200, 1000, 3000])
        return _notify(app, self.text(160, False), self.text(512, True), hints, expire)


class Heavy:
    """Rows 8 (burst) and 9 (storm) for every notification daemon, each alone on the stage."""

    def __init__(self, env, results, say):
        self.address = env["DBUS_SESSION_BUS_ADDRESS"]
        self.results = results
        self.say = say

    def _connect(self):
        return open_dbus_connection(bus=self.address)

    def burst(self, daemon):
        name = daemon.name
        daemon.start(debug=True)
        conn = self._connect()
        try:
            daemon.wait_idle(0.3)
            pid = daemon.pid
            daemon.log.skip_to_end()
            cpu0 = procs.cpu_ns(pid)
            since = procs.realtime_us32()
            t0 = time.monotonic()
            calls = [_notify("burst", f"Burst {i}", f"call {i} of {BURST_CALLS}",
                             expire_ms=500 if i % 3 == 0 else -1) for i in range(BURST_CALLS)]
            replies = _pipeline(conn, calls, t0 + ANSWER_BUDGET_S)
            drained = time.monotonic() - t0
            ids = _ids(replies)
            daemon.wait_idle(0.3, timeout_s=60)
            cpu1 = procs.cpu_ns(pid)
            commits, callbacks, ahead = frame_pacing(daemon.log.new_lines(), since)
            peak = _peak_rss_mb(pid)
            _pipeline(conn, [_close(nid) for nid in ids], time.monotonic() + ANSWER_BUDGET_S)
            daemon.wait_idle(0.3, timeout_s=60)
            time.sleep(SETTLE_S)
            daemon.check_alive()
            r = self.results
            r.set(f"burst_drain.{name}", drained)
            r.set(f"burst_answered.{name}", len(ids))
            r.set(f"burst_cpu.{name}", (cpu1 - cpu0) / 1e9)
            r.set(f"burst_peak_rss.{name}", peak)
            r.set(f"burst_commits.{name}", commits)
            r.set(f"burst_commits_ahead.{name}", ahead)
            anon, pss, _ = procs.memory_mb(pid)
            r.set(f"burst_anon_after.{name}", anon)
            r.set(f"burst_pss_after.{name}", pss)
            self.say(f"    {name}: {len(ids)}/{BURST_CALLS} answered in {drained:.2f} s, CPU {(cpu1 - cpu0) / 1e9:.2f} s, "
                     f"peak RSS {peak:.1f} MB, {commits} buffer commits / {callbacks} frame callbacks "
                     f"({ahead} ahead of their frame)")
        finally:
            conn.close()
            daemon.stop()

    def storm(self, daemon):
        name = daemon.name
        daemon.start()
        conn = self._connect()
        try:
            text = StormText(STORM_SEED)
            deadline = time.monotonic() + ANSWER_BUDGET_S
            warm = _ids(_pipeline(conn, [_notify("warm-up", f"Warm-up {i}", f"<b>ready</b> {i}") for i in range(5)],
                                  deadline))
            _pipeline(conn, [_close(nid) for nid in warm], deadline)
            daemon.wait_idle(0.3, timeout_s=30)
            time.sleep(SETTLE_S)
            pid = daemon.pid
            before = procs.rss_kib(pid) / 1024
            ids, sent, peak = [], 0, before
            deadline = time.monotonic() + ANSWER_BUDGET_S
            while sent < STORM_CALLS:
                batch = [text.notification() for _ in range(min(STORM_WINDOW, STORM_CALLS - sent))]
                try:
                    ids += _ids(_pipeline(conn, batch, deadline))
                except TimeoutError:
                    raise TimeoutError(f"{sent} of {STORM_CALLS} calls answered within the "
                                       f"{ANSWER_BUDGET_S:.0f} s allowed") from None
                sent += len(batch)
                if sent % 512 == 0:
                    peak = max(peak, procs.rss_kib(pid) / 1024)
            _pipeline(conn, [_close(nid) for nid in set(ids)], time.monotonic() + ANSWER_BUDGET_S)
            daemon.wait_idle(0.3, timeout_s=60)
            time.sleep(SETTLE_S)
            daemon.check_alive()
            after = procs.rss_kib(pid) / 1024
            anon, pss, _ = procs.memory_mb(pid)
            self.results.set(f"storm_peak_rss.{name}", peak)
            self.results.set(f"storm_anon_after.{name}", anon)
            self.results.set(f"storm_pss_after.{name}", pss)
            self.say(f"    {name}: storm RSS {before:.1f} → peak ≥ {peak:.1f} → {after:.1f} MB after all closed, "
                     f"anonymous {anon:.1f} MB")
        finally:
            conn.close()
            daemon.stop()

    def run(self, daemons):
        for daemon in daemons:
            for what in (self.burst, self.storm):
                self.say(f"  {what.__name__}: {daemon.name}")
                try:
                    what(daemon)
                except (RuntimeError, OSError, TimeoutError) as e:
                    self.results.deaths.append(f"{what.__name__}: {daemon.name}: {e}")
                    self.say(f"  {what.__name__} of {daemon.name} cut short: {e}")
                    for key in KEYS[what.__name__]:
                        self.results.miss(f"{key}.{daemon.name}", f"{daemon.name}: {e}"[:160])
