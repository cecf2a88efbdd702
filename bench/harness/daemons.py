"""The daemons under test (mako, dunst, wob, toastd) and the D-Bus client that talks to them.

Each daemon runs alone in its turn: `start()` spawns it (with WAYLAND_DEBUG=1 when its commits are
timed, stderr into a log file) and returns once it is ready; `stop()` ends it and waits until the
bus name (and socket) are free again, so the next daemon starts on a clean stage.
"""

import os
import re
import shlex
import socket
import subprocess
import time

import dbus

from . import procs
from .wayland_log import WaylandLog

BUS_NAME = "org.freedesktop.Notifications"
OBJECT_PATH = "/org/freedesktop/Notifications"
READY_TIMEOUT_S = 10.0


class DaemonDied(RuntimeError):
    """The daemon under test exited while being measured (a crash, most likely)."""


class NotificationsClient:
    """A connected client of org.freedesktop.Notifications on the stage's bus (python3-dbus,
    blocking calls, no main loop)."""

    def __init__(self, address):
        self.bus = dbus.bus.BusConnection(address)

    def _call(self, method, signature, args, timeout=5.0):
        return self.bus.call_blocking(BUS_NAME, OBJECT_PATH, BUS_NAME, method, signature, args,
                                      timeout=timeout)

    def notify(self, summary, body="", expire_ms=-1, app="bench"):
        """Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)."""
        return int(self._call("Notify", "susssasa{sv}i",
                              [app, 0, "", summary, body, [], {}, expire_ms]))

    def close(self, notification_id):
        try:
            self._call("CloseNotification", "u", [notification_id])
        except dbus.DBusException:
            pass  # already closed

    def name_owned(self):
        return bool(self.bus.name_has_owner(BUS_NAME))


def _socket_accepts(path):
    if not os.path.exists(path):
        return False
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        return True
    except OSError:
        return False
    finally:
        s.close()


class Daemon:
    """One run of a daemon: process, log, readiness."""

    name = "daemon"
    uses_bus = True

    def __init__(self, env, client, log_dir):
        self.env = env
        self.client = client
        self.log_dir = log_dir
        self.proc = None
        self.log = None
        self.runs = 0
        self.log_path = None

    # -- to override --
    def argv(self):
        raise NotImplementedError

    def extra_env(self):
        return {}

    def ready_checks(self):
        """name → predicate; start() records when each first holds and returns when all do."""
        return {"bus": self.client.name_owned}

    def stdin(self):
        return subprocess.DEVNULL

    # -- common --
    @property
    def pid(self):
        return self.proc.pid

    def start(self, debug=False):
        """Starts the daemon, waits until ready; returns {check name: seconds from spawn}."""
        self.runs += 1
        path = os.path.join(self.log_dir, f"{self.name}-{self.runs}.log")
        self.log_path = path
        env = dict(self.env, **self.extra_env())
        env.pop("WAYLAND_DEBUG", None)
        if debug:
            env["WAYLAND_DEBUG"] = "1"
        out = open(path, "wb")
        checks = self.ready_checks()
        t0 = time.monotonic()
        self.proc = procs.spawn(self.argv(), env=env, stdin=self.stdin(), stdout=out, stderr=out)
        out.close()
        self.log = WaylandLog(path)
        times = {}
        deadline = t0 + READY_TIMEOUT_S
        while len(times) < len(checks):
            for check_name, check in checks.items():
                if check_name not in times and check():
                    times[check_name] = time.monotonic() - t0
            if len(times) == len(checks):
                break
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with status {self.proc.returncode}: "
                                   f"{self.last_words(path)}")
            if time.monotonic() > deadline:
                missing = ", ".join(sorted(set(checks) - set(times)))
                self.stop()
                raise RuntimeError(f"{self.name} not ready after {READY_TIMEOUT_S:.0f} s ({missing})")
            time.sleep(0.0002)
        return times

    @staticmethod
    def last_words(path):
        """The line of the log that says why it ended: a fatal error if any, else the last line
        that is not WAYLAND_DEBUG output."""
        try:
            with open(path, errors="replace") as f:
                lines = [l.strip() for l in f if l.strip() and not l.startswith("[")]
        except OSError:
            return "(no log)"
        for line in lines:
            if re.search(r"fatal error|panic|segmentation fault|program crashed", line, re.I):
                return line
        return lines[-1] if lines else "(no output)"

    def check_alive(self):
        """Raises DaemonDied if the daemon has exited since start()."""
        if self.proc is not None and self.proc.poll() is not None:
            status = self.proc.returncode
            how = f"signal {-status}" if status < 0 else f"status {status}"
            raise DaemonDied(f"{self.name} died ({how}): {self.last_words(self.log_path)}")

    def wait_idle(self, quiet_s=0.10, timeout_s=5.0):
        """No CPU used and nothing logged for quiet_s."""
        return procs.wait_until_idle(self.pid, quiet_s, timeout_s, also_quiet=self.log.size)

    def stop(self):
        if self.proc is None:
            return
        procs.stop(self.proc)
        self.proc = None
        if self.log:
            self.log.close()
        if self.uses_bus:
            procs.poll_until(lambda: not self.client.name_owned(), timeout_s=3.0, interval_s=0.005)

    def close(self, notification_id):
        self.client.close(notification_id)

    def show_resident(self):
        """Shows one toast that stays (for the warm rows)."""
        return self.client.notify("Resident toast", "stays while warm samples run", expire_ms=0)


class Mako(Daemon):
    name = "mako"

    def __init__(self, env, client, log_dir):
        super().__init__(env, client, log_dir)
        self.config = os.path.join(log_dir, "mako.config")
        with open(self.config, "w") as f:
            f.write("# mako's defaults (empty config: no user config is read)\n")

    def argv(self):
        return ["mako", "-c", self.config]


class Dunst(Daemon):
    """dunst, the second notification anchor (rows 8 and 9)."""

    name = "dunst"

    def __init__(self, env, client, log_dir):
        super().__init__(env, client, log_dir)
        self.config = os.path.join(log_dir, "dunstrc")
        with open(self.config, "w") as f:
            f.write("# dunst's defaults (an empty file: no user config is read)\n")

    def argv(self):
        return ["dunst", "-config", self.config]


class Wob(Daemon):
    """wob reads one value per line on stdin; the harness holds the write end."""

    name = "wob"
    uses_bus = False

    def __init__(self, env, client, log_dir):
        super().__init__(env, client, log_dir)
        self.config = os.path.join(log_dir, "wob.ini")
        with open(self.config, "w") as f:
            f.write("# wob's defaults\n")

    def argv(self):
        return ["wob", "-c", self.config]

    def stdin(self):
        return subprocess.PIPE

    def ready_checks(self):
        # wob announces nothing: ready once it has connected and gone idle.
        return {"idle": lambda: procs.wait_until_idle(self.pid, 0.2, 5.0)}

    def send(self, value):
        self.proc.stdin.write(f"{value}\n".encode())
        self.proc.stdin.flush()


class Toastd(Daemon):
    name = "toastd"

    def __init__(self, env, client, log_dir, toastd_bin, toast_bin, with_bus=True):
        super().__init__(env, client, log_dir)
        self.toastd_bin = toastd_bin
        self.toast_bin = toast_bin
        self.socket = os.path.join(env["XDG_RUNTIME_DIR"], "toastd-bench.sock")
        self.uses_bus = with_bus
        # Flags of one measurement's own (the center row's configuration).
        self.extra_args = []

    def extra_env(self):
        return {"TOASTD_SOCKET": self.socket}

    def argv(self):
        # TOASTD_ARGS: extra flags for a run, e.g. "--no-animations".
        return [self.toastd_bin, *shlex.split(os.environ.get("TOASTD_ARGS", "")), *self.extra_args]

    def ready_checks(self):
        checks = {"socket": lambda: _socket_accepts(self.socket)}
        if self.uses_bus:
            checks["bus"] = self.client.name_owned
        return checks

    def stop(self):
        super().stop()
        # A stale socket file would make the next start look ready at once.
        if os.path.exists(self.socket):
            os.unlink(self.socket)

    def cli_env(self):
        return dict(self.env, TOASTD_SOCKET=self.socket)

    def toast(self, *args, timeout=5.0):
        """Runs `toast ARGS`; returns (exit status, stdout, stderr)."""
        r = subprocess.run([self.toast_bin, *args], env=self.cli_env(), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr

    def _request(self, line):
        """One request line on the control socket; returns the reply line."""
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(2.0)
        try:
            s.connect(self.socket)
            s.sendall(line)
            return s.recv(4096)
        finally:
            s.close()

    def dismiss_all(self):
        """Closes every toast through the control socket (when no id is known)."""
        self._request(b'{"v":1,"request":"dismiss","all":true}\n')

    def close(self, notification_id):
        if self.uses_bus:
            super().close(notification_id)
        else:
            self._request(b'{"v":1,"request":"dismiss","ids":[%d]}\n' % notification_id)

    def show_resident(self):
        if self.uses_bus:
            return super().show_resident()
        status, out, err = self.toast("-p", "-t", "0", "Resident toast", "stays while warm samples run")
        if status != 0:
            raise RuntimeError(f"toast -p -t 0 failed ({status}): {err.strip()}")
        return int(out.split()[0])
