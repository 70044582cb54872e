"""Benchmarks (not tests): run ``python bench/run.py``; results go to ``bench/RESULTS.md``."""
