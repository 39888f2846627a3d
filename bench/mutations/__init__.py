"""Pages and in-page mutation scripts for ``bench/bench_healing.py`` (not shipped)."""
