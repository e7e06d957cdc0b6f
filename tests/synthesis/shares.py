"""What the tests of a category's share drawn from a stream of its own (bit kernels in arithmetic,
optimizer steps in scalar_param, sparse rows in control_flow) share."""
from __future__ import annotations

import random

from synthesis.categories import generate


def assert_others_keep_their_draws(monkeypatch, category: str, module, chooser: str, count: int = 40) -> None:
    """The `category` kernels that `module.<chooser>(seed)` does not take draw exactly what they draw
    with the share switched off."""
    chooses = getattr(module, chooser)
    seeds = [s for s in range(3 * count) if not chooses(s)][:count]
    drawn = [generate(category, s).source for s in seeds]
    monkeypatch.setattr(module, chooser, lambda seed: False)
    assert [generate(category, s).source for s in seeds] == drawn


def specs_with_every_variant(category: str, chooses, variants: tuple[str, ...], count: int,
                             kind: str = "") -> list:
    """The first `count` `category` kernels that `chooses(seed)` takes (and whose description holds `kind`),
    and any later one (among 20,000 seeds) whose description holds a variant none of those holds: rare
    combinations are checked too."""
    specs, seen = [], set()
    for s in range(20000):
        if not chooses(s):
            continue
        spec = generate(category, s)
        if kind not in spec.description:
            continue
        new = {v for v in variants if v in spec.description} - seen
        if len(specs) < count or new:
            specs.append(spec)
            seen |= new
    return specs


class EarlierForms(random.Random):
    """A side stream of further forms stubbed to the forms drawn before it: the first of `choices` and of
    `choice`, and no share taken (`random()` 1)."""

    def random(self) -> float:
        return 1.0

    def choices(self, population, weights=None, **_):
        return [population[0]]

    def choice(self, seq):
        return seq[0]


def assert_earlier_forms_kept(monkeypatch, category: str, seeds: list[int], module, stream: str,
                              new_forms: tuple[str, ...], at_most: int) -> None:
    """The `category` kernels of `seeds` without one of `new_forms` (fewer than `at_most` have one, and
    some do) draw exactly what they draw with `module.<stream>(w)` stubbed to the earlier forms."""
    specs = {s: generate(category, s) for s in seeds}
    kept = {s: spec.source for s, spec in specs.items() if not any(f in spec.description for f in new_forms)}
    assert 0 < len(specs) - len(kept) < at_most
    monkeypatch.setattr(module, stream, lambda w: EarlierForms())
    assert {s: generate(category, s).source for s in kept} == kept
