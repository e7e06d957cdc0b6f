"""What the tests of a category's share drawn from a stream of its own (bit kernels in arithmetic,
optimizer steps in scalar_param, sparse rows in control_flow) share."""
from __future__ import annotations

from synthesis.categories import generate


def assert_others_keep_their_draws(monkeypatch, category: str, module, chooser: str, count: int = 40) -> None:
    """The `category` kernels that `module.<chooser>(seed)` does not take draw exactly what they draw
    with the share switched off."""
    chooses = getattr(module, chooser)
    seeds = [s for s in range(3 * count) if not chooses(s)][:count]
    drawn = [generate(category, s).source for s in seeds]
    monkeypatch.setattr(module, chooser, lambda seed: False)
    assert [generate(category, s).source for s in seeds] == drawn
