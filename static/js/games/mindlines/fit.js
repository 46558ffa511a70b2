/* Mind the Lines' fit to the screen: on a student's device the drawing board as large as the screen
 * allows, every control of the drawing screen still on it; on the projector each group's screen as large
 * as its cell of the wall. Runs after every draw (input.js, drawn) and on every resize. Part of the game's
 * screen (docs/frontend.md).
 */
(function () {
  "use strict";

  const pieces = window.ClassplayUI.pieces("mindlines");

  // ------------------------------------------------------------------------------------------------
  // Fitting the drawing screen to the device: the board as large as the screen allows
  // ------------------------------------------------------------------------------------------------

  const BOARD_MIN = 240; // px: smaller than this and a finger cannot hit a line (the page scrolls instead)
  const BOARD_MAX = 760;
  const BOTTOM_GAP = 14; // px kept free under the lowest control

  /** Sizes the board so that it and every control of the drawing screen are on the screen at once: on a
   *  wide screen the panel is beside the board, which takes the height left under its top; on a tall one
   *  the panel is under it, and the board takes the height the panel leaves. Runs after every render and
   *  on every resize (a tablet turned round, a window made smaller). @param {HTMLElement} root the .ml-root */
  function fitBoard(root) {
    const board = root.querySelector(".ml-main-board");
    const split = root.querySelector(".ml-split");
    if (!board || !split) return;
    const panel = split.querySelector(".ml-side-panel");
    const stacked = getComputedStyle(split).getPropertyValue("--ml-stacked").trim() === "1";
    const boardBox = board.getBoundingClientRect();
    const top = boardBox.top + window.scrollY;
    let below = 0;
    if (stacked && panel) {
      // everything a player needs under the board (not the list of players, which may go below the fold;
      // nor the tools beside it, which a smaller board would not lift: a tall column of them, as larger
      // text makes, shrank the board at every render)
      let lowest = boardBox.bottom;
      for (const part of panel.querySelectorAll(".ml-side-first, .ml-side-kit, .ml-side-done")) {
        const box = part.getBoundingClientRect();
        if (box.top >= boardBox.bottom - 1) lowest = Math.max(lowest, box.bottom);
      }
      below = lowest - boardBox.bottom;
    }
    const style = getComputedStyle(split);
    const gap = parseFloat(style.columnGap) || 0;
    // beside the board: the panel on a wide screen, the column of tools on a tall one
    const beside = parseFloat(style.getPropertyValue(stacked ? "--ml-kit-width" : "--ml-panel-min")) || 0;
    const wide = split.clientWidth - (beside ? beside + gap : 0);
    const tall = window.innerHeight - top - below - BOTTOM_GAP;
    let size = Math.floor(Math.max(BOARD_MIN, Math.min(BOARD_MAX, wide, tall)));
    root.style.setProperty("--ml-board", `${size}px`);
    if (stacked || !panel) return;
    // Beside the board, the panel wraps its buttons into more rows the narrower it is: while its last
    // control ends under the screen's bottom, a smaller board gives the panel the width it needs.
    const needed = () => Math.max(0, ...[...panel.querySelectorAll(".ml-side-first, .ml-side-kit, .ml-side-done")]
      .map((part) => part.getBoundingClientRect().bottom));
    for (let tries = 0; tries < 8 && size > BOARD_MIN; tries += 1) {
      const over = needed() - (window.innerHeight - BOTTOM_GAP);
      if (over <= 0) break;
      size = Math.max(BOARD_MIN, size - Math.max(16, Math.ceil(over / 2)));
      root.style.setProperty("--ml-board", `${size}px`);
    }
  }

  /** The projector shows every group at once, whatever their number: the groups share the screen in a
   *  grid (columns by CSS, from the number of groups) and each group's screen takes the largest scale at
   *  which it fits the height of its cell (larger than life when there is room: it is read from the back
   *  of the class). Nothing is cut and nothing needs scrolling on the class's screen. */
  const ZOOM_MIN = 0.3;
  const ZOOM_MAX = 1.6;

  /** The height of one cell of the projector's grid of groups. @param {HTMLElement} grid @param {number} count */
  function projectorCell(grid, count) {
    const style = getComputedStyle(grid);
    const columns = Math.max(1, style.gridTemplateColumns.split(" ").filter(Boolean).length);
    const rows = Math.ceil(count / columns);
    const rowGap = parseFloat(style.rowGap) || 0;
    const top = grid.getBoundingClientRect().top + window.scrollY;
    const main = grid.closest("main") || document.body;
    const bottom = parseFloat(getComputedStyle(main).paddingBottom) || 0;
    return (window.innerHeight - top - bottom - 8 - rowGap * (rows - 1)) / rows;
  }

  /** @param {HTMLElement} root a group's .ml-root @param {number} cell the height of its cell */
  function fitProjectorGroup(root, cell) {
    const card = root.closest(".table-card") || root.parentElement;
    root.style.zoom = "1";
    const chrome = card.getBoundingClientRect().height - root.getBoundingClientRect().height;
    const room = cell - chrome;
    const fits = (zoom) => {
      root.style.zoom = String(zoom);
      return root.getBoundingClientRect().height <= room + 0.5;
    };
    // the height is neither proportional nor even monotonic in the scale (a group's grids take more
    // columns when it is smaller), so the scales are tried from the largest down in steps of 0.1, then
    // the step above the first that fits is halved a few times
    let low = ZOOM_MIN;
    let high = ZOOM_MAX;
    for (let zoom = ZOOM_MAX; zoom >= ZOOM_MIN - 0.001; zoom -= 0.1) {
      if (fits(zoom)) {
        low = zoom;
        high = Math.min(ZOOM_MAX, zoom + 0.1);
        break;
      }
    }
    for (let round = 0; round < 4 && high - low > 0.01; round += 1) {
      const middle = (low + high) / 2;
      if (fits(middle)) low = middle;
      else high = middle;
    }
    root.style.zoom = String(low);
    root.dataset.zoom = low.toFixed(2);
  }

  /** Fits `only` (else every group) to its cell of the projector's grid. @param {HTMLElement} [only] */
  function fitProjector(only) {
    const grid = document.querySelector(".projector-tables");
    if (!grid) return;
    const roots = [...grid.querySelectorAll(".ml-role-projector")];
    if (!roots.length) return;
    const cell = projectorCell(grid, grid.children.length);
    for (const root of only ? [only] : roots) fitProjectorGroup(root, cell);
  }

  function fitAll() {
    for (const root of document.querySelectorAll(".ml-root")) fitBoard(/** @type {HTMLElement} */ (root));
    fitProjector();
  }
  window.addEventListener("resize", fitAll);
  window.addEventListener("orientationchange", fitAll);

  Object.assign(pieces, { fitBoard, fitProjector });
})();
