"""Turns `Results` into the table (stdout + latest.md), latest.json and latest.png.

Targets are read off the table, not asserted: each row with a target gets PASS, MISS or n/a.
"""

import json
import math
from dataclasses import dataclass


@dataclass
class Row:
    key: str
    label: str
    unit: str               # "ms" for latency series (stored in µs), else the scalar's unit
    toastd: str | None      # series/metric key of toastd's value (None: a row about the harness)
    anchor: str | None      # series/metric key of the anchor's value
    anchor_name: str = ""
    target: str = ""        # human text, e.g. "≤ 0.5× anchor"
    ratio_max: float | None = None   # PASS if toastd/anchor ≤ this
    abs_max: float | None = None     # PASS if toastd ≤ this
    p90_max: float | None = None     # PASS if toastd's p90 ≤ this (a series)
    series: bool = False             # latency samples (median/p90/min) or one scalar


# Where the memory rows are read (harness/measures.py, `resource_run`).
MEMORY_POINTS = (("idle", "idle"), ("one", "one toast shown"), ("one_closed", "after it closed"),
                 ("settled_30", "settled after 30 single toasts"), ("100", "100 toasts shown"),
                 ("closed", "after the 100 closed"))

ROWS = [
    Row("cli_cold", "1. CLI spawn → first commit, cold", "ms", "cli_cold.toast", "cli_cold.notify-send+mako",
        "notify-send+mako", "≤ 0.5× anchor", ratio_max=0.5, series=True),
    Row("cli_warm", "1. CLI spawn → first commit, warm", "ms", "cli_warm.toast", "cli_warm.notify-send+mako",
        "notify-send+mako", "≤ 0.5× anchor", ratio_max=0.5, series=True),
    Row("ns_cold", "1. notify-send → first commit, cold", "ms", "cli_cold.notify-send+toastd",
        "cli_cold.notify-send+mako", "notify-send+mako", series=True),
    Row("ns_warm", "1. notify-send → first commit, warm", "ms", "cli_warm.notify-send+toastd",
        "cli_warm.notify-send+mako", "notify-send+mako", series=True),
    Row("ns_cold_dunst", "1. notify-send → first commit, cold (vs dunst)", "ms", "cli_cold.notify-send+toastd",
        "cli_cold.notify-send+dunst", "notify-send+dunst", series=True),
    Row("cli_exit", "1. CLI spawn → CLI exit (cold)", "ms", "cli_exit.toast", "cli_exit.notify-send+mako",
        "notify-send+mako", series=True),
    Row("spawn_baseline", "1. harness spawn → exit of /bin/true (part of every CLI row)", "ms", None,
        "spawn_baseline", "/bin/true", series=True),
    Row("notify", "2. connected D-Bus Notify → first commit", "ms", "notify.toastd", "notify.mako",
        "mako", "≤ 0.6× anchor", ratio_max=0.6, series=True),
    Row("notify_dunst", "2. connected D-Bus Notify → first commit (vs dunst)", "ms", "notify.toastd",
        "notify.dunst", "dunst", series=True),
    Row("hud", "2. HUD stream value → first commit", "ms", "hud.toastd", "hud.wob",
        "wob", "≤ 0.8× anchor", ratio_max=0.8, series=True),
    Row("hud_key", "2. HUD key press (`sh -c` spawned) → first commit", "ms", "hud_key.toastd", "hud_key.wob",
        "wob (echo > FIFO)", "≤ 0.5× anchor", ratio_max=0.5, series=True),
    Row("hud_key_first", "2. HUD key press, the first after the daemon started (`sh -c` spawned) → first commit", "ms",
        "hud_key_first.toastd", "hud_key_first.wob", "wob (echo > FIFO)", series=True),
    Row("hud_key_tail", "2. HUD key press → first commit (vs wob as its README feeds it: `tail -f FIFO | wob`)", "ms",
        "hud_key.toastd", "hud_key.wob-tail", "wob (echo > FIFO, tail -f)", series=True),
    Row("hud_key_fifo", "2. HUD key press, toastd fed like wob: `echo N > FIFO`, `tail -f FIFO | toast hud --stream volume`",
        "ms", "hud_key.toastd-fifo", "hud_key.wob", "wob (echo > FIFO)", series=True),
    # Samples in ns per value, so the series' /1000 reads µs; one sample per HUD_VALUES values.
    Row("hud_cpu", "2. daemon CPU per HUD value (stream, bar shown)", "µs", "hud_cpu.toastd", "hud_cpu.wob",
        "wob", "≤ anchor", ratio_max=1.0, series=True),
    Row("ready_bus", "3. start → bus name owned", "ms", "ready_bus.toastd", "ready_bus.mako",
        "mako", series=True),
    Row("ready_socket", "3. start → socket accepts", "ms", "ready_socket.toastd", None, series=True),
    # Memory (row 4) is counted as Anonymous (what no page cache gives back) and PSS (each resident page
    # shared among its users), against mako and dunst at each point (MEMORY_POINTS); RSS, which counts
    # file pages that stay cached whether mapped or not, is for reference only. Targets: Anonymous ≤ mako's
    # at each point, PSS with one toast shown ≤ mako's.
    *[Row(f"{kind}_{point}" + ("" if anchor == "mako" else "_dunst"), f"4. {label}, {words}{vs}", "MB", f"{kind}_{point}.toastd",
          f"{kind}_{point}.{anchor}", anchor,
          *(("≤ anchor", 1.0) if anchor == "mako" and (kind == "anon" or point == "one") else ()))
      for kind, label in (("anon", "Anonymous"), ("pss", "PSS"))
      for point, words in MEMORY_POINTS
      for anchor, vs in (("mako", ""), ("dunst", " (vs dunst)"))],
    *[Row(f"rss_{point}", f"4. RSS, {words} (reference: counts cached file pages)", "MB", f"rss_{point}.toastd",
          f"rss_{point}.mako", "mako") for point, words in MEMORY_POINTS[:2] + MEMORY_POINTS[4:5]],
    Row("anon_idle_wob", "4. Anonymous, idle (vs wob)", "MB", "anon_idle.toastd", "anon_idle.wob", "wob"),
    # Samples in ns per notification, so the series' /1000 reads µs; one sample per burst of 100.
    Row("cpu_per_notification", "5. daemon CPU per notification (bursts of 100)", "µs",
        "cpu_per_notification.toastd", "cpu_per_notification.mako", "mako", "≤ 0.8× anchor", ratio_max=0.8,
        series=True),
    Row("cpu_per_notification_dunst", "5. daemon CPU per notification (vs dunst)", "µs",
        "cpu_per_notification.toastd", "cpu_per_notification.dunst", "dunst", series=True),
    Row("wakeups_idle", "6. wakeups in 10 s, nothing shown", "count", "wakeups_idle.toastd",
        "wakeups_idle.mako", "mako", "0", abs_max=0),
    Row("wakeups_idle_wob", "6. wakeups in 10 s, nothing shown (vs wob)", "count", "wakeups_idle.toastd",
        "wakeups_idle.wob", "wob"),
    Row("wakeups_idle_dunst", "6. wakeups in 10 s, nothing shown (vs dunst)", "count", "wakeups_idle.toastd",
        "wakeups_idle.dunst", "dunst"),
    Row("wakeups_shown", "6. wakeups in 10 s, toasts shown, still", "count", "wakeups_shown.toastd",
        "wakeups_shown.mako", "mako", "0", abs_max=0),
    # Rows 8 and 9: heavy input (harness/heavy.py), one run per daemon, against mako and dunst.
    Row("burst_drain", "8. 10,000 pipelined Notify calls: last one answered after", "s", "burst_drain.toastd",
        "burst_drain.mako", "mako", "≤ anchor", ratio_max=1.0),
    Row("burst_drain_dunst", "8. 10,000 pipelined Notify calls: last one answered after (vs dunst)", "s",
        "burst_drain.toastd", "burst_drain.dunst", "dunst"),
    Row("burst_cpu", "8. burst: daemon CPU until idle again", "s", "burst_cpu.toastd", "burst_cpu.mako", "mako"),
    Row("burst_cpu_dunst", "8. burst: daemon CPU until idle again (vs dunst)", "s", "burst_cpu.toastd",
        "burst_cpu.dunst", "dunst"),
    Row("burst_peak_rss", "8. burst: peak RSS", "MB", "burst_peak_rss.toastd", "burst_peak_rss.mako", "mako"),
    Row("burst_peak_rss_dunst", "8. burst: peak RSS (vs dunst)", "MB", "burst_peak_rss.toastd",
        "burst_peak_rss.dunst", "dunst"),
    Row("burst_commits", "8. burst: buffer commits", "count", "burst_commits.toastd", "burst_commits.mako", "mako"),
    Row("burst_commits_dunst", "8. burst: buffer commits (vs dunst)", "count", "burst_commits.toastd",
        "burst_commits.dunst", "dunst"),
    Row("burst_commits_ahead", "8. burst: commits before the last frame's callback", "count",
        "burst_commits_ahead.toastd", "burst_commits_ahead.mako", "mako", "0", abs_max=0),
    Row("burst_anon_after", "8. burst: Anonymous after all closed", "MB", "burst_anon_after.toastd",
        "burst_anon_after.mako", "mako", "≤ anchor", ratio_max=1.0),
    Row("burst_anon_after_dunst", "8. burst: Anonymous after all closed (vs dunst)", "MB", "burst_anon_after.toastd",
        "burst_anon_after.dunst", "dunst"),
    Row("storm_anon_after", "9. storm of 4,000 random Notify calls: Anonymous after all closed", "MB",
        "storm_anon_after.toastd", "storm_anon_after.mako", "mako", "≤ anchor", ratio_max=1.0),
    Row("storm_anon_after_dunst", "9. storm: Anonymous after all closed (vs dunst)", "MB", "storm_anon_after.toastd",
        "storm_anon_after.dunst", "dunst"),
    Row("storm_peak_rss", "9. storm: peak RSS (sampled)", "MB", "storm_peak_rss.toastd", "storm_peak_rss.mako", "mako"),
    Row("first_after_login", "10. first toast after login: notify-send → D-Bus activation → first commit", "ms",
        "first_after_login.toastd", "first_after_login.mako", "mako", "≤ 0.8× anchor", ratio_max=0.8, series=True),
    # Samples in µs of CPU stored as "µs" so the series' /1000 reads ms.
    Row("first_after_login_cpu", "10. first toast after login: daemon CPU from exec until idle with it shown", "ms",
        "first_after_login_cpu.toastd", "first_after_login_cpu.mako", "mako", series=True),
    # Row 11 (harness/frames4k.py): toastd alone, 3840×2160@144 Hz, at each scale.
    *[row for scale, key in (("2", "s2"), ("1.5", "s1_5")) for row in (
        Row(f"frames4k_{key}_late", f"11. 4K@144 scale {scale}: frame callbacks answered late", "count",
            f"frames4k_{key}_late.toastd", None, "", "0", abs_max=0),
        Row(f"frames4k_{key}_ahead", f"11. 4K@144 scale {scale}: commits before the last frame's callback", "count",
            f"frames4k_{key}_ahead.toastd", None, "", "0", abs_max=0),
        Row(f"frames4k_{key}_callbacks", f"11. 4K@144 scale {scale}: frame callbacks answered", "count",
            f"frames4k_{key}_callbacks.toastd", None),
        Row(f"frames4k_{key}_frame_cpu_p99", f"11. 4K@144 scale {scale}: CPU per drawn frame (callback → commit, on a CPU), p99",
            "ms", f"frames4k_{key}_frame_cpu_p99.toastd", None, "", "≤ 2 ms", abs_max=2.0),
        Row(f"frames4k_{key}_frame_cpu_p99_fades", f"11. 4K@144 scale {scale}: CPU per drawn frame, p99: fades", "ms",
            f"frames4k_{key}_frame_cpu_p99_fades.toastd", None),
        Row(f"frames4k_{key}_frame_cpu_p99_moves", f"11. 4K@144 scale {scale}: CPU per drawn frame, p99: stack moves", "ms",
            f"frames4k_{key}_frame_cpu_p99_stack_moves.toastd", None),
        Row(f"frames4k_{key}_frame_cpu_p99_burst", f"11. 4K@144 scale {scale}: CPU per drawn frame, p99: burst (with its calls)",
            "ms", f"frames4k_{key}_frame_cpu_p99_burst.toastd", None),
        Row(f"frames4k_{key}_work_p99", f"11. 4K@144 scale {scale}: frame callback → commit, p99 (wall)", "ms",
            f"frames4k_{key}_work_p99.toastd", None),
        Row(f"frames4k_{key}_cpu_per_commit", f"11. 4K@144 scale {scale}: CPU per buffer commit (mean)", "ms",
            f"frames4k_{key}_cpu_per_commit.toastd", None))],
    Row("spinner_cpu", "7. CPU while a spinner turns", "% core", "spinner_cpu.toastd", None, "",
        "≤ 1 %", abs_max=1.0),
    # Row 12: the notification center (harness/center.py); absolute, no anchor has one.
    Row("center_open", "12. center request → first commit, 1,000 entries", "ms", "center_open.toastd", None, "",
        "p90 ≤ 16 ms", p90_max=16.0, series=True),
    Row("center_open_few", "12. center request → first commit, 10 entries", "ms", "center_open_few.toastd", None,
        series=True),
    Row("center_paint_1000", "12. center: paint of its first frame, 1,000 entries", "ms", "center_paint_1000.toastd",
        None, series=True),
    Row("center_paint_10", "12. center: paint of its first frame, 10 entries", "ms", "center_paint_10.toastd",
        None, series=True),
]


def stats(samples_us):
    """median, p90 (nearest rank), min, in ms (of µs samples); n."""
    xs = sorted(samples_us)
    n = len(xs)
    median = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    p90 = xs[min(n - 1, math.ceil(0.9 * n) - 1)]
    return {"median": median / 1000, "p90": p90 / 1000, "min": xs[0] / 1000, "n": n}


def _value(results, row, key):
    """{median, p90, min, n} for a series, {value} for a scalar, or None."""
    if key is None:
        return None
    if row.series:
        xs = results.samples.get(key)
        if not xs:
            return None
        out = stats(xs)
        if results.failed.get(key):
            out["failed"] = results.failed[key]
        return out
    if key in results.scalars:
        return {"value": results.scalars[key]}
    return None


def _central(v):
    return None if v is None else v.get("median", v.get("value"))


def evaluate(results, toastd_problem):
    """One dict per row: values, ratio, verdict, and why toastd's side is n/a."""
    rows = []
    for row in ROWS:
        t = _value(results, row, row.toastd)
        a = _value(results, row, row.anchor)
        tc, ac = _central(t), _central(a)
        ratio = tc / ac if tc is not None and ac not in (None, 0) else None
        verdict = ""
        if row.target:
            if tc is None:
                verdict = "n/a"
            elif row.p90_max is not None:
                verdict = "PASS" if t["p90"] <= row.p90_max else "MISS"
            elif row.abs_max is not None:
                verdict = "PASS" if tc <= row.abs_max else "MISS"
            elif ratio is not None:
                verdict = "PASS" if ratio <= row.ratio_max else "MISS"
            else:
                verdict = "n/a"
        why = None
        if t is None and row.toastd:
            died = any(d.startswith(("toastd", "resources: toastd")) for d in results.deaths)
            why = (results.missing.get(row.toastd) or toastd_problem
                   or ("toastd died (see the header)" if died else "no samples"))
        rows.append({"key": row.key, "label": row.label, "unit": row.unit, "anchor_name": row.anchor_name,
                     "has_toastd": row.toastd is not None, "toastd": t, "anchor": a, "ratio": ratio, "target": row.target, "verdict": verdict,
                     "toastd_na": why,
                     "anchor_na": (results.missing.get(row.anchor) or "no samples") if row.anchor and a is None else None})
    return rows


def _fmt_num(x):
    if x is None:
        return "–"
    if isinstance(x, int):
        return str(x)
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def _cell(v, series):
    if v is None:
        return "n/a"
    if series:
        text = f"{_fmt_num(v['median'])} / {_fmt_num(v['p90'])} / {_fmt_num(v['min'])} (n={v['n']})"
        return text + (f", {v['failed']} lost" if v.get("failed") else "")
    return _fmt_num(v["value"])


def markdown_table(rows, toastd_problem):
    lines = ["Cells with n: median / p90 / min over n samples (CPU: one sample per burst of 100). Ratio = toastd / anchor (medians).", "",
             "| measure | unit | toastd | anchor | anchor value | ratio | target | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        series = "median" in (r["toastd"] or r["anchor"] or {})
        toastd = _cell(r["toastd"], series)
        if not r["has_toastd"]:
            toastd = ""
        elif r["toastd"] is None:
            # A toastd that does not run is explained once, in the header; a row's own reason here.
            toastd = "n/a: " + (toastd_problem.split(":")[0] if toastd_problem else r["toastd_na"] or "no samples")
        anchor = _cell(r["anchor"], series) if r["anchor_name"] else ""
        if r["anchor_name"] and r["anchor"] is None and r["anchor_na"] != "no samples":
            # Why, in short: "dunst: dunst died (signal 11): <its last words>" → "dunst died (signal 11)".
            why = r["anchor_na"].removeprefix(f"{r['anchor_name']}: ")
            anchor = "n/a: " + why.split(":")[0]
        ratio = f"{r['ratio']:.2f}×" if r["ratio"] is not None else ""
        lines.append(f"| {r['label']} | {r['unit']} | {toastd} | {r['anchor_name']} | {anchor} | {ratio} | "
                     f"{r['target']} | {r['verdict']} |")
    return "\n".join(lines) + "\n"


def write_json(path, rows, results, meta):
    data = {"meta": meta, "rows": rows, "samples_us": results.samples, "lost_samples": results.failed,
            "scalars": results.scalars, "missing": results.missing, "deaths": results.deaths}
    with open(path, "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")


def write_png(path, rows, meta):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_key = {r["key"]: r for r in rows}
    toastd_colour, anchor_colour, dunst_colour = "#2f7ed8", "#9a9a9a", "#d9a05b"
    fig = plt.figure(figsize=(14, 10))
    top_grid = fig.add_gridspec(1, 1, left=0.3, right=0.97, top=0.9, bottom=0.5)
    grid = fig.add_gridspec(1, 4, wspace=0.45, left=0.05, right=0.97, top=0.38, bottom=0.1)

    def verdict_text(r, name=""):
        return f"  [{name + ' ' if name else ''}{r['verdict']}]" if r["verdict"] else ""

    # Latency: one pair of bars per row, median with a whisker to p90, log scale.
    ax = fig.add_subplot(top_grid[0, 0])
    keys = ["cli_cold", "cli_warm", "ns_cold", "ns_warm", "cli_exit", "spawn_baseline", "notify", "hud", "hud_key", "hud_key_first", "first_after_login",
            "ready_bus", "ready_socket"]
    labels = []
    shown = [r[side][k] for r in (by_key[key] for key in keys) for side in ("toastd", "anchor")
             if r[side] for k in ("min", "p90")]
    low = min(shown, default=0.1) / 3
    for i, key in enumerate(keys):
        r = by_key[key]
        y = len(keys) - 1 - i
        for offset, side, colour in ((0.2, "toastd", toastd_colour), (-0.2, "anchor", anchor_colour)):
            v = r[side]
            if (side == "anchor" and not r["anchor_name"]) or (side == "toastd" and not r["has_toastd"]):
                continue
            if v is None:
                ax.text(low * 1.15, y + offset, f"{'toastd' if side == 'toastd' else r['anchor_name']}: n/a",
                        va="center", fontsize=8, color=colour)
                continue
            ax.barh(y + offset, v["median"], height=0.38, color=colour,
                    xerr=[[0], [v["p90"] - v["median"]]], error_kw={"elinewidth": 1, "capsize": 2})
            ax.text(v["p90"] * 1.08, y + offset, f"{v['median']:.2f}", va="center", fontsize=8)
        anchor = f" vs {r['anchor_name']}" if r["anchor_name"] and r["has_toastd"] else ""
        labels.append((y, r["label"][3:] + anchor + verdict_text(r)))
    ax.set_yticks([y for y, _ in labels], [t for _, t in labels], fontsize=8.5)
    ax.set_xscale("log")
    ax.set_xlim(low, max(shown, default=100) * 4)
    ax.set_xlabel("ms (log scale): bar = median, whisker = p90; blue = toastd, grey = anchor")
    ax.set_title("Latency to the first committed frame", fontsize=11, loc="left")
    ax.grid(axis="x", which="major", alpha=0.3)

    def bars(position, title, unit, groups, target=None):
        """groups: [(group label, [(name, value or None, colour)])]"""
        ax = fig.add_subplot(grid[0, position])
        x = 0
        ticks = []
        for label, members in groups:
            start = x
            for name, value, colour in members:
                if value is None:
                    ax.text(x, 0, "n/a", ha="center", va="bottom", fontsize=7, rotation=90, color=colour)
                else:
                    ax.bar(x, value, width=0.8, color=colour)
                    ax.text(x, value, _fmt_num(value), ha="center", va="bottom", fontsize=7)
                x += 1
            ticks.append(((start + x - 1) / 2, label))
            x += 0.6
        if target is not None:
            ax.axhline(target, color="#d04040", linestyle="--", linewidth=1)
        ax.set_xticks([t for t, _ in ticks], [l for _, l in ticks], fontsize=8)
        ax.set_ylabel(unit, fontsize=8)
        ax.set_title(title, fontsize=10, loc="left")
        ax.set_xlim(-0.8, x - 0.2)
        top = max([v for _, members in groups for _, v, _ in members if v is not None] + [target or 0, 1])
        ax.set_ylim(0, top * 1.2)

    def val(key, side):
        v = by_key[key][side]
        return None if v is None else v.get("value", v.get("median"))

    bars(0, "Anonymous memory" + verdict_text(by_key["anon_idle"], "idle") + verdict_text(by_key["anon_one"], "one")
         + verdict_text(by_key["anon_settled_30"], "after 30"), "MB", [
        ("idle", [("toastd", val("anon_idle", "toastd"), toastd_colour), ("mako", val("anon_idle", "anchor"), anchor_colour),
                  ("dunst", val("anon_idle_dunst", "anchor"), dunst_colour)]),
        ("one shown", [("toastd", val("anon_one", "toastd"), toastd_colour), ("mako", val("anon_one", "anchor"), anchor_colour),
                  ("dunst", val("anon_one_dunst", "anchor"), dunst_colour)]),
        ("closed", [("toastd", val("anon_one_closed", "toastd"), toastd_colour), ("mako", val("anon_one_closed", "anchor"), anchor_colour),
                  ("dunst", val("anon_one_closed_dunst", "anchor"), dunst_colour)]),
        ("after 30", [("toastd", val("anon_settled_30", "toastd"), toastd_colour), ("mako", val("anon_settled_30", "anchor"), anchor_colour),
                  ("dunst", val("anon_settled_30_dunst", "anchor"), dunst_colour)]),
        ("100 shown", [("toastd", val("anon_100", "toastd"), toastd_colour), ("mako", val("anon_100", "anchor"), anchor_colour),
                  ("dunst", val("anon_100_dunst", "anchor"), dunst_colour)]),
        ("100 closed", [("toastd", val("anon_closed", "toastd"), toastd_colour), ("mako", val("anon_closed", "anchor"), anchor_colour),
                  ("dunst", val("anon_closed_dunst", "anchor"), dunst_colour)]),
    ])
    bars(1, "CPU per notification" + verdict_text(by_key["cpu_per_notification"]), "µs", [
        ("median of bursts of 100", [("toastd", val("cpu_per_notification", "toastd"), toastd_colour),
                          ("mako", val("cpu_per_notification", "anchor"), anchor_colour)]),
    ])
    bars(2, "Wakeups in 10 s" + verdict_text(by_key["wakeups_idle"], "idle")
         + verdict_text(by_key["wakeups_shown"], "shown"), "count", [
        ("nothing shown", [("toastd", val("wakeups_idle", "toastd"), toastd_colour),
                           ("mako", val("wakeups_idle", "anchor"), anchor_colour),
                           ("wob", val("wakeups_idle_wob", "anchor"), "#c8c8c8")]),
        ("toasts shown", [("toastd", val("wakeups_shown", "toastd"), toastd_colour),
                          ("mako", val("wakeups_shown", "anchor"), anchor_colour)]),
    ])
    bars(3, "Spinner CPU" + verdict_text(by_key["spinner_cpu"]), "% of one core", [
        ("toastd spinner", [("toastd", val("spinner_cpu", "toastd"), toastd_colour)]),
    ], target=2.0)

    from matplotlib.patches import Patch
    fig.legend(handles=[Patch(color=toastd_colour, label="toastd"), Patch(color=anchor_colour, label="mako (or the row's anchor)"),
                        Patch(color=dunst_colour, label="dunst"), Patch(color="#c8c8c8", label="wob")], loc="lower left", fontsize=8, frameon=False,
               bbox_to_anchor=(0.01, 0.02))
    status = "toastd: measured" if meta.get("toastd_status") == "ok" else f"toastd: {meta.get('toastd_status')}"
    fig.suptitle(f"toastd vs mako / dunst / wob — {meta.get('date', '')}, {meta.get('cpus', '?')} CPUs, "
                 f"load {meta.get('load_before', '?')}; {status}", fontsize=11)
    fig.savefig(path, dpi=90)
    plt.close(fig)
