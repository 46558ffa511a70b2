/* Word Up's board fitted to the window: on a device or the console the board is as large as the card's
 * width allows and never taller than what is left of the window; on the projector every board is whole
 * and large enough to read from the back of the room, a page of them at a time when they would get too
 * small. It sizes the drawn screen through CSS properties (--wu-fit, --wu-text) set through the CSSOM;
 * input.js calls `fitted(root)` after each draw. No game state here.
 */
(function () {
  "use strict";

  const { gettext } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("wordup");
  const { fmt } = pieces;

  const FIT_MARGIN = 8; // px under the board's bottom row
  const MIN_BOARD = 220; // px: smaller than this the squares cannot be read (the page then scrolls)

  /** The board is as large as the card's width allows but never taller than what is left of the window
   *  under what comes before it (the device's whole board, bottom row included, without scrolling). */
  function fitBoard(root) {
    const area = root && root.isConnected ? root.querySelector(".wu-board-area") : null;
    if (!area) return;
    const top = area.getBoundingClientRect().top + window.scrollY;
    const room = Math.floor(window.innerHeight - top - FIT_MARGIN);
    root.style.setProperty("--wu-fit", Math.max(MIN_BOARD, room) + "px");
  }

  function fitAll() {
    if (document.querySelector(".projector-tables .wu-root")) layoutProjector();
    else document.querySelectorAll(".wu-root").forEach((root) => fitBoard(root));
  }

  // The projector: every board whole and large enough to read from the back of the room. The module
  // picks how many columns the page's table cards take and how big each board is; when the boards would
  // get too small to read, it shows a page of them at a time, turning every PAGE_SECONDS (a presenter's
  // clicker, PageDown / PageUp or the arrow keys, turns it at once).
  const PAGE_SECONDS = 15;
  const projector = { page: 0, turnedAt: 0, pages: 1, timer: null, keys: false, frame: null, last: null };

  /** Arrangements of ``n`` cards in a ``width`` x ``height`` box worth trying, most boards per page
   *  first, then the largest boards: {perPage, cols, rows, board, stacked}. */
  function arrangements(n, width, height, chrome, gap, minBoard) {
    const out = [];
    for (let perPage = n; perPage >= 1; perPage -= 1) {
      const options = [];
      for (let cols = 1; cols <= perPage; cols += 1) {
        const rows = Math.ceil(perPage / cols);
        if (cols * rows - perPage >= cols) continue; // an empty row
        const cardW = (width - gap * (cols - 1)) / cols - chrome.x;
        const cardH = (height - gap * (rows - 1)) / rows - chrome.y;
        // Beside: the board, and what is happening and the tokens in the rest of the width. Stacked:
        // the board on top, the rest under it.
        options.push({ perPage, cols, rows, board: Math.floor(Math.min(cardH, cardW - 340)), stacked: false });
        options.push({ perPage, cols, rows, board: Math.floor(Math.min(cardW, cardH - 260)), stacked: true });
      }
      out.push(...options.filter((o) => o.board >= minBoard).sort((x, y) => y.board - x.board).slice(0, 3));
    }
    return out;
  }

  /** A board was redrawn on the projector: it takes the current sizes at once, and the arrangement is
   *  checked once per frame however many boards were redrawn (a whole class's moves arrive together). */
  function projectorRendered(root) {
    const last = projector.last;
    if (last) {
      root.style.setProperty("--wu-fit", last.board + "px");
      root.style.setProperty("--wu-text", textSize(last.board));
      root.classList.toggle("wu-stacked", last.stacked);
    }
    if (projector.frame) return;
    projector.frame = requestAnimationFrame(() => {
      projector.frame = null;
      layoutProjector();
    });
  }

  const textSize = (board) => Math.max(12, Math.min(26, Math.round(board / 23))) + "px";

  function layoutProjector() {
    const box = document.querySelector(".projector-tables");
    if (!box) return;
    const cards = /** @type {HTMLElement[]} */ ([...box.children].filter((card) => card.classList.contains("table-card")));
    if (!cards.length) return;
    const gap = parseFloat(getComputedStyle(box).rowGap) || 16;
    const shownCard = cards.find((card) => !card.hidden) || cards[0];
    const sample = getComputedStyle(shownCard);
    const header = shownCard.querySelector(".table-header");
    const px = (value) => parseFloat(value) || 0;
    const chrome = {
      x: px(sample.paddingLeft) + px(sample.paddingRight) + px(sample.borderLeftWidth) + px(sample.borderRightWidth) + 8,
      y: px(sample.paddingTop) + px(sample.paddingBottom) + px(sample.borderTopWidth) + px(sample.borderBottomWidth) +
        (header ? header.offsetHeight + px(getComputedStyle(header).marginBottom) : 0) + 8,
    };
    const limit = window.innerHeight - 8;
    const width = box.clientWidth;
    const minBoard = Math.max(260, Math.round(window.innerHeight * 0.25)); // squares of 20 px at least
    const apply = (plan, board) => {
      const pages = Math.ceil(cards.length / plan.perPage);
      const page = projector.page % pages;
      projector.pages = pages;
      cards.forEach((card, i) => {
        card.hidden = Math.floor(i / plan.perPage) !== page;
        const root = card.querySelector(".wu-root");
        if (root) {
          root.style.setProperty("--wu-fit", board + "px");
          // The text beside the board grows and shrinks with it, so what fits beside a board fits.
          root.style.setProperty("--wu-text", textSize(board));
          root.classList.toggle("wu-stacked", plan.stacked);
        }
      });
      box.style.setProperty("--wu-cols", String(plan.cols));
      if (pages > 1) {
        const first = page * plan.perPage + 1;
        const last = Math.min(cards.length, first + plan.perPage - 1);
        box.dataset.wuPage = first === last
          ? fmt(gettext("Board %(first)s of %(n)s: the others in turn (PageDown shows the next one)"), { first, n: cards.length })
          : fmt(gettext("Boards %(first)s-%(last)s of %(n)s: the others in turn (PageDown shows the next ones)"), { first, last, n: cards.length });
      } else {
        delete box.dataset.wuPage;
      }
    };
    const top = box.getBoundingClientRect().top;
    /** How much smaller the boards (and the text, which follows them) must be for every shown card to
     *  end above the window's bottom; 1 when they fit. A squeezed token table counts as too big. */
    const shrink = () => {
      let bottom = 0;
      let factor = 1;
      for (const card of cards) {
        if (card.hidden) continue;
        bottom = Math.max(bottom, card.getBoundingClientRect().bottom);
        const tokens = card.querySelector(".wu-players-box");
        if (tokens && tokens.scrollWidth > tokens.clientWidth + 1) factor = Math.min(factor, 0.92);
      }
      if (bottom > limit) factor = Math.min(factor, (limit - top) / (bottom - top));
      return factor;
    };
    const note = 28 + gap; // the line saying which boards are on show, when they take turns
    /** The largest board with which ``plan`` fits (0: none as large as minBoard). */
    const fitted = (plan) => {
      let board = plan.board;
      for (let attempt = 0; attempt < 8 && board >= minBoard; attempt += 1) {
        apply(plan, board);
        const factor = shrink();
        if (factor >= 1) return board;
        board = Math.floor(board * factor) - 2;
      }
      return 0;
    };
    const n = cards.length;
    // The same screen and boards as last time: keep the arrangement while it still fits (a full search
    // lays the page out many times), and look again for a larger one now and then.
    const key = [n, width, window.innerHeight, top, projector.page].join(":");
    const last = projector.last;
    if (last && last.key === key && Date.now() - last.at < 5000) {
      apply(last, last.board);
      if (shrink() >= 1) return;
    }
    const all = arrangements(n, width, limit - top, chrome, gap, minBoard).filter((p) => p.perPage === n);
    // Paged: as many per page as fit, the pages made even (8 boards: 4 and 4, not 5 and 3).
    const paged = arrangements(n, width, limit - top - note, chrome, gap, minBoard)
      .filter((p) => p.perPage < n)
      .map((p) => {
        const perPage = Math.ceil(n / Math.ceil(n / p.perPage));
        return { ...p, perPage, cols: Math.min(p.cols, perPage) };
      });
    let chosen = null;
    for (const group of [all, paged]) {
      // The most boards per page first; of those arrangements, the one with the largest boards.
      const most = group.length ? group[0].perPage : 0;
      for (const plan of group.filter((p) => p.perPage === most)) {
        const board = fitted(plan);
        if (board && (!chosen || board > chosen.board)) chosen = { ...plan, board };
      }
      if (chosen) break;
    }
    if (!chosen) {
      // Even one board to a page does not fit: try each, the largest that fits wins.
      for (const plan of paged.filter((p) => p.perPage === 1)) {
        const board = fitted(plan);
        if (board && (!chosen || board > chosen.board)) chosen = { ...plan, board };
      }
    }
    chosen = chosen || { perPage: 1, cols: 1, rows: 1, stacked: false, board: minBoard };
    apply(chosen, chosen.board);
    projector.page %= projector.pages;
    projector.last = { ...chosen, key: [n, width, window.innerHeight, top, projector.page].join(":"), at: Date.now() };
    if (projector.pages > 1 && !projector.timer) {
      projector.turnedAt = Date.now();
      projector.timer = setInterval(() => {
        if (Date.now() - projector.turnedAt >= PAGE_SECONDS * 1000) turnPage(1);
      }, 1000);
    } else if (projector.pages <= 1 && projector.timer) {
      clearInterval(projector.timer);
      projector.timer = null;
    }
    if (!projector.keys) {
      projector.keys = true;
      document.addEventListener("keydown", (event) => {
        if (event.altKey || event.ctrlKey || event.metaKey || projector.pages <= 1) return;
        const rtl = document.documentElement.dir === "rtl"; // pages turn the other way on a right-to-left page
        const step = { PageDown: 1, ArrowRight: rtl ? -1 : 1, ArrowDown: 1, " ": 1, PageUp: -1, ArrowLeft: rtl ? 1 : -1, ArrowUp: -1 }[event.key];
        if (!step) return;
        event.preventDefault();
        turnPage(step);
      });
    }
  }

  function turnPage(step) {
    projector.page = (projector.page + step + projector.pages) % projector.pages;
    projector.turnedAt = Date.now();
    layoutProjector();
  }
  window.addEventListener("resize", fitAll);
  window.addEventListener("load", fitAll);

  /** After a draw: the projector's boards take the current sizes and are arranged again; any other
   *  board is fitted to the window. @param {HTMLElement} root the drawn .wu-root @param {string} role */
  function fitted(root, role) {
    if (role === "projector" && root.closest(".projector-tables")) projectorRendered(root);
    else fitBoard(root);
  }

  Object.assign(pieces, { fitted, arrangements });
})();
