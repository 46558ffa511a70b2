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
    derived from the face's content, so the same face drawn twice on a page reuses identical ids."""
    features = set(face["features"])
    look = face.get("look") or {}
    uid = (
        "fc"
        + hashlib.sha1(repr((face["id"], sorted(features), sorted(look.items()))).encode()).hexdigest()[:10]
    )
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
