"""The measurements: latency samples (timed from WAYLAND_DEBUG logs), start-to-ready, and resource
use read from /proc. Results go into a `Results` object; nothing here prints a table.

Fairness: latency rows are taken in rounds; each round runs one block per daemon (restarted for the
block, alone on the bus), and the order of the daemons flips every round, so slow drift in the
machine's load (other people build on it) falls on both sides alike. Inside a block the sample kinds
interleave too.
"""

import os
import subprocess
import time

import dbus

from . import procs
from .daemons import DaemonDied, Dunst, Mako, Toastd, Wob
from .center import CenterOpen
from .heavy import Heavy
from .report import MEMORY_POINTS

IDLE_WINDOW_S = 10.0     # rows 6: wakeups counted over this long
SPINNER_WINDOW_S = 5.0   # row 7
BURST = 100              # rows 4 and 5
BURSTS = 5               # row 5: median over this many bursts (RSS rows use the first)
BURST_APPS = 25          # rows 4 and 5: app names a burst comes from (4 notifications each)
HUD_VALUES = 50          # row 2, CPU per HUD value: values per sample, HUD_GAP_S apart
HUD_GAP_S = 0.03
HUD_SAMPLES = 3
HUD_WARM_UP = (50, 30, 70)  # rows 2: uncounted values that map the bar and find each level's icon


class Results:
    """Raw samples (µs) per latency series, scalars per resource metric, and why a row is n/a."""

    def __init__(self):
        self.samples = {}   # series key → [µs, ...]
        self.failed = {}    # series key → count of samples with no commit seen
        self.scalars = {}   # metric key → number
        self.missing = {}   # series or metric key → reason it has no value
        self.deaths = []    # "toastd died (signal 6): Fatal error: ..." for each daemon that died

    def add(self, key, value_us):
        if value_us is None:
            self.failed[key] = self.failed.get(key, 0) + 1
            self.missing.setdefault(key, "no buffer commit seen within 2 s")
        else:
            self.samples.setdefault(key, []).append(value_us)

    def set(self, key, value):
        self.scalars[key] = value

    def miss(self, key, reason):
        self.missing.setdefault(key, reason)


def _first_int(text):
    for word in text.split():
        if word.isdigit():
            return int(word)
    return None


class Bench:
    """The daemons under test and the measurements run on them, in the order __main__ calls them:
    check_toastd, latency_rounds, ready_rounds, resource_runs."""

    def __init__(self, env, client, log_dir, toastd_bin, toast_bin, results, say):
        self.env = env
        self.client = client
        self.results = results
        self.say = say
        self.mako = Mako(env, client, log_dir)
        self.wob = Wob(env, client, log_dir)
        self.dunst = Dunst(env, client, log_dir)
        self.toastd = Toastd(env, client, log_dir, toastd_bin, toast_bin) if toastd_bin else None
        self.toastd_problem = None if toastd_bin else "toastd not built"
        self.toast_flags = ["-p"]
        self.log_dir = log_dir

    # ---- toastd availability ---------------------------------------------------------------

    def check_toastd(self):
        """Starts toastd once and tries the CLI; on failure every toastd row says why it is n/a."""
        if self.toastd is None:
            return False
        try:
            try:
                self.toastd.start()
            except RuntimeError as e:
                if "(bus)" not in str(e):
                    raise
                # Socket works but the bus name never came: measure what works without D-Bus.
                self.toastd.uses_bus = False
                self.toastd.start()
                self.say("bench: toastd serves its socket but does not own org.freedesktop.Notifications;"
                         " D-Bus rows are n/a")
                bus_only = [f"{kind}_{point}.toastd" for point in ("one", "one_closed", "settled_30", "100", "closed")
                            for kind in ("anon", "pss", "rss")]
                for key in ["notify.toastd", "ready_bus.toastd", "cli_cold.notify-send+toastd",
                            "cli_warm.notify-send+toastd", "cpu_per_notification.toastd", "wakeups_shown.toastd"] + bus_only:
                    self.results.miss(key, "toastd does not own org.freedesktop.Notifications")
            self._probe_toast_cli()
            self.toastd.stop()
            return True
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            self.toastd_problem = f"toastd not working: {e}"
            self.toastd.stop()
            self.toastd = None
            return False

    def _probe_toast_cli(self):
        """Does `toast -p` print the new toast's id like notify-send -p? If not, samples close
        toasts with a dismiss-all request on the socket instead."""
        status, out, err = self.toastd.toast("-p", "Probe", "does toast -p print an id?")
        if status == 0 and _first_int(out) is not None:
            self.toast_flags = ["-p"]
            self.toastd.close(_first_int(out))
            return
        status2, _, err2 = self.toastd.toast("Probe", "plain toast")
        if status2 != 0:
            raise RuntimeError(f"`toast SUMMARY BODY` exited {status2}: {err2.strip()[:200]}")
        self.toast_flags = []
        self.toastd.dismiss_all()
        self.say(f"toast -p printed no id (exit {status}: {err.strip()[:80]}); closing with dismiss-all")

    # ---- samples ---------------------------------------------------------------------------

    def _cli_sample(self, daemon, argv, env):
        """Spawn a CLI; returns (µs spawn → first commit, µs spawn → exit, printed id)."""
        daemon.wait_idle()
        daemon.log.skip_to_end()
        t0 = procs.realtime_us32()
        m0 = time.monotonic()
        r = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=10)
        exit_us = (time.monotonic() - m0) * 1e6
        if r.returncode != 0:
            raise RuntimeError(f"{os.path.basename(argv[0])} exited {r.returncode}: {r.stderr.strip()[:200]}")
        latency = daemon.log.wait_first_commit(t0)
        return latency, exit_us, _first_int(r.stdout)

    def _close(self, daemon, nid, warm):
        if nid is not None:
            daemon.close(nid)
        elif isinstance(daemon, Toastd):
            daemon.dismiss_all()
            if warm:
                daemon.wait_idle()
                daemon.show_resident()

    def _cli_rows(self, daemon, kind, warm):
        """(series key, argv, env) of the CLI rows this daemon takes part in."""
        rows = []
        notify_send = ["notify-send", "-p", "Bench", "spawn to first commit"]
        if isinstance(daemon, (Mako, Dunst)):
            rows.append((f"cli_{kind}.notify-send+{daemon.name}", notify_send, self.env))
        else:
            rows.append((f"cli_{kind}.toast", [daemon.toast_bin, *self.toast_flags, "Bench", "spawn to first commit"],
                         daemon.cli_env()))
            if daemon.uses_bus:
                rows.append((f"cli_{kind}.notify-send+toastd", notify_send, self.env))
        return rows

    def _sample_safely(self, daemon, key, fn):
        """Runs one sample; a failure is recorded against its row, a dead daemon ends the block."""
        try:
            return fn()
        except (RuntimeError, OSError, subprocess.SubprocessError, ValueError, dbus.DBusException) as e:
            daemon.check_alive()
            self.results.add(key, None)
            self.results.miss(key, str(e))
            return None

    def _block(self, daemon, body):
        """Starts daemon (with WAYLAND_DEBUG), runs body(), stops it; records a death."""
        try:
            daemon.start(debug=True)
        except RuntimeError as e:
            self.results.deaths.append(f"{daemon.name} did not start: {e}")
            return
        try:
            body()
            daemon.check_alive()
        except DaemonDied as e:
            self.results.deaths.append(str(e))
            self.say(f"  {e}")
        finally:
            daemon.stop()

    def notification_block(self, daemon, k):
        """k samples of each notification row for one daemon: cold CLI, connected Notify, warm CLI."""
        def body():
            daemon.wait_idle(0.2)
            for warm in (False, True):
                kind = "warm" if warm else "cold"
                if warm:
                    daemon.show_resident()
                for _ in range(k):
                    for key, argv, env in self._cli_rows(daemon, kind, warm):
                        def one():
                            latency, exit_us, nid = self._cli_sample(daemon, argv, env)
                            self.results.add(key, latency)
                            if not warm:
                                self.results.add(key.replace("cli_cold", "cli_exit"), exit_us)
                            self._close(daemon, nid, warm)
                        self._sample_safely(daemon, key, one)
                    if not warm and daemon.uses_bus:
                        key = f"notify.{daemon.name}"
                        def connected():
                            daemon.wait_idle()
                            daemon.log.skip_to_end()
                            t0 = procs.realtime_us32()
                            nid = self.client.notify("Bench", "connected client")
                            self.results.add(key, daemon.log.wait_first_commit(t0))
                            daemon.close(nid)
                        self._sample_safely(daemon, key, connected)
        self._block(daemon, body)

    @staticmethod
    def _hud_sender(daemon):
        """(send a value, the `toast hud --stream volume` process or None, why it died) for a HUD
        row: wob's stdin, or the stdin of a stream connected to toastd."""
        if isinstance(daemon, Wob):
            return daemon.send, None, None
        stream = procs.spawn([daemon.toast_bin, "hud", "--stream", "volume"], env=daemon.cli_env(),
                             stdin=subprocess.PIPE, stderr=subprocess.PIPE)

        def died():
            stream.wait(timeout=2)
            return RuntimeError(f"toast hud --stream volume exited {stream.returncode}: "
                                f"{stream.stderr.read().decode(errors='replace').strip()[:200]}")

        def send(value):
            try:
                stream.stdin.write(f"{value}\n".encode())
                stream.stdin.flush()
            except BrokenPipeError:
                raise died() from None
        return send, stream, died

    def hud_block(self, daemon, k):
        """k values on a stream: wob's stdin, or `toast hud --stream volume`'s stdin."""
        key = f"hud.{daemon.name}"
        stream = None

        def body():
            nonlocal stream
            send, stream, stream_died = self._hud_sender(daemon)
            try:
                daemon.wait_idle(0.2)
                # The first value maps the bar; 30 and 70 then show each level's icon once (toastd
                # looks an icon up the first time a level needs it: ~0.8 ms, docs/benchmarks.md). The
                # samples measure values while the bar is shown, each icon already found.
                for value in HUD_WARM_UP:
                    daemon.wait_idle(0.08)
                    daemon.log.skip_to_end()
                    t0 = procs.realtime_us32()
                    send(value)
                    if daemon.log.wait_first_commit(t0) is None:
                        daemon.check_alive()
                        if stream is not None and stream.poll() is not None:
                            raise stream_died()
                        raise RuntimeError(f"no buffer commit within 2 s of the warm-up value {value}")
                for i in range(k):
                    daemon.wait_idle(0.08)
                    daemon.log.skip_to_end()
                    t0 = procs.realtime_us32()
                    send((30, 70)[i % 2])
                    latency = daemon.log.wait_first_commit(t0)
                    if latency is None:
                        daemon.check_alive()
                    self.results.add(key, latency)
            except DaemonDied:
                raise
            except (RuntimeError, OSError) as e:
                daemon.check_alive()
                self.results.miss(key, str(e))
            finally:
                if stream is not None:
                    procs.stop(stream)
        self._block(daemon, body)

    def spawn_baseline(self, n):
        """The harness's own cost of spawning a process and reaping it (/bin/true), part of every
        CLI row on both sides alike."""
        for _ in range(n):
            m0 = time.monotonic()
            subprocess.run(["/bin/true"], stdin=subprocess.DEVNULL, capture_output=True, text=True)
            self.results.add("spawn_baseline", (time.monotonic() - m0) * 1e6)

    def latency_rounds(self, n, rounds):
        self.spawn_baseline(n)
        k = max(1, n // rounds)
        for r in range(rounds):
            pairs = [(self.mako, self.notification_block), (self.toastd, self.notification_block),
                     (self.dunst, self.notification_block)]
            huds = [(self.wob, self.hud_block), (self.toastd, self.hud_block)]
            if r % 2:
                pairs.reverse()
                huds.reverse()
            for daemon, block in pairs + huds:
                if daemon is None:
                    continue
                self.say(f"  round {r + 1}/{rounds}: {block.__name__.replace('_block', '')} {daemon.name}")
                block(daemon, k)

    # ---- start → ready -----------------------------------------------------------------------

    def ready_rounds(self, n):
        daemons = [d for d in (self.mako, self.toastd) if d is not None]
        for i in range(n):
            for daemon in (daemons if i % 2 == 0 else list(reversed(daemons))):
                try:
                    times = daemon.start()
                except RuntimeError as e:
                    self.results.miss(f"ready_bus.{daemon.name}", str(e))
                    self.results.miss(f"ready_socket.{daemon.name}", str(e))
                    continue
                for check, seconds in times.items():
                    self.results.add(f"ready_{check}.{daemon.name}", seconds * 1e6)
                daemon.stop()

    # ---- resources -----------------------------------------------------------------------------

    def _wakeups(self, pid, seconds):
        before = procs.context_switches(pid)
        time.sleep(seconds)
        return procs.context_switches(pid) - before

    def resource_run(self, daemon):
        name = daemon.name
        daemon.start()
        try:
            daemon.wait_idle(0.3)
            pid = daemon.pid
            self._memory("idle", daemon)
            self.results.set(f"wakeups_idle.{name}", self._wakeups(pid, IDLE_WINDOW_S))
            if isinstance(daemon, Toastd):
                self.spinner(daemon)
                daemon.wait_idle(0.3, timeout_s=10)  # past the spinner's fade-out
            if isinstance(daemon, Wob) or not daemon.uses_bus:
                if isinstance(daemon, (Wob, Toastd)):
                    self.hud_cpu(daemon)
                return
            self._single_and_thirty(daemon)
            for burst in range(BURSTS):
                # BURST notifications from a connected client; none expires by itself. CPU counts
                # until the daemon is idle again, so drawing (and any fade-in) is included.
                cpu0 = procs.cpu_ns(pid)
                # From BURST_APPS app names, each well under toastd's flood-limit (10 a second): one app
                # sending 100 is a flood, drawn as one grouped toast, and the row would not measure drawing.
                ids = [self.client.notify(f"Burst {i}", "one of a hundred", expire_ms=0,
                                          app=f"bench-{burst}-{i % BURST_APPS}") for i in range(BURST)]
                daemon.wait_idle(0.3, timeout_s=30)
                cpu1 = procs.cpu_ns(pid)
                # Stored in ns so the series' "ms" scaling reads µs (see report.ROWS).
                self.results.add(f"cpu_per_notification.{name}", (cpu1 - cpu0) / BURST)
                if burst == 0:
                    self._memory("100", daemon)
                    # Toasts shown, nothing animating.
                    self.results.set(f"wakeups_shown.{name}", self._wakeups(pid, IDLE_WINDOW_S))
                for nid in ids:
                    daemon.close(nid)
                daemon.wait_idle(0.3, timeout_s=30)
                if burst == 0:
                    time.sleep(0.5)
                    self._memory("closed", daemon)
            # Last: the HUD's code and buffers would otherwise count in the RSS rows above.
            if isinstance(daemon, Toastd):
                self.hud_cpu(daemon)
            daemon.check_alive()
        except (RuntimeError, OSError, dbus.DBusException):
            daemon.check_alive()  # a death explains a failure better than the failure does
            raise
        finally:
            daemon.stop()

    def _memory(self, point, daemon):
        """Anonymous, PSS and RSS of `daemon` now, as the rows of `point`."""
        anon, pss, rss = procs.memory_mb(daemon.pid)
        self.results.set(f"anon_{point}.{daemon.name}", anon)
        self.results.set(f"pss_{point}.{daemon.name}", pss)
        self.results.set(f"rss_{point}.{daemon.name}", rss)

    def _single_and_thirty(self, daemon):
        """One toast shown, the same after it closed, and settled after 30 more shown one at a time: what a
        daemon in use costs through a day of single notifications."""
        nid = self.client.notify("Single", "one toast at a time", expire_ms=0)
        daemon.wait_idle(0.3, timeout_s=30)
        self._memory("one", daemon)
        daemon.close(nid)
        daemon.wait_idle(0.3, timeout_s=30)
        time.sleep(0.5)
        self._memory("one_closed", daemon)
        for i in range(30):
            nid = self.client.notify(f"Single {i}", "one toast at a time", expire_ms=0)
            daemon.wait_idle(0.3, timeout_s=30)
            daemon.close(nid)
            daemon.wait_idle(0.3, timeout_s=30)
        time.sleep(0.5)
        self._memory("settled_30", daemon)

    def hud_cpu(self, daemon):
        """The daemon's CPU per HUD value: a stream of values HUD_GAP_S apart while the bar is shown, each
        level's icon already looked up (warm). The latency row cannot show this: a value can be committed
        quickly and still cost several times wob's CPU."""
        key = f"hud_cpu.{daemon.name}"
        stream = None
        try:
            send, stream, _ = self._hud_sender(daemon)
            for value in HUD_WARM_UP:  # shows the bar and finds the icon of each level used below
                send(value)
                daemon.wait_idle(0.1)
            for _ in range(HUD_SAMPLES):
                cpu0 = procs.cpu_ns(daemon.pid)
                for i in range(HUD_VALUES):
                    send((30, 70)[i % 2])
                    time.sleep(HUD_GAP_S)
                daemon.wait_idle(0.1)
                # Stored in ns so the series' "ms" scaling reads µs (see report.ROWS).
                self.results.add(key, (procs.cpu_ns(daemon.pid) - cpu0) / HUD_VALUES)
        except (RuntimeError, OSError) as e:
            daemon.check_alive()
            self.results.miss(key, str(e))
        finally:
            if stream is not None:
                procs.stop(stream)
        # The bar hides after its timeout (wob 1 s, toastd 1.5 s) and fades: gone before what follows.
        time.sleep(2.0)
        daemon.wait_idle(0.3, timeout_s=10)

    def spinner(self, daemon):
        """% of one core toastd spends while one spinner turns."""
        key = "spinner_cpu.toastd"
        holder = procs.spawn([daemon.toast_bin, "loading", "start", "bench"], env=daemon.cli_env(),
                             stderr=subprocess.PIPE)
        try:
            time.sleep(0.5)  # past the fade-in
            if holder.poll() not in (None, 0):
                raise RuntimeError(f"toast loading start exited {holder.returncode}: "
                                   f"{holder.stderr.read().decode(errors='replace').strip()[:200]}")
            cpu0, t0 = procs.cpu_ns(daemon.pid), time.monotonic()
            time.sleep(SPINNER_WINDOW_S)
            cpu1, t1 = procs.cpu_ns(daemon.pid), time.monotonic()
            self.results.set(key, (cpu1 - cpu0) / ((t1 - t0) * 1e9) * 100)
            status, _, err = daemon.toast("loading", "stop", "bench")
            if status != 0:
                self.results.miss(key, f"toast loading stop exited {status}: {err.strip()[:200]}")
        except RuntimeError as e:
            self.results.miss(key, str(e))
        finally:
            procs.stop(holder)

    def heavy_runs(self):
        """Rows 8 and 9: the burst and the storm, toastd, mako and dunst in turn."""
        Heavy(self.env, self.results, self.say).run([d for d in (self.toastd, self.mako, self.dunst)
                                                     if d is not None and d.uses_bus])

    def center_runs(self):
        """Row 12: the notification center opened with 1,000 entries (toastd only)."""
        if self.toastd is not None:
            CenterOpen(self.env, self.toastd, self.results, self.say, self.log_dir).run()

    # The resource rows' scalars, each set once per daemon by resource_run (wob's only the first four).
    RESOURCE_KEYS = tuple(f"{kind}_{point}" for point, _ in MEMORY_POINTS for kind in ("anon", "pss", "rss")) + (
        "wakeups_idle", "wakeups_shown")

    def resource_runs(self):
        # dunst, the second anchor: every row it lives to (bench/run installs one that survives a
        # burst; Debian 12's own 1.9.0 dies in it, docs/benchmarks.md).
        for daemon in (self.mako, self.toastd, self.dunst, self.wob):
            if daemon is not None:
                self.say(f"  resources: {daemon.name}")
                try:
                    self.resource_run(daemon)
                except (RuntimeError, OSError, dbus.DBusException) as e:
                    reason = str(e) if isinstance(e, DaemonDied) else f"{daemon.name}: {e}"
                    self.results.deaths.append(f"resources: {reason}")
                    self.say(f"  resources of {daemon.name} cut short: {reason}")
                    # The rows it did not live to say why they are n/a.
                    for key in self.RESOURCE_KEYS:
                        if f"{key}.{daemon.name}" not in self.results.scalars:
                            self.results.miss(f"{key}.{daemon.name}", reason[:160])
                    self.results.miss(f"cpu_per_notification.{daemon.name}", reason[:160])
