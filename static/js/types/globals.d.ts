// What the page scripts find on window besides the DOM: the morph library (static/vendor/idiomorph, from
// node_modules), Django's JavaScript catalog and what the page's own scripts put there. Type-checked by
// `make lint` (tsconfig.json; docs/frontend.md). ClassplayUI's type is common.js's own (`var ClassplayUI`).

declare var Idiomorph: typeof import("idiomorph").Idiomorph;

declare function gettext(text: string): string;
declare function ngettext(singular: string, plural: string, count: number): string;
declare function pgettext(context: string, text: string): string;
declare function interpolate(format: string, values: object | unknown[], named?: boolean): string;

interface Window {
  /** The page controller (session.js) and the live client (live.js). */
  Classplay: any;
  /** Game modules registered before any page controller (How to play pages). */
  ClassplayPendingGames?: [string, object][];
}

// The scripts look up the page's HTML by selector (a data-* hook, a class); an SVG element is never looked
// up so. Typing those finds as HTML elements spares a cast at each (`.hidden`, `.dataset`, `.focus()`).
// (A tag name still finds its own type: these come before the DOM's own overloads, so they are repeated.)
interface ParentNode {
  querySelector<K extends keyof HTMLElementTagNameMap>(selectors: K): HTMLElementTagNameMap[K] | null;
  querySelectorAll<K extends keyof HTMLElementTagNameMap>(selectors: K): NodeListOf<HTMLElementTagNameMap[K]>;
  querySelector<E extends HTMLElement = HTMLElement>(selectors: string): E | null;
  querySelectorAll<E extends HTMLElement = HTMLElement>(selectors: string): NodeListOf<E>;
}
