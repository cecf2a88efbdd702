"""Tests of the 4K frame rule and the first-commit reading of an activated daemon's log
(run: `cd bench && python3 -m unittest harness.test_frames4k`)."""

import os
import tempfile
import unittest

from .activation import _first_commit_us
from .frames4k import PERIOD_US, frame_answers

# toastd fading a toast at 144 Hz (from a real log): each commit asks for the next frame, the last one too.
FADE = """\
[1860823.980] wl_callback@23.done(12635673)
[1860824.687]  -> wl_surface@3.attach(wl_buffer@15, 0, 0)
[1860824.712]  -> wl_surface@3.damage_buffer(0, 0, 768, 196)
[1860824.721]  -> wl_surface@3.frame(new id wl_callback@16)
[1860824.727]  -> wl_surface@3.commit()
[1860829.639] wl_callback@16.done(12635680)
[1860830.193]  -> wl_surface@3.attach(wl_buffer@22, 0, 0)
[1860830.214]  -> wl_surface@3.frame(new id wl_callback@23)
[1860830.220]  -> wl_surface@3.commit()
[1860837.772] wl_callback@23.done(12635687)
[1861049.712]  -> wl_surface@3.attach(wl_buffer@16, 0, 0)
[1861049.729]  -> wl_surface@3.frame(new id wl_callback@24)
[1861049.735]  -> wl_surface@3.commit()
""".splitlines()


def stamp(ms_dot_us):
    ms, us = ms_dot_us.split(".")
    return int(ms) * 1000 + int(us)


class FrameAnswerTests(unittest.TestCase):
    def test_a_callback_answered_within_the_period_is_on_time(self):
        answers, commits = frame_answers(FADE[1:9], marks=[])
        self.assertEqual(commits, 2)
        self.assertEqual(answers, [stamp("1860830.220") - stamp("1860829.639")])
        self.assertLess(answers[0], PERIOD_US)

    def test_a_commit_after_input_is_not_counted_as_a_late_answer(self):
        # The fade's last callback fired; the next commit is a new toast the harness asked for.
        answers, _ = frame_answers(FADE, marks=[stamp("1861000.000")])
        self.assertTrue(all(a < PERIOD_US for a in answers), answers)
        self.assertEqual(len(answers), 1)

    def test_the_same_gap_without_input_is_late(self):
        answers, commits = frame_answers(FADE, marks=[])
        self.assertEqual(commits, 3)
        self.assertEqual(sum(1 for a in answers if a > PERIOD_US), 1)

    def test_a_destroyed_surface_owes_no_frame(self):
        lines = FADE[1:10] + ["[1860838.000]  -> wl_surface@3.destroy()"] + FADE[10:]
        answers, _ = frame_answers(lines, marks=[])
        self.assertEqual(len(answers), 1)


class ActivatedLogTests(unittest.TestCase):
    def test_first_attach_and_commit_after_the_stamp(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write("toastd: ready\n" + "\n".join(FADE) + "\n")
        try:
            self.assertEqual(_first_commit_us(f.name, stamp("1860824.000")), 727)
            self.assertEqual(_first_commit_us(f.name, stamp("1860825.000")), stamp("1860830.220") - stamp("1860825.000"))
            self.assertIsNone(_first_commit_us(f.name, stamp("1861050.000")))
        finally:
            os.unlink(f.name)

    def test_no_log_yet(self):
        self.assertIsNone(_first_commit_us("/nonexistent/daemon.log", 0))


if __name__ == "__main__":
    unittest.main()
