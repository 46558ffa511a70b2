"""Every sentence Word Up can show or say, checked for slips.

Two checks. Every message template (the module's gettext strings and the engine's) is filled with every
value it can take and read as English: "a orange" (a before a vowel), doubled words, "..", a full
sentence starting in lower case, a placeholder left unfilled. And the module's own sentence makers are run
in a browser for every phase, event, card and answer, seen by each player, the teacher and the projector,
so a viewer's own name ("You") never breaks a sentence: "accepted You's answer", "You starts", "Time ran
out for You".
"""

from __future__ import annotations

import ast
import itertools
import json
import pathlib
import re

import pytest

from games.engine.wordup.board import CARD_IDS, CARDS, CATEGORY_INFO

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREEN = ROOT / "static" / "js" / "games" / "wordup"
ENGINE = ROOT / "games" / "engine" / "wordup"

COLOURS = ["orange", "green", "blue", "yellow"]
LABELS = [str(info["label"]) for info in CATEGORY_INFO.values()]
#: Each placeholder and the values it takes on screen.
VALUES = {
    "name": ["Ava M.", "Ben K.", "Ava M. and Ben K."],
    "names": ["Ava M.", "Ava M. and Ben K."],
    "asker": ["Ava M."],
    "other": ["Ben K."],
    "others": ["Ben K."],
    "colour": COLOURS,
    "give": COLOURS,
    "take": COLOURS,
    "first": [*COLOURS, "1"],
    "second": COLOURS,
    "last": ["4"],
    # A category's label ("Missing Word"); where the colour goes with it ("orange (Missing Word)") no
    # article comes before it, which the sentences below (as each viewer reads them) check.
    "category": LABELS,
    "square": ["Bonus", "orange (Missing Word)", "Option: blue or yellow"],
    "answer": ["passport", "big, large"],
    "given": ["pasport"],
    "card": ["Stop, or lose one token of any colour and roll again."],
    "where": ["Ava M. on Bonus; you on Stop"],
    "n": ["1", "2"],
    "count": ["0", "2"],
    "total": ["7"],
    "typed": ["3"],
    "max": ["100"],
    "key": ["extra"],
}
#: Templates that are not sentences (labels, fragments inside a sentence).
FRAGMENT = re.compile(r"^[^.!?]*$")


def js_templates() -> list[str]:
    source = "\n".join(path.read_text() for path in sorted(SCREEN.glob("*.js")))
    found = re.findall(r'\bn?gettext\("((?:[^"\\]|\\.)*)"(?:,\s*"((?:[^"\\]|\\.)*)")?', source)
    return sorted({text for pair in found for text in pair if text})


def engine_templates() -> list[str]:
    out = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_" and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    out.add(arg.value)
    return sorted(out)


def slips(text: str, *, sentence: bool) -> list[str]:
    """What reads wrong in one sentence shown to a student or a teacher."""
    found = []
    checks = {
        "an article 'a' before a vowel": r"\b[Aa] (?=[AEIOUaeiou])\w+",
        "a doubled word": r"(?i)\b(\w+) \1\b",
        "a doubled full stop": r"\.\.(?!\.)",
        "a doubled space": r"  ",
        "a placeholder left unfilled": r"%\(|undefined|null|NaN|\[object",
        "a possessive of 'you'": r"(?i)\byou's\b",
        "'You' inside a sentence": r"(?<![.!?] )(?<!^)\bYou\b",
        "'You' with a third-person verb": r"(?i)\byou (is|was|has|wins|starts|plays|answers|rolls|hears)\b",
        "a space before punctuation": r" [.,!?;:]",
    }
    for what, pattern in checks.items():
        if re.search(pattern, text):
            found.append(f"{what}: {text!r}")
    if sentence and re.match(r"[a-z]", text):
        found.append(f"a sentence starting in lower case: {text!r}")
    return found


@pytest.mark.parametrize("source", ["module", "engine"])
def test_every_message_template_reads_right_with_every_value(source):
    templates = js_templates() if source == "module" else engine_templates()
    assert len(templates) > (100 if source == "module" else 30)
    problems = []
    for template in templates:
        keys = sorted(set(re.findall(r"%\((\w+)\)s", template)))
        unknown = [k for k in keys if k not in VALUES]
        assert not unknown, (template, unknown)
        for combo in itertools.product(*(VALUES[k] for k in keys)):
            text = template % dict(zip(keys, combo, strict=True)) if keys else template
            if source == "module":  # filled as the module fills it: "Ben K." ends a sentence once
                text = re.sub(r"(?<!\.)\.\.(?!\.)", ".", text)
            problems += slips(text, sentence=not FRAGMENT.match(template) and not template.startswith("%("))
    assert not problems, "\n".join(sorted(set(problems)))


def test_the_engines_card_texts_read_right():
    from games.engine.wordup.board import public_card

    texts = [public_card(card)["text"] for card in CARD_IDS]
    assert len(texts) == len(CARDS)
    problems = [p for text in texts for p in slips(text, sentence=True)]
    assert not problems, problems


# ------------------------------------------------------------------------------------------------
# The module's sentences, as each viewer reads them
# ------------------------------------------------------------------------------------------------

SENTENCES = """
([views, cards]) => {
  const H = window.gameModule.helpers;
  const out = [];
  const say = (where, text) => { if (text) out.push([where, text]); };
  for (const [who, base, ctx] of views) {
    const ids = base.players.map((p) => p.id);
    const [a, b] = ids;
    const q = (category, player, extra) => ({ serial: 3, category, player, prompt: "Clue", letters: 5,
      first_letter: "p", choices: ["x", "y", "z"], reward: 1, ...extra });
    const phases = [];
    for (const turn of ids) {
      phases.push({ phase: "roll", turn }, { phase: "choose_category", turn }, { phase: "card_choice", turn },
        { phase: "discard", turn }, { phase: "free_tokens", turn },
        { phase: "reveal", turn, pending: { player: turn } });
      for (const c of ["missing_word", "crossword", "multiple_choice", "spelling"]) {
        phases.push({ phase: "answer", turn, question: q(c, turn) });
      }
    }
    const outcomes = [[a], [b], [a, b], ids];
    for (const winners of outcomes) {
      for (const reason of ["target", "time"]) phases.push({ phase: "over", outcome: { winners, reason } });
    }
    for (const extra of phases) {
      const view = { ...base, pending: {}, ...extra };
      say(`${who} status ${extra.phase}`, H.statusLine(view, ctx));
      if (extra.phase === "over") say(`${who} outcome`, H.outcomeLine(view, ctx));
    }
    for (const totals of [[0, 0], [3, 1], [1, 3], [2, 2]]) {
      const players = base.players.map((p, i) => ({ ...p, total: totals[i] || 0 }));
      const view = { ...base, stopped: "ended", players };
      say(`${who} ended ${totals}`, H.stoppedLine(view, ctx));
      say(`${who} finished ${totals}`, H.stoppedLine({ ...view, stopped: "finished" }, ctx));
    }
    say(`${who} board`, H.boardSummary(base, ctx));
    for (const [asker, player] of [[a, b], [b, a]]) {
      say(`${who} ask-left`, H.askLeftNote(base, ctx, { asker, player }));
    }
    for (const player of ids) {
      const marks = [[true, false, false], [true, true, false], [false, false, true]];
      for (const [correct, teacher_marked, open] of marks) {
        say(`${who} result`, H.resultAnnouncement(base, ctx, { player, correct, teacher_marked, open,
          category: "missing_word", answers: ["passport"], question: { serial: 1, choices: [] } }));
      }
      const events = [
        { type: "first_player" }, { type: "roll", total: 7, to: 5 },
        { type: "category_chosen", category: "spelling" },
        { type: "answered", correct: true }, { type: "answered", correct: false, response: "x" },
        { type: "answered", correct: false, response: null }, { type: "teacher_accept" },
        { type: "card_no_choice" }, { type: "move", to: 21 }, { type: "time_up" }, { type: "timeout" },
        ...[1, 2, -1, -2].map((change) => ({ type: "tokens", change, category: "missing_word" })),
        ...ids.map((other) => ({ type: "exchange", with: other, give: "missing_word", take: "crossword" })),
        ...cards.map((card) => ({ type: "card", card })),
      ];
      const over = { ...base, outcome: { winners: [player], reason: "target" } };
      for (const e of events) say(`${who} event ${e.type}`, H.eventText(over, ctx, { ...e, player }));
    }
    for (const card of cards) say(`${who} card`, H.cardText(base, card));
  }
  return out;
}
"""


def test_every_sentence_reads_right_for_every_viewer(new_page):
    from games.engine.wordup.board import public_card
    from tests.browser.test_wordup_screen import GAME, Device, fresh_state

    state = fresh_state()
    viewers = {
        "Ava's device": {"role": "player", "player": "p0"},
        "Ben's device": {"role": "player", "player": "p1"},
        "the console": {"role": "teacher"},
        "the projector": {"role": "projector"},
    }
    device = Device(new_page(), {"role": "player", "player": "p0"})
    views = []
    for name, viewer in viewers.items():
        ctx = {"role": viewer["role"], "player": viewer.get("player"), "compact": False}
        views.append([name, json.loads(json.dumps(GAME.view(state, viewer))), ctx])
    cards = [public_card(card) for card in CARD_IDS]
    sentences = device.page.evaluate(SENTENCES, [views, cards])
    assert len(sentences) > 500
    problems = [f"{where}: {p}" for where, text in sentences for p in slips(text, sentence=True)]
    assert not problems, "\n".join(sorted(set(problems)))
    # The sentences that were wrong before.
    said = {text for _where, text in sentences}
    assert "The teacher accepted your answer." in said
    assert "You rolled highest and start." in said
    assert not any("You's" in text for text in said)
