"""Open a page in headless Chromium (Debian's ``chromium``) and report what happened: the DOM
after the page's scripts ran, every error (uncaught exceptions, ``console.error``/``warn``,
rejected promises), every Content-Security-Policy violation and every resource the page asked for.

A probe script is put first in a copy of the page's ``<head>``: it records those into an attribute
of ``<html>``, which ``--dump-dom`` prints. Only the standard library is used; a test without
Chromium skips (fails in CI, which installs it: ``apt-get install -y chromium``)."""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

PROBE = """<script>(function () {
  var record = {errors: [], violations: [], resources: [], loaded: false, actions: {}};
  function save() { document.documentElement.setAttribute("data-probe", JSON.stringify(record)); }
  window.__probe = {record: record, save: save};
  window.addEventListener("error", function (e) {
    record.errors.push("error: " + (e.message || (e.target && (e.target.src || e.target.href)) || e.type)); save();
  }, true);
  window.addEventListener("unhandledrejection", function (e) { record.errors.push("rejection: " + e.reason); save(); });
  document.addEventListener("securitypolicyviolation", function (e) {
    record.violations.push(e.violatedDirective + " " + e.blockedURI); save();
  });
  ["error", "warn"].forEach(function (level) {
    var original = console[level];
    console[level] = function () {
      record.errors.push("console." + level + ": " + Array.prototype.join.call(arguments, " ")); save();
      return original.apply(console, arguments);
    };
  });
  window.addEventListener("load", function () {
    record.loaded = true;
    record.resources = performance.getEntriesByType("resource").map(function (r) { return r.name; });
    save();
  });
})();</script>"""

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-default-apps", "--disable-extensions", "--mute-audio"]


def chromium_binary() -> str | None:
    """Debian's ``chromium`` (or ``chromium-browser``, ``google-chrome``) on PATH."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


ACTIONS = """<script>(function () {
  var record = window.__probe.record, result = record.actions;
  function act() {
    try { %s } catch (e) { record.errors.push("actions: " + e); }
    window.__probe.save();
  }
  // a report draws its first sentences once their compressed block is decoded (report-rendered),
  // then decodes the others (report-complete): act at the one asked for
  if (document.documentElement.getAttribute("data-WHEN") === "yes" || !document.getElementById("report-rows")) act();
  else document.addEventListener("report-WHEN", act);
})();</script>"""


def probed_copy(page: Path, folder: Path, actions: str = "", when: str = "complete") -> Path:
    """A copy of the page with the probe first in its head, and ``actions`` (JavaScript that
    fills the object ``result``) run after the page's own scripts (on a report page: once it is
    ``complete`` or ``rendered``, :func:`open_page`)."""
    assert when in ("complete", "rendered"), when
    text = page.read_text(encoding="utf-8")
    head = re.search(r"<head[^>]*>", text)
    assert head is not None, "the page has no <head>"
    text = text[:head.end()] + PROBE + text[head.end():]
    if actions:
        end = text.rindex("</body>")
        text = text[:end] + ACTIONS.replace("WHEN", when) % actions + text[end:]
    copy = folder / "probed.html"
    copy.write_text(text, encoding="utf-8")
    return copy


def open_page(page: Path, actions: str = "", timeout: float = 120.0, width: int | None = None,
              when: str = "complete") -> dict:
    """Load ``page`` in headless Chromium (a window ``width`` pixels wide, else Chromium's
    default): {"dom": the DOM as HTML, "probe": what the probe recorded (errors, violations,
    resources, loaded, and the ``actions``' results)}. On a report page the actions run once
    every block of sentences is decoded (``when="complete"``) or as soon as the first sentences
    are drawn (``when="rendered"``)."""
    binary = chromium_binary()
    assert binary is not None
    with tempfile.TemporaryDirectory(prefix="gecmetrics-chromium-") as folder:
        copy = probed_copy(page, Path(folder), actions, when)
        command = [binary, *FLAGS, f"--user-data-dir={Path(folder) / 'profile'}", "--virtual-time-budget=3000",
                   *([f"--window-size={width},900"] if width else []), "--dump-dom", copy.as_uri()]
        environment = {**os.environ, "HOME": folder}
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=environment)
    assert done.returncode == 0, done.stderr[-2000:]
    match = re.search(r'data-probe="([^"]*)"', done.stdout)
    probe = json.loads(html.unescape(match.group(1))) if match else {}
    return {"dom": done.stdout, "probe": probe}


def screenshot(page: Path, target: Path, width: int = 1400, height: int = 2200, timeout: float = 120.0) -> None:
    """``chromium --headless --screenshot`` of the page (the page as it is, no probe)."""
    binary = chromium_binary()
    assert binary is not None
    with tempfile.TemporaryDirectory(prefix="gecmetrics-chromium-") as folder:
        command = [binary, *FLAGS, f"--user-data-dir={Path(folder) / 'profile'}", "--hide-scrollbars",
                   f"--window-size={width},{height}", "--virtual-time-budget=3000", f"--screenshot={target}",
                   page.resolve().as_uri()]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, "HOME": folder})
    assert done.returncode == 0 and target.exists(), done.stderr[-2000:]
