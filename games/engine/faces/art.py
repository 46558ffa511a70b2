"""SVG drawing of a face from its features: a pure function of the face dict, nothing random here.

Every question's answer is visible at tablet size: hair colour shows even under a hat (side locks),
eyes are large enough to tell blue from brown, earrings are big hoops, freckles contrast with every skin tone.
"""

from __future__ import annotations

import hashlib
from html import escape
from typing import Any

SKIN = ("#f9dcc4", "#f1c27d", "#e0ac69", "#c68642", "#8d5524", "#5c3a21")
SKIN_SHADE = ("#e8c3a8", "#dba865", "#c99452", "#ad7034", "#74441b", "#4a2e19")
HAIR = {"red_hair": "#c2410c", "blond_hair": "#f2c94c", "black_hair": "#1c1917", "grey_hair": "#b4b9c2"}
BROWN_HAIR = "#6b4423"
BROWS = {"red_hair": "#9a3412", "blond_hair": "#b8860b", "black_hair": "#1c1917", "grey_hair": "#8b9099"}
BACKGROUND = ("#dbeafe", "#dcfce7", "#fef3c7", "#fce7f3", "#ede9fe", "#e0f2fe")
SHIRT = ("#2563eb", "#16a34a", "#dc2626", "#7c3aed", "#0d9488", "#ea580c", "#475569", "#db2777")
HAT = ("#1e3a8a", "#b91c1c", "#15803d", "#a16207", "#6d28d9")
SCARF = ("#f59e0b", "#0ea5e9", "#e11d48", "#84cc16", "#a855f7")
BLUE_EYES, BROWN_EYES = "#2f7de1", "#5b3a1e"
LINE = "#2b2118"


def face_svg(face: dict[str, Any], *, title: str | None = None) -> str:
    """The face as a standalone ``<svg>`` (viewBox 200 x 220) with ``role="img"`` and a ``<title>``.

    ``title`` defaults to the face's description (pass a translated one if you have it). Element ids are
    derived from the face's content, so the same face drawn twice on a page reuses identical ids. A face
    of the monster board is drawn by :func:`monster_svg`."""
    if face.get("kind") == "monster":
        return monster_svg(face, title=title)
    features = set(face["features"])
    look = face.get("look") or {}
    uid = _uid(face, features, look)
    hair = next((HAIR[key] for key in HAIR if key in features), BROWN_HAIR)
    brow = next((BROWS[key] for key in BROWS if key in features), "#4a2f17")
    skin_index = _pick(look, "skin", SKIN)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 220" role="img" '
        f'aria-labelledby="{uid}-t">',
        f'<title id="{uid}-t">{escape(title if title is not None else face["description"])}</title>',
        f'<rect width="200" height="220" rx="18" fill="{BACKGROUND[_pick(look, "background", BACKGROUND)]}"'
        "/>",
        _hair_back(features, hair),
        _body(features, look, uid),
        f'<rect x="86" y="140" width="28" height="30" fill="{SKIN_SHADE[skin_index]}"/>',
        _scarf(features, look),
        _necklace(features),
        _ears(SKIN[skin_index]),
        f'<ellipse cx="100" cy="102" rx="42" ry="50" fill="{SKIN[skin_index]}"/>',
        _hair_top(features, look, hair),
        _earrings(features),
        _cheeks(features, skin_index),
        _eyes(features),
        _brows(features, brow),
        f'<path d="M100 104 Q94 118 100 121 Q104 122 106 119" fill="none" stroke="{LINE}" '
        f'stroke-width="2.5" stroke-linecap="round"/>',
        _beard(features, hair),
        _mouth(features),
        _moustache(features, hair),
        _glasses(features, look),
        _hat(features, look),
        "</svg>",
    ]
    return "".join(part for part in parts if part)


def _pick(look: dict[str, Any], key: str, palette: tuple[str, ...]) -> int:
    value = look.get(key, 0)
    return value % len(palette) if isinstance(value, int) else 0


def _hair_back(features: set[str], hair: str) -> str:
    if "long_hair" not in features:
        return ""
    if "curly_hair" in features:
        puffs = "".join(
            f'<circle cx="{x}" cy="{y}" r="17" fill="{hair}"/>'
            for x, y in (
                (56, 88),
                (50, 118),
                (52, 148),
                (62, 172),
                (144, 88),
                (150, 118),
                (148, 148),
                (138, 172),
                (70, 64),
                (130, 64),
                (100, 54),
            )
        )
        return f'<g>{puffs}<rect x="56" y="70" width="88" height="110" fill="{hair}"/></g>'
    return f'<path d="M52 100 Q50 50 100 46 Q150 50 148 100 L152 178 Q100 188 48 178 Z" fill="{hair}"/>'


def _body(features: set[str], look: dict[str, Any], uid: str) -> str:
    colour = SHIRT[_pick(look, "shirt", SHIRT)]
    outline = "M24 220 Q26 170 100 160 Q174 170 176 220 Z"
    body = f'<path d="{outline}" fill="{colour}"/>'
    if "striped_top" in features:
        stripes = "".join(
            f'<rect x="0" y="{y}" width="200" height="7" fill="#ffffff"/>' for y in range(170, 220, 15)
        )
        body += (
            f'<clipPath id="{uid}-shirt"><path d="{outline}"/></clipPath>'
            f'<g clip-path="url(#{uid}-shirt)" opacity="0.85">{stripes}</g>'
        )
    return body


def _scarf(features: set[str], look: dict[str, Any]) -> str:
    if "scarf" not in features:
        return ""
    colour = SCARF[_pick(look, "scarf_colour", SCARF)]
    return (
        f'<path d="M70 160 Q100 176 130 160 L134 176 Q100 194 66 176 Z" fill="{colour}" stroke="{LINE}" '
        f'stroke-width="1.5"/>'
        f'<path d="M72 176 L66 214 L84 214 L86 182 Z" fill="{colour}" stroke="{LINE}" stroke-width="1.5"/>'
        f'<path d="M68 200 L84 200 M67 207 L84 207" stroke="#ffffff" stroke-width="2.5"/>'
    )


def _necklace(features: set[str]) -> str:
    if "necklace" not in features:
        return ""
    return (
        '<path d="M84 166 Q100 198 116 166" fill="none" stroke="#facc15" stroke-width="3"/>'
        '<circle cx="100" cy="190" r="6" fill="#facc15" stroke="#a16207" stroke-width="1.5"/>'
    )


def _ears(skin: str) -> str:
    return (
        f'<ellipse cx="58" cy="106" rx="8" ry="12" fill="{skin}"/>'
        f'<ellipse cx="142" cy="106" rx="8" ry="12" fill="{skin}"/>'
    )


def _earrings(features: set[str]) -> str:
    if "earrings" not in features:
        return ""
    return (
        '<circle cx="56" cy="126" r="7" fill="none" stroke="#eab308" stroke-width="3.5"/>'
        '<circle cx="144" cy="126" r="7" fill="none" stroke="#eab308" stroke-width="3.5"/>'
    )


def _hair_top(features: set[str], look: dict[str, Any], hair: str) -> str:
    """Hair over the head: a cap of hair, side locks (visible under a hat) and the fringe."""
    sides = (
        f'<path d="M58 70 L68 70 L66 104 L58 100 Z" fill="{hair}"/>'
        f'<path d="M142 70 L132 70 L134 104 L142 100 Z" fill="{hair}"/>'
    )
    if "curly_hair" in features:
        top = "".join(
            f'<circle cx="{x}" cy="{y}" r="12" fill="{hair}"/>'
            for x, y in ((62, 78), (68, 62), (82, 52), (100, 48), (118, 52), (132, 62), (138, 78))
        )
    else:
        lean = 8 if _pick(look, "hair_variant", ("left", "right")) else -8
        top = (
            f'<path d="M58 88 Q56 50 100 48 Q144 50 142 88 Q124 {62 + lean} 100 64 Q76 {62 - lean} 58 88 Z" '
            f'fill="{hair}"/>'
        )
    fringe = ""
    if "fringe" in features:
        fringe = (
            f'<path d="M62 84 Q64 58 100 56 Q136 58 138 84 L128 78 L120 86 L110 78 L100 86 L90 78 '
            f'L80 86 L72 78 Z" fill="{hair}"/>'
        )
    return sides + top + fringe


def _cheeks(features: set[str], skin_index: int) -> str:
    parts = []
    if "rosy_cheeks" in features:
        parts.append(
            '<ellipse cx="76" cy="122" rx="9" ry="6" fill="#f87171" opacity="0.55"/>'
            '<ellipse cx="124" cy="122" rx="9" ry="6" fill="#f87171" opacity="0.55"/>'
        )
    if "freckles" in features:
        # dark dots on light skin, light dots on dark skin: freckles must show on every tone
        freckle = "#7c4a1e" if skin_index < 4 else "#f4b982"
        dots = ((74, 112), (80, 116), (70, 117), (126, 112), (120, 116), (130, 117), (92, 110), (108, 110))
        parts.append("".join(f'<circle cx="{x}" cy="{y}" r="2.2" fill="{freckle}"/>' for x, y in dots))
    return "".join(parts)


def _eyes(features: set[str]) -> str:
    iris = BLUE_EYES if "blue_eyes" in features else BROWN_EYES
    return "".join(
        f'<ellipse cx="{x}" cy="98" rx="9" ry="7" fill="#ffffff"/>'
        f'<circle cx="{x}" cy="98" r="5.5" fill="{iris}"/>'
        f'<circle cx="{x}" cy="98" r="2.3" fill="#111111"/>'
        f'<circle cx="{x + 2}" cy="96" r="1.2" fill="#ffffff"/>'
        for x in (82, 118)
    )


def _brows(features: set[str], colour: str) -> str:
    width = 6.5 if "thick_eyebrows" in features else 2.5
    return "".join(
        f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="round"/>'
        for d in ("M72 84 Q82 78 92 83", "M108 83 Q118 78 128 84")
    )


def _beard(features: set[str], hair: str) -> str:
    if "beard" not in features:
        return ""
    return (
        f'<path d="M59 104 Q60 162 100 166 Q140 162 141 104 L134 106 Q133 140 114 148 Q100 152 86 148 '
        f'Q67 140 66 106 Z" fill="{hair}"/>'
    )


def _mouth(features: set[str]) -> str:
    if "big_smile" in features:
        return (
            '<path d="M80 130 Q100 156 120 130 Z" fill="#7f1d1d" stroke="#5b1010" stroke-width="2"/>'
            '<path d="M83 131 L117 131 L114 137 L86 137 Z" fill="#ffffff"/>'
        )
    return (
        f'<path d="M88 134 Q100 141 112 134" fill="none" stroke="{LINE}" stroke-width="3" '
        'stroke-linecap="round"/>'
    )


def _moustache(features: set[str], hair: str) -> str:
    if "moustache" not in features:
        return ""
    return (
        f'<path d="M78 129 Q88 116 100 123 Q112 116 122 129 Q110 125 100 129 Q90 125 78 129 Z" '
        f'fill="{hair}" stroke="{LINE}" stroke-width="1"/>'
    )


def _glasses(features: set[str], look: dict[str, Any]) -> str:
    if "glasses" not in features:
        return ""
    style = 'stroke="#111827" stroke-width="3.5" fill="#ffffff" fill-opacity="0.15"'
    if _pick(look, "glasses_style", ("round", "square")):
        lenses = (
            f'<rect x="68" y="86" width="28" height="24" rx="5" {style}/>'
            f'<rect x="104" y="86" width="28" height="24" rx="5" {style}/>'
        )
    else:
        lenses = f'<circle cx="82" cy="98" r="14" {style}/><circle cx="118" cy="98" r="14" {style}/>'
    arms = (
        '<path d="M96 97 Q100 93 104 97 M68 96 L58 94 M132 96 L142 94" fill="none" stroke="#111827" '
        'stroke-width="3"/>'
    )
    return lenses + arms


def _hat(features: set[str], look: dict[str, Any]) -> str:
    if "hat" not in features:
        return ""
    colour = HAT[_pick(look, "hat_colour", HAT)]
    if _pick(look, "hat_style", ("beanie", "brim")):
        return (
            f'<ellipse cx="100" cy="66" rx="66" ry="11" fill="{colour}"/>'
            f'<path d="M66 66 Q66 24 100 24 Q134 24 134 66 Z" fill="{colour}"/>'
            '<rect x="67" y="54" width="66" height="8" fill="#fde68a"/>'
        )
    return (
        f'<path d="M58 72 Q56 28 100 26 Q144 28 142 72 Z" fill="{colour}"/>'
        f'<rect x="56" y="64" width="88" height="14" rx="6" fill="{colour}" stroke="#ffffff" '
        'stroke-width="2" '
        'stroke-dasharray="4 3"/>'
        f'<circle cx="100" cy="24" r="9" fill="{colour}" stroke="#ffffff" stroke-width="2"/>'
    )


# ----------------------------------------------------------------------------------------------
# The monster board (games/engine/faces/monsters.py): same viewBox, one artist per kind
# ----------------------------------------------------------------------------------------------

MONSTER_BODY = {
    "green_body": "#4ade80",
    "blue_body": "#60a5fa",
    "purple_body": "#a78bfa",
    "orange_body": "#fb923c",
}
MONSTER_SHADE = {
    "green_body": "#15803d",
    "blue_body": "#1d4ed8",
    "purple_body": "#6d28d9",
    "orange_body": "#c2410c",
}
YELLOW_BODY, YELLOW_SHADE = "#fde047", "#a16207"
ACCENT = ("#e11d48", "#0ea5e9", "#db2777", "#7c3aed")
MONSTER_OUTLINE = f'stroke="{LINE}" stroke-width="3"'
BODY_SHAPES = (
    '<ellipse cx="100" cy="128" rx="58" ry="64" fill="{fill}" {outline}/>',
    '<path d="M44 124 Q44 60 100 60 Q156 60 156 124 L156 178 Q156 194 140 194 L60 194 Q44 194 44 178 Z" '
    'fill="{fill}" {outline}/>',
)


def monster_svg(face: dict[str, Any], *, title: str | None = None) -> str:
    """A monster face as a standalone ``<svg>`` (viewBox 200 x 220), like :func:`face_svg` for people.

    Every question has a big, separate place: colour fills the whole body, eyes and mouth sit in the
    middle, horns/antennae/tuft/ears around the top, wings and the tail behind, arms and props at the
    sides."""
    features = set(face["features"])
    look = face.get("look") or {}
    uid = _uid(face, features, look)
    colour = next((key for key in MONSTER_BODY if key in features), None)
    fill = MONSTER_BODY[colour] if colour else YELLOW_BODY
    shade = MONSTER_SHADE[colour] if colour else YELLOW_SHADE
    accent = ACCENT[_pick(look, "accent", ACCENT)]
    shape = BODY_SHAPES[_pick(look, "shape", BODY_SHAPES)]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 220" role="img" '
        f'aria-labelledby="{uid}-t">',
        f'<title id="{uid}-t">{escape(title if title is not None else face["description"])}</title>',
        f'<rect width="200" height="220" rx="18" fill="{BACKGROUND[_pick(look, "background", BACKGROUND)]}"'
        "/>",
        _wings(features),
        _tail(features, fill),
        _horns(features),
        _antennae(features, accent),
        _pointy_ears(features, fill),
        _arms(features, fill),
        _flower(features, accent),
        f'<ellipse cx="76" cy="198" rx="17" ry="9" fill="{shade}" {MONSTER_OUTLINE}/>'
        f'<ellipse cx="124" cy="198" rx="17" ry="9" fill="{shade}" {MONSTER_OUTLINE}/>',
        shape.format(fill=fill, outline=MONSTER_OUTLINE),
        _pattern(features, shade, shape, uid),
        _tuft(features),
        _monster_eyes(features),
        _nose(features),
        _monster_mouth(features, look),
        _bow_tie(features, accent),
        "</svg>",
    ]
    return "".join(part for part in parts if part)


def _uid(face: dict[str, Any], features: set[str], look: dict[str, Any]) -> str:
    return (
        "fc"
        + hashlib.sha1(repr((face["id"], sorted(features), sorted(look.items()))).encode()).hexdigest()[:10]
    )


def _wings(features: set[str]) -> str:
    if "wings" not in features:
        return ""
    style = f'fill="#f0f9ff" stroke="{LINE}" stroke-width="2.5"'
    return (
        f'<path d="M60 104 Q22 52 8 84 Q6 112 26 124 Q16 140 34 148 Q48 150 60 136 Z" {style}/>'
        f'<path d="M140 104 Q178 52 192 84 Q194 112 174 124 Q184 140 166 148 Q152 150 140 136 Z" {style}/>'
    )


def _tail(features: set[str], fill: str) -> str:
    if "tail" not in features:
        return ""
    return (
        f'<path d="M62 184 Q22 204 18 170" fill="none" stroke="{LINE}" stroke-width="13" '
        'stroke-linecap="round"/>'
        f'<path d="M62 184 Q22 204 18 170" fill="none" stroke="{fill}" stroke-width="8" '
        'stroke-linecap="round"/>'
        f'<path d="M8 174 L16 150 L30 170 Z" fill="{LINE}"/>'
    )


def _horns(features: set[str]) -> str:
    if "horns" not in features:
        return ""
    style = f'fill="#d6d3d1" stroke="{LINE}" stroke-width="2.5"'
    return (
        f'<path d="M60 90 Q38 64 42 30 Q58 58 80 72 Z" {style}/>'
        f'<path d="M140 90 Q162 64 158 30 Q142 58 120 72 Z" {style}/>'
    )


def _antennae(features: set[str], accent: str) -> str:
    if "antennae" not in features:
        return ""
    return (
        f'<path d="M88 70 L78 22 M112 70 L122 22" stroke="{LINE}" stroke-width="3.5"/>'
        f'<circle cx="78" cy="20" r="8" fill="{accent}" stroke="{LINE}" stroke-width="2.5"/>'
        f'<circle cx="122" cy="20" r="8" fill="{accent}" stroke="{LINE}" stroke-width="2.5"/>'
    )


def _pointy_ears(features: set[str], fill: str) -> str:
    if "pointy_ears" not in features:
        return ""
    return (
        f'<path d="M52 92 L10 80 L48 124 Z" fill="{fill}" {MONSTER_OUTLINE}/>'
        f'<path d="M148 92 L190 80 L152 124 Z" fill="{fill}" {MONSTER_OUTLINE}/>'
    )


def _limb(d: str, fill: str) -> str:
    return (
        f'<path d="{d}" fill="none" stroke="{LINE}" stroke-width="15" stroke-linecap="round"/>'
        f'<path d="{d}" fill="none" stroke="{fill}" stroke-width="10" stroke-linecap="round"/>'
    )


def _arms(features: set[str], fill: str) -> str:
    if "waving" in features:
        left = _limb("M56 130 L26 86", fill) + (
            f'<path d="M10 74 Q4 84 10 94 M18 64 Q8 70 8 78" fill="none" stroke="{LINE}" '
            'stroke-width="2.5" stroke-linecap="round"/>'
        )
    else:
        left = _limb("M50 144 L38 174", fill)
    right = _limb("M150 144 L168 166" if "flower" in features else "M150 144 L162 174", fill)
    return left + right


def _flower(features: set[str], accent: str) -> str:
    if "flower" not in features:
        return ""
    petals = "".join(
        f'<circle cx="{x}" cy="{y}" r="7" fill="{accent}" stroke="{LINE}" stroke-width="1.5"/>'
        for x, y in ((176, 112), (187, 120), (183, 133), (169, 133), (165, 120))
    )
    return (
        f'<path d="M170 168 Q172 146 176 124" fill="none" stroke="#15803d" stroke-width="4"/>'
        f"{petals}"
        f'<circle cx="176" cy="123" r="6" fill="#facc15" stroke="{LINE}" stroke-width="1.5"/>'
    )


def _pattern(features: set[str], shade: str, shape: str, uid: str) -> str:
    if "spots" in features:
        return "".join(
            f'<circle cx="{x}" cy="{y}" r="{r}" fill="{shade}" opacity="0.7"/>'
            for x, y, r in (
                (62, 92, 7),
                (140, 96, 8),
                (56, 140, 8),
                (146, 146, 7),
                (72, 176, 7),
                (130, 180, 8),
            )
        )
    if "stripes" in features:
        outline = shape.format(fill="#000", outline="")
        bands = "".join(
            f'<rect x="40" y="{y}" width="120" height="7" fill="{shade}"/>' for y in (164, 178, 192)
        )
        side = "".join(
            f'<path d="{d}" stroke="{shade}" stroke-width="7" stroke-linecap="round"/>'
            for d in ("M40 100 L62 108", "M40 122 L60 126", "M160 100 L138 108", "M160 122 L140 126")
        )
        return (
            f'<clipPath id="{uid}-body">{outline}</clipPath>'
            f'<g clip-path="url(#{uid}-body)" opacity="0.75">{bands}{side}</g>'
        )
    return ""


def _tuft(features: set[str]) -> str:
    if "tuft" not in features:
        return ""
    return (
        '<path d="M90 70 Q80 44 92 30 Q94 48 100 54 Q100 34 114 26 Q108 48 112 70 Z" fill="#44403c" '
        f'stroke="{LINE}" stroke-width="2"/>'
    )


def _eye(x: int, y: int, r: int) -> str:
    pupil = r // 2
    return (
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="#ffffff" stroke="{LINE}" stroke-width="2.5"/>'
        f'<circle cx="{x}" cy="{y + 1}" r="{pupil}" fill="#111111"/>'
        f'<circle cx="{x + 2}" cy="{y - 2}" r="2" fill="#ffffff"/>'
    )


def _monster_eyes(features: set[str]) -> str:
    if "one_eye" in features:
        return _eye(100, 96, 19)
    if "three_eyes" in features:
        return _eye(72, 104, 12) + _eye(100, 84, 12) + _eye(128, 104, 12)
    return _eye(78, 100, 14) + _eye(122, 100, 14)


def _nose(features: set[str]) -> str:
    if "big_nose" not in features:
        return ""
    return (
        f'<circle cx="100" cy="125" r="10" fill="#f87171" stroke="{LINE}" stroke-width="2.5"/>'
        '<circle cx="97" cy="121" r="3" fill="#ffffff" opacity="0.8"/>'
    )


def _monster_mouth(features: set[str], look: dict[str, Any]) -> str:
    if not features.intersection(("fangs", "tongue")):
        d = (
            "M80 142 Q100 160 120 142"
            if _pick(look, "mouth", ("wide", "small")) == 0
            else "M86 144 Q100 156 114 144"
        )
        return f'<path d="{d}" fill="none" stroke="{LINE}" stroke-width="3.5" stroke-linecap="round"/>'
    parts = [f'<path d="M76 140 L124 140 Q100 174 76 140 Z" fill="#7f1d1d" {MONSTER_OUTLINE}/>']
    if "tongue" in features:
        parts.append(
            f'<path d="M90 150 Q90 172 100 172 Q110 172 110 150 Z" fill="#f472b6" stroke="{LINE}" '
            'stroke-width="2"/>'
            f'<path d="M100 154 L100 164" stroke="{LINE}" stroke-width="1.5"/>'
        )
    if "fangs" in features:
        parts.append(
            f'<path d="M83 141 L89 155 L95 141 Z" fill="#ffffff" stroke="{LINE}" stroke-width="1.5"/>'
            f'<path d="M117 141 L111 155 L105 141 Z" fill="#ffffff" stroke="{LINE}" stroke-width="1.5"/>'
        )
    return "".join(parts)


def _bow_tie(features: set[str], accent: str) -> str:
    if "bow_tie" not in features:
        return ""
    style = f'fill="{accent}" stroke="{LINE}" stroke-width="2.5"'
    return (
        f'<path d="M100 180 L78 168 L78 192 Z" {style}/><path d="M100 180 L122 168 L122 192 Z" {style}/>'
        f'<circle cx="100" cy="180" r="5" {style}/>'
    )
