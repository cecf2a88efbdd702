"""Tests of the commit-time rule (run: `cd bench && python3 -m unittest harness.test_wayland_log`)."""

import os
import tempfile
import unittest

from .wayland_log import WRAP, WaylandLog, elapsed_us, first_commit_in, parse_line

# mako 1.7 showing a notification on a fresh surface, then a second one (from a real log).
MAKO = """\
[1012711.965]  -> wl_compositor@5.create_surface(new id wl_surface@3)
[1012712.007]  -> zwlr_layer_shell_v1@7.get_layer_surface(new id zwlr_layer_surface_v1@12, wl_surface@3, nil, 2, "notifications")
[1012712.021]  -> wl_surface@3.commit()
[1012712.752] zwlr_layer_surface_v1@12.configure(5, 320, 72)
[1012712.763]  -> zwlr_layer_surface_v1@12.ack_configure(5)
[1012712.857]  -> wl_shm_pool@13.create_buffer(new id wl_buffer@14, 0, 320, 72, 1280, 0)
[1012713.408]  -> wl_surface@3.attach(wl_buffer@14, 0, 0)
[1012713.411]  -> wl_surface@3.frame(new id wl_callback@16)
[1012713.414]  -> wl_surface@3.commit()
[1012713.423]  -> wl_surface@3.commit()
[1013028.217]  -> wl_surface@3.frame(new id wl_callback@17)
[1013028.247]  -> wl_surface@3.commit()
[1013029.495]  -> wl_surface@3.attach(wl_buffer@13, 0, 0)
[1013029.498]  -> wl_surface@3.frame(new id wl_callback@18)
[1013029.500]  -> wl_surface@3.commit()
""".splitlines()


class ParseTests(unittest.TestCase):
    def test_stamp_is_ms_dot_us(self):
        self.assertEqual(parse_line("[1012713.414]  -> wl_surface@3.commit()"),
                         (1012713414, "-> wl_surface@3.commit()"))

    def test_padded_stamp(self):
        self.assertEqual(parse_line("[   1234.005] wl_display@1.delete_id(3)")[0], 1234005)

    def test_other_lines_are_not_stamps(self):
        self.assertIsNone(parse_line("toastd: listening on /run/toastd.sock"))

    def test_elapsed_wraps_at_32_bits(self):
        self.assertEqual(elapsed_us(WRAP - 100, 50), 150)
        self.assertEqual(elapsed_us(50, WRAP - 100), -150)


class FirstCommitTests(unittest.TestCase):
    def test_the_empty_initial_commit_does_not_count(self):
        self.assertEqual(first_commit_in(MAKO, 1012711000), 1012713414)

    def test_a_commit_without_a_new_attach_does_not_count(self):
        # After the first toast: a frame + empty commit, then attach + commit.
        self.assertEqual(first_commit_in(MAKO, 1013000000), 1013029500)

    def test_an_attach_before_the_start_does_not_count(self):
        # attach at .408 is before the start; its commit at .414 is not the answer, the next
        # attach + commit is.
        self.assertEqual(first_commit_in(MAKO, 1012713410), 1013029500)
        self.assertIsNone(first_commit_in(MAKO[:10], 1012713410))

    def test_attach_and_commit_must_be_the_same_surface(self):
        lines = ["[10.000]  -> wl_surface@4.attach(wl_buffer@9, 0, 0)",
                 "[10.001]  -> wl_surface@5.commit()",
                 "[10.002]  -> wl_surface@4.commit()"]
        self.assertEqual(first_commit_in(lines, 0), 10002)

    def test_across_the_wrap(self):
        lines = [f"[{(WRAP - 10) // 1000}.{(WRAP - 10) % 1000:03d}]  -> wl_surface@3.attach(wl_buffer@1, 0, 0)",
                 "[      0.020]  -> wl_surface@3.commit()"]
        self.assertEqual(first_commit_in(lines, WRAP - 20), 20)


class FollowTests(unittest.TestCase):
    def test_reads_only_complete_lines_as_they_are_written(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "log")
            with open(path, "wb", buffering=0) as w:
                log = WaylandLog(path)
                w.write(b"[1.000]  -> wl_surface@3.attach(wl_buffer@1, 0, 0)\n[1.0")
                self.assertEqual(log.new_lines(), ["[1.000]  -> wl_surface@3.attach(wl_buffer@1, 0, 0)"])
                w.write(b"05]  -> wl_surface@3.commit()\n")
                self.assertEqual(log.new_lines(), ["[1.005]  -> wl_surface@3.commit()"])
                log.close()

    def test_wait_first_commit_returns_latency(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "log")
            with open(path, "w") as w:
                w.write("\n".join(MAKO) + "\n")
            log = WaylandLog(path)
            self.assertEqual(log.wait_first_commit(1013028000, timeout_s=0.1), 1500)
            log.close()


if __name__ == "__main__":
    unittest.main()
