import os

os.environ.setdefault("WARP_QUIET", "1")
