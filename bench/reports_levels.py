"""Benchmark: the level recommendation against synthetic students of known level.

    .venv/bin/python bench/reports_levels.py [--students 20000]

Each student gets a true level (1-5) and answers Word Up-style questions at their current level, eight a
session; after each session the teacher applies the recommendation. Prints, as one JSON line, the share
of students whose recommendation after 40 answers equals their true level, in the model's own world and
in harder ones (true ability between levels; a flatter real slope than the model assumes).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reports import levels


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=20000)
    parser.add_argument("--answers", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    figures = {"students": args.students, "answers": args.answers, "slope": levels.SLOPE}
    began = time.perf_counter()
    for name, options in (
        ("exact", {}),
        ("ability_jitter_0.25", {"jitter": 0.25}),
        ("true_slope_1.2", {"true_slope": 1.2}),
    ):
        result = levels.simulate(students=args.students, answers=args.answers, seed=args.seed, **options)
        figures[name] = round(result.exact_share, 4)
        figures[f"{name}_within_one"] = round(result.within_one / result.students, 4)
    figures["seconds"] = round(time.perf_counter() - began, 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
