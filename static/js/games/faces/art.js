/* Line-Up's art: a face (or a monster) drawn as inline SVG markup from its features and look, a port of
 * games/engine/faces/art.py kept identical (same shapes, same colours, same order:
 * tests/games/test_faces_art_js.py compares the two). Pure: strings in, a string out; board.js puts it in
 * an element's "html" (the markup is the module's own, every text in it escaped).
 * Part of the game's screen (docs/frontend.md): words.js, art.js, board.js and view.js draw, input.js acts.
 */
(function () {
  "use strict";

  const pieces = window.ClassplayUI.pieces("faces");
  const { describe } = pieces;

  // ------------------------------------------------------------------------------------------------
  // Drawing a face: a port of games/engine/faces/art.py (same shapes, same colours, same order)
  // ------------------------------------------------------------------------------------------------

  const SKIN = ["#f9dcc4", "#f1c27d", "#e0ac69", "#c68642", "#8d5524", "#5c3a21"];
  const SKIN_SHADE = ["#e8c3a8", "#dba865", "#c99452", "#ad7034", "#74441b", "#4a2e19"];
  const HAIR = { red_hair: "#c2410c", blond_hair: "#f2c94c", black_hair: "#1c1917", grey_hair: "#b4b9c2" };
  const BROWN_HAIR = "#6b4423";
  const BROWS = { red_hair: "#9a3412", blond_hair: "#b8860b", black_hair: "#1c1917", grey_hair: "#8b9099" };
  const BACKGROUND = ["#dbeafe", "#dcfce7", "#fef3c7", "#fce7f3", "#ede9fe", "#e0f2fe"];
  const SHIRT = ["#2563eb", "#16a34a", "#dc2626", "#7c3aed", "#0d9488", "#ea580c", "#475569", "#db2777"];
  const HAT = ["#1e3a8a", "#b91c1c", "#15803d", "#a16207", "#6d28d9"];
  const SCARF = ["#f59e0b", "#0ea5e9", "#e11d48", "#84cc16", "#a855f7"];
  const BLUE_EYES = "#2f7de1";
  const BROWN_EYES = "#5b3a1e";
  const LINE = "#2b2118";

  function escapeHtml(text) {
    return String(text)
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#x27;");
  }

  function pick(look, key, palette) {
    const value = look[key] === undefined ? 0 : look[key];
    if (!Number.isInteger(value)) return 0;
    return ((value % palette.length) + palette.length) % palette.length;
  }

  function uidOf(face) {
    // FNV-1a over the face's content: the same face drawn twice shares identical ids (harmless), two
    // different faces never share one by accident.
    const text = JSON.stringify([face.id, [...(face.features || [])].sort(), face.look || {}]);
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i += 1) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return "fc" + hash.toString(16).padStart(8, "0");
  }

  /** The face as an inline <svg> (viewBox 200 x 220) with role="img" and a <title> (its description). */
  function faceSvg(face, options) {
    const opts = options || {};
    const uid = opts.uid || uidOf(face);
    if (face.kind === "monster") return monsterSvg(face, opts, uid);
    const features = new Set(face.features || []);
    const look = face.look || {};
    const hairKey = Object.keys(HAIR).find((key) => features.has(key));
    const hair = hairKey ? HAIR[hairKey] : BROWN_HAIR;
    const browKey = Object.keys(BROWS).find((key) => features.has(key));
    const brow = browKey ? BROWS[browKey] : "#4a2f17";
    const skinIndex = pick(look, "skin", SKIN);
    const title = opts.title !== undefined ? opts.title : describe(face);
    const hidden = opts.decorative ? ' aria-hidden="true" focusable="false"' : ` role="img" aria-labelledby="${uid}-t"`;
    const parts = [
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 220"${hidden}>`,
      opts.decorative ? "" : `<title id="${uid}-t">${escapeHtml(title)}</title>`,
      `<rect width="200" height="220" rx="18" fill="${BACKGROUND[pick(look, "background", BACKGROUND)]}"/>`,
      hairBack(features, hair),
      body(features, look, uid),
      `<rect x="86" y="140" width="28" height="30" fill="${SKIN_SHADE[skinIndex]}"/>`,
      scarf(features, look),
      necklace(features),
      ears(SKIN[skinIndex]),
      `<ellipse cx="100" cy="102" rx="42" ry="50" fill="${SKIN[skinIndex]}"/>`,
      hairTop(features, look, hair),
      earrings(features),
      cheeks(features, skinIndex),
      eyes(features),
      brows(features, brow),
      `<path d="M100 104 Q94 118 100 121 Q104 122 106 119" fill="none" stroke="${LINE}" ` +
        `stroke-width="2.5" stroke-linecap="round"/>`,
      beard(features, hair),
      mouth(features),
      moustache(features, hair),
      glasses(features, look),
      hat(features, look),
      "</svg>",
    ];
    return parts.filter(Boolean).join("");
  }

  function hairBack(features, hair) {
    if (!features.has("long_hair")) return "";
    if (features.has("curly_hair")) {
      const spots = [[56, 88], [50, 118], [52, 148], [62, 172], [144, 88], [150, 118], [148, 148], [138, 172],
        [70, 64], [130, 64], [100, 54]];
      const puffs = spots.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="17" fill="${hair}"/>`).join("");
      return `<g>${puffs}<rect x="56" y="70" width="88" height="110" fill="${hair}"/></g>`;
    }
    return `<path d="M52 100 Q50 50 100 46 Q150 50 148 100 L152 178 Q100 188 48 178 Z" fill="${hair}"/>`;
  }

  function body(features, look, uid) {
    const colour = SHIRT[pick(look, "shirt", SHIRT)];
    const outline = "M24 220 Q26 170 100 160 Q174 170 176 220 Z";
    let shape = `<path d="${outline}" fill="${colour}"/>`;
    if (features.has("striped_top")) {
      let stripes = "";
      for (let y = 170; y < 220; y += 15) stripes += `<rect x="0" y="${y}" width="200" height="7" fill="#ffffff"/>`;
      shape +=
        `<clipPath id="${uid}-shirt"><path d="${outline}"/></clipPath>` +
        `<g clip-path="url(#${uid}-shirt)" opacity="0.85">${stripes}</g>`;
    }
    return shape;
  }

  function scarf(features, look) {
    if (!features.has("scarf")) return "";
    const colour = SCARF[pick(look, "scarf_colour", SCARF)];
    return (
      `<path d="M70 160 Q100 176 130 160 L134 176 Q100 194 66 176 Z" fill="${colour}" stroke="${LINE}" ` +
      `stroke-width="1.5"/>` +
      `<path d="M72 176 L66 214 L84 214 L86 182 Z" fill="${colour}" stroke="${LINE}" stroke-width="1.5"/>` +
      `<path d="M68 200 L84 200 M67 207 L84 207" stroke="#ffffff" stroke-width="2.5"/>`
    );
  }

  function necklace(features) {
    if (!features.has("necklace")) return "";
    return (
      '<path d="M84 166 Q100 198 116 166" fill="none" stroke="#facc15" stroke-width="3"/>' +
      '<circle cx="100" cy="190" r="6" fill="#facc15" stroke="#a16207" stroke-width="1.5"/>'
    );
  }

  function ears(skin) {
    return (
      `<ellipse cx="58" cy="106" rx="8" ry="12" fill="${skin}"/>` +
      `<ellipse cx="142" cy="106" rx="8" ry="12" fill="${skin}"/>`
    );
  }

  function earrings(features) {
    if (!features.has("earrings")) return "";
    return (
      '<circle cx="56" cy="126" r="7" fill="none" stroke="#eab308" stroke-width="3.5"/>' +
      '<circle cx="144" cy="126" r="7" fill="none" stroke="#eab308" stroke-width="3.5"/>'
    );
  }

  function hairTop(features, look, hair) {
    const sides =
      `<path d="M58 70 L68 70 L66 104 L58 100 Z" fill="${hair}"/>` +
      `<path d="M142 70 L132 70 L134 104 L142 100 Z" fill="${hair}"/>`;
    let top;
    if (features.has("curly_hair")) {
      const spots = [[62, 78], [68, 62], [82, 52], [100, 48], [118, 52], [132, 62], [138, 78]];
      top = spots.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="12" fill="${hair}"/>`).join("");
    } else {
      const lean = pick(look, "hair_variant", ["left", "right"]) ? 8 : -8;
      top =
        `<path d="M58 88 Q56 50 100 48 Q144 50 142 88 Q124 ${62 + lean} 100 64 Q76 ${62 - lean} 58 88 Z" ` +
        `fill="${hair}"/>`;
    }
    let fringe = "";
    if (features.has("fringe")) {
      fringe =
        `<path d="M62 84 Q64 58 100 56 Q136 58 138 84 L128 78 L120 86 L110 78 L100 86 L90 78 ` +
        `L80 86 L72 78 Z" fill="${hair}"/>`;
    }
    return sides + top + fringe;
  }

  function cheeks(features, skinIndex) {
    let parts = "";
    if (features.has("rosy_cheeks")) {
      parts +=
        '<ellipse cx="76" cy="122" rx="9" ry="6" fill="#f87171" opacity="0.55"/>' +
        '<ellipse cx="124" cy="122" rx="9" ry="6" fill="#f87171" opacity="0.55"/>';
    }
    if (features.has("freckles")) {
      const freckle = skinIndex < 4 ? "#7c4a1e" : "#f4b982";
      const dots = [[74, 112], [80, 116], [70, 117], [126, 112], [120, 116], [130, 117], [92, 110], [108, 110]];
      parts += dots.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.2" fill="${freckle}"/>`).join("");
    }
    return parts;
  }

  function eyes(features) {
    const iris = features.has("blue_eyes") ? BLUE_EYES : BROWN_EYES;
    return [82, 118]
      .map(
        (x) =>
          `<ellipse cx="${x}" cy="98" rx="9" ry="7" fill="#ffffff"/>` +
          `<circle cx="${x}" cy="98" r="5.5" fill="${iris}"/>` +
          `<circle cx="${x}" cy="98" r="2.3" fill="#111111"/>` +
          `<circle cx="${x + 2}" cy="96" r="1.2" fill="#ffffff"/>`
      )
      .join("");
  }

  function brows(features, colour) {
    const width = features.has("thick_eyebrows") ? 6.5 : 2.5;
    return ["M72 84 Q82 78 92 83", "M108 83 Q118 78 128 84"]
      .map((d) => `<path d="${d}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-linecap="round"/>`)
      .join("");
  }

  function beard(features, hair) {
    if (!features.has("beard")) return "";
    return (
      `<path d="M59 104 Q60 162 100 166 Q140 162 141 104 L134 106 Q133 140 114 148 Q100 152 86 148 ` +
      `Q67 140 66 106 Z" fill="${hair}"/>`
    );
  }

  function mouth(features) {
    if (features.has("big_smile")) {
      return (
        '<path d="M80 130 Q100 156 120 130 Z" fill="#7f1d1d" stroke="#5b1010" stroke-width="2"/>' +
        '<path d="M83 131 L117 131 L114 137 L86 137 Z" fill="#ffffff"/>'
      );
    }
    return (
      `<path d="M88 134 Q100 141 112 134" fill="none" stroke="${LINE}" stroke-width="3" ` +
      'stroke-linecap="round"/>'
    );
  }

  function moustache(features, hair) {
    if (!features.has("moustache")) return "";
    return (
      `<path d="M78 129 Q88 116 100 123 Q112 116 122 129 Q110 125 100 129 Q90 125 78 129 Z" ` +
      `fill="${hair}" stroke="${LINE}" stroke-width="1"/>`
    );
  }

  function glasses(features, look) {
    if (!features.has("glasses")) return "";
    const style = 'stroke="#111827" stroke-width="3.5" fill="#ffffff" fill-opacity="0.15"';
    let lenses;
    if (pick(look, "glasses_style", ["round", "square"])) {
      lenses =
        `<rect x="68" y="86" width="28" height="24" rx="5" ${style}/>` +
        `<rect x="104" y="86" width="28" height="24" rx="5" ${style}/>`;
    } else {
      lenses = `<circle cx="82" cy="98" r="14" ${style}/><circle cx="118" cy="98" r="14" ${style}/>`;
    }
    const arms =
      '<path d="M96 97 Q100 93 104 97 M68 96 L58 94 M132 96 L142 94" fill="none" stroke="#111827" ' +
      'stroke-width="3"/>';
    return lenses + arms;
  }

  function hat(features, look) {
    if (!features.has("hat")) return "";
    const colour = HAT[pick(look, "hat_colour", HAT)];
    if (pick(look, "hat_style", ["beanie", "brim"])) {
      return (
        `<ellipse cx="100" cy="66" rx="66" ry="11" fill="${colour}"/>` +
        `<path d="M66 66 Q66 24 100 24 Q134 24 134 66 Z" fill="${colour}"/>` +
        '<rect x="67" y="54" width="66" height="8" fill="#fde68a"/>'
      );
    }
    return (
      `<path d="M58 72 Q56 28 100 26 Q144 28 142 72 Z" fill="${colour}"/>` +
      `<rect x="56" y="64" width="88" height="14" rx="6" fill="${colour}" stroke="#ffffff" ` +
      'stroke-width="2" ' +
      'stroke-dasharray="4 3"/>' +
      `<circle cx="100" cy="24" r="9" fill="${colour}" stroke="#ffffff" stroke-width="2"/>`
    );
  }

  // ------------------------------------------------------------------------------------------------
  // Drawing a monster (the monster board): a port of monster_svg in games/engine/faces/art.py
  // ------------------------------------------------------------------------------------------------

  const MONSTER_BODY = { green_body: "#4ade80", blue_body: "#60a5fa", purple_body: "#a78bfa", orange_body: "#fb923c" };
  const MONSTER_SHADE = { green_body: "#15803d", blue_body: "#1d4ed8", purple_body: "#6d28d9", orange_body: "#c2410c" };
  const YELLOW_BODY = "#fde047";
  const YELLOW_SHADE = "#a16207";
  const ACCENT = ["#e11d48", "#0ea5e9", "#db2777", "#7c3aed"];
  const MONSTER_OUTLINE = `stroke="${LINE}" stroke-width="3"`;
  const BODY_SHAPES = [
    (fill, outline) => `<ellipse cx="100" cy="128" rx="58" ry="64" fill="${fill}" ${outline}/>`,
    (fill, outline) =>
      '<path d="M44 124 Q44 60 100 60 Q156 60 156 124 L156 178 Q156 194 140 194 L60 194 Q44 194 44 178 Z" ' +
      `fill="${fill}" ${outline}/>`,
  ];

  function monsterSvg(face, opts, uid) {
    const features = new Set(face.features || []);
    const look = face.look || {};
    const colour = Object.keys(MONSTER_BODY).find((key) => features.has(key));
    const fill = colour ? MONSTER_BODY[colour] : YELLOW_BODY;
    const shade = colour ? MONSTER_SHADE[colour] : YELLOW_SHADE;
    const accent = ACCENT[pick(look, "accent", ACCENT)];
    const shape = BODY_SHAPES[pick(look, "shape", BODY_SHAPES)];
    const title = opts.title !== undefined ? opts.title : describe(face);
    const hidden = opts.decorative ? ' aria-hidden="true" focusable="false"' : ` role="img" aria-labelledby="${uid}-t"`;
    const parts = [
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 220"${hidden}>`,
      opts.decorative ? "" : `<title id="${uid}-t">${escapeHtml(title)}</title>`,
      `<rect width="200" height="220" rx="18" fill="${BACKGROUND[pick(look, "background", BACKGROUND)]}"/>`,
      monsterWings(features),
      monsterTail(features, fill),
      monsterHorns(features),
      monsterAntennae(features, accent),
      monsterEars(features, fill),
      monsterArms(features, fill),
      monsterFlower(features, accent),
      `<ellipse cx="76" cy="198" rx="17" ry="9" fill="${shade}" ${MONSTER_OUTLINE}/>` +
        `<ellipse cx="124" cy="198" rx="17" ry="9" fill="${shade}" ${MONSTER_OUTLINE}/>`,
      shape(fill, MONSTER_OUTLINE),
      monsterPattern(features, shade, shape, uid),
      monsterTuft(features),
      monsterEyes(features),
      monsterNose(features),
      monsterMouth(features, look),
      monsterBowTie(features, accent),
      "</svg>",
    ];
    return parts.filter(Boolean).join("");
  }

  function monsterWings(features) {
    if (!features.has("wings")) return "";
    const style = `fill="#f0f9ff" stroke="${LINE}" stroke-width="2.5"`;
    return (
      `<path d="M60 104 Q22 52 8 84 Q6 112 26 124 Q16 140 34 148 Q48 150 60 136 Z" ${style}/>` +
      `<path d="M140 104 Q178 52 192 84 Q194 112 174 124 Q184 140 166 148 Q152 150 140 136 Z" ${style}/>`
    );
  }

  function monsterTail(features, fill) {
    if (!features.has("tail")) return "";
    return (
      `<path d="M62 184 Q22 204 18 170" fill="none" stroke="${LINE}" stroke-width="13" stroke-linecap="round"/>` +
      `<path d="M62 184 Q22 204 18 170" fill="none" stroke="${fill}" stroke-width="8" stroke-linecap="round"/>` +
      `<path d="M8 174 L16 150 L30 170 Z" fill="${LINE}"/>`
    );
  }

  function monsterHorns(features) {
    if (!features.has("horns")) return "";
    const style = `fill="#d6d3d1" stroke="${LINE}" stroke-width="2.5"`;
    return (
      `<path d="M60 90 Q38 64 42 30 Q58 58 80 72 Z" ${style}/>` +
      `<path d="M140 90 Q162 64 158 30 Q142 58 120 72 Z" ${style}/>`
    );
  }

  function monsterAntennae(features, accent) {
    if (!features.has("antennae")) return "";
    return (
      `<path d="M88 70 L78 22 M112 70 L122 22" stroke="${LINE}" stroke-width="3.5"/>` +
      `<circle cx="78" cy="20" r="8" fill="${accent}" stroke="${LINE}" stroke-width="2.5"/>` +
      `<circle cx="122" cy="20" r="8" fill="${accent}" stroke="${LINE}" stroke-width="2.5"/>`
    );
  }

  function monsterEars(features, fill) {
    if (!features.has("pointy_ears")) return "";
    return (
      `<path d="M52 92 L10 80 L48 124 Z" fill="${fill}" ${MONSTER_OUTLINE}/>` +
      `<path d="M148 92 L190 80 L152 124 Z" fill="${fill}" ${MONSTER_OUTLINE}/>`
    );
  }

  function monsterLimb(d, fill) {
    return (
      `<path d="${d}" fill="none" stroke="${LINE}" stroke-width="15" stroke-linecap="round"/>` +
      `<path d="${d}" fill="none" stroke="${fill}" stroke-width="10" stroke-linecap="round"/>`
    );
  }

  function monsterArms(features, fill) {
    let left;
    if (features.has("waving")) {
      left =
        monsterLimb("M56 130 L26 86", fill) +
        `<path d="M10 74 Q4 84 10 94 M18 64 Q8 70 8 78" fill="none" stroke="${LINE}" stroke-width="2.5" stroke-linecap="round"/>`;
    } else {
      left = monsterLimb("M50 144 L38 174", fill);
    }
    const right = monsterLimb(features.has("flower") ? "M150 144 L168 166" : "M150 144 L162 174", fill);
    return left + right;
  }

  function monsterFlower(features, accent) {
    if (!features.has("flower")) return "";
    const petals = [[176, 112], [187, 120], [183, 133], [169, 133], [165, 120]]
      .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="7" fill="${accent}" stroke="${LINE}" stroke-width="1.5"/>`)
      .join("");
    return (
      '<path d="M170 168 Q172 146 176 124" fill="none" stroke="#15803d" stroke-width="4"/>' +
      petals +
      `<circle cx="176" cy="123" r="6" fill="#facc15" stroke="${LINE}" stroke-width="1.5"/>`
    );
  }

  function monsterPattern(features, shade, shape, uid) {
    if (features.has("spots")) {
      return [[62, 92, 7], [140, 96, 8], [56, 140, 8], [146, 146, 7], [72, 176, 7], [130, 180, 8]]
        .map(([x, y, r]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${shade}" opacity="0.7"/>`)
        .join("");
    }
    if (features.has("stripes")) {
      const bands = [164, 178, 192].map((y) => `<rect x="40" y="${y}" width="120" height="7" fill="${shade}"/>`).join("");
      const side = ["M40 100 L62 108", "M40 122 L60 126", "M160 100 L138 108", "M160 122 L140 126"]
        .map((d) => `<path d="${d}" stroke="${shade}" stroke-width="7" stroke-linecap="round"/>`)
        .join("");
      return (
        `<clipPath id="${uid}-body">${shape("#000", "")}</clipPath>` +
        `<g clip-path="url(#${uid}-body)" opacity="0.75">${bands}${side}</g>`
      );
    }
    return "";
  }

  function monsterTuft(features) {
    if (!features.has("tuft")) return "";
    return (
      '<path d="M90 70 Q80 44 92 30 Q94 48 100 54 Q100 34 114 26 Q108 48 112 70 Z" fill="#44403c" ' +
      `stroke="${LINE}" stroke-width="2"/>`
    );
  }

  function monsterEye(x, y, r) {
    return (
      `<circle cx="${x}" cy="${y}" r="${r}" fill="#ffffff" stroke="${LINE}" stroke-width="2.5"/>` +
      `<circle cx="${x}" cy="${y + 1}" r="${Math.floor(r / 2)}" fill="#111111"/>` +
      `<circle cx="${x + 2}" cy="${y - 2}" r="2" fill="#ffffff"/>`
    );
  }

  function monsterEyes(features) {
    if (features.has("one_eye")) return monsterEye(100, 96, 19);
    if (features.has("three_eyes")) return monsterEye(72, 104, 12) + monsterEye(100, 84, 12) + monsterEye(128, 104, 12);
    return monsterEye(78, 100, 14) + monsterEye(122, 100, 14);
  }

  function monsterNose(features) {
    if (!features.has("big_nose")) return "";
    return (
      `<circle cx="100" cy="125" r="10" fill="#f87171" stroke="${LINE}" stroke-width="2.5"/>` +
      '<circle cx="97" cy="121" r="3" fill="#ffffff" opacity="0.8"/>'
    );
  }

  function monsterMouth(features, look) {
    if (!features.has("fangs") && !features.has("tongue")) {
      const d = pick(look, "mouth", ["wide", "small"]) === 0 ? "M80 142 Q100 160 120 142" : "M86 144 Q100 156 114 144";
      return `<path d="${d}" fill="none" stroke="${LINE}" stroke-width="3.5" stroke-linecap="round"/>`;
    }
    const parts = [`<path d="M76 140 L124 140 Q100 174 76 140 Z" fill="#7f1d1d" ${MONSTER_OUTLINE}/>`];
    if (features.has("tongue")) {
      parts.push(
        `<path d="M90 150 Q90 172 100 172 Q110 172 110 150 Z" fill="#f472b6" stroke="${LINE}" stroke-width="2"/>` +
          `<path d="M100 154 L100 164" stroke="${LINE}" stroke-width="1.5"/>`
      );
    }
    if (features.has("fangs")) {
      parts.push(
        `<path d="M83 141 L89 155 L95 141 Z" fill="#ffffff" stroke="${LINE}" stroke-width="1.5"/>` +
          `<path d="M117 141 L111 155 L105 141 Z" fill="#ffffff" stroke="${LINE}" stroke-width="1.5"/>`
      );
    }
    return parts.join("");
  }

  function monsterBowTie(features, accent) {
    if (!features.has("bow_tie")) return "";
    const style = `fill="${accent}" stroke="${LINE}" stroke-width="2.5"`;
    return (
      `<path d="M100 180 L78 168 L78 192 Z" ${style}/><path d="M100 180 L122 168 L122 192 Z" ${style}/>` +
      `<circle cx="100" cy="180" r="5" ${style}/>`
    );
  }

  Object.assign(pieces, { faceSvg });
})();
