"""Row 2b: the HUD as a key binding runs it. Every key press is a command sway spawns through
`sh -c`: `toast hud volume N` for toastd, `echo N > FIFO` for wob (wob's own README: a FIFO read by
`tail -f FIFO | wob`), and `echo N > FIFO` for toastd fed the same way (`tail -f FIFO | toast hud
--stream volume`). The row times the spawn of that shell → the daemon's first buffer commit
(WAYLAND_DEBUG=1, wayland_log.py's rule), while the bar is shown (the presses that map the bar and
find each level's icon, HUD_WARM_UP, are not counted), values alternating 30 / 70, the daemon idle
before each press. The first of those uncounted presses, the first after the daemon started (as at
login, not activated), is a row of its own: the bar's surface mapped and its icon looked up.
"""

import os
import subprocess

from . import procs
from .daemons import Wob
from .measures import HUD_WARM_UP


class WobFifo(Wob):
    """wob fed through a FIFO. `via_tail`: as its README sets it up, `tail -f FIFO | wob` (GNU tail
    polls a FIFO it has read to its end once a second, so a press waits for tail's next poll);
    otherwise wob reads the FIFO itself, the harness holding a writer open so that wob never sees
    end of file when a press's shell closes it: the fastest a FIFO can feed wob, the row's anchor."""

    def __init__(self, env, client, log_dir, via_tail):
        super().__init__(env, client, log_dir)
        self.name = "wob-tail" if via_tail else "wob"
        self.via_tail = via_tail
        self.fifo = os.path.join(log_dir, f"{self.name}.fifo")
        self.tail = None
        self.held = None

    def start(self, debug=False):
        if not os.path.exists(self.fifo):
            os.mkfifo(self.fifo)
        if self.via_tail:
            self.tail = procs.spawn(["tail", "-f", self.fifo], env=self.env, stdout=subprocess.PIPE)
            return super().start(debug)
        self.held = os.open(self.fifo, os.O_RDWR)  # Linux: opens at once, and is a writer
        self.reader = os.open(self.fifo, os.O_RDONLY)
        try:
            return super().start(debug)
        finally:
            os.close(self.reader)  # wob has its own copy

    def stdin(self):
        return self.tail.stdout if self.via_tail else self.reader

    def key_press(self, value):
        return ["sh", "-c", f"echo {value} > {self.fifo}"]

    def stop(self):
        super().stop()
        if self.tail is not None:
            procs.stop(self.tail)
            self.tail = None
        if self.held is not None:
            os.close(self.held)
            self.held = None
        self.reader = None


def key_press_block(bench, daemon, k, key, fifo=None):
    """k key presses, each a `sh -c` spawned → first commit; the first (mapping the bar) uncounted.
    With `fifo` (toastd only), a press is `echo N > fifo`, read by `tail -f fifo | toast hud --stream
    volume`, which the block starts once the daemon runs."""
    if isinstance(daemon, WobFifo):
        press, env = daemon.key_press, daemon.env
    elif fifo is not None:
        press, env = (lambda value: ["sh", "-c", f"echo {value} > {fifo}"]), daemon.cli_env()
    else:
        press, env = (lambda value: ["sh", "-c", f"{daemon.toast_bin} hud volume {value}"]), daemon.cli_env()
    feeders = []

    def one(value):
        daemon.wait_idle(0.08)
        daemon.log.skip_to_end()
        t0 = procs.realtime_us32()
        r = subprocess.run(press(value), env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=10)
        if r.returncode != 0:
            raise RuntimeError(f"key press exited {r.returncode}: {r.stderr.strip()[:200]}")
        return daemon.log.wait_first_commit(t0)

    def body():
        try:
            if fifo is not None:
                if not os.path.exists(fifo):
                    os.mkfifo(fifo)
                feeders.append(procs.spawn(["tail", "-f", fifo], env=env, stdout=subprocess.PIPE))
                feeders.append(procs.spawn([daemon.toast_bin, "hud", "--stream", "volume"], env=env,
                                           stdin=feeders[0].stdout))
            for index, value in enumerate(HUD_WARM_UP):
                latency = one(value)
                if latency is None:
                    raise RuntimeError(f"no buffer commit within 2 s of the warm-up key press {value}")
                if index == 0:  # the first press after the daemon's start: the bar mapped, its icon found
                    bench.results.add(key.replace("hud_key.", "hud_key_first.", 1), latency)
            for i in range(k):
                latency = one((30, 70)[i % 2])
                if latency is None:
                    daemon.check_alive()
                bench.results.add(key, latency)
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            daemon.check_alive()
            bench.results.miss(key, str(e)[:200])
        finally:
            for feeder in reversed(feeders):
                procs.stop(feeder)
    bench._block(daemon, body)


def key_press_rounds(bench, n, rounds):
    """n key presses per daemon in `rounds` alternating blocks (toastd, wob, wob via tail; reversed
    every other round)."""
    fifo = os.path.join(bench.wob.log_dir, "toastd.fifo")
    blocks = [(bench.toastd, "toastd", None), (bench.toastd, "toastd-fifo", fifo),
              (WobFifo(bench.env, bench.client, bench.wob.log_dir, via_tail=False), "wob", None),
              (WobFifo(bench.env, bench.client, bench.wob.log_dir, via_tail=True), "wob-tail", None)]
    k = max(1, n // rounds)
    for r in range(rounds):
        for daemon, name, through in (blocks if r % 2 == 0 else reversed(blocks)):
            if daemon is not None:
                bench.say(f"  round {r + 1}/{rounds}: hud key press {name}")
                key_press_block(bench, daemon, k, f"hud_key.{name}", fifo=through)
