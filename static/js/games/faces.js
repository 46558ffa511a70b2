/* Line-Up (game "faces"): the Guess Who screen for the student's device, the teacher console, the projector
 * and the step-through replay. See docs/frontend.md (the contract) and docs/games/faces.md (the rules).
 *
 * The view is the engine's deny-by-default view (games/engine/faces/view.py): this module draws only what
 * is in it. Faces are drawn here as inline SVG from their features and "look" (a port of
 * games/engine/faces/art.py, kept identical: tests/games/test_faces_art_js.py compares the two).
 *
 * Keys on the student's device (docs/games/faces.md): a letter A-Z names the face whose name starts with it
 * (then Enter or the "Yes" button confirms, Escape cancels); Tab moves through the question pad and the faces.
 */
(function () {
  "use strict";

  // The shared builders and translation shim (static/js/games/common.js, loaded first).
  const { h, gettext, ngettext, interpolate, registerGame, layoutWall } = window.ClassplayUI;

  // ------------------------------------------------------------------------------------------------
  // Words: the twenty questions of each board's pad (same order and keys as games/engine/faces/features.py
  // for people and games/engine/faces/monsters.py for monsters)
  // ------------------------------------------------------------------------------------------------

  const FEATURE_KEYS = [
    "red_hair", "blond_hair", "black_hair", "grey_hair", "long_hair", "curly_hair", "fringe",
    "thick_eyebrows", "blue_eyes", "glasses", "hat", "beard", "moustache", "freckles", "rosy_cheeks",
    "big_smile", "earrings", "necklace", "scarf", "striped_top",
  ];
  const HAIR_COLOURS = ["red_hair", "blond_hair", "black_hair", "grey_hair"];
  const MONSTER_KEYS = [
    "green_body", "blue_body", "purple_body", "orange_body", "one_eye", "three_eyes", "spots", "stripes",
    "horns", "antennae", "tuft", "pointy_ears", "wings", "tail", "fangs", "tongue", "big_nose", "bow_tie",
    "waving", "flower",
  ];
  // Per kind of face: the pad's keys, and each category a face may have none of -> the words said then.
  const PADS = {
    person: { keys: FEATURE_KEYS, defaults: [[HAIR_COLOURS, "brown_hair"]] },
    monster: {
      keys: MONSTER_KEYS,
      defaults: [[["green_body", "blue_body", "purple_body", "orange_body"], "yellow_body"], [["one_eye", "three_eyes"], "two_eyes"]],
    },
  };

  // Built on first use (after the catalog has loaded): label on the pad, the question, the description phrase.
  let wordsCache = null;
  function words() {
    if (wordsCache) return wordsCache;
    wordsCache = {
      red_hair: [gettext("red hair"), gettext("Does your person have red hair?")],
      blond_hair: [gettext("blond hair"), gettext("Does your person have blond hair?")],
      black_hair: [gettext("black hair"), gettext("Does your person have black hair?")],
      grey_hair: [gettext("grey hair"), gettext("Does your person have grey hair?")],
      long_hair: [gettext("long hair"), gettext("Does your person have long hair?")],
      curly_hair: [gettext("curly hair"), gettext("Does your person have curly hair?")],
      fringe: [gettext("a fringe"), gettext("Does your person have a fringe?")],
      thick_eyebrows: [gettext("thick eyebrows"), gettext("Does your person have thick eyebrows?")],
      blue_eyes: [gettext("blue eyes"), gettext("Does your person have blue eyes?")],
      glasses: [gettext("glasses"), gettext("Does your person wear glasses?")],
      hat: [gettext("a hat"), gettext("Is your person wearing a hat?")],
      beard: [gettext("a beard"), gettext("Does your person have a beard?")],
      moustache: [gettext("a moustache"), gettext("Does your person have a moustache?")],
      freckles: [gettext("freckles"), gettext("Does your person have freckles?")],
      rosy_cheeks: [gettext("rosy cheeks"), gettext("Does your person have rosy cheeks?")],
      big_smile: [gettext("a big smile"), gettext("Does your person have a big smile?")],
      earrings: [gettext("earrings"), gettext("Is your person wearing earrings?")],
      necklace: [gettext("a necklace"), gettext("Is your person wearing a necklace?")],
      scarf: [gettext("a scarf"), gettext("Is your person wearing a scarf?")],
      striped_top: [gettext("a striped top"), gettext("Is your person wearing a striped top?")],
      brown_hair: [gettext("brown hair"), ""],
      green_body: [gettext("green body"), gettext("Is your monster green?")],
      blue_body: [gettext("blue body"), gettext("Is your monster blue?")],
      purple_body: [gettext("purple body"), gettext("Is your monster purple?")],
      orange_body: [gettext("orange body"), gettext("Is your monster orange?")],
      one_eye: [gettext("one eye"), gettext("Does your monster have one eye?")],
      three_eyes: [gettext("three eyes"), gettext("Does your monster have three eyes?")],
      spots: [gettext("spots"), gettext("Does your monster have spots?")],
      stripes: [gettext("stripes"), gettext("Does your monster have stripes?")],
      horns: [gettext("horns"), gettext("Does your monster have horns?")],
      antennae: [gettext("antennae"), gettext("Does your monster have antennae?")],
      tuft: [gettext("a tuft of hair"), gettext("Does your monster have a tuft of hair?")],
      pointy_ears: [gettext("pointy ears"), gettext("Does your monster have pointy ears?")],
      wings: [gettext("wings"), gettext("Does your monster have wings?")],
      tail: [gettext("a tail"), gettext("Does your monster have a tail?")],
      fangs: [gettext("pointy teeth"), gettext("Does your monster have pointy teeth?")],
      tongue: [gettext("tongue out"), gettext("Is your monster sticking its tongue out?")],
      big_nose: [gettext("a big nose"), gettext("Does your monster have a big round nose?")],
      bow_tie: [gettext("a bow tie"), gettext("Is your monster wearing a bow tie?")],
      waving: [gettext("waving"), gettext("Is your monster waving?")],
      flower: [gettext("a flower"), gettext("Is your monster holding a flower?")],
      yellow_body: [gettext("yellow body"), ""],
      two_eyes: [gettext("two eyes"), ""],
    };
    return wordsCache;
  }
  function label(key, fallback) {
    const entry = words()[key];
    return entry ? entry[0] : fallback || key;
  }
  function questionText(key, fallback) {
    const entry = words()[key];
    return entry ? entry[1] : fallback || key;
  }
  /** "red hair, long hair, glasses" in the reader's language (a category the face has none of says its
   * default where the category is on the pad, like describe_with in games/engine/faces/pad.py). */
  function featuresOf(face) {
    const features = new Set(face.features || []);
    const pad = PADS[face.kind === "monster" ? "monster" : "person"];
    const defaults = {};
    for (const [keys, word] of pad.defaults) {
      if (!keys.some((key) => features.has(key))) defaults[keys[0]] = word;
    }
    const phrases = [];
    for (const key of pad.keys) {
      if (defaults[key]) phrases.push(label(defaults[key]));
      if (features.has(key)) phrases.push(label(key));
    }
    return phrases.join(", ");
  }
  /** "Ava: red hair, long hair, glasses" in the reader's language (like features.describe). */
  function describe(face) {
    return interpolate(gettext("%(name)s: %(features)s"), { name: face.name, features: featuresOf(face) });
  }

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

  // ------------------------------------------------------------------------------------------------
  // Small helpers
  // ------------------------------------------------------------------------------------------------

  function nameOf(view, pid) {
    const player = (view.players || []).find((p) => p.id === pid);
    if (!player) return pid || "";
    return player.bot ? gettext("Computer") : player.name;
  }

  function botLabel(level) {
    const levels = { easy: gettext("easy"), medium: gettext("medium"), hard: gettext("hard") };
    return levels[level] || level;
  }

  function percent(value) {
    return interpolate(gettext("%(n)s %"), { n: Math.round((value || 0) * 100) });
  }

  function otherOf(view, pid) {
    const other = (view.players || []).find((p) => p.id !== pid);
    return other ? other.id : null;
  }

  /** "Ava named the right face." / "Ben named a wrong face." / "Ben ran out of time." ("You ..." on the
   *  device of the player it is about). */
  function roundSentence(view, record, me) {
    const winnerId = record.winner;
    const loserId = otherOf(view, record.winner);
    if (record.reason === "named_right") {
      return me && winnerId === me ? gettext("You named the right face.") : interpolate(gettext("%(name)s named the right face."), { name: nameOf(view, winnerId) });
    }
    if (record.reason === "named_wrong") {
      return me && loserId === me ? gettext("You named a wrong face.") : interpolate(gettext("%(name)s named a wrong face."), { name: nameOf(view, loserId) });
    }
    if (record.reason === "timeout") {
      return me && loserId === me ? gettext("You ran out of time.") : interpolate(gettext("%(name)s ran out of time."), { name: nameOf(view, loserId) });
    }
    return "";
  }

  function roundHow(reason) {
    return (
      {
        named_right: gettext("named the right face"),
        named_wrong: gettext("the other player named a wrong face"),
        timeout: gettext("the other player ran out of time"),
      }[reason] || reason
    );
  }

  /** The match's score line: rounds won, or once it is over the result's score (a player who resigns or
   *  runs out of time under the stricter rule concedes the rounds the winner still needed). */
  function scoresOf(view) {
    return (view.result && view.result.scores) || view.wins || {};
  }

  /** How the match was won, in one sentence; "you" on the device of one of its players. */
  function matchSentence(view, result, me) {
    const scores = scoresOf(view);
    const won = scores[result.winner] || 0;
    const lost = scores[otherOf(view, result.winner)] || 0;
    const youWon = me && result.winner === me;
    const youLost = me && result.winner !== me;
    const winner = nameOf(view, result.winner);
    const loser = nameOf(view, otherOf(view, result.winner));
    if (result.reason === "resigned") {
      if (youWon) return interpolate(gettext("%(name)s resigned, so you win the match %(won)s–%(lost)s."), { name: loser, won, lost });
      if (youLost) return interpolate(gettext("You resigned, so %(name)s wins the match %(won)s–%(lost)s."), { name: winner, won, lost });
      return interpolate(gettext("%(loser)s resigned, so %(name)s wins the match %(won)s–%(lost)s."), { loser, name: winner, won, lost });
    }
    if (result.reason === "timeout") {
      if (youWon) return interpolate(gettext("%(name)s ran out of time on a turn, so you win the match %(won)s–%(lost)s."), { name: loser, won, lost });
      if (youLost) return interpolate(gettext("You ran out of time on a turn, so %(name)s wins the match %(won)s–%(lost)s."), { name: winner, won, lost });
      return interpolate(gettext("%(loser)s ran out of time on a turn, so %(name)s wins the match %(won)s–%(lost)s."), { loser, name: winner, won, lost });
    }
    if (youWon) return interpolate(gettext("You won %(won)s rounds to %(lost)s."), { won, lost });
    if (youLost) return interpolate(gettext("%(name)s won %(won)s rounds to %(lost)s."), { name: winner, won, lost });
    return interpolate(gettext("%(name)s won %(won)s rounds to %(lost)s."), { name: winner, won, lost });
  }

  function refusalText(code) {
    return (
      {
        already_asked: gettext("Already asked this round."),
        no_split: gettext("Every face left gives the same answer: it would rule nobody out."),
      }[code] || ""
    );
  }

  function timeoutText(view) {
    if (!view.turn_seconds) return "";
    return (
      {
        lose_match: gettext("Running out of time on your turn loses the match."),
        lose_round: gettext("Running out of time on your turn loses the round."),
        pass: gettext("Running out of time on your turn passes the turn."),
      }[view.timeout] || ""
    );
  }

  function scoreLine(view, options) {
    const [a, b] = view.players || [];
    if (!a || !b) return h("p");
    const opts = options || {};
    const winner = view.result ? view.result.winner : null;
    const scores = scoresOf(view);
    const side = (player) =>
      h("span", { class: "fc-score-side" + (view.turn === player.id ? " is-turn" : "") + (winner === player.id ? " is-winner" : "") }, [
        h("span", { class: "fc-score-name" }, [
          h("bdi", {}, nameOf(view, player.id)),
          player.bot ? h("span", { class: "fc-bot" }, " (" + botLabel(player.bot) + ")") : null,
          view.turn === player.id ? h("span", { class: "visually-hidden" }, " " + gettext("(to move)")) : null,
        ]),
        h("span", { class: "fc-wins", "aria-label": interpolate(ngettext("%(n)s round won", "%(n)s rounds won", scores[player.id] || 0), { n: scores[player.id] || 0 }) }, String(scores[player.id] || 0)),
      ]);
    return h("p", { class: "fc-score" + (opts.large ? " is-large" : "") }, [
      side(a),
      h("span", { class: "fc-score-dash", "aria-hidden": "true" }, "–"),
      side(b),
    ]);
  }

  function roundLine(view) {
    if (view.phase === "over") return gettext("Match over");
    return interpolate(gettext("Round %(round)s · first to %(target)s"), { round: view.round, target: view.rounds_to_win });
  }

  function clockNode(ctx, view) {
    const node = h("span", { class: "fc-clock", role: "timer", "aria-live": "off" });
    const clock = view.clock || {};
    if (typeof ctx.countdown === "function") ctx.countdown(node, clock.deadline === undefined ? null : clock.deadline);
    if (clock.deadline == null && clock.paused && clock.remaining != null) {
      node.textContent = interpolate(gettext("%(s)s s left (paused)"), { s: Math.ceil(clock.remaining) });
    }
    return node;
  }

  function miniFace(face, caption) {
    return h("figure", { class: "fc-mini" }, [
      h("div", { class: "fc-art", html: faceSvg(face) }),
      h("figcaption", {}, caption || face.name),
    ]);
  }

  // Per-container memory across renders: a pending naming, the last error, what was announced.
  const memory = new WeakMap();
  function memoryOf(container) {
    let mem = memory.get(container);
    if (!mem) {
      mem = { confirm: null, error: "", busy: false, seen: null, keys: false, ctx: null, table: null };
      memory.set(container, mem);
    }
    return mem;
  }

  // ------------------------------------------------------------------------------------------------
  // The student's device
  // ------------------------------------------------------------------------------------------------

  function canAct(view, table) {
    return table.status === "playing" && view.phase === "ask" && view.your_turn;
  }

  function faceById(view, id) {
    return (view.board || []).find((face) => face.id === id);
  }

  function send(container, action, doneText) {
    const mem = memoryOf(container);
    const ctx = mem.ctx;
    // Busy: further taps are ignored until the server answers (controls stay focusable meanwhile).
    mem.busy = true;
    mem.error = "";
    return Promise.resolve(ctx.act(action))
      .then(() => {
        mem.busy = false;
        if (doneText) ctx.announce(doneText);
        rerender(container);
      })
      .catch((error) => {
        mem.busy = false;
        mem.error = (error && error.message) || gettext("That did not work. Try again.");
        ctx.announce(mem.error);
        rerender(container);
      });
  }

  function rerender(container) {
    const mem = memoryOf(container);
    if (mem.table && mem.ctx) render(container, mem.table, mem.ctx);
  }

  function askQuestion(container, key) {
    const mem = memoryOf(container);
    const view = mem.table.view;
    if (!canAct(view, mem.table) || mem.busy) return;
    mem.confirm = null;
    send(container, { type: "ask", question: key });
  }

  function startNaming(container, faceId) {
    const mem = memoryOf(container);
    const view = mem.table.view;
    if (!canAct(view, mem.table) || mem.busy) return;
    if (!view.your_board.left.includes(faceId)) return;
    mem.confirm = faceId;
    mem.focus = "confirm-yes";
    rerender(container);
  }

  function cancelNaming(container) {
    const mem = memoryOf(container);
    const faceId = mem.confirm;
    mem.confirm = null;
    mem.focus = faceId ? "face-" + faceId : null;
    rerender(container);
  }

  function confirmNaming(container) {
    const mem = memoryOf(container);
    const faceId = mem.confirm;
    mem.confirm = null;
    if (faceId) send(container, { type: "name", face: faceId });
  }

  function onKey(container, event) {
    const mem = memoryOf(container);
    if (!mem.table || !mem.ctx || mem.ctx.role !== "player" || !container.isConnected) return;
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (event.key === "Escape" && mem.confirm) {
      event.preventDefault();
      cancelNaming(container);
      return;
    }
    if (/^[a-z]$/i.test(event.key) && canAct(mem.table.view, mem.table)) {
      const id = event.key.toUpperCase();
      if (mem.table.view.your_board.left.includes(id)) {
        event.preventDefault();
        startNaming(container, id);
      }
    }
  }

  function renderPlayer(container, table, ctx, mem) {
    const view = table.view;
    const me = view.you;
    const them = view.opponent;
    const theirName = nameOf(view, them);
    const acting = canAct(view, table);
    const root = h("section", { class: "fc fc-player phase-" + view.phase, "aria-label": gettext("Line-Up") });

    // Status strip: score, round, whose turn, clock. Once the match is over (or ended by the teacher) the
    // result below says so, once.
    const ended = table.status !== "playing" && view.phase !== "over";
    let turnText = null;
    if (!ended && view.phase === "ask") {
      turnText = view.your_turn
        ? gettext("Your turn: ask one question or name a face.")
        : interpolate(gettext("%(name)s's turn. Get ready."), { name: theirName });
    } else if (!ended && view.phase === "reveal") {
      turnText = gettext("Round over.");
    }
    root.append(
      h("header", { class: "fc-status" }, [
        scoreLine(view),
        h("p", { class: "fc-round" }, ended ? gettext("Ended by the teacher") : roundLine(view)),
        turnText
          ? h("p", { class: "fc-turn" + (acting ? " is-you" : ""), tabindex: "-1", "data-focus": "status" }, [turnText, " ", view.phase === "ask" ? clockNode(ctx, view) : null])
          : null,
      ])
    );
    if (mem.error) root.append(h("p", { class: "fc-error", role: "alert" }, mem.error));

    if (ended) {
      const wrap = h("div", { class: "fc-reveal" }, endedResult(view, me));
      if (view.rounds.length) wrap.append(roundsTable(view, me));
      root.append(wrap);
    } else if (view.phase === "ask") {
      root.append(playerGame(container, view, table, ctx, mem));
    } else {
      root.append(playerReveal(container, view, table, ctx, mem));
    }
    root.append(playerFooter(container, view, table, ctx, mem));
    return root;
  }

  function playerGame(container, view, table, ctx, mem) {
    const acting = canAct(view, table);
    const left = new Set(view.your_board.left);
    const main = h("div", { class: "fc-main" });

    // My board.
    const boardTitleId = "fc-board-title-" + table.table;
    const board = h("ul", { class: "fc-board", "aria-labelledby": boardTitleId });
    for (const face of view.board) {
      const up = left.has(face.id);
      const description = describe(face);
      const art = h("span", { class: "fc-art", html: faceSvg(face, { decorative: true }) });
      const name = h("span", { class: "fc-name" }, [h("span", { class: "fc-initial", "aria-hidden": "true" }, face.id), " ", face.name]);
      let tile;
      if (up && acting) {
        tile = h("button", {
          type: "button",
          class: "fc-face",
          "data-focus": "face-" + face.id,
          onclick: () => startNaming(container, face.id),
          // The name read out starts with the name shown (the features follow, then what a tap does).
        }, [art, name, h("span", { class: "visually-hidden" }, interpolate(gettext(": %(features)s. Tap to name this face."), { features: featuresOf(face) }))]);
      } else {
        tile = h("div", { class: "fc-face", role: "img", "aria-label": up ? description : interpolate(gettext("%(description)s (ruled out)"), { description }) }, [art, name]);
      }
      board.append(h("li", { class: up ? "is-up" : "is-out" }, tile));
    }
    main.append(
      h("section", { class: "fc-board-wrap" }, [
        h("h3", { id: boardTitleId, class: "fc-h" }, [
          interpolate(ngettext("Your board: %(n)s face left", "Your board: %(n)s faces left", left.size), { n: left.size }),
          acting ? h("span", { class: "fc-sub" }, " · " + gettext("tap a face (or type its letter) to name it")) : null,
        ]),
        board,
      ])
    );

    // Side: the pad, my card, feedback, their board.
    const side = h("div", { class: "fc-side" });
    const card = h("section", { class: "fc-card", "aria-label": gettext("Your card") }, [
      h("div", { class: "fc-art", html: faceSvg(view.your_face) }),
      h("div", {}, [
        h("h3", { class: "fc-h" }, gettext("Your card")),
        h("p", { class: "fc-card-name" }, view.your_face.name),
        h("p", { class: "fc-sub" }, interpolate(gettext("%(name)s is trying to find this face."), { name: nameOf(view, view.opponent) })),
      ]),
    ]);

    const pad = h("div", { class: "fc-pad", role: "group", "aria-labelledby": "fc-pad-title-" + table.table });
    for (const item of view.pad) {
      const why = item.allowed ? "" : refusalText(item.refusal);
      const usable = acting && item.allowed;
      const descId = why ? `fc-why-${table.table}-${item.id}` : null;
      pad.append(
        h("button", {
          type: "button",
          class: "fc-q" + (item.allowed ? "" : " is-refused") + (item.refusal === "already_asked" ? " is-asked" : ""),
          "data-focus": "q-" + item.id,
          disabled: !usable,
          title: questionText(item.id, item.question) + (why ? " — " + why : ""),
          "aria-describedby": descId,
          onclick: () => askQuestion(container, item.id),
        }, [label(item.id, item.label), "?", why ? h("span", { id: descId, class: "visually-hidden" }, why) : null])
      );
    }
    side.append(
      h("section", { class: "fc-pad-wrap" }, [
        h("h3", { id: "fc-pad-title-" + table.table, class: "fc-h" }, acting ? gettext("Ask a question") : gettext("The question pad")),
        pad,
        acting && timeoutText(view) ? h("p", { class: "fc-hint" }, timeoutText(view)) : null,
      ])
    );
    // The pad first (what a turn needs), then your card beside the answer to your last question.
    side.append(card, feedbackPanel(view));

    if (mem.confirm && acting) {
      const face = faceById(view, mem.confirm);
      if (face) side.prepend(confirmPanel(container, face, table));
    }

    side.append(theirBoard(view, table));
    main.append(side);

    const wrap = h("div", {}, [main, historyPanel(view)]);
    return wrap;
  }

  function confirmPanel(container, face, table) {
    const titleId = "fc-confirm-" + table.table;
    return h("section", { class: "fc-confirm", role: "alertdialog", "aria-labelledby": titleId, "aria-describedby": titleId + "-d" }, [
      h("div", { class: "fc-art", html: faceSvg(face, { decorative: true }) }),
      h("div", {}, [
        h("h3", { id: titleId, class: "fc-h" }, interpolate(gettext("Name %(name)s?"), { name: face.name })),
        h("p", { id: titleId + "-d" }, gettext("Right: you win the round. Wrong: you lose it.")),
        h("p", { class: "row" }, [
          h("button", { type: "button", "data-focus": "confirm-yes", onclick: () => confirmNaming(container) }, interpolate(gettext("Yes, name %(name)s"), { name: face.name })),
          h("button", { type: "button", class: "secondary", "data-focus": "confirm-no", onclick: () => cancelNaming(container) }, gettext("Cancel")),
        ]),
      ]),
    ]);
  }

  function feedbackPanel(view) {
    const last = view.feedback;
    const section = h("section", { class: "fc-feedback", "aria-label": gettext("The last questions") });
    // The other player's last question this round and its answer, so it is seen without scrolling.
    const theirs = (view.asked && view.asked.them) || [];
    const their = theirs[theirs.length - 1];
    const theirLine = their
      ? h("p", { class: "fc-their-last" }, [
          interpolate(gettext("%(name)s asked: %(question)s"), { name: nameOf(view, view.opponent), question: questionText(their.question) }),
          " ",
          h("span", { class: "fc-answer " + (their.answer ? "is-yes" : "is-no") }, their.answer ? gettext("Yes") : gettext("No")),
        ])
      : null;
    if (!last) {
      section.append(theirLine || h("p", { class: "fc-sub" }, gettext("Tip: a question that about half of your faces answer “yes” to is the fastest way down.")));
      return section;
    }
    const quality = Math.max(0, Math.min(1, last.quality));
    section.append(
      h("p", {}, [
        h("strong", {}, questionText(last.question)),
        " ",
        h("span", { class: "fc-answer " + (last.answer ? "is-yes" : "is-no") }, last.answer ? gettext("Yes") : gettext("No")),
      ]),
      h("p", {}, interpolate(ngettext("It kept %(kept)s face and removed %(removed)s.", "It kept %(kept)s faces and removed %(removed)s.", last.kept), { kept: last.kept, removed: last.removed })),
      h("div", { class: "fc-meter" }, [
        h("span", { class: "fc-meter-label" }, interpolate(gettext("Split quality: %(q)s of the best on the pad"), { q: percent(quality) })),
        h("span", { class: "fc-meter-bar", "aria-hidden": "true" }, h("span", { style: `width:${Math.round(quality * 100)}%` })),
      ]),
      theirLine
    );
    return section;
  }

  function theirBoard(view, table) {
    const theirs = view.their_board;
    const left = new Set(theirs.left);
    const name = nameOf(view, view.opponent);
    const grid = h("ul", { class: "fc-their-grid", "aria-hidden": "true" });
    for (const face of view.board) {
      grid.append(h("li", { class: left.has(face.id) ? "is-up" : "is-out", title: face.name }, face.id));
    }
    const names = view.board.filter((face) => left.has(face.id)).map((face) => face.name).join(", ");
    return h("section", { class: "fc-theirs" }, [
      h("h3", { class: "fc-h" }, interpolate(ngettext("%(name)s's board: %(n)s face left", "%(name)s's board: %(n)s faces left", theirs.left_count), { name, n: theirs.left_count })),
      grid,
      h("p", { class: "visually-hidden" }, interpolate(gettext("Faces still up on their board: %(names)s."), { names })),
      theirs.left_count === 1 && view.phase === "ask" ? h("p", { class: "fc-warn" }, gettext("They are down to one face: they will name it on their next turn!")) : null,
    ]);
  }

  function historyPanel(view) {
    const me = view.you;
    const mine = view.asked.you.map((entry, index) => ({ ...entry, who: me, index }));
    const theirs = view.asked.them.map((entry, index) => ({ ...entry, who: view.opponent, index }));
    const items = [];
    // The questions alternate (one per turn); interleave by turn order from the round's first asker.
    const firstAsker = firstOfRound(view);
    const order = firstAsker === me ? [mine, theirs] : [theirs, mine];
    const rounds = Math.max(mine.length, theirs.length);
    for (let i = 0; i < rounds; i += 1) {
      for (const list of order) if (list[i]) items.push(list[i]);
    }
    const section = h("section", { class: "fc-history" }, [h("h3", { class: "fc-h" }, gettext("Questions this round"))]);
    if (!items.length) {
      section.append(h("p", { class: "fc-sub" }, gettext("No questions yet.")));
      return section;
    }
    const list = h("ol", { class: "fc-history-list" });
    for (const entry of items) {
      list.append(
        h("li", { class: entry.who === me ? "is-mine" : "is-theirs" }, [
          h("span", { class: "fc-who" }, entry.who === me ? gettext("You") : nameOf(view, entry.who)),
          " ",
          questionText(entry.question),
          " ",
          h("span", { class: "fc-answer " + (entry.answer ? "is-yes" : "is-no") }, entry.answer ? gettext("Yes") : gettext("No")),
          " ",
          h("span", { class: "fc-sub" }, interpolate(gettext("kept %(kept)s, removed %(removed)s"), entry)),
        ])
      );
    }
    section.append(list);
    return section;
  }

  function firstOfRound(view) {
    const starts = (view.log || []).filter((entry) => entry.type === "round_started" && entry.round === view.round);
    return starts.length ? starts[starts.length - 1].first : null;
  }

  function playerReveal(container, view, table, ctx, mem) {
    const me = view.you;
    const wrap = h("div", { class: "fc-reveal" });
    const last = view.rounds[view.rounds.length - 1];
    if (view.phase === "reveal" && last) {
      wrap.append(roundResult(view, last, me));
      const waiting = view.ready.includes(me);
      wrap.append(
        h("p", { class: "row fc-ready" }, [
          waiting
            ? h("span", {}, interpolate(gettext("Waiting for %(name)s…"), { name: nameOf(view, view.opponent) }))
            : h("button", { type: "button", class: "big", "data-focus": "ready", disabled: table.status !== "playing", onclick: () => !mem.busy && send(container, { type: "ready" }, gettext("Ready.")) }, gettext("Ready for the next round")),
          " ",
          h("span", { class: "fc-sub" }, [gettext("Next round starts in"), " ", clockNode(ctx, view)]),
        ])
      );
    } else if (view.phase === "over") {
      wrap.append(matchResult(view, me));
    }
    if (view.rounds.length) wrap.append(roundsTable(view, me));
    return wrap;
  }

  function roundResult(view, record, me) {
    const won = record.winner === me;
    const faces = record.faces || {};
    const title = me
      ? won
        ? interpolate(gettext("You won round %(round)s!"), { round: record.round })
        : interpolate(gettext("%(name)s won round %(round)s."), { name: nameOf(view, record.winner), round: record.round })
      : interpolate(gettext("%(name)s won round %(round)s."), { name: nameOf(view, record.winner), round: record.round });
    const reason = roundSentence(view, record, me);
    const figures = h("div", { class: "fc-faces-pair" });
    for (const player of view.players) {
      const face = faces[player.id];
      if (!face) continue;
      const caption = me
        ? player.id === me
          ? interpolate(gettext("Your face: %(name)s"), { name: face.name })
          : interpolate(gettext("%(player)s's face: %(name)s"), { player: nameOf(view, player.id), name: face.name })
        : interpolate(gettext("%(player)s had %(name)s"), { player: nameOf(view, player.id), name: face.name });
      figures.append(miniFace(face, caption));
    }
    return h("section", { class: "fc-result" + (won ? " is-won" : "") }, [h("h3", { class: "fc-h" }, title), h("p", {}, reason), figures]);
  }

  function facesOf(view, faces, me) {
    const figures = h("div", { class: "fc-faces-pair" });
    for (const player of view.players) {
      const face = faces[player.id];
      if (!face) continue;
      const caption = me && player.id === me
        ? interpolate(gettext("Your face: %(name)s"), { name: face.name })
        : interpolate(gettext("%(player)s's face: %(name)s"), { player: nameOf(view, player.id), name: face.name });
      figures.append(miniFace(face, caption));
    }
    return figures;
  }

  /** The end of the match: who won and how, the last round's two faces; the rounds table follows. */
  function matchResult(view, me) {
    const result = view.result || {};
    const won = me && result.winner === me;
    const title = won ? gettext("You won the match!") : interpolate(gettext("%(name)s won the match."), { name: nameOf(view, result.winner) });
    const section = h("section", { class: "fc-result is-match" + (won ? " is-won" : "") }, [
      h("h3", { class: "fc-h", tabindex: "-1", "data-focus": "status" }, title),
      h("p", {}, matchSentence(view, result, me)),
    ]);
    const last = view.rounds[view.rounds.length - 1];
    const unfinished = view.unfinished_round_faces;
    if (unfinished) {
      section.append(h("p", { class: "fc-sub" }, gettext("The last round was not finished. Its faces were:")), facesOf(view, unfinished, me));
    } else if (last) {
      section.append(h("p", { class: "fc-sub" }, interpolate(gettext("The faces of round %(round)s:"), { round: last.round })), facesOf(view, last.faces || {}, me));
    }
    return section;
  }

  /** A match the teacher ended before anyone won it: the score then, and the faces of that round. */
  function endedResult(view, me) {
    const scores = scoresOf(view);
    const [a, b] = view.players;
    const section = h("section", { class: "fc-result is-match is-ended" }, [
      h("h3", { class: "fc-h", tabindex: "-1", "data-focus": "status" }, gettext("Your teacher ended this match.")),
      h("p", {}, interpolate(gettext("It ended at %(a)s–%(b)s in rounds won. Nobody can move any more."), { a: scores[a.id] || 0, b: scores[b.id] || 0 })),
    ]);
    return section;
  }

  function roundsTable(view, me) {
    const rows = view.rounds.map((record) =>
      h("tr", {}, [
        h("td", {}, String(record.round)),
        h("td", {}, record.winner === me ? gettext("You") : nameOf(view, record.winner)),
        h("td", {}, roundHow(record.reason)),
        h(
          "td",
          {},
          view.players.map((player) => (record.faces && record.faces[player.id] ? `${player.id === me ? gettext("You") : nameOf(view, player.id)}: ${record.faces[player.id].name}` : "")).filter(Boolean).join(" · ")
        ),
      ])
    );
    return h("div", { class: "table-wrap fc-rounds" }, h("table", {}, [
      h("caption", { class: "visually-hidden" }, gettext("Rounds")),
      h("thead", {}, h("tr", {}, [gettext("Round"), gettext("Winner"), gettext("How"), gettext("Faces")].map((heading) => h("th", { scope: "col" }, heading)))),
      h("tbody", {}, rows),
    ]));
  }

  function verificationPanel(view, table) {
    const verification = view.verification || {};
    if (!verification.commitment) return null;
    const items = [
      h("dt", {}, gettext("Commitment (SHA-256 of salt:seed)")),
      h("dd", { class: "mono fc-hash" }, verification.commitment),
    ];
    if (verification.seed) {
      items.push(h("dt", {}, gettext("Seed")), h("dd", { class: "mono fc-hash" }, verification.seed));
      items.push(h("dt", {}, gettext("Salt")), h("dd", { class: "mono fc-hash" }, verification.salt));
    }
    const details = h("details", { class: "fc-verify" }, [
      h("summary", {}, verification.seed ? gettext("Check that the faces were fair") : gettext("Fairness commitment")),
      h("p", { class: "fc-sub" }, verification.seed
        ? gettext("The seed and salt are published now. Anyone can recompute the commitment and replay the match to check that no face changed.")
        : gettext("The faces of every round were fixed before the first question. When the match ends the seed is shown, so you can check.")),
      h("dl", {}, items),
    ]);
    if (verification.seed && table.table) {
      details.append(h("p", {}, h("a", { href: `/games/faces/verify/${table.table}/` }, gettext("Verify this match"))));
    }
    return details;
  }

  function playerFooter(container, view, table, ctx, mem) {
    const footer = h("footer", { class: "fc-footer" });
    if (view.phase !== "over" && table.status === "playing") {
      if (mem.resign) {
        footer.append(
          h("span", { class: "row fc-resign-confirm", role: "group", "aria-label": gettext("Resign?") }, [
            h("span", {}, gettext("Resign and lose the match?")),
            h("button", { type: "button", class: "danger", "data-focus": "resign-yes", onclick: () => { mem.resign = false; send(container, { type: "resign" }); } }, gettext("Yes, resign")),
            h("button", { type: "button", class: "secondary", "data-focus": "resign-no", onclick: () => { mem.resign = false; mem.focus = "resign"; rerender(container); } }, gettext("Keep playing")),
          ])
        );
      } else {
        footer.append(h("button", { type: "button", class: "secondary fc-resign", "data-focus": "resign", onclick: () => { mem.resign = true; mem.focus = "resign-no"; rerender(container); } }, gettext("Resign")));
      }
    }
    footer.append(verificationPanel(view, table));
    return footer;
  }

  // ------------------------------------------------------------------------------------------------
  // Teacher console (compact), replay (full), projector
  // ------------------------------------------------------------------------------------------------

  function leftBar(count) {
    const share = Math.max(0, Math.min(1, count / 24));
    return h("span", { class: "fc-leftbar", "aria-hidden": "true" }, h("span", { style: `width:${Math.round(share * 100)}%` }));
  }

  function statusText(view, table) {
    if (table.status === "ended" && view.phase !== "over") return gettext("Ended by the teacher");
    if (view.phase === "ask") return interpolate(gettext("%(name)s to move"), { name: nameOf(view, view.turn) });
    if (view.phase === "reveal") return gettext("Between rounds");
    const result = view.result || {};
    return interpolate(gettext("%(name)s won the match"), { name: nameOf(view, result.winner) });
  }

  /** A student of this match whose device is not connected now (from the session's presence, staff only):
   *  the console says so, so the teacher can see why turns are missed. */
  function isAway(ctx, table, player) {
    if (player.bot || table.status !== "playing") return false;
    const people = (ctx.session && ctx.session.participants) || [];
    const person = people.find((p) => p.table === table.table && p.name === player.name && p.status === "present");
    return !!person && !person.connected;
  }

  function awayHint(view) {
    return view.timeout === "pass"
      ? gettext("Their turns pass to the other player until they are back; they do not lose the match for it.")
      : gettext("Running out of time costs them under this match's rule: use +30 s or Pause if they are coming back.");
  }

  function renderTeacher(container, table, ctx, compact) {
    const view = table.view;
    const root = h("section", { class: "fc fc-teacher" + (compact ? " is-compact" : ""), "aria-label": interpolate(gettext("Line-Up, table %(n)s"), { n: table.number }) });
    root.append(
      h("header", { class: "fc-status" }, [
        scoreLine(view),
        // Compact (the console), the table card's header already shows the clock.
        h("p", { class: "fc-round" }, [roundLine(view), " · ", statusText(view, table), " ", !compact && view.phase !== "over" && table.status === "playing" ? clockNode(ctx, view) : null]),
      ])
    );
    const stats = view.players.map((player) => {
      const asked = (view.asked && view.asked[player.id]) || [];
      const average = asked.length ? asked.reduce((sum, entry) => sum + entry.quality, 0) / asked.length : null;
      const count = view.faces_left ? view.faces_left[player.id] : null;
      return { player, asked, last: asked[asked.length - 1], average, count };
    });
    const answerBadge = (entry) =>
      h("span", { class: "fc-answer " + (entry.answer ? "is-yes" : "is-no") }, entry.answer ? gettext("Yes") : gettext("No"));
    if (compact) {
      // Many matches at once: one wrapping line per player instead of a table.
      const list = h("ul", { class: "fc-teacher-list" });
      for (const { player, asked, last, average, count } of stats) {
        const away = isAway(ctx, table, player);
        list.append(
          h("li", { class: away ? "is-away" : null }, [
            h("strong", {}, h("bdi", {}, nameOf(view, player.id))),
            away ? h("span", { class: "fc-away", title: awayHint(view) }, gettext("not connected")) : null,
            count == null ? null : h("span", {}, [leftBar(count), " ", interpolate(ngettext("%(n)s face left", "%(n)s faces left", count), { n: count })]),
            h("span", { class: "fc-sub" }, interpolate(ngettext("%(n)s question", "%(n)s questions", asked.length), { n: asked.length }) + (average == null ? "" : " · " + interpolate(gettext("split %(q)s"), { q: percent(average) }))),
            last ? h("span", { class: "fc-last" }, [label(last.question) + "?", " ", answerBadge(last)]) : null,
          ])
        );
      }
      root.append(list);
    } else {
      const rows = h("tbody");
      for (const { player, asked, last, average, count } of stats) {
        rows.append(
          h("tr", {}, [
            h("th", { scope: "row" }, h("bdi", {}, nameOf(view, player.id))),
            h("td", {}, count == null ? "" : [leftBar(count), " ", String(count)]),
            h("td", {}, String(asked.length)),
            h("td", {}, average == null ? "–" : percent(average)),
            h("td", { class: "fc-last" }, last ? [questionText(last.question), " ", answerBadge(last)] : "–"),
          ])
        );
      }
      root.append(
        h("div", { class: "table-wrap" }, h("table", { class: "fc-teacher-table" }, [
          h("caption", { class: "visually-hidden" }, gettext("This round")),
          h("thead", {}, h("tr", {}, [gettext("Player"), gettext("Faces left"), gettext("Questions"), gettext("Average split"), gettext("Last question")].map((heading) => h("th", { scope: "col" }, heading)))),
          rows,
        ]))
      );
    }
    if (view.phase === "over" && view.result) {
      root.append(h("p", { class: "fc-result-line" }, matchSentence(view, view.result)));
    }
    const detail = compact ? h("details", { class: "fc-more" }, [h("summary", {}, gettext("Questions and rounds"))]) : h("div", { class: "fc-more" });
    for (const player of view.players) {
      const asked = (view.asked && view.asked[player.id]) || [];
      const list = h("ol", { class: "fc-history-list" });
      for (const entry of asked) {
        list.append(
          h("li", {}, [
            questionText(entry.question), " ",
            h("span", { class: "fc-answer " + (entry.answer ? "is-yes" : "is-no") }, entry.answer ? gettext("Yes") : gettext("No")), " ",
            h("span", { class: "fc-sub" }, interpolate(gettext("%(yes)s yes / %(no)s no, quality %(q)s"), { yes: entry.yes, no: entry.no, q: percent(entry.quality) })),
          ])
        );
      }
      detail.append(h("h4", { class: "fc-h" }, interpolate(gettext("%(name)s's questions this round"), { name: nameOf(view, player.id) })), asked.length ? list : h("p", { class: "fc-sub" }, interpolate(gettext("%(name)s has not asked a question yet."), { name: nameOf(view, player.id) })));
    }
    for (const record of view.rounds || []) detail.append(roundResult(view, record, null));
    if (view.unfinished_round_faces) {
      const figures = h("div", { class: "fc-faces-pair" });
      for (const player of view.players) {
        const face = view.unfinished_round_faces[player.id];
        if (face) figures.append(miniFace(face, interpolate(gettext("%(player)s had %(name)s"), { player: nameOf(view, player.id), name: face.name })));
      }
      detail.append(h("p", { class: "fc-sub" }, gettext("The last round was not finished. Its faces were:")), figures);
    }
    const verification = verificationPanel(view, table);
    if (verification) detail.append(verification);
    root.append(detail);
    return root;
  }

  /** The projector shows every match of the class at once (28 students: 14 tables): cards of 13 x 10.4
   *  ems, and the CSS sizes the text to the screen (faces.css, .fc-wall), so any number of tables fits
   *  without scrolling or cutting. */
  const WALL = { width: 13, height: 10.4, wallClass: "fc-wall", prefix: "fc" };

  function renderProjector(container, table, ctx) {
    const view = table.view;
    if (ctx.role === "projector") requestAnimationFrame(() => layoutWall(container, WALL));
    const root = h("section", { class: "fc fc-projector", "aria-label": interpolate(gettext("Line-Up, table %(n)s"), { n: table.number }) });
    root.append(scoreLine(view, { large: true }));
    const round = view.phase === "over" ? gettext("Match over") : interpolate(gettext("Round %(round)s"), { round: view.round });
    const target = view.phase === "over" ? null : h("span", { class: "fc-round-target" }, " · " + interpolate(gettext("first to %(target)s"), { target: view.rounds_to_win }));
    root.append(h("p", { class: "fc-round" }, [round, target, " · ", statusText(view, table)]));
    const marks = h("ol", { class: "fc-round-marks" });
    for (const record of view.rounds || []) {
      marks.append(h("li", {}, interpolate(gettext("Round %(round)s: %(name)s"), { round: record.round, name: nameOf(view, record.winner) })));
    }
    root.append(marks); // (empty before the first round ends: the cards of a wall keep one height)
    return root;
  }

  // ------------------------------------------------------------------------------------------------
  // Announcements: what changed since the last render, said once through the page's live region
  // ------------------------------------------------------------------------------------------------

  function snapshot(view) {
    return {
      round: view.round,
      phase: view.phase,
      turn: view.turn,
      you: view.asked && view.asked.you ? view.asked.you.length : null,
      them: view.asked && view.asked.them ? view.asked.them.length : null,
      rounds: (view.rounds || []).length,
    };
  }

  function announceChanges(ctx, view, before) {
    if (typeof ctx.announce !== "function" || ctx.role !== "player" || !view.you) return;
    const now = snapshot(view);
    const said = [];
    if (!before) {
      if (view.phase === "ask") {
        said.push(view.your_turn ? gettext("Your turn: ask one question or name a face.") : interpolate(gettext("%(name)s's turn. Get ready."), { name: nameOf(view, view.opponent) }));
      }
      if (said.length) ctx.announce(said.join(" "));
      return;
    }
    const sameRound = before.round === now.round;
    if (sameRound && now.them > before.them) {
      const entry = view.asked.them[view.asked.them.length - 1];
      said.push(interpolate(gettext("%(name)s asked: %(question)s Answer: %(answer)s. They have %(n)s faces left."), {
        name: nameOf(view, view.opponent), question: questionText(entry.question), answer: entry.answer ? gettext("yes") : gettext("no"), n: view.their_board.left_count,
      }));
    }
    if (sameRound && now.you > before.you && view.feedback) {
      said.push(interpolate(gettext("Answer: %(answer)s. It kept %(kept)s faces and removed %(removed)s. Split quality %(q)s."), {
        answer: view.feedback.answer ? gettext("yes") : gettext("no"), kept: view.feedback.kept, removed: view.feedback.removed, q: percent(view.feedback.quality),
      }));
    }
    if (now.rounds > before.rounds) {
      const record = view.rounds[view.rounds.length - 1];
      said.push(record.winner === view.you ? interpolate(gettext("You won round %(round)s!"), { round: record.round }) : interpolate(gettext("%(name)s won round %(round)s."), { name: nameOf(view, record.winner), round: record.round }));
      const theirs = record.faces && record.faces[view.opponent];
      if (theirs) said.push(interpolate(gettext("Their face was %(name)s."), { name: theirs.name }));
    }
    if (now.phase === "over" && before.phase !== "over" && view.result) {
      said.push(view.result.winner === view.you ? gettext("You won the match!") : interpolate(gettext("%(name)s won the match."), { name: nameOf(view, view.result.winner) }));
    } else if (now.phase === "ask" && (before.phase !== "ask" || !sameRound)) {
      said.push(interpolate(gettext("Round %(round)s starts. New faces."), { round: view.round }));
      said.push(view.your_turn ? gettext("You ask first.") : interpolate(gettext("%(name)s asks first."), { name: nameOf(view, view.opponent) }));
    } else if (now.phase === "ask" && view.your_turn && before.turn !== now.turn) {
      said.push(gettext("Your turn."));
    }
    if (said.length) ctx.announce(said.join(" "));
  }

  // ------------------------------------------------------------------------------------------------
  // The module
  // ------------------------------------------------------------------------------------------------

  function render(container, table, ctx) {
    const mem = memoryOf(container);
    const view = (table && table.view) || {};
    const previous = mem.seen;
    mem.table = table;
    mem.ctx = ctx;

    // Where the focus was, so a re-render puts it back on the same control.
    const active = document.activeElement;
    const focusKey = mem.focus || (active && container.contains(active) && active.getAttribute("data-focus")) || null;
    mem.focus = null;

    // A pending naming or resignation only lasts while it still makes sense.
    if (mem.confirm && !(canAct(view, table) && view.your_board && view.your_board.left.includes(mem.confirm))) mem.confirm = null;
    if (mem.resign && (view.phase === "over" || table.status !== "playing")) mem.resign = false;
    // A refusal stays on screen until the game moves on (a new turn, phase or round).
    const seenNow = snapshot(view);
    if (mem.error && previous && (previous.turn !== seenNow.turn || previous.phase !== seenNow.phase || previous.round !== seenNow.round)) mem.error = "";

    let node;
    if (view.you && view.board) node = renderPlayer(container, table, ctx, mem);
    else if (ctx.role === "projector") node = renderProjector(container, table, ctx);
    else if (view.faces_left || view.asked) node = renderTeacher(container, table, ctx, !!ctx.compact);
    else node = renderProjector(container, table, ctx);
    container.replaceChildren(node);

    if (focusKey) {
      // Back on the same control; if it is gone or disabled (the turn passed), on the status line, so
      // keyboard users are not dropped to the top of the page.
      let target = container.querySelector(`[data-focus="${focusKey}"]`);
      if (!target || target.disabled) target = container.querySelector('[data-focus="status"]');
      if (target) target.focus({ preventScroll: true });
    }
    if (!mem.keys && ctx.role === "player") {
      mem.keys = true;
      document.addEventListener("keydown", (event) => onKey(container, event));
    }
    if (!previous && ctx.role === "player" && view.you && window.scrollY === 0 && typeof node.scrollIntoView === "function") {
      // A game screen: when it first appears, bring the status line and the board into view (the site's
      // header and the page title above it are not needed while playing). Never fights a reader's scroll.
      node.scrollIntoView({ block: "start", behavior: "instant" });
    }
    const seen = snapshot(view);
    if (!previous || JSON.stringify(previous) !== JSON.stringify(seen)) announceChanges(ctx, view, previous);
    if (mem.status === "playing" && table.status === "ended" && ctx.role === "player" && typeof ctx.announce === "function") {
      ctx.announce(gettext("Your teacher ended this match."));
    }
    mem.status = table.status;
    mem.seen = seen;
  }

  registerGame("faces", { render, faceSvg, describe });
})();
