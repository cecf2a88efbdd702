"""Unit tests of the table's verdicts: `python3 -m unittest harness.test_report` from bench/."""

import unittest

from . import report
from .measures import Results


class VerdictTests(unittest.TestCase):
    def verdict(self, key, samples_us):
        results = Results()
        for sample in samples_us:
            results.add(f"{key}.toastd", sample)
        return next(r["verdict"] for r in report.evaluate(results, None) if r["key"] == key)

    def test_a_p90_target_reads_the_p90_not_the_median(self):
        self.assertEqual(self.verdict("center_open", [5000] * 9 + [15000]), "PASS")
        self.assertEqual(self.verdict("center_open", [5000] * 8 + [17000, 17000]), "MISS",
                         "median 5 ms, p90 17 ms")

    def test_no_samples_is_not_a_pass(self):
        self.assertEqual(self.verdict("center_open", []), "n/a")


if __name__ == "__main__":
    unittest.main()
