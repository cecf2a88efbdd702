"""Tests of the late-frame attribution (run: `cd bench && python3 -m unittest harness.test_late_cause`)."""

import unittest

from .late_cause import frame_cpu_us, sched_states, split

# perf script lines (-k monotonic: seconds since boot), toastd being pid 700: woken, on a CPU 2 ms,
# preempted 5 ms (sway ran), on again 1 ms, asleep.
SCHED = """\
         swapper     0/0     [000] 100.000000: sched:sched_wakeup: comm=toastd pid=700 prio=120 target_cpu=000
         swapper     0/0     [000] 100.000100: sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=toastd next_pid=700 next_prio=120
          toastd   700/700   [000] 100.002100: sched:sched_switch: prev_comm=toastd prev_pid=700 prev_prio=120 prev_state=R+ ==> next_comm=sway next_pid=50 next_prio=120
            sway    50/50    [000] 100.007100: sched:sched_switch: prev_comm=sway prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=toastd next_pid=700 next_prio=120
          toastd   700/700   [000] 100.008100: sched:sched_switch: prev_comm=toastd prev_pid=700 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          python   800/800   [001] 100.009000: sched:sched_wakeup: comm=dbus-daemon pid=900 prio=120 target_cpu=001
""".splitlines()

OFFSET_US = 1_000_000_000.0  # realtime = monotonic + this


def us32(monotonic_s):
    return int(monotonic_s * 1e6 + OFFSET_US) % (1 << 32)


class LateCauseTests(unittest.TestCase):
    def test_the_threads_states_in_order_and_no_one_elses(self):
        states = sched_states(SCHED, 700, OFFSET_US)
        self.assertEqual([s for _, s in states], ["wait", "run", "wait", "run", "sleep"])

    def test_a_stretch_is_split_into_on_a_cpu_waiting_and_asleep(self):
        states = sched_states(SCHED, 700, OFFSET_US)
        run, wait, sleep = split(us32(100.000050), us32(100.009100), states)
        self.assertAlmostEqual(run, 3000, delta=2)
        self.assertAlmostEqual(wait, 5050, delta=2)
        self.assertAlmostEqual(sleep, 1000, delta=2)

    def test_a_stretch_before_the_recording_is_unknown(self):
        self.assertIsNone(split(us32(99.0), us32(100.001), sched_states(SCHED, 700, OFFSET_US)))

    def test_the_cpu_of_each_frame_is_its_time_on_a_cpu_and_uncovered_ones_are_left_out(self):
        states = sched_states(SCHED, 700, OFFSET_US)
        frames = [(us32(100.000050), us32(100.009100)), (us32(99.0), us32(100.001)), (us32(100.007100), us32(100.007600))]
        cpu = frame_cpu_us(frames, states)
        self.assertEqual(len(cpu), 2)
        self.assertAlmostEqual(cpu[0], 3000, delta=2)
        self.assertAlmostEqual(cpu[1], 500, delta=2)


if __name__ == "__main__":
    unittest.main()
