"""Benchmark: how Line-Up's question pads split fresh boards, per board kind.

    .venv/bin/python bench/faces_pad.py [--seeds 1000]

Draws ``--seeds`` boards of each kind (people, monsters) from the seeds ``pad:0``, ``pad:1`` ... and prints,
as a Markdown table per board, for each question of the pad in pad order: the fewest and the most of the
24 faces it was on (a "yes"), and the average. Every question must stay within 5-19 (so it always rules
somebody out); the table in docs/games/faces.md is this script's output.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.core import Rng
from games.engine.faces.features import PADS, generate_board, split
from games.engine.faces.pad import MAX_ON_BOARD, MIN_ON_BOARD


def measure(kind: str, seeds: int) -> dict[str, list[int]]:
    """For each question of ``kind``'s pad, the number of faces answering yes on each of ``seeds`` boards."""
    counts: dict[str, list[int]] = {key: [] for key in PADS[kind].keys}
    for number in range(seeds):
        board = generate_board(Rng(f"pad:{number}"), kind)
        for key, values in counts.items():
            values.append(len(split(board, key)[0]))
    return counts


def table(kind: str, seeds: int) -> tuple[str, bool]:
    """The Markdown table for ``kind`` and whether every question stayed within the useful sizes."""
    pad = PADS[kind]
    lines = ["| question | fewest faces | most faces | average |", "| --- | ---: | ---: | ---: |"]
    useful = True
    for key, values in measure(kind, seeds).items():
        low, high = min(values), max(values)
        useful = useful and low >= MIN_ON_BOARD and high <= MAX_ON_BOARD
        lines.append(f"| {pad.by_key[key].question} | {low} | {high} | {sum(values) / len(values):.1f} |")
    return "\n".join(lines), useful


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=1000)
    seeds = parser.parse_args().seeds
    for kind in PADS:
        text, useful = table(kind, seeds)
        verdict = "every question within" if useful else "SOME QUESTION OUTSIDE"
        print(f"\n### {kind} ({seeds} boards: {verdict} {MIN_ON_BOARD}-{MAX_ON_BOARD} faces)\n\n{text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
