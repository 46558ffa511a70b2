"""Does a screen fit the device it is shown on, and can everyone use it? Shared by the browser tests.

The sizes are the page a device really shows under its browser's bars (docs/frontend.md):

* ``assert_fits(page, controls, label=...)`` resizes the page to each viewport in turn and checks that
  nothing overflows sideways and that every visible element matching ``controls`` (the controls needed to
  play at that moment) lies wholly inside the viewport, and inside every box around it that hides its
  overflow, with the page where it put itself (the test never scrolls). On a failure it saves a
  screenshot under ``test-results/fit/`` and names what stuck out.
* ``assert_inside(page, items, boxes, ...)``: every element of ``items`` lies inside its own ``boxes``
  ancestor (a panel that does not hide its overflow, so a cut shows as a spill over its neighbour).
* ``assert_accessible(page, label=...)`` runs axe-core (installed from the npm registry by ``make test``,
  loaded from ``node_modules/``, never a CDN) and fails on any critical or serious violation.
"""

from __future__ import annotations

import json
import os
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "test-results" / "fit"

# name -> (width, height) of the page under the browser's bars
CHROMEBOOK = {"Chromebook 1366x650": (1366, 650)}
IPAD_LANDSCAPE = {"iPad landscape 1024x690": (1024, 690)}
IPAD_PORTRAIT = {"iPad portrait 768x950": (768, 950)}
STUDENT_DEVICES = {**CHROMEBOOK, **IPAD_LANDSCAPE, **IPAD_PORTRAIT}
PROJECTORS = {"projector 1920x1080": (1920, 1080), "projector 1280x720": (1280, 720)}
CONSOLES = {**CHROMEBOOK, "laptop 1280x720": (1280, 720), "desktop 1920x1080": (1920, 1080)}

_MEASURE = """
(selector) => {
  const width = window.innerWidth, height = window.innerHeight;
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > width + 1) {
    problems.push(`the page is ${doc.scrollWidth}px wide (viewport ${width}px)`);
  }
  const describe = (el) => {
    const name = (el.getAttribute("aria-label") || el.innerText || el.value || "").trim().slice(0, 40);
    return `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string"
      ? "." + el.className.trim().split(/\\s+/).join(".") : ""} "${name}"`;
  };
  let matched = 0;
  for (const el of document.querySelectorAll(selector)) {
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none" || el.closest("[hidden]")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    matched += 1;
    if (r.left < -1 || r.top < -1 || r.right > width + 1 || r.bottom > height + 1) {
      problems.push(`${describe(el)} at x ${Math.round(r.left)}-${Math.round(r.right)}, ` +
        `y ${Math.round(r.top)}-${Math.round(r.bottom)} is outside the ${width}x${height} viewport`);
      continue;
    }
    // Inside the viewport, but cut off by a box that hides its overflow (a pawn cut by its square).
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      const clip = getComputedStyle(box);
      if (!/hidden|clip/.test(clip.overflowX + clip.overflowY)) continue;
      const b = box.getBoundingClientRect();
      if (r.left < b.left - 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1) {
        problems.push(`${describe(el)} is cut off by ${describe(box)}, which hides what overflows it`);
        break;
      }
    }
  }
  return { problems, matched };
}
"""

_SETTLE = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:120]


def screenshot(page, label: str) -> pathlib.Path:
    """Saves what the page shows now, for a person to look at (or a failure to explain)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{_slug(label)}.png"
    page.screenshot(path=str(path))
    return path


def assert_fits(page, controls: str, *, label: str, viewports: dict | None = None, require: bool = True):
    """``controls`` is a CSS selector of what must be visible without scrolling (e.g. the move's buttons);
    with ``require`` at least one must be on the page, so a test cannot pass by matching nothing."""
    viewports = viewports or STUDENT_DEVICES
    original = page.viewport_size
    failures = []
    try:
        for name, (width, height) in viewports.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(_SETTLE)
            result = page.evaluate(_MEASURE, controls)
            problems = list(result["problems"])
            if require and result["matched"] == 0:
                problems.append(f"nothing matching {controls!r} is shown")
            if problems:
                shot = screenshot(page, f"{label} {name}")
                failures.append(f"{name}: " + "; ".join(problems) + f" (screenshot: {shot})")
    finally:
        if original:
            page.set_viewport_size(original)
            page.evaluate(_SETTLE)
    assert not failures, f"{label} does not fit:\n" + "\n".join(failures)


_OUTSIDE = """
([items, boxes]) => {
  const problems = [];
  let matched = 0;
  for (const el of document.querySelectorAll(items)) {
    const box = el.parentElement && el.parentElement.closest(boxes);
    const r = el.getBoundingClientRect();
    if (!box || (r.width === 0 && r.height === 0)) continue;
    matched += 1;
    const b = box.getBoundingClientRect();
    if (r.left < b.left - 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1) {
      const name = (el.getAttribute("aria-label") || el.innerText || "").trim().slice(0, 40);
      problems.push(`${el.tagName.toLowerCase()} "${name}" sticks out of its ${boxes}`);
    }
  }
  if (!matched) problems.push(`nothing matching ${items} is shown inside ${boxes}`);
  return problems;
}
"""


def assert_inside(page, items: str, boxes: str, *, label: str, viewports: dict):
    """Every element matching ``items`` lies wholly inside its nearest ancestor matching ``boxes`` (a
    panel or card that lets what overflows it spill over its neighbours rather than hiding it)."""
    original = page.viewport_size
    failures = []
    try:
        for name, (width, height) in viewports.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(_SETTLE)
            problems = page.evaluate(_OUTSIDE, [items, boxes])
            if problems:
                shot = screenshot(page, f"{label} {name}")
                failures.append(f"{name}: " + "; ".join(problems) + f" (screenshot: {shot})")
    finally:
        if original:
            page.set_viewport_size(original)
            page.evaluate(_SETTLE)
    assert not failures, f"{label} does not fit:\n" + "\n".join(failures)


def assert_names_readable(page, names: str, whole: str, *, viewports: dict | None = None):
    """On a projector of many tables: the smallest of ``names`` is at least body-text size on a laptop
    (16 px at 1080 lines, 14 below), and no element of ``whole`` cuts its own text."""
    for width, height in (viewports or PROJECTORS).values():
        page.set_viewport_size({"width": width, "height": height})
        smallest = page.evaluate(
            "(css) => Math.min(...[...document.querySelectorAll(css)].map("
            "(el) => parseFloat(getComputedStyle(el).fontSize)))",
            names,
        )
        assert smallest >= (16 if height >= 1080 else 14), f"names at {smallest}px on {width}x{height}"
        cut = page.evaluate(
            "(css) => [...document.querySelectorAll(css)]"
            ".filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.innerText)",
            whole,
        )
        assert cut == [], f"cut on {width}x{height}: {cut}"


def _axe_available() -> bool:
    if AXE.exists():
        return True
    if os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1":
        pytest.fail(f"axe-core is required in CI but missing at {AXE} (make test runs npm ci)")
    pytest.skip("axe-core is not installed (make test installs it with npm)")
    return False


def assert_accessible(page, *, label: str, include: str | None = None, disable: tuple[str, ...] = ()):
    """No critical or serious axe-core violation on the page (or inside ``include``)."""
    _axe_available()
    if not page.evaluate("() => !!window.axe"):
        # Evaluated from outside the page: an added <script> tag would be inline script, which the
        # pages' Content-Security-Policy refuses (as it should).
        page.evaluate(AXE.read_text(encoding="utf-8"))
    options = {"resultTypes": ["violations"]}
    if disable:
        options["rules"] = {rule: {"enabled": False} for rule in disable}
    result = page.evaluate(
        "([include, options]) => axe.run(include ? document.querySelector(include) : document, options)",
        [include, options],
    )
    serious = [v for v in result["violations"] if v["impact"] in ("critical", "serious")]
    if serious:
        shot = screenshot(page, f"axe {label}")
        report = [
            {
                "rule": v["id"],
                "impact": v["impact"],
                "help": v["help"],
                "nodes": [n["target"] for n in v["nodes"][:5]],
            }
            for v in serious
        ]
        raise AssertionError(
            f"{label}: accessibility violations (screenshot {shot}):\n" + json.dumps(report, indent=1)
        )
