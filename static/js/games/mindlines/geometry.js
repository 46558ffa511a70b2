/* Mind the Lines' geometry: dotted lines, halves and the pieces a stroke is sent as (the same rules as
 * games/engine/mindlines/boards.py), the SVG paths of ink, and the pen that walks along the lines.
 * Pure: no element, no listener. Part of the game's screen (docs/frontend.md).
 *
 * The board is a 12 x 12 lattice; a side's dotted lines are unit segments [x1, y1, x2, y2] (the smaller
 * point first). The pen lives on "doubled" coordinates: a dot (x, y) is (2x, 2y) and the middle of a
 * segment is (x1 + x2, y1 + y2), so a pen can stop half-way along a line. Every pen move covers one half
 * of one dotted segment; a stroke is the set of halves it covered, sent as pieces the engine accepts
 * (whole segments merged into straight runs, plus single halves), at most 64 pieces per action. So a
 * stroke can never leave the lines, and its message stays well under the websocket's 16 KB limit
 * (64 pieces of at most 5 small numbers: under 1.5 KB).
 */

/** A pen's place: a dot (seg null) or the middle of a dotted segment, on doubled coordinates.
 *  @typedef {{X: number, Y: number, seg: MindlinesSegment | null}} MindlinesPenPosition */
/** @typedef {{dir: number[], next: MindlinesPenPosition, half: number[]}} MindlinesPenMove */

(function () {
  "use strict";

  const pieces = window.ClassplayUI.pieces("mindlines");

  const GRID = 12;
  const MAX_PIECES = 64;
  const MAX_STROKES = 40;
  const MAX_HALVES = 600;
  const START_RADIUS = 0.6; // how near (in dots) a pen must land to a dotted line to start a stroke
  const ERASE_RADIUS = 0.32;
  const KEYBOARD_ERASE_RADIUS = 0.4; // every half touching the pen's dot (a diagonal half's centre is 0.35 away)
  const TAP_TRAVEL = 0.25;
  const DIRECTIONS = [
    [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1],
  ];
  /** The keys that move the pen, as the board is shown (input.js turns them into the board's own).
   *  @type {Record<string, number[]>} */
  const KEY_DIRECTIONS = {
    ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
    Home: [-1, -1], PageUp: [1, -1], End: [-1, 1], PageDown: [1, 1],
    q: [-1, -1], e: [1, -1], z: [-1, 1], c: [1, 1],
  };

  /** @param {number} x1 @param {number} y1 @param {number} x2 @param {number} y2 */
  function canonical(x1, y1, x2, y2) {
    return x1 < x2 || (x1 === x2 && y1 <= y2) ? [x1, y1, x2, y2] : [x2, y2, x1, y1];
  }
  /** @param {number[]} list */
  const keyOf = (list) => list.join(",");
  /** @param {string} key */
  const parseKey = (key) => key.split(",").map(Number);

  /** Every half a stored stroke covers. @param {MindlinesStroke} stroke @returns {number[][]} */
  function halvesOfStroke(stroke) {
    const halves = [];
    for (const piece of stroke) {
      if (piece.length === 5) {
        halves.push(piece.slice());
        continue;
      }
      const [x1, y1, x2, y2] = piece;
      const steps = Math.max(Math.abs(x2 - x1), Math.abs(y2 - y1));
      const sx = Math.sign(x2 - x1);
      const sy = Math.sign(y2 - y1);
      for (let i = 0; i < steps; i += 1) {
        const seg = canonical(x1 + i * sx, y1 + i * sy, x1 + (i + 1) * sx, y1 + (i + 1) * sy);
        halves.push([...seg, 0], [...seg, 1]);
      }
    }
    return halves;
  }

  /** Pieces for a set of half keys: whole segments joined into straight runs, single halves kept.
   *  @param {Iterable<string>} halfKeys @returns {MindlinesPiece[]} */
  function piecesOf(halfKeys) {
    /** @type {Map<string, Set<number>>} */
    const sides = new Map();
    for (const key of halfKeys) {
      const [x1, y1, x2, y2, half] = parseKey(key);
      const seg = keyOf([x1, y1, x2, y2]);
      if (!sides.has(seg)) sides.set(seg, new Set());
      sides.get(seg).add(half);
    }
    const whole = new Set();
    const found = [];
    for (const [seg, halves] of sides) {
      if (halves.size === 2) whole.add(seg);
      else for (const half of halves) found.push([...parseKey(seg), half]);
    }
    const used = new Set();
    const sorted = [...whole].map(parseKey).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
    for (const [x1, y1, x2, y2] of sorted) {
      if (used.has(keyOf([x1, y1, x2, y2]))) continue;
      const dx = x2 - x1;
      const dy = y2 - y1;
      // the first segment of a run: its predecessor in the same direction is not drawn
      if (whole.has(keyOf([x1 - dx, y1 - dy, x1, y1])) && !used.has(keyOf([x1 - dx, y1 - dy, x1, y1]))) continue;
      let ex = x2;
      let ey = y2;
      used.add(keyOf([x1, y1, x2, y2]));
      while (whole.has(keyOf([ex, ey, ex + dx, ey + dy]))) {
        used.add(keyOf([ex, ey, ex + dx, ey + dy]));
        ex += dx;
        ey += dy;
      }
      found.push([x1, y1, ex, ey]);
    }
    for (const seg of whole) {
      if (!used.has(seg)) found.push(parseKey(seg)); // cannot happen, but never lose ink
    }
    return found;
  }

  /** @template T @param {T[]} list @param {number} size @returns {T[][]} */
  function chunks(list, size) {
    const out = [];
    for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
    return out;
  }

  /** The two end points (in dots) of a half, the first at the segment's end it touches. @param {number[]} half */
  function halfEnds(half) {
    const [x1, y1, x2, y2, which] = half;
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    return which === 0 ? [x1, y1, mx, my] : [x2, y2, mx, my];
  }
  /** @param {number[]} half */
  function halfCentre(half) {
    const [ax, ay, bx, by] = halfEnds(half);
    return [(ax + bx) / 2, (ay + by) / 2];
  }

  /** @param {number[][]} halves */
  function pathOfHalves(halves) {
    return halves.map((half) => {
      const [ax, ay, bx, by] = halfEnds(half);
      return `M${ax} ${ay}L${bx} ${by}`;
    }).join("");
  }
  /** @param {MindlinesStroke} stroke */
  function pathOfStroke(stroke) {
    return stroke.map((piece) => {
      if (piece.length === 5) {
        const [ax, ay, bx, by] = halfEnds(piece);
        return `M${ax} ${ay}L${bx} ${by}`;
      }
      return `M${piece[0]} ${piece[1]}L${piece[2]} ${piece[3]}`;
    }).join("");
  }
  /** @param {MindlinesSegment[]} lines */
  function pathOfLines(lines) {
    return lines.map((seg) => `M${seg[0]} ${seg[1]}L${seg[2]} ${seg[3]}`).join("");
  }

  /** Turn a direction as seen on screen into the board's own direction (the board is shown turned).
   *  @param {number[]} direction @param {number} rotation */
  function unrotate([dx, dy], rotation) {
    let x = dx;
    let y = dy;
    for (let turn = 0; turn < ((rotation / 90) % 4 + 4) % 4; turn += 1) [x, y] = [y, -x];
    return [x, y];
  }

  // ------------------------------------------------------------------------------------------------
  // The pen: a position on doubled coordinates, moving half a segment at a time along dotted lines
  // ------------------------------------------------------------------------------------------------

  class Pen {
    /** @param {MindlinesSegment[]} lines */
    constructor(lines) {
      this.lines = new Set(lines.map(keyOf));
      this.points = new Set();
      for (const [x1, y1, x2, y2] of lines) {
        this.points.add(keyOf([x1, y1]));
        this.points.add(keyOf([x2, y2]));
      }
      this.lineList = lines;
    }

    /** Moves from a position: each goes to a neighbouring doubled point and covers one half.
     *  @param {MindlinesPenPosition} pos @returns {MindlinesPenMove[]} */
    moves(pos) {
      const out = [];
      if (pos.seg === null) {
        const x = pos.X / 2;
        const y = pos.Y / 2;
        for (const [dx, dy] of DIRECTIONS) {
          const seg = canonical(x, y, x + dx, y + dy);
          if (!this.lines.has(keyOf(seg))) continue;
          const half = seg[0] === x && seg[1] === y ? 0 : 1;
          out.push({ dir: [dx, dy], next: { X: pos.X + dx, Y: pos.Y + dy, seg }, half: [...seg, half] });
        }
      } else {
        const [x1, y1, x2, y2] = pos.seg;
        out.push({
          dir: [Math.sign(x1 - x2), Math.sign(y1 - y2)],
          next: { X: 2 * x1, Y: 2 * y1, seg: null },
          half: [...pos.seg, 0],
        });
        out.push({
          dir: [Math.sign(x2 - x1), Math.sign(y2 - y1)],
          next: { X: 2 * x2, Y: 2 * y2, seg: null },
          half: [...pos.seg, 1],
        });
      }
      return out;
    }

    /** The nearest dot or half-way point on a dotted line to (x, y), within START_RADIUS.
     *  @param {number} x @param {number} y @returns {MindlinesPenPosition | null} */
    nearest(x, y) {
      let best = null;
      let bestDistance = START_RADIUS;
      /** @param {number} X @param {number} Y @param {MindlinesSegment | null} seg */
      const consider = (X, Y, seg) => {
        const distance = Math.hypot(X / 2 - x, Y / 2 - y);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = { X, Y, seg };
        }
      };
      for (const seg of this.lineList) {
        consider(2 * seg[0], 2 * seg[1], null);
        consider(2 * seg[2], 2 * seg[3], null);
        consider(seg[0] + seg[2], seg[1] + seg[3], seg);
      }
      return best;
    }

    /** Walk greedily towards (x, y) while a move brings the pen nearer; returns the halves covered.
     *  @param {MindlinesPenPosition} pos @param {number} x @param {number} y */
    follow(pos, x, y) {
      const covered = [];
      let current = pos;
      for (let step = 0; step < 48; step += 1) {
        const here = Math.hypot(current.X / 2 - x, current.Y / 2 - y);
        let best = null;
        let bestDistance = here - 0.05;
        for (const move of this.moves(current)) {
          const distance = Math.hypot(move.next.X / 2 - x, move.next.Y / 2 - y);
          if (distance < bestDistance) {
            bestDistance = distance;
            best = move;
          }
        }
        if (!best) break;
        current = best.next;
        covered.push(best.half);
      }
      return { pos: current, covered };
    }
  }

  // ------------------------------------------------------------------------------------------------
  // The eraser: which drawn halves a rub or a tap touches
  // ------------------------------------------------------------------------------------------------

  /** The stroke with a half nearest to a point (a tap with the eraser), or null.
   *  @param {number[][][]} strokes each stroke's halves @param {number[]} point */
  function strokeNear(strokes, [x, y]) {
    let best = null;
    let bestDistance = 0.45;
    strokes.forEach((halves, index) => {
      for (const half of halves) {
        const [cx, cy] = halfCentre(half);
        const distance = Math.hypot(cx - x, cy - y);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = index;
        }
      }
    });
    return best;
  }

  /** @typedef {{strokes: number[][][], rubbed: Set<string>, from: number[] | null, travel: number}} MindlinesRub */

  /** Every half within `radius` of a point is rubbed. @param {MindlinesRub} rub @param {number[]} point
   *  @param {number} [radius] */
  function rubAt(rub, [x, y], radius = ERASE_RADIUS) {
    for (const halves of rub.strokes) {
      for (const half of halves) {
        const [cx, cy] = halfCentre(half);
        if (Math.hypot(cx - x, cy - y) <= radius) rub.rubbed.add(keyOf(half));
      }
    }
  }

  /** Rubs along the way from the last point to `to`. @param {MindlinesRub} rub @param {number[]} to */
  function rubAlong(rub, to) {
    const from = rub.from || to;
    const length = Math.hypot(to[0] - from[0], to[1] - from[1]);
    const steps = Math.max(1, Math.ceil(length / 0.1));
    for (let i = 1; i <= steps; i += 1) {
      rubAt(rub, [from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps]);
    }
    rub.travel += length;
    rub.from = to;
  }

  Object.assign(pieces, {
    GRID,
    MAX_PIECES,
    MAX_STROKES,
    MAX_HALVES,
    KEYBOARD_ERASE_RADIUS,
    TAP_TRAVEL,
    KEY_DIRECTIONS,
    canonical,
    keyOf,
    parseKey,
    halvesOfStroke,
    piecesOf,
    chunks,
    pathOfHalves,
    pathOfStroke,
    pathOfLines,
    unrotate,
    Pen,
    strokeNear,
    rubAt,
    rubAlong,
  });
})();
