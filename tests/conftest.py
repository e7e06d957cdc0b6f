import os

from hypothesis import settings

os.environ.setdefault("WARP_QUIET", "1")

# Property tests draw the same examples on every run (a test's own @settings may set more, never
# less): a red CI must mean the code changed, not that the draw did. A test that found a failing seed
# once keeps it as an explicit example.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.load_profile("deterministic")
