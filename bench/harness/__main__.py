"""toastd's side-by-side benchmark: `python3 -m harness [options]` from bench/ (bench/run does it).

Starts a headless stage, measures mako, wob and (when its binaries work) toastd, alternating them,
and writes bench/results/latest.{md,json,png}.
"""

import argparse
import atexit
import datetime
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

from . import procs, report
from .activation import activation_rounds
from .daemons import NotificationsClient
from .frames4k import Frames4K
from .hudkeys import key_press_rounds
from .measures import Bench, Results
from .stage import choose

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(BENCH)


# What a run measures, in order (--only picks some).
PARTS = ("latency", "hudkeys", "login", "ready", "resources", "frames4k", "heavy", "center")


def say(text):
    print(text, file=sys.stderr, flush=True)


def find_binary(env_name, *candidates):
    path = os.environ.get(env_name)
    if path:
        return path if os.access(path, os.X_OK) else None
    for candidate in candidates:
        full = os.path.join(REPO, candidate)
        if os.access(full, os.X_OK):
            return full
    return None


def version(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=5)
        return (r.stdout or r.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "?"


def main():
    parser = argparse.ArgumentParser(prog="bench/run", description=__doc__)
    parser.add_argument("-n", "--samples", type=int, default=40, help="samples per latency row (default 40)")
    parser.add_argument("--rounds", type=int, default=4, help="alternation rounds the samples are split into")
    parser.add_argument("--ready-samples", type=int, default=20, help="start → ready samples per daemon")
    parser.add_argument("--out", default=os.path.join(BENCH, "results"), help="where latest.* go")
    parser.add_argument("--no-heavy", dest="heavy", action="store_false",
                        help="skip rows 8 and 9 (the burst and the storm, a few minutes)")
    parser.add_argument("--keep-logs", action="store_true", help="keep the daemons' WAYLAND_DEBUG logs")
    parser.add_argument("--login-samples", type=int, default=20,
                        help="first toast after login (D-Bus activation) samples per daemon (default 20)")
    parser.add_argument("--only", default=",".join(PARTS),
                        help=f"the parts to run, comma-separated (default all: {','.join(PARTS)})")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    if parts - set(PARTS):
        parser.error(f"--only: unknown part(s) {', '.join(sorted(parts - set(PARTS)))}; known: {', '.join(PARTS)}")

    started = time.monotonic()
    toastd_bin = find_binary("TOASTD_BIN", ".build-static/release/toastd", ".build/release/toastd")
    toast_bin = find_binary("TOAST_BIN", ".build-static/release/toast", ".build/release/toast")
    for tool in ("mako", "dunst", "wob", "notify-send"):
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} not found (bench/run installs it)")

    log_dir = tempfile.mkdtemp(prefix="toastd-bench-logs-")
    stage = choose(REPO)

    def cleanup():
        procs.stop_all()
        stage.stop()
        if not args.keep_logs:
            shutil.rmtree(log_dir, ignore_errors=True)
    atexit.register(cleanup)
    procs.install_cleanup(extra=cleanup)

    say(f"bench: stage: {stage.description}")
    stage_env = stage.start()
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DEBUG", "WAYLAND_SOCKET", "DISPLAY")}
    env.update(stage_env)
    env["LANG"] = env.get("LANG", "C.UTF-8")
    client = NotificationsClient(env["DBUS_SESSION_BUS_ADDRESS"])
    if client.name_owned():
        sys.exit("bench: something already owns org.freedesktop.Notifications on the stage's bus")

    results = Results()
    bench = Bench(env, client, log_dir, toastd_bin, toast_bin if toastd_bin else None, results, say)
    if os.environ.get("BENCH_BUILD_FAILED"):
        # Never measure a stale binary left over from an earlier build.
        bench.toastd, bench.toastd_problem = None, os.environ["BENCH_BUILD_FAILED"]
    elif toastd_bin and not toast_bin:
        bench.toastd, bench.toastd_problem = None, "toast CLI not built"
    toastd_ok = bench.check_toastd()
    toastd_status = "ok" if toastd_ok else (bench.toastd_problem or "toastd not built")
    say(f"bench: toastd: {toastd_status}")
    if not toastd_ok:
        say("bench: toastd rows will read n/a")

    load_before = os.getloadavg()[0]
    if "latency" in parts:
        say(f"bench: latency rows ({args.samples} samples each, {args.rounds} alternating rounds)")
        bench.latency_rounds(args.samples, args.rounds)
    if "hudkeys" in parts:
        say(f"bench: HUD key presses ({args.samples} per daemon, {args.rounds} alternating rounds)")
        key_press_rounds(bench, args.samples, args.rounds)
    if "login" in parts:
        say(f"bench: first toast after login ({args.login_samples} D-Bus activations per daemon)")
        activation_rounds(bench, args.login_samples, log_dir)
    if "ready" in parts:
        say(f"bench: start → ready ({args.ready_samples} samples per daemon)")
        bench.ready_rounds(args.ready_samples)
    if "resources" in parts:
        say("bench: resources (RSS, CPU per notification, wakeups, spinner)")
        bench.resource_runs()
    if "frames4k" in parts:
        say("bench: smooth frames at 4K (3840×2160@144, scale 2 and 1.5)")
        Frames4K(bench).run()
    if args.heavy and "heavy" in parts:
        say("bench: heavy input (10,000-call burst, 4,000-call storm; toastd, mako, dunst)")
        bench.heavy_runs()
    if "center" in parts:
        say("bench: the notification center with 1,000 entries (toastd)")
        bench.center_runs()

    duration = time.monotonic() - started
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "duration_s": round(duration, 1),
        "host": platform.node(), "kernel": platform.release(), "cpus": os.cpu_count(),
        "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
        "stage": stage.description,
        "samples_per_latency_row": args.samples, "rounds": args.rounds, "ready_samples": args.ready_samples,
        "toastd_status": toastd_status, "deaths": len(results.deaths), "toastd_bin": toastd_bin, "toast_bin": toast_bin,
        "versions": {"mako": version(["dpkg-query", "-W", "-f=${Version}", "mako-notifier"]),
                     "dunst": version(["dpkg-query", "-W", "-f=${Version}", "dunst"]),
                     "wob": version(["wob", "--version"]),
                     "notify-send": version(["notify-send", "--version"]),
                     "sway": version(["sway", "--version"])},
    }
    rows = report.evaluate(results, None if toastd_ok else toastd_status)
    os.makedirs(args.out, exist_ok=True)
    table = report.markdown_table(rows, None if toastd_ok else toastd_status)
    header = (f"Run {meta['date']} on {meta['cpus']} CPUs (load {meta['load_before']} → {meta['load_after']}), "
              f"{meta['duration_s']} s; toastd: {toastd_status}\n\n")
    if results.deaths:
        header += (f"**Daemons died or were cut short during the run ({len(results.deaths)}×); rows show the "
                   f"samples taken before:**\n\n" + "".join(f"- {d}\n" for d in results.deaths) + "\n")
    with open(os.path.join(args.out, "latest.md"), "w") as f:
        f.write(header + table)
    report.write_json(os.path.join(args.out, "latest.json"), rows, results, meta)
    report.write_png(os.path.join(args.out, "latest.png"), rows, meta)
    print(header + table)
    say(f"bench: wrote {args.out}/latest.md, latest.json, latest.png in {duration:.0f} s")
    if args.keep_logs:
        say(f"bench: logs kept in {log_dir}")


if __name__ == "__main__":
    main()
