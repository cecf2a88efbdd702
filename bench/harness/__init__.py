"""toastd's side-by-side benchmark harness; run it with `bench/run` (see docs/benchmarks.md)."""
