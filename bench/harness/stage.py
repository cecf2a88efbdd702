"""The headless stage the daemons draw on: a headless sway and a private dbus-daemon.

Prefers the project's `scripts/stage` (or the script named by $BENCH_STAGE_SCRIPT) with its own
STAGE_DIR, so it never touches a stage someone else is using. Without one, starts its own:
sway (as an unprivileged user when run as root, through setpriv, which keeps the pid) with
WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1, and a dbus-daemon whose
config has no <servicedir>, so nothing is ever bus-activated behind the harness's back.
"""

import os
import pwd
import shutil
import subprocess

from . import procs

HERE = os.path.dirname(os.path.abspath(__file__))
FALLBACK = os.path.join(os.path.dirname(HERE), "fallback-stage")
STAGE_USER = "toastd-stage"


def _read_env_file(path):
    env = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                key, value = line.split("=", 1)
                env[key] = value
    return env


class ScriptStage:
    """The project's scripts/stage, driven with its start/stop commands."""

    def __init__(self, script, stage_dir):
        self.script = script
        self.stage_dir = stage_dir
        self.env = {}
        self.description = f"{script} (STAGE_DIR={stage_dir})"

    def start(self):
        env = dict(os.environ, STAGE_DIR=self.stage_dir)
        out = subprocess.run([self.script, "start", "--owner-pid", str(os.getpid())], env=env,
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        self.env = _read_env_file(out.strip().splitlines()[-1])
        return self.env

    def stop(self):
        subprocess.run([self.script, "stop"], env=dict(os.environ, STAGE_DIR=self.stage_dir),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


class OwnStage:
    """A headless sway and a private bus started by the harness itself."""

    def __init__(self, stage_dir):
        self.stage_dir = stage_dir
        self.env = {}
        self.procs = []
        self.description = f"the harness's own headless sway + dbus-daemon ({stage_dir})"

    def start(self):
        for tool in ("sway", "swaymsg", "dbus-daemon", "setpriv"):
            if not shutil.which(tool):
                raise RuntimeError(f"{tool} not found (bench/run installs it)")
        shutil.rmtree(self.stage_dir, ignore_errors=True)
        os.makedirs(self.stage_dir, mode=0o755)
        run_dir = os.path.join(self.stage_dir, "run")
        sway_dir = os.path.join(self.stage_dir, "sway")
        os.mkdir(run_dir, 0o700)
        os.mkdir(sway_dir, 0o700)

        bus = procs.spawn(["dbus-daemon", "--nofork", "--print-address=1",
                           f"--config-file={FALLBACK}/dbus-session.conf",
                           f"--address=unix:dir={self.stage_dir}"],
                          env=dict(os.environ), stdout=subprocess.PIPE)
        self.procs.append(bus)
        bus_address = bus.stdout.readline().decode().strip()
        if not bus_address:
            raise RuntimeError("dbus-daemon printed no address")

        as_user = []
        if os.geteuid() == 0:
            self._ensure_user()
            pw = pwd.getpwnam(STAGE_USER)
            os.chown(sway_dir, pw.pw_uid, pw.pw_gid)
            as_user = ["setpriv", f"--reuid={STAGE_USER}", f"--regid={STAGE_USER}", "--init-groups"]
        swaysock = os.path.join(sway_dir, "sway-ipc.sock")
        sway_env = {"PATH": os.environ["PATH"], "HOME": self.stage_dir, "XDG_RUNTIME_DIR": sway_dir,
                    "SWAYSOCK": swaysock, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman",
                    "WLR_LIBINPUT_NO_DEVICES": "1", "LANG": "C.UTF-8"}
        log = open(os.path.join(self.stage_dir, "sway.log"), "wb")
        sway = procs.spawn(as_user + ["sway", "-c", f"{FALLBACK}/sway.config"], env=sway_env,
                           stdout=log, stderr=log)
        self.procs.append(sway)

        def ready():
            if sway.poll() is not None:
                raise RuntimeError(f"sway exited ({sway.returncode}); see {self.stage_dir}/sway.log")
            sockets = [n for n in os.listdir(sway_dir) if n.startswith("wayland-") and not n.endswith(".lock")]
            if not sockets or not os.path.exists(swaysock):
                return None
            ok = subprocess.run(["swaymsg", "-s", swaysock, "-t", "get_outputs"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
            return os.path.join(sway_dir, sockets[0]) if ok else None
        display = procs.poll_until(ready, timeout_s=20, interval_s=0.01)
        if not display:
            raise RuntimeError(f"sway did not come up in 20 s; see {self.stage_dir}/sway.log")
        self.env = {"WAYLAND_DISPLAY": display, "SWAYSOCK": swaysock,
                    "DBUS_SESSION_BUS_ADDRESS": bus_address, "XDG_RUNTIME_DIR": run_dir,
                    "STAGE_DIR": self.stage_dir}
        return self.env

    @staticmethod
    def _ensure_user():
        try:
            pwd.getpwnam(STAGE_USER)
        except KeyError:
            useradd = shutil.which("useradd", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin") or "useradd"
            subprocess.run([useradd, "--system", "--no-create-home", "--home-dir", "/nonexistent",
                            "--shell", "/usr/sbin/nologin", "--user-group", STAGE_USER], check=False)
            pwd.getpwnam(STAGE_USER)

    def stop(self):
        for proc in reversed(self.procs):
            procs.stop(proc)
        self.procs = []
        shutil.rmtree(self.stage_dir, ignore_errors=True)


def choose(repo):
    """The stage to use: $BENCH_STAGE_SCRIPT, else the repo's scripts/stage, else our own."""
    # One per run: two benches at once (several engineers as root on one machine) must not share a
    # stage, or the second measures on the first's bus, refuses to start, and its exit stops the
    # first's stage mid-run. BENCH_STAGE_DIR names one instead.
    stage_dir = os.environ.get("BENCH_STAGE_DIR") or f"/tmp/toastd-bench-stage-{os.getuid()}-{os.getpid()}"
    script = os.environ.get("BENCH_STAGE_SCRIPT") or os.path.join(repo, "scripts", "stage")
    if os.access(script, os.X_OK):
        return ScriptStage(script, stage_dir)
    return OwnStage(stage_dir)

