"""The screen draws faces in JavaScript (static/js/games/faces/art.js) from the same features and look as
the Python drawing (games/engine/faces/art.py): the two must give the same picture, element for element.

Runs the module in Node when it is installed (no browser needed); the browser test draws a board too."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from games.definitions import definition
from games.engine.core import Rng
from games.engine.faces.art import face_svg
from games.engine.faces.features import describe, generate_board
from games.engine.faces.monsters import MONSTERS

STATIC = Path(__file__).resolve().parents[2] / "static"
COMMON = STATIC / "js" / "games" / "common.js"
SCRIPTS = [STATIC / script for script in definition("faces").screen_scripts]

HARNESS = """
globalThis.window = globalThis;
let registered = null;
globalThis.Classplay = { registerGame(name, module) { registered = { name, module }; } };
// the shared module, then the game's scripts, as the pages load them
for (const script of process.argv.slice(2)) require(script);
const faces = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify({
  name: registered.name,
  svgs: faces.map((face) => registered.module.faceSvg(face)),
  descriptions: faces.map((face) => registered.module.describe(face)),
}));
"""


def _normalise(svg: str) -> str:
    """Element ids differ by design (content hashes by different functions): compare with ids named alike."""
    return re.sub(r"\bfc[0-9a-f]{8,10}\b", "ID", svg)


def test_javascript_faces_match_the_python_drawing(node, tmp_path):
    rng = Rng("art-parity")
    faces = [face for _board in range(6) for face in generate_board(rng)]
    monsters = [face for _board in range(6) for face in generate_board(rng, "monsters")]
    # every look choice, including out-of-range and missing values, is drawn the same way
    faces.append({**faces[0], "look": {"skin": 17, "background": -1, "hat_style": 3}})
    faces.append({**faces[1], "look": {}})
    faces += monsters
    faces.append({**monsters[0], "look": {"shape": 5, "accent": -3, "mouth": 1}})
    faces.append({**monsters[1], "look": {}})
    # every monster question drawn alone and all together (crowded heads still draw alike)
    bare = {"id": "A", "name": "Abbo", "kind": "monster", "features": [], "look": {}}
    drawn_alone = [{**bare, "features": [key]} for key in MONSTERS.keys]
    crowded = {**bare, "features": ["three_eyes", "stripes", *MONSTERS.free_features]}
    faces += [{**face, "description": describe(face)} for face in [*drawn_alone, crowded]]
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS, encoding="utf-8")
    result = subprocess.run(
        [node, str(harness), str(COMMON), *map(str, SCRIPTS)],
        input=json.dumps(faces),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    drawn = json.loads(result.stdout)
    assert drawn["name"] == "faces"
    for face, svg, description in zip(faces, drawn["svgs"], drawn["descriptions"], strict=True):
        assert description == describe(face)
        assert _normalise(svg) == _normalise(face_svg(face)), face["name"]
