"""Row 10: the first toast after login. No daemon runs; `notify-send` asks a private bus for
org.freedesktop.Notifications, the bus starts the daemon from its own service file (D-Bus
activation), and the row times notify-send's spawn → the daemon's first buffer commit.

Each daemon has a bus of its own (a dbus-daemon whose config names one service directory holding
one `org.freedesktop.Notifications.service`), so neither can ever start the other. The service's
`Exec=` is `/bin/sh WRAPPER`, alike for both: the wrapper points the daemon's stderr at a fresh log
and sets WAYLAND_DEBUG=1 (the commit-time rule of wayland_log.py), then execs the daemon. Samples
alternate between the daemons; after each, the activated daemon's on-CPU time from its exec until
it is idle with the toast shown is read (load on the machine stretches the latency, not this), then
the daemon is ended (its pid asked of the bus) and the name is free again before the next.
"""

import os
import signal
import subprocess
import time

import dbus

from . import procs
from .daemons import BUS_NAME
from .wayland_log import elapsed_us, parse_line

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMMIT_TIMEOUT_S = 10.0


def _first_commit_us(path, since_us32):
    """µs from since_us32 to the first attach + commit in the log at `path`, or None."""
    attached = set()
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return None
    for line in lines:
        parsed = parse_line(line)
        if not parsed or elapsed_us(since_us32, parsed[0]) < 0:
            continue
        message = parsed[1]
        if message.startswith("-> wl_surface@") and ".attach(wl_buffer@" in message:
            attached.add(message[3:].split(".", 1)[0])
        elif message.startswith("-> wl_surface@") and message.endswith(".commit()"):
            if message[3:].split(".", 1)[0] in attached:
                return elapsed_us(since_us32, parsed[0])
    return None


class ActivationBus:
    """A private dbus-daemon that activates one daemon (argv) as org.freedesktop.Notifications."""

    def __init__(self, name, argv, env, work_dir, extra_env=None):
        self.name = name
        self.dir = os.path.join(work_dir, f"activate-{name}")
        os.makedirs(os.path.join(self.dir, "services"), exist_ok=True)
        self.log = os.path.join(self.dir, "daemon.log")
        wrapper = os.path.join(self.dir, "start")
        exports = "".join(f"export {k}='{v}'\n" for k, v in (extra_env or {}).items())
        with open(wrapper, "w") as f:
            f.write("# Started by the bus: the daemon's stderr into a fresh log, its Wayland requests stamped.\n"
                    f"{exports}export WAYLAND_DEBUG=1\n"
                    'export DBUS_SESSION_BUS_ADDRESS="${DBUS_SESSION_BUS_ADDRESS:-$DBUS_STARTER_ADDRESS}"\n'
                    f"exec {' '.join(argv)} 2>{self.log} >/dev/null\n")
        with open(os.path.join(self.dir, "services", "org.freedesktop.Notifications.service"), "w") as f:
            f.write(f"[D-BUS Service]\nName={BUS_NAME}\nExec=/bin/sh {wrapper}\n")
        with open(os.path.join(REPO, "stage", "dbus-session.conf")) as f:
            conf = f.read()
        conf = conf.replace("<policy", f"<servicedir>{self.dir}/services</servicedir>\n  <policy", 1)
        with open(os.path.join(self.dir, "bus.conf"), "w") as f:
            f.write(conf)
        bus_env = {k: v for k, v in env.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DEBUG")}
        self.proc = procs.spawn(["dbus-daemon", "--nofork", "--print-address=1",
                                 f"--config-file={self.dir}/bus.conf", f"--address=unix:dir={self.dir}"],
                                env=bus_env, stdout=subprocess.PIPE)
        self.address = self.proc.stdout.readline().decode().strip()
        if not self.address:
            raise RuntimeError(f"the activation bus of {name} printed no address")
        self.bus = dbus.bus.BusConnection(self.address)
        self.env = dict(env, DBUS_SESSION_BUS_ADDRESS=self.address)

    def owned(self):
        return bool(self.bus.name_has_owner(BUS_NAME))

    def owner_pid(self):
        return int(self.bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                          "GetConnectionUnixProcessID", "s", [BUS_NAME]))

    def sample(self):
        """notify-send with no daemon running → first commit of the daemon the bus started, in µs."""
        if self.owned():
            raise RuntimeError(f"{BUS_NAME} already owned on {self.name}'s activation bus")
        if os.path.exists(self.log):
            os.unlink(self.log)
        t0 = procs.realtime_us32()
        r = subprocess.run(["notify-send", "First toast", "after login"], env=self.env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            raise RuntimeError(f"notify-send exited {r.returncode}: {r.stderr.strip()[:200]}")
        latency = procs.poll_until(lambda: _first_commit_us(self.log, t0), timeout_s=COMMIT_TIMEOUT_S,
                                   interval_s=0.002)
        cpu_ns = None
        if latency is not None and self.owned():
            pid = self.owner_pid()
            procs.wait_until_idle(pid, 0.1, 10.0)
            cpu_ns = procs.cpu_ns(pid)
        self.stop_daemon()
        return latency, cpu_ns

    def stop_daemon(self):
        """Ends the activated daemon and waits until its name and pid are gone."""
        if not self.owned():
            return
        pid = self.owner_pid()
        os.kill(pid, signal.SIGTERM)
        if not procs.poll_until(lambda: not procs.alive(pid) and not self.owned(), timeout_s=5.0, interval_s=0.005):
            os.kill(pid, signal.SIGKILL)
            procs.poll_until(lambda: not self.owned(), timeout_s=3.0, interval_s=0.005)

    def close(self):
        try:
            self.stop_daemon()
        except (dbus.DBusException, OSError):
            pass
        self.bus.close()
        procs.stop(self.proc)


def activation_rounds(bench, n, work_dir):
    """n samples per daemon (mako, toastd), alternating which goes first."""
    buses = []
    try:
        buses.append(ActivationBus("mako", bench.mako.argv(), bench.env, work_dir))
        if bench.toastd is not None:
            toastd = bench.toastd
            buses.append(ActivationBus("toastd", toastd.argv(), bench.env, work_dir,
                                       extra_env={"TOASTD_SOCKET": os.path.join(work_dir, "activate-toastd.sock")}))
        for i in range(n):
            for bus in (buses if i % 2 == 0 else list(reversed(buses))):
                key = f"first_after_login.{bus.name}"
                try:
                    latency, cpu_ns = bus.sample()
                    bench.results.add(key, latency)
                    if cpu_ns is not None:
                        # Stored in ns so the series' "ms" scaling reads µs (see report.ROWS).
                        bench.results.add(f"first_after_login_cpu.{bus.name}", cpu_ns / 1000)
                except (RuntimeError, OSError, subprocess.SubprocessError, dbus.DBusException) as e:
                    bench.results.add(key, None)
                    bench.results.miss(key, f"{bus.name}: {e}"[:200])
    finally:
        for bus in buses:
            bus.close()
