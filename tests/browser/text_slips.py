"""Checks for slips in what a game's screens say (shared by the Line-Up and Line-it text tests)."""

from __future__ import annotations

import re

from tests.browser.harness import open_device

SLIPS = [
    (re.compile(r"\b[Aa] [aeiouAEIOU]\w"), "“a” before a vowel"),
    (re.compile(r"\b[Yy]ou's\b"), "a possessive of “you”"),
    (
        re.compile(r"\b[Yy]ou (has|is|was|wins|loses|gets|needs|names|asks|resigns)\b"),
        "“you” with “he/she” verb",
    ),
    (re.compile(r"\b([A-Za-z]{2,})\s+\1\b", re.IGNORECASE), "a doubled word"),
    (re.compile(r"(?<![.…])\.\.(?![.])"), "a double full stop (an initial's dot and the sentence's)"),
    (re.compile(r"\b1 (faces|cards|rounds|questions|points|turns)\b"), "a plural after 1"),
    (re.compile(r"\.\s*\.\s*$"), "a double full stop"),
    (re.compile(r"\s[,.!?:;]"), "a space before punctuation"),
    (re.compile(r"\bundefined\b|\bnull\b|NaN|%\(\w+\)s|\{\w+\}"), "a value or placeholder left unfilled"),
]

# The text of every sentence-like element, the announcements and every accessible name, from a page.
COLLECT = """
() => {
  const root = document.getElementById("root") || document.body;
  const out = [];
  const elements = "p, h2, h3, h4, figcaption, summary, li, td, th, caption, button, label, dt, dd";
  const sentences = ["P", "H3", "H4", "FIGCAPTION", "SUMMARY"];
  for (const el of root.querySelectorAll(elements)) {
    const text = (el.innerText || el.textContent || "").trim();
    // (a sentence inside a list item, such as one player's facts among others', is that item's own line)
    const item = !!el.closest("li");
    const kind = el.tagName.toLowerCase();
    if (text) out.push({ kind, sentence: sentences.includes(el.tagName), item, text });
  }
  for (const el of root.querySelectorAll("[aria-label], [title]")) {
    for (const attr of ["aria-label", "title"]) {
      const text = (el.getAttribute(attr) || "").trim();
      if (text) out.push({ kind: attr, sentence: false, text });
    }
  }
  for (const text of window.announced || []) out.push({ kind: "announced", sentence: true, text });
  return out;
}
"""


def slips_in(items: list[dict]) -> list[str]:
    problems = []
    for item in items:
        for line in item["text"].splitlines():
            line = line.strip()
            if not line:
                continue
            for pattern, what in SLIPS:
                if pattern.search(line):
                    problems.append(f"{what}: {line!r} ({item['kind']})")
            first = next((c for c in line if c.isalpha()), "")
            if item["sentence"] and first and first.islower() and line[0].isalpha():
                problems.append(f"a sentence that starts in lowercase: {line!r} ({item['kind']})")
    return sorted(set(problems))


def repeated_lines(text: str) -> list[str]:
    """Lines said twice (numbers and short labels such as a score or "Yes" may repeat)."""
    lines = [line.strip() for line in text.splitlines() if len(line.strip()) > 12]
    return sorted({line for line in lines if lines.count(line) > 1})


def module_pages(new_page, viewers: dict, game: str) -> dict:
    """One page per viewer (``name: (role, player, compact)``), each holding only the game's module, its
    CSS and the stand-in for the page controller (tests/browser/harness.py), ready for ``window.draw``."""
    return {
        name: open_device(new_page, game, role, player, compact, width=1366, height=900)
        for name, (role, player, compact) in viewers.items()
    }
