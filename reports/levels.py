"""The recommended level: the level at which the student answers about half the questions right.

Item-response model (Rasch, with a fixed slope): a student of ability ``θ`` answers a question of level
``b`` right with probability ``σ(a·(θ − b))``, where ``σ`` is the logistic function. So at their own level
a student is right half the time, one level above about 15% of the time, one level below about 85%.

Given the student's latest answers, grouped as "right k of n at level b", the posterior of ``θ`` is
computed exactly on a fine grid (a weak normal prior around the middle level keeps a run of all-right or
all-wrong answers finite). The recommended level is the level whose band ``[L − ½, L + ½)`` holds the most
posterior probability (levels 1 and 5 take the open ends), and the **confidence** is that probability.

Pure Python, no Django: the simulation in ``simulate`` and the benchmark use it directly.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

LEVELS = (1, 2, 3, 4, 5)
#: The model's slope ``a``: how sharply the chance of a right answer falls per level above one's own.
SLOPE = 1.7
PRIOR_MEAN = 3.0
PRIOR_SD = 2.0
GRID = [-1.0 + step * 0.02 for step in range(401)]  # θ from −1 to 7
#: Answers per skill the recommendation looks at (the latest ones): recent form, not last term's.
WINDOW = 60
#: Fewer answers than this and no level is recommended yet.
MIN_ANSWERS = 8
HIGH_CONFIDENCE = 0.8
MEDIUM_CONFIDENCE = 0.6


def chance_right(ability: float, level: float, slope: float = SLOPE) -> float:
    return 1.0 / (1.0 + math.exp(-slope * (ability - level)))


@dataclass(frozen=True)
class Recommendation:
    level: int | None
    confidence: float | None
    ability: float | None
    answers: int
    #: ``{level: (right, answered)}``
    evidence: dict[int, tuple[int, int]] = field(default_factory=dict)

    @property
    def confidence_word(self) -> str:
        """ "high", "medium" or "low" (templates translate it)."""
        if self.confidence is None:
            return ""
        if self.confidence >= HIGH_CONFIDENCE:
            return "high"
        return "medium" if self.confidence >= MEDIUM_CONFIDENCE else "low"


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x > -30 else x


@functools.cache
def _log_prior() -> tuple[float, ...]:
    return tuple(-0.5 * ((theta - PRIOR_MEAN) / PRIOR_SD) ** 2 for theta in GRID)


@functools.cache
def _bands() -> tuple[int, ...]:
    """The level whose band ``[L - 1/2, L + 1/2)`` holds each grid point (1 and 5 take the open ends)."""
    return tuple(min(5, max(1, math.floor(theta + 0.5))) for theta in GRID)


@functools.cache
def _log_chances(slope: float, level: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """log P(right) and log P(wrong) at every grid point for a question of ``level``."""
    xs = [slope * (theta - level) for theta in GRID]
    return tuple(_log_sigmoid(x) for x in xs), tuple(_log_sigmoid(-x) for x in xs)


def recommend(
    evidence: Mapping[int, tuple[int, int]], *, slope: float = SLOPE, min_answers: int = MIN_ANSWERS
) -> Recommendation:
    """The recommendation from ``{level: (right, answered)}``."""
    cleaned = {
        int(level): (int(right), int(total))
        for level, (right, total) in evidence.items()
        if total > 0 and level in LEVELS
    }
    answers = sum(total for _right, total in cleaned.values())
    if answers < min_answers:
        return Recommendation(None, None, None, answers, cleaned)
    log_posterior = list(_log_prior())
    for level, (right, total) in cleaned.items():
        log_right, log_wrong = _log_chances(slope, level)
        wrong = total - right
        log_posterior = [
            value + right * r + wrong * w
            for value, r, w in zip(log_posterior, log_right, log_wrong, strict=True)
        ]
    top = max(log_posterior)
    weights = [math.exp(value - top) for value in log_posterior]
    norm = sum(weights)
    bands = dict.fromkeys(LEVELS, 0.0)
    for band, weight in zip(_bands(), weights, strict=True):
        bands[band] += weight / norm
    level = max(LEVELS, key=lambda candidate: (bands[candidate], -abs(candidate - 3)))
    ability = sum(theta * weight for theta, weight in zip(GRID, weights, strict=True)) / norm
    return Recommendation(level, round(bands[level], 4), round(ability, 3), answers, cleaned)


def evidence_of(answers: Iterable[tuple[int | None, bool | None]]) -> dict[int, tuple[int, int]]:
    """``{level: (right, answered)}`` from ``(level, correct)`` pairs (unlevelled or unmarked skipped)."""
    counts: dict[int, list[int]] = {}
    for level, correct in answers:
        if level is None or correct is None:
            continue
        entry = counts.setdefault(int(level), [0, 0])
        entry[0] += int(bool(correct))
        entry[1] += 1
    return {level: (right, total) for level, (right, total) in sorted(counts.items())}


# --- simulation: synthetic students of known level ---------------------------------------------------


@dataclass
class SimulationResult:
    students: int
    answers_each: int
    exact: int
    within_one: int
    confusion: dict[tuple[int, int], int]

    @property
    def exact_share(self) -> float:
        return self.exact / self.students if self.students else 0.0


def simulate(
    *,
    students: int,
    answers: int = 40,
    per_session: int = 8,
    seed: int = 1,
    true_slope: float = SLOPE,
    start_level: int = 3,
    jitter: float = 0.0,
) -> SimulationResult:
    """Play synthetic students through Word Up-style sessions and compare the recommendation with the truth.

    Each student gets a true level (uniform over 1-5; ``jitter`` spreads the true ability around it). As
    in Word Up, every question of a session is at the student's current level; after each session the
    teacher applies the recommendation (the one-click apply), so the next session is at that level. After
    ``answers`` answers the final recommendation is compared with the true level.
    """
    rng = random.Random(seed)
    exact = within_one = 0
    confusion: dict[tuple[int, int], int] = {}
    for _student in range(students):
        true_level = rng.choice(LEVELS)
        ability = true_level + rng.uniform(-jitter, jitter)
        current = start_level
        history: list[tuple[int, bool]] = []
        while len(history) < answers:
            for _question in range(min(per_session, answers - len(history))):
                history.append((current, rng.random() < chance_right(ability, current, true_slope)))
            recommendation = recommend(evidence_of(history[-WINDOW:]))
            if recommendation.level is not None:
                current = recommendation.level
        final = recommend(evidence_of(history[-WINDOW:])).level or start_level
        exact += final == true_level
        within_one += abs(final - true_level) <= 1
        confusion[(true_level, final)] = confusion.get((true_level, final), 0) + 1
    return SimulationResult(students, answers, exact, within_one, confusion)
