/* The gecmetrics report page: draws every section from the JSON in #report-data and, for the
   sentence browser, the per-sentence data in #report-rows (blocks of sentences, each JSON,
   gzip-compressed, base64, a line "." between blocks: decoded by the browser's own
   DecompressionStream; the first block after the other sections are drawn, the others once the
   first sentences are drawn: html.row_blocks).
   A view only: every number shown is in the data; nothing is fetched. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("report-data").textContent);
  var S = null;  // D.sentences: its first block's sentences, then all once every block is decoded
  var total = 0, loaded = 0;  // sentences in all, and in S so far
  var editTypes = [];  // every error type of the gold and system edits (block 0)
  var SVGNS = "http://www.w3.org/2000/svg";
  var PAGE = 25;

  // ------------------------------------------------------------------ helpers
  function el(tag, attrs) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) add(node, arguments[i]);
    return node;
  }
  function sv(tag, attrs) {
    var node = document.createElementNS(SVGNS, tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) add(node, arguments[i]);
    return node;
  }
  function setAttrs(node, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (key) {
      var value = attrs[key];
      if (value === null || value === undefined || value === false) return;
      if (key === "text") node.textContent = value;
      else if (key === "cls") node.setAttribute("class", value);
      else node.setAttribute(key, value === true ? "" : value);
    });
  }
  function add(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { add(node, c); }); return; }
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  function option(value, label, selected) {
    // a list's entry collapses runs of spaces ("x  y" would read as "x y"): each space of a run
    // after its first shows as a no-break space, which the entry keeps
    var o = el("option", {value: value, text: String(label).replace(/ {2,}/g, function (run) {
      return " " + new Array(run.length).join("\u00a0"); })});
    if (selected) o.selected = true;
    return o;
  }
  function select(options, onchange) {
    var s = el("select", null, options);
    s.addEventListener("change", onchange);
    return s;
  }
  function labelled(text, control) { return el("label", null, text + " ", control); }
  // the characters Python's str.split() splits on (str.isspace), which made the edits' token
  // offsets: JavaScript's \s differs (U+FEFF in, U+001C-U+001F and U+0085 out)
  var PY_SPACE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
  function tokensOf(text) { return text.split(PY_SPACE).filter(Boolean); }
  // Text from the user's files (sentences, tokens, edits, error types, system, file and table
  // names) is shown as it is, each piece in a bidirectional isolate of its own (<bdi>, or the
  // style unicode-bidi: isolate): a right-to-left word or a bidi control in it (U+202E
  // RIGHT-TO-LEFT OVERRIDE, U+2067 RIGHT-TO-LEFT ISOLATE) reorders nothing outside it. In a
  // sentence, a token holding an explicit control is an isolate of its own: an override ends
  // with its token (the words around it keep their order; right-to-left words still read as
  // the sentence's direction says).
  var BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
  var PY_SPACE_KEPT = new RegExp("(" + PY_SPACE.source + ")");
  function balanced(text) {
    // a PDI (U+2069) that closes no isolate of the text would close the page's isolate around it
    // (and let an override after it out): it gets an FSI (U+2068) just before it, and an isolate
    // the text leaves open a PDI at its end. Both are invisible; every character is kept.
    text = String(text);
    if (!/[\u2066-\u2069]/.test(text)) return text;
    var out = "", open = 0;
    for (var i = 0; i < text.length; i++) {
      var c = text.charAt(i);
      if (c === "\u2066" || c === "\u2067" || c === "\u2068") open++;
      else if (c === "\u2069") { if (open) open--; else out += "\u2068"; }
      out += c;
    }
    return out + new Array(open + 1).join("\u2069");
  }
  function iso(text) { return el("bdi", {text: balanced(text)}); }  // one name, type or file name
  function isoText(text) { return "\u2068" + balanced(text) + "\u2069"; }  // the same inside a tooltip's text
  function isoList(names) {  // names, ", " between them
    var out = [];
    names.forEach(function (name, i) { if (i) out.push(", "); out.push(iso(name)); });
    return out;
  }
  function words(text) {  // a sentence or an edit's words, whitespace as it is, a token with a control isolated
    var out = [], plain = "";
    String(text).split(PY_SPACE_KEPT).forEach(function (part, i) {
      if (i % 2 === 0 && BIDI_CONTROL.test(part)) {
        if (plain) out.push(plain);
        out.push(iso(part));
        plain = "";
      } else plain += part;
    });
    if (plain) out.push(plain);
    return out;
  }
  var WORD_CHAR = /[\p{L}\p{N}_]/u;
  function named(text, names) {  // a message with the known names in it isolated (not inside a word; longest first)
    text = String(text);
    var found = names.filter(function (n, i) { return n && names.indexOf(n) === i && text.indexOf(n) >= 0; })
      .sort(function (a, b) { return b.length - a.length; });
    var out = [], from = 0;
    for (var k = 0; k < text.length; k++) {
      var name = found.filter(function (n) {
        return text.startsWith(n, k) && !(k && WORD_CHAR.test(text.charAt(k - 1))) &&
          !WORD_CHAR.test(text.charAt(k + n.length));
      })[0];
      if (!name) continue;
      if (k > from) out.push(text.slice(from, k));
      out.push(iso(name));
      from = k + name.length;
      k = from - 1;
    }
    if (from < text.length) out.push(text.slice(from));
    return out;
  }
  function inputNotes(node) {  // the lines compare prints on stderr about the input (Scored.warnings)
    var notes = D.warnings || [], files = D.corpus.files || {};
    if (!notes.length) return;
    var known = systems.concat(Object.keys(files).map(function (role) { return files[role]; }));
    node.appendChild(el("div", {id: "input-notes", cls: "notes"}, el("h3", {text: "Notes on the input"}),
      el("ul", null, notes.map(function (line) {
        return el("li", null, named(line.replace(/^gecmetric: (warning|note): /, ""), known));
      }))));
  }
  function isNum(x) { return typeof x === "number" && isFinite(x); }
  // a table's entry for an error type (or system) only when the table holds it: a type named
  // "constructor" or "toString" found Object's own methods, "__proto__" set a prototype
  function own(table, key) {
    return table != null && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
  }
  function fixed(x, digits) {  // a number as every command prints it (core.table.round_half_up): its shortest repr
    if (!isNum(x)) return "\u2013";  // (String(x), as Python's repr: 1e-7, 1.5e+21) rounded half up in decimal, not
    var text = String(Math.abs(x)).split("e"), parts = text[0].split(".");  // toFixed's binary value (1.005: 1.00)
    var ds = (parts[0] + (parts[1] || "")).split("").map(Number), point = parts[0].length + Number(text[1] || 0);
    for (; point < 1; point++) ds.unshift(0);  // (point: the digits before the decimal point)
    while (ds.length < point + digits) ds.push(0);
    var up = ds[point + digits] >= 5;
    ds.length = point + digits;
    for (var i = ds.length - 1; up && i >= 0; i--) { ds[i] = (ds[i] + 1) % 10; up = ds[i] === 0; }  // carry through 9s
    if (up) { ds.unshift(1); point++; }
    var out = ds.slice(0, point).join("").replace(/^0+(?=.)/, "") + (digits > 0 ? "." + ds.slice(point).join("") : "");
    return x < 0 && /[1-9]/.test(out) ? "-" + out : out;  // no "-0.00"
  }
  function x100(x, digits) { return isNum(x) ? fixed(100 * x, digits) : "\u2013"; }  // a fraction, as printed
  function roundedAsPython(value, n) {  // Python's round(value, n): the binary value rounded, a tie to even
    var m = value * Math.pow(2, n + 1);  // (exact) a tie at n decimals is an odd multiple of 2^-(n+1)
    if (!Number.isInteger(m) || Math.abs(m % 2) !== 1) return Number(value.toFixed(n));  // (the binary value)
    var low = (m * Math.pow(5, n) - 1) / 2;  // value x 10^n is low + 1/2
    return (Math.abs(low % 2) === 0 ? low : low + 1) / Math.pow(10, n);
  }
  function formatted(x, digits) {  // Python's "%.{digits}f": the binary value rounded, a tie to even, as the commands
    return isNum(x) ? fixed(roundedAsPython(x, digits), digits) : "\u2013";  // print p-values and GoToScorer -cat
  }
  function shown(column, value) {  // a metric's score as every command prints it: fractions x100 with 2 decimals,
    if (!isNum(value)) return "\u2013";  // other scores with 4; at the 4 decimals its tool rounds to, as it rounds
    if (column.rounds_to === 4) value = roundedAsPython(value, 4);
    return column.scale === 100 ? x100(value, 2) : fixed(value, 4);
  }
  function perType(owner, value) {  // a P, R or F of a -cat table (errant, m2 score): x100, at its rounds_to
    return shown({scale: 100, rounds_to: owner.rounds_to}, value);
  }
  function derived(column, value) {  // a number on its scores' scale that is no score (a difference): no tool's rounding
    return shown({scale: column.scale}, value);
  }
  function signed(scaled, value) {  // an attribution (a difference of scores): signed, scaled as its metric's scores
    var text = derived(scaled, value);  // (a tiny negative one rounds to 0.00, as in the commands: +0.00)
    return isNum(value) && text.charAt(0) !== "-" ? "+" + text : text;
  }
  function unit(scaled) { return scaled.scale === 100 ? " (x100)" : ""; }  // as the commands' headers say it
  function pValue(p) { return p === null || p === undefined ? "baseline" : formatted(p, 4); }  // p_value_text
  var LABEL_ROOM = 280;  // px: the most a heat map's label strip takes
  function fittedLabels(labels, room) {
    // {texts: each label as drawn (one wider than room shortened in its middle with an ellipsis, so
    // that names alike at both ends stay apart), width: px of the widest as drawn}, in the
    // heat map's label font (report.css: .heat text)
    var context = fittedLabels.context || (fittedLabels.context = document.createElement("canvas").getContext("2d"));
    context.font = "11px " + getComputedStyle(document.body).fontFamily;
    var widest = 0;
    var texts = labels.map(function (label) {
      var text = String(label), chars = Array.from(text);
      var keep = chars.length;
      while (keep > 4 && context.measureText(text).width > room) {
        keep -= 1;
        text = chars.slice(0, Math.ceil(keep / 2)).join("") + "\u2026" + chars.slice(chars.length - Math.floor(keep / 2)).join("");
      }
      widest = Math.max(widest, context.measureText(text).width);
      return text;
    });
    return {texts: texts, width: Math.ceil(widest)};
  }
  function heatColor(t) {  // 0 .. 1 -> light to dark blue
    t = Math.max(0, Math.min(1, isNum(t) ? t : 0));
    var a = [247, 251, 255], b = [8, 81, 156];
    var c = a.map(function (x, i) { return Math.round(x + (b[i] - x) * t); });
    return "rgb(" + c.join(",") + ")";
  }
  function section(id, title) {
    var node = document.getElementById(id);
    node.appendChild(el("h2", {text: title}));
    return node;
  }
  var systems = D.systems;
  var sentenceColumns = [];
  function referenceFromGold(source, gold, annotator) {  // html.reference_from_gold: a reference its row lists
    var own = (gold || []).filter(function (g) { return g[4] === annotator; });
    if (!own.length) return source;
    var tokens = source.split(" "), out = [], position = 0;
    own.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .forEach(function (g) {
        out = out.concat(tokens.slice(position, g[0]), g[2] === "" ? [] : g[2].split(" "));
        position = g[1];
      });
    return out.concat(tokens.slice(position)).join(" ");
  }
  var MADE = {};  // in place of a reference the page does not hold (html._text_row): made when drawn
  function referenceText(r, d) {  // reference r of sentence d, made from the gold edits where the page lists r
    var held = S.references[r][d];
    return held === MADE ? referenceFromGold(S.source[d], S.gold[d], r) : held;
  }
  function byColumn(sentences) {  // the texts held sentence by sentence back in lists (html.by_column)
    if (!sentences || !sentences.texts) return sentences;
    var texts = sentences.texts, out = {source: [], references: [], gold: [], edits: {}};
    var count = texts.length ? texts[0][1].length : 0;
    for (var r = 0; r < count; r++) out.references.push([]);
    sentences.text_systems.forEach(function (name) { out.edits[name] = []; });
    texts.forEach(function (row) {
      out.source.push(row[0]);
      var made = row[4] || [];
      for (var r = 0; r < count; r++) out.references[r].push(made.indexOf(r) >= 0 ? MADE : row[1][r]);
      out.gold.push(row[2]);
      sentences.text_systems.forEach(function (name, k) { out.edits[name].push(row[3][k]); });
    });
    Object.keys(sentences).forEach(function (key) {
      if (key !== "texts" && key !== "text_systems") out[key] = sentences[key];
    });
    return out;
  }
  function rowsLoaded(rows, count) {  // the per-sentence data back in its place in D (as --json writes it)
    D.sentences = S = byColumn(rows.sentences);
    rows.attribution.forEach(function (part, i) {
      Object.keys(part).forEach(function (key) { D.attribution[i][key] = part[key]; });
    });
    sentenceColumns = D.columns.map(function (c, i) { return i; })
      .filter(function (i) { return S.scores[String(i)] !== undefined; });
    loaded = count;
  }
  function decodeBlock(text) {  // a Promise of one block: base64 -> gzip -> JSON
    var bytes;
    if (typeof Uint8Array.fromBase64 === "function") bytes = Uint8Array.fromBase64(text);  // skips the line breaks
    else {
      var binary = atob(text); bytes = new Uint8Array(binary.length);
      for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }
  function joined(a, b) {  // two blocks' per-sentence lists one after the other (mappings above the lists only)
    if (Array.isArray(a)) return a.concat(b);
    if (a === null || typeof a !== "object") return a;
    var out = {};
    Object.keys(a).forEach(function (key) { out[key] = joined(a[key], b[key]); });
    return out;
  }
  function assembled(fixed, lists) {  // html.joined_rows: the fixed keys with the per-sentence lists
    var sentences = {};
    [fixed.sentences, lists.sentences].forEach(function (part) {
      Object.keys(part).forEach(function (key) { sentences[key] = part[key]; });
    });
    return {sentences: sentences, attribution: fixed.attribution.map(function (entry, i) {
      var out = {}, part = lists.attribution[String(i)];
      [entry, part].forEach(function (p) { Object.keys(p).forEach(function (key) { out[key] = p[key]; }); });
      return out;
    })};
  }
  var blockTexts = document.getElementById("report-rows").textContent.split(/\n\.\n/);
  var first = null, allRows = null;
  function decodeFirst() {  // a Promise: block 0 in S
    return decodeBlock(blockTexts[0]).then(function (block) {
      first = block;
      editTypes = block.types;
      total = block.total;
      rowsLoaded(assembled(block.fixed, block.rows), block.sentences);
    });
  }
  function decodeAll() {  // a Promise (made once): every block in S
    if (!allRows) allRows = Promise.all(blockTexts.slice(1).map(decodeBlock)).then(function (blocks) {
      if (!blocks.length) return;
      var lists = first.rows;
      blocks.forEach(function (block) { lists = joined(lists, block.rows); });
      rowsLoaded(assembled(first.fixed, lists), total);
    });
    return allRows;
  }

  // ------------------------------------------------------------------ header
  var ANNOTATED = {systems: "the systems", references: "the references", candidates: "the attribution's candidates"};

  function annotatedParts(parts) {  // what the annotator annotated (absent in data written before it was said)
    return parts && parts.length ? ": " + parts.map(function (p) { return ANNOTATED[p] || p; }).join(", ") : "";
  }

  function header() {
    var c = D.corpus;
    var files = c.files || {};
    add(document.getElementById("corpus-line"), [
      c.sentences + " sentences, " + c.references + " reference" + (c.references === 1 ? "" : "s") + ", " +
      systems.length + " system" + (systems.length === 1 ? "" : "s") + " (", isoList(systems), ")",
      files.source ? ["; source ", iso(files.source)] : null,
      "; reference edits: " + c.reference_edits + "; system edits: " + c.system_edits,
      c.annotator ? ["; annotated by ERRANT (spaCy " + (c.annotator.spacy || "?") + ", ", iso(c.annotator.model || "?"),
                     ")" + annotatedParts(c.annotator.annotated)] : null]);
    var nav = document.getElementById("nav");
    [["summary", "Summary"], ["types", "Error types"], ["sentences", "Sentences"], ["attribution", "Attribution"],
     ["meta", "Human judgments"]].forEach(function (pair) {
      if (pair[0] === "meta" && !D.meta) return;
      nav.appendChild(el("a", {href: "#" + pair[0], text: pair[1]}));
    });
    // a section a link jumps to starts below the sticky header, whose height its system names set
    var bar = document.querySelector("header");
    function clear() { document.documentElement.style.setProperty("--header-height", bar.offsetHeight + "px"); }
    clear();
    window.addEventListener("resize", clear);
  }

  // ------------------------------------------------------------------ summary
  function summary() {
    var node = section("summary", "Summary");
    var t = D.test;
    var pairs = D.columns.length ? D.columns[0].pairs.length : 0;
    var correction = CORRECTIONS[t.correction] || t.correction;
    var corrected = t.correction !== "none";
    // the star is the pair's corrected decision, the one the clusters below read
    var star = !pairs ? "" : corrected ? " (* p < " + t.level + " after the " + correction + " correction of the " +
      pairs + " pair" + (pairs === 1 ? "" : "s") + " of systems, as the clusters below; adj.: the corrected p" :
      " (* p < " + t.level + ", no correction";
    inputNotes(node);
    node.appendChild(t.skipped ? el("p", {cls: "note", text:
      "Scores of every metric column (fractions x100, as every command prints them) and the rank (1 = best). " +
      "No paired test: " + t.skipped + "."}) : el("p", {cls: "note"},
      "Scores of every metric column (fractions x100, as every command prints them), the 95% percentile interval of " +
      t.samples + " paired bootstrap resamples (seed " + t.seed + "), the rank (1 = best) and the p-value " +
      "against the baseline ", iso(t.baseline), star + (star ? "; " : " (") + "green: better than the baseline, " +
      "red: worse)."));
    var head = el("tr", null, el("th", {text: "system"}));
    D.columns.forEach(function (c) { head.appendChild(el("th", {text: c.label, title: c.signature})); });
    var table = el("table", {id: "summary-table"}, el("thead", null, head));
    var body = el("tbody");
    var base = systems.indexOf(D.baseline);
    systems.forEach(function (name, s) {
      var row = el("tr", {cls: name === D.baseline ? "baseline" : null}, el("td", {cls: "system"}, iso(name)));
      D.columns.forEach(function (c) {
        var iv = c.intervals[s];
        // a significant difference either way was drawn green: red when the system is the worse
        var worse = base >= 0 && (c.higher_is_better ? c.scores[s] < c.scores[base] : c.scores[s] > c.scores[base]);
        var adjusted = corrected && c.adjusted_p_values[s] !== null ? ", adj. " + pValue(c.adjusted_p_values[s]) : "";
        var sig = c.p_values[s] === null ? null : el("span", {cls: c.significant[s] ? (worse ? "sig worse" : "sig") :
          "notsig", title: c.significant[s] ? (worse ? "worse" : "better") + " than the baseline" : null,
          text: " p " + pValue(c.p_values[s]) + adjusted + (c.significant[s] ? " *" : "")});
        row.appendChild(el("td", {title: c.test_signature},
          shown(c, c.scores[s]), el("span", {cls: "rank" + (c.ranks[s] === 1 ? " best" : ""), text: c.ranks[s]}),
          iv ? el("div", {cls: "ci", text: "[" + shown(c, iv[0]) + ", " + shown(c, iv[1]) + "]"}) : null,
          sig || name === D.baseline ? el("div", {cls: "ci"}, sig || "baseline") : null));
      });
      body.appendChild(row);
    });
    table.appendChild(body);
    node.appendChild(el("div", {cls: "scroll"}, table));
    allPairs(node);
    var list = el("ul");
    D.columns.forEach(function (c) { list.appendChild(el("li", null, c.label + ": ", el("code", {text: c.signature}))); });
    node.appendChild(el("details", null, el("summary", {text: "Signatures"}), list,
      t.skipped ? null : el("p", {cls: "note", text: "Paired test: " + (D.columns[0] ? D.columns[0].test_signature : "")})));
  }

  var CORRECTIONS = {holm: "Holm", bh: "Benjamini-Hochberg", none: "no"};
  function clusterText(clusters) {  // as the CLI prints them: {CAMB, CUUI} > {AMU} > {INPUT}
    return clusters.map(function (members, i) { return [i ? " > {" : "{", isoList(members), "}"]; });
  }
  function allPairs(node) {  // every pair of systems, corrected p-values, and the clusters, per column
    var t = D.test;
    if (!D.columns.length || !D.columns[0].pairs || !D.columns[0].pairs.length) return;
    var correction = CORRECTIONS[t.correction] || t.correction;
    var box = el("details", {id: "all-pairs"}, el("summary", null, "Every pair of systems (" + correction +
      " correction): clusters ", D.columns.map(function (c, i) { return [i ? "; " : "", c.label + " ",
        clusterText(c.clusters)]; })));
    box.appendChild(el("p", {cls: "note", text: "Each pair tested with the same " + t.samples + " bootstrap " +
      "resamples, the p-values adjusted by the " + correction + " correction (* adjusted p < " + t.level + "). " +
      "A cluster: systems that do not differ significantly from its best system; clusters best first."}));
    D.columns.forEach(function (c) {
      box.appendChild(el("h3", {text: c.label, title: c.pairs_signature}));
      box.appendChild(el("p", {cls: "clusters"}, "clusters: ", clusterText(c.clusters)));
      var head = el("tr", null, el("th", {text: "system"}), el("th", {text: "other"}),
        el("th", {text: "difference"}), el("th", {text: "p-value"}), el("th", {text: "adjusted p"}));
      var body = el("tbody");
      c.pairs.forEach(function (p) {
        body.appendChild(el("tr", null, el("td", {cls: "system"}, iso(p[0])), el("td", {cls: "system"}, iso(p[1])),
          el("td", {text: derived(c, p[2])}), el("td", {text: pValue(p[3])}),
          el("td", {cls: p[5] ? "sig" : "notsig", text: pValue(p[4]) + (p[5] ? " *" : "")})));
      });
      box.appendChild(el("div", {cls: "scroll"}, el("table", {cls: "pairs"}, el("thead", null, head), body)));
    });
    node.appendChild(box);
  }

  // ------------------------------------------------------------------ error types
  var MEASURES = [["f", "F" + D.errant.beta, 5], ["p", "Precision", 3], ["r", "Recall", 4],
                  ["tp", "TP", 0], ["fp", "FP", 1], ["fn", "FN", 2]];
  function types() {
    var node = section("types", "Error types");
    node.appendChild(el("p", {cls: "note", text:
      "ERRANT's comparison (" + D.errant.signature + ") per error type, at each -cat level (1: operation, " +
      "2: type, 3: both); counts of the annotator pair chosen per sentence, P/R/F of those counts." +
      (D.difficulty.signature ? " Difficulty: GoToScorer's mean weight of the reference's edits of the type " +
        "(1 = no system corrects them)." : "")}));
    var state = {level: "3", measure: 0};
    var levelSelect = select(["1", "2", "3"].map(function (l) { return option(l, "level " + l, l === state.level); }),
      function () { state.level = levelSelect.value; draw(); });
    var measureSelect = select(MEASURES.map(function (m, i) { return option(i, m[1], i === 0); }),
      function () { state.measure = Number(measureSelect.value); draw(); });
    node.appendChild(el("div", {cls: "controls"}, labelled("-cat", levelSelect), labelled("cells", measureSelect)));
    var figure = el("div", {cls: "scroll", id: "types-heatmap"});
    var tableHolder = el("div", {cls: "scroll", id: "types-table"});
    node.appendChild(figure);
    node.appendChild(el("details", null, el("summary", {text: "Counts per type (TP / FP / FN, F, difficulty)"}),
      tableHolder));
    function typesOf(level) {
      var seen = Object.create(null);
      systems.forEach(function (s) { Object.keys(D.errant.categories[s][level] || {}).forEach(function (t) {
        var v = own(D.errant.categories[s][level], t);
        seen[t] = (seen[t] || 0) + v[0] + v[2];  // TP + FN: how often the reference has it
      }); });
      return Object.keys(seen).sort(function (a, b) { return seen[b] - seen[a] || (a < b ? -1 : 1); });
    }
    function draw() {
      var level = state.level, m = MEASURES[state.measure], names = typesOf(level);
      figure.textContent = "";
      tableHolder.textContent = "";
      if (!names.length) { figure.appendChild(el("p", {cls: "empty", text: "No edits."})); return; }
      var max = 0;
      systems.forEach(function (s) { names.forEach(function (t) {
        var v = (own(D.errant.categories[s][level], t) || [])[m[2]];
        if (isNum(v)) max = Math.max(max, v);
      }); });
      // types across, systems down; when that is wider than the page (level 3: some 80 types),
      // the transpose: types down, systems across (no horizontal scroll)
      var cell = 46, room = figure.clientWidth || 1200;
      var wide = 80 + cell * names.length + 10 > room;
      var columns = wide ? systems : names, rows = wide ? names : systems;
      // the label strips fit the longest label (a long one shortened in its middle, whole in its tooltip)
      var rowLabels = fittedLabels(rows, LABEL_ROOM), columnLabels = fittedLabels(columns, LABEL_ROOM);
      var left = Math.max(wide ? 110 : 80, rowLabels.width + 12), climb = Math.sin(55 * Math.PI / 180);
      var top = Math.max(86, Math.ceil(columnLabels.width * climb) + 14);
      var width = left + cell * columns.length + Math.max(10, Math.ceil(columnLabels.width * Math.cos(55 * Math.PI / 180)));
      var height = top + 24 * rows.length + 6;
      var g = sv("svg", {width: width, height: height, cls: "heat", role: "img",
        "aria-label": "systems by error types: " + m[1]});
      columns.forEach(function (label, j) {
        var x = left + j * cell + cell / 2;
        g.appendChild(sv("text", {x: x, y: top - 6, cls: "label", transform: "rotate(-55 " + x + " " + (top - 6) + ")",
          text: columnLabels.texts[j]}, sv("title", {text: label})));
      });
      rows.forEach(function (label, i) {
        var y = top + i * 24;
        g.appendChild(sv("text", {x: left - 6, y: y + 16, "text-anchor": "end", cls: "label", text: rowLabels.texts[i]},
          sv("title", {text: label})));
        columns.forEach(function (other, j) {
          var s = wide ? other : label, t = wide ? label : other;
          var v = own(D.errant.categories[s][level], t);
          var value = v ? v[m[2]] : null;
          var scaled = m[2] >= 3 ? value : (max > 0 ? value / max : 0);
          var box = sv("rect", {x: left + j * cell, y: y, width: cell - 2, height: 22, fill: v ? heatColor(scaled) : "#fff",
            stroke: "#d9dee7"});
          box.appendChild(sv("title", {text: isoText(s) + " " + isoText(t) + ": TP " + (v ? v[0] : 0) + ", FP " + (v ? v[1] : 0) +
            ", FN " + (v ? v[2] : 0) + (v ? ", P " + perType(D.errant, v[3]) + ", R " + perType(D.errant, v[4]) +
            ", F " + perType(D.errant, v[5]) + " (x100)" : "")}));
          g.appendChild(box);
          if (v) g.appendChild(sv("text", {x: left + j * cell + cell / 2 - 1, y: y + 15, "text-anchor": "middle",
            fill: isNum(scaled) && scaled > 0.55 ? "#fff" : "#1d2430",
            text: m[2] >= 3 ? x100(value, 1) : String(value)}));
        });
      });
      figure.appendChild(g);
      var head = el("tr", null, el("th", {text: "type"}));
      systems.forEach(function (s) { add(head, [el("th", null, iso(s), " TP/FP/FN"), el("th", null, iso(s), " F (x100)")]); });
      var dif = D.difficulty.types[level];
      if (dif) head.appendChild(el("th", {text: "difficulty (n)"}));
      var table = el("table", null, el("thead", null, head));
      var body = el("tbody");
      names.forEach(function (t) {
        var row = el("tr", null, el("td", null, iso(t)));
        systems.forEach(function (s) {
          var v = own(D.errant.categories[s][level], t);
          row.appendChild(el("td", {text: v ? v[0] + " / " + v[1] + " / " + v[2] : "\u2013"}));
          row.appendChild(el("td", {text: v ? perType(D.errant, v[5]) : "\u2013"}));
        });
        var hard = own(dif, t);
        if (dif) row.appendChild(el("td", {text: hard ? formatted(hard[0], 2) + " \u00b1 " + formatted(hard[1], 2) +
          " (" + hard[2] + ")" : "\u2013"}));
        body.appendChild(row);
      });
      var macro = D.errant.macro || {};
      if (systems.some(function (s) { return macro[s]; })) {
        var macroRow = el("tr", {cls: "macro"}, el("td", {text: "macro average"}));
        systems.forEach(function (s) {
          var v = (macro[s] || {})[level];
          macroRow.appendChild(el("td", {text: v ? "P " + perType(D.errant, v[0]) + ", R " + perType(D.errant, v[1])
            : "\u2013"}));
          macroRow.appendChild(el("td", {text: v ? perType(D.errant, v[2]) : "\u2013"}));
        });
        if (dif) macroRow.appendChild(el("td", {text: ""}));
        body.appendChild(macroRow);
        figure.appendChild(el("p", {cls: "note macro"}, "Macro average over these types (errant PR #52: the " +
          "mean of the per-type P, R, F, each rounded to 4 decimals; only types with a TP, FP or FN count), of the " +
          "same annotator pairs: ", systems.filter(function (s) { return macro[s]; }).map(function (s, i) {
            var v = macro[s][level];
            return [i ? "; " : "", iso(s), " P " + perType(D.errant, v[0]) + ", R " + perType(D.errant, v[1]) +
              ", F" + D.errant.beta + " " + perType(D.errant, v[2])];
          }), ". (errant --macro chooses the pairs by the macro F instead.)"));
      }
      table.appendChild(body);
      tableHolder.appendChild(table);
      typedTables(level);
    }
    var typedHolder = el("div", {id: "types-m2"});
    node.appendChild(typedHolder);
    function typedTables(level) {  // the M2 scorer's counts by the gold M2's types (docs/m2.md)
      typedHolder.textContent = "";
      (D.types || []).forEach(function (c) {
        var seen = Object.create(null);
        systems.forEach(function (s) { Object.keys(c.categories[s][level] || {}).forEach(function (t) { seen[t] = 1; }); });
        var head = el("tr", null, el("th", {text: "type"}));
        systems.forEach(function (s) { add(head, [el("th", null, iso(s), " TP/FP/FN"), el("th", null, iso(s), " F (x100)")]); });
        var body = el("tbody");
        Object.keys(seen).sort().forEach(function (t) {
          var row = el("tr", null, el("td", null, iso(t)));
          systems.forEach(function (s) {
            var v = own(c.categories[s][level], t);
            row.appendChild(el("td", {text: v ? v[0] + " / " + v[1] + " / " + v[2] : "\u2013"}));
            row.appendChild(el("td", {text: v ? perType(c, v[5]) : "\u2013"}));
          });
          body.appendChild(row);
        });
        var macroRow = el("tr", {cls: "macro"}, el("td", {text: "macro average"}));
        systems.forEach(function (s) {
          var v = c.macro[s][level];
          macroRow.appendChild(el("td", {text: "P " + perType(c, v[0]) + ", R " + perType(c, v[1])}));
          macroRow.appendChild(el("td", {text: perType(c, v[2])}));
        });
        body.appendChild(macroRow);
        typedHolder.appendChild(el("details", {cls: "typed"}, el("summary", {text: c.label +
          " by the gold M2's error types (annotator chosen per sentence; an unmatched system edit is an FP of the " +
          "types of the gold edits it overlaps, else (none))", title: c.signature}),
          el("div", {cls: "scroll"}, el("table", null, el("thead", null, head), body))));
      });
    }
    draw();
  }

  // ------------------------------------------------------------------ sentences
  var attributionIndex = D.attribution.length ? 0 : -1;
  function editChip(tokens, e, cls, title) {
    var chip = el("span", {cls: "edit " + cls, title: title});
    var original = tokens.slice(e[0], e[1]).join(" ");
    if (original) chip.appendChild(el("del", null, words(original)));
    if (e[2]) chip.appendChild(el("ins", null, words(e[2])));
    if (!original && !e[2]) chip.appendChild(el("ins", {text: "\u2205"}));
    return chip;
  }
  function edited(tokens, edits, titleOf) {  // the source with the edits applied inline
    var order = edits.map(function (e, i) { return i; });
    order.sort(function (a, b) { return edits[a][0] - edits[b][0] || edits[a][1] - edits[b][1] || a - b; });
    var out = el("span", {dir: "auto"}), position = 0;
    order.forEach(function (i) {
      var e = edits[i];
      if (e[0] > position) add(out, words(tokens.slice(position, e[0]).join(" ") + " "));
      out.appendChild(editChip(tokens, e, e[4] || "none", titleOf(i)));
      out.appendChild(document.createTextNode(" "));
      position = Math.max(position, e[1]);
    });
    if (position < tokens.length) add(out, words(tokens.slice(position).join(" ")));
    return out;
  }
  function sentenceTypes(d) {
    var found = Object.create(null);
    (S.gold[d] || []).forEach(function (g) { found[g[3]] = true; });
    systems.forEach(function (s) { (S.edits[s][d] || []).forEach(function (e) { found[e[3]] = true; }); });
    return found;
  }
  function scoreSpan(c, s, d) {
    var col = D.columns[c];
    var values = S.scores[String(c)];
    return el("span", {title: col.label}, col.label + " " + shown(col, values[s][d]));
  }
  function attributionTable(s, d) {
    if (attributionIndex < 0) return null;
    var A = D.attribution[attributionIndex];
    var rows = A.values[s][d];
    if (!rows || !rows.length) return null;
    var tokens = tokensOf(S.source[d]);
    var head = el("tr", null, el("th", {text: "edit"}), el("th", {text: "type"}));
    A.methods.forEach(function (m) { head.appendChild(el("th", {text: m + unit(A)})); });
    var table = el("table", {cls: "attr"}, el("thead", null, head));
    var body = el("tbody");
    S.edits[s][d].forEach(function (e, k) {
      var row = el("tr", null, el("td", null, editChip(tokens, e, e[4] || "none", e[3])), el("td", null, iso(e[3])));
      rows[k].forEach(function (v) {
        row.appendChild(el("td", {cls: isNum(v) && v > 0 ? "pos" : (isNum(v) && v < 0 ? "neg" : null),
          text: signed(A, v)}));
      });
      body.appendChild(row);
    });
    var full = A.full[s][d], empty = A.empty ? A.empty[d] : null;
    body.appendChild(el("tr", null, el("td", {colspan: 2, text: A.label + unit(A) + ": source " + shown(A, empty) +
      " \u2192 output " + shown(A, full)}), el("td", {colspan: A.methods.length, cls: "note",
      text: (A.sampled_shapley[s] && A.sampled_shapley[s].indexOf(d) >= 0) ?
        "more than " + A.max_exact_edits + " edits: shapley is sampled" : ""})));
    table.appendChild(body);
    return table;
  }
  function sentenceCard(d) {
    var tokens = tokensOf(S.source[d]);
    var gold = S.gold[d] || [];
    var head = el("div", {cls: "head"}, el("b", {text: "#" + (d + 1)}));
    if (S.difficulty && isNum(S.difficulty[d])) head.appendChild(el("span", {text: "difficulty " + formatted(S.difficulty[d], 2)}));
    var card = el("div", {cls: "sentence", "data-sentence": d + 1}, head);
    card.appendChild(el("div", {cls: "line"}, el("span", {cls: "who", text: "source"}),
      el("span", {dir: "auto"}, words(S.source[d])), el("span")));
    S.references.forEach(function (ref, r) {
      var own = gold.filter(function (g) { return g[4] === r; });
      var line = el("div", {cls: "line"}, el("span", {cls: "who", text: "reference " + r}),
        el("span", {dir: "auto"}, words(referenceText(r, d))), el("span"));
      card.appendChild(line);
      if (own.length) {
        card.appendChild(el("div", {cls: "line"}, el("span", {cls: "who", text: "  its edits"}),
          el("span", {cls: "chips"}, own.map(function (g) {
            return editChip(tokens, g, "gold", isoText(g[3]) + (isNum(g[5]) ? ", GoToScorer weight " + formatted(g[5], 2) : ""));
          })), el("span")));
      }
    });
    systems.forEach(function (s) {
      var edits = S.edits[s][d] || [];
      var scores = el("span", {cls: "scores"}, sentenceColumns.map(function (c) { return scoreSpan(c, s, d); }));
      var A = attributionIndex >= 0 ? D.attribution[attributionIndex] : null;
      var line = el("div", {cls: "line"}, el("span", {cls: "who", title: s}, iso(s)),
        edits.length ? edited(tokens, edits, function (i) {
          var e = edits[i], parts = [isoText(e[3]), e[4] || "not compared"];
          if (A && A.values[s][d] && A.values[s][d][i]) parts.push(A.label + unit(A) + " " + A.methods.map(function (m, k) {
            return m + " " + signed(A, A.values[s][d][i][k]); }).join(", "));
          return parts.join("; ");
        }) : el("span", {cls: "empty", text: "(unchanged)"}), scores);
      card.appendChild(line);
      var missed = (S.missed[s][d] || []).map(function (k) { return gold[k]; });
      if (missed.length) card.appendChild(el("div", {cls: "line"}, el("span", {cls: "who", text: "  missed (FN)"}),
        el("span", {cls: "chips"}, missed.map(function (g) { return editChip(tokens, g, "FN", isoText(g[3]) + ": not corrected"); })),
        el("span", {cls: "note", text: "vs reference " + S.reference[s][d]})));
      var attr = attributionTable(s, d);
      if (attr) card.appendChild(el("details", null, el("summary", null, "attribution of ", iso(s), "'s edits"), attr));
    });
    return card;
  }
  function sentences() {
    var node = section("sentences", "Sentences");
    node.appendChild(el("p", {cls: "legend"}, el("span", {cls: "edit TP", text: "TP"}), el("span", {cls: "edit FP", text: "FP"}),
      el("span", {cls: "edit FN", text: "FN (missed)"}), el("span", {cls: "edit gold", text: "reference edit"}),
      el("span", {cls: "note", text: "Marks from ERRANT's comparison with the reference annotator it chose for the " +
        "sentence; hover an edit for its type and attribution."})));
    var state = {order: "corpus", column: sentenceColumns.length ? sentenceColumns[0] : -1, system: systems[0],
                 type: null, changed: false, text: "", page: 0};
    var orders = [option("corpus", "corpus order", true)];
    if (sentenceColumns.length) {
      orders.push(option("spread", "systems disagree most (score spread)"));
      orders.push(option("worst", "a system's worst sentences"));
      orders.push(option("best", "a system's best sentences"));
    }
    if (S.difficulty) orders.push(option("difficulty", "GoToScorer difficulty (hardest first)"));
    var orderSelect = select(orders, function () { state.order = orderSelect.value; state.page = 0; draw(); });
    var columnSelect = select(sentenceColumns.map(function (c) { return option(c, D.columns[c].label); }),
      function () { state.column = Number(columnSelect.value); state.page = 0; draw(); });
    var systemSelect = select(systems.map(function (s) { return option(s, s); }),
      function () { state.system = systemSelect.value; state.page = 0; draw(); });
    // (entries by index: an M2 type may be any text, the empty one too)
    var typeSelect = select([option("", "any error type", true)].concat(editTypes.map(function (t, i) {
      return option(String(i), t === "" ? "(empty type)" : t); })),
      function () { state.type = typeSelect.value === "" ? null : editTypes[Number(typeSelect.value)]; state.page = 0; draw(); });
    var changed = el("input", {type: "checkbox"});
    changed.addEventListener("change", function () { state.changed = changed.checked; state.page = 0; draw(); });
    var search = el("input", {type: "search", placeholder: "words in the source", size: 18});
    search.addEventListener("input", function () { state.text = search.value.trim().toLowerCase(); state.page = 0; draw(); });
    node.appendChild(el("div", {cls: "controls", id: "sentence-controls"}, labelled("sort", orderSelect),
      labelled("score", columnSelect), labelled("system", systemSelect), labelled("type", typeSelect),
      labelled("only where the system changed something", changed), search));
    if (D.attribution.length > 1) {
      var attributionSelect = select(D.attribution.map(function (a, i) { return option(i, a.label, i === 0); }),
        function () { attributionIndex = Number(attributionSelect.value); draw(); });
      node.lastChild.appendChild(labelled("attribution", attributionSelect));
    }
    var info = el("span");
    var prev = el("button", {type: "button", text: "\u2190 previous"});
    var next = el("button", {type: "button", text: "next \u2192"});
    prev.addEventListener("click", function () { if (state.page > 0) { state.page--; draw(); } });
    next.addEventListener("click", function () { state.page++; draw(); });
    node.appendChild(el("div", {cls: "pager"}, prev, next, info));
    var list = el("div", {id: "sentence-list"});
    node.appendChild(list);
    function draw() {
      var everything = state.order !== "corpus" || state.type !== null || state.changed || state.text;
      if (loaded < total && (everything || (state.page + 1) * PAGE > loaded)) {  // wait for the other blocks
        info.textContent = "Reading " + total + " sentences\u2026";
        decodeAll().then(draw, function (error) { info.textContent = "The other sentences could not be read: " + error; });
        return;
      }
      var ids = [];
      for (var d = 0; d < loaded; d++) {
        if (state.type !== null && !sentenceTypes(d)[state.type]) continue;
        if (state.changed && !(S.edits[state.system][d] || []).length) continue;
        if (state.text && S.source[d].toLowerCase().indexOf(state.text) < 0) continue;
        ids.push(d);
      }
      var column = D.columns[state.column];
      var scores = column ? S.scores[String(state.column)] : null;
      var sign = column && !column.higher_is_better ? -1 : 1;
      function key(d) {
        if (state.order === "spread") return -(S.spread[String(state.column)][d] || 0);
        if (state.order === "worst") return sign * (scores[state.system][d]);
        if (state.order === "best") return -sign * (scores[state.system][d]);
        if (state.order === "difficulty") return isNum(S.difficulty[d]) ? -S.difficulty[d] : Infinity;
        return d;
      }
      if (state.order !== "corpus") ids.sort(function (a, b) { return (key(a) - key(b)) || (a - b); });
      var count = everything ? ids.length : total;  // in corpus order, unfiltered: every sentence
      var pages = Math.max(1, Math.ceil(count / PAGE));
      state.page = Math.min(state.page, pages - 1);
      info.textContent = count + " sentences; page " + (state.page + 1) + " of " + pages;
      prev.disabled = state.page === 0;
      next.disabled = state.page >= pages - 1;
      list.textContent = "";
      ids.slice(state.page * PAGE, (state.page + 1) * PAGE).forEach(function (d) { list.appendChild(sentenceCard(d)); });
      if (!ids.length) list.appendChild(el("p", {cls: "empty", text: "No sentence matches."}));
    }
    draw();
  }

  // ------------------------------------------------------------------ attribution
  function attribution() {
    var node = section("attribution", "Edit attribution");
    if (!D.attribution.length) { node.appendChild(el("p", {cls: "empty", text: "No attribution in this report."})); return; }
    node.appendChild(el("p", {cls: "note", text:
      "How much each edit adds to a metric's sentence score: add (the edit alone on the source), leave-one-out (the " +
      "output without it), exact Shapley (all subsets; sampled above the bound) and sampled Shapley (random orders). " +
      "Shapley values of a sentence add up to its score difference (output minus source). Below: per error type, " +
      "the number of edits and their mean value. Values are in the metric's score units: fractions x100, as its " +
      "scores are shown."}));
    var state = {index: 0, method: 0};
    var holder = el("div", {cls: "scroll"});
    var metricSelect = select(D.attribution.map(function (a, i) { return option(i, a.label, i === 0); }),
      function () { state.index = Number(metricSelect.value); draw(); });
    var methodSelect = select(D.attribution[0].methods.map(function (m, i) { return option(i, m, i === 0); }),
      function () { state.method = Number(methodSelect.value); draw(); });
    node.appendChild(el("div", {cls: "controls"}, labelled("metric", metricSelect), labelled("method (bars)", methodSelect)));
    node.appendChild(holder);
    function draw() {
      var A = D.attribution[state.index];
      holder.textContent = "";
      holder.appendChild(el("p", {cls: "note", text: A.signature + "; exact Shapley up to " + A.max_exact_edits +
        " edits; sampled Shapley: " + A.permutations + " permutations, seed " + A.seed}));
      var types = Object.create(null);
      systems.forEach(function (s) { Object.keys(A.by_type[s] || {}).forEach(function (t) {
        types[t] = (types[t] || 0) + own(A.by_type[s], t)[0]; }); });
      var names = Object.keys(types).sort(function (a, b) { return types[b] - types[a] || (a < b ? -1 : 1); });
      if (!names.length) {  // (a table of headers alone said nothing)
        holder.appendChild(el("p", {cls: "empty", text: "No system made an edit: nothing to attribute."}));
        return;
      }
      var max = 0;
      systems.forEach(function (s) { names.forEach(function (t) {
        var v = own(A.by_type[s], t); if (v && isNum(v[1 + state.method])) max = Math.max(max, Math.abs(v[1 + state.method]));
      }); });
      var head = el("tr", null, el("th", {text: "type"}));
      systems.forEach(function (s) { head.appendChild(el("th", null, iso(s), unit(A) + " (n)")); });
      var table = el("table", {id: "attribution-table"}, el("thead", null, head));
      var body = el("tbody");
      names.forEach(function (t) {
        var row = el("tr", null, el("td", null, iso(t)));
        systems.forEach(function (s) {
          var v = own(A.by_type[s], t);
          if (!v) { row.appendChild(el("td", {text: "\u2013"})); return; }
          var value = v[1 + state.method], w = max > 0 ? Math.round(40 * Math.abs(value) / max) : 0;
          var bar = sv("svg", {width: 84, height: 12}, sv("line", {x1: 42, y1: 0, x2: 42, y2: 12, stroke: "#8b95a7"}),
            sv("rect", {x: value < 0 ? 42 - w : 42, y: 2, width: w, height: 8, cls: value < 0 ? "bar-neg" : "bar-pos"}));
          row.appendChild(el("td", {title: A.methods.map(function (m, k) { return m + " " + signed(A, v[1 + k]); }).join(", ")},
            bar, " " + signed(A, value) + " (" + v[0] + ")"));
        });
        body.appendChild(row);
      });
      table.appendChild(body);
      holder.appendChild(table);
    }
    draw();
  }

  // ------------------------------------------------------------------ meta-evaluation
  function scatter(column, human, M) {
    var W = 260, H = 210, L = 44, B = 34, T = 18, R = 10;
    var points = M.systems.filter(function (s) { return M.human[human] && isNum(M.human[human][s]); }).map(function (s) {
      return [column.scores[systems.indexOf(s)], M.human[human][s], s];
    });
    // scores as large as 1e308 (a human table's) are drawn in units of the largest: their differences and sums,
    // from the axes to the least-squares line, were Infinity, and every point and line of the figure NaN
    function unit(values) { var m = Math.max.apply(null, values.map(Math.abs)); return m > 1e300 ? m : 1; }
    var ux = unit(points.map(function (p) { return p[0]; })), uy = unit(points.map(function (p) { return p[1]; }));
    var xs = points.map(function (p) { return p[0] / ux; }), ys = points.map(function (p) { return p[1] / uy; });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs), y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    if (x1 === x0) { x0 -= 0.5; x1 += 0.5; }
    if (y1 === y0) { y0 -= 0.5; y1 += 0.5; }
    function X(u) { return L + (W - L - R) * (u - x0) / (x1 - x0); }  // (u, v: in the units ux, uy)
    function Y(v) { return H - B - (H - B - T) * (v - y0) / (y1 - y0); }
    var g = sv("svg", {width: W, height: H, role: "img", "aria-label": column.label + " against " + human});
    g.appendChild(sv("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, cls: "axis"}));
    g.appendChild(sv("line", {x1: L, y1: T, x2: L, y2: H - B, cls: "axis"}));
    g.appendChild(sv("text", {x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", text: column.label}));
    g.appendChild(sv("text", {x: 10, y: (T + H - B) / 2, "text-anchor": "middle",
      transform: "rotate(-90 10 " + (T + H - B) / 2 + ")", text: human}));
    [[x0, "start"], [x1, "end"]].forEach(function (p) {
      g.appendChild(sv("text", {x: X(p[0]), y: H - B + 12, "text-anchor": p[1], text: shown(column, p[0] * ux)})); });
    [y0, y1].forEach(function (v) { g.appendChild(sv("text", {x: L - 3, y: Y(v) + 3, "text-anchor": "end", text: fixed(v * uy, 2)})); });
    var n = points.length;
    if (n >= 2) {  // least-squares line (drawing only)
      var mx = xs.reduce(function (a, b) { return a + b; }, 0) / n, my = ys.reduce(function (a, b) { return a + b; }, 0) / n;
      var sxx = 0, sxy = 0;
      xs.forEach(function (u, k) { sxx += (u - mx) * (u - mx); sxy += (u - mx) * (ys[k] - my); });
      if (sxx > 0) {
        var slope = sxy / sxx, a = Math.min.apply(null, xs), b = Math.max.apply(null, xs);
        g.appendChild(sv("line", {x1: X(a), y1: Y(my + slope * (a - mx)), x2: X(b), y2: Y(my + slope * (b - mx)), cls: "fit"}));
      }
    }
    points.forEach(function (p) {
      var dot = sv("circle", {cx: X(p[0] / ux), cy: Y(p[1] / uy), r: 3.5, cls: "dot"});
      dot.appendChild(sv("title", {text: isoText(p[2]) + ": " + shown(column, p[0]) + ", " + fixed(p[1], 3)}));
      g.appendChild(dot);
      g.appendChild(sv("text", {x: X(p[0] / ux) + 5, y: Y(p[1] / uy) - 4, text: p[2]}));
    });
    var c = M.correlations.filter(function (r) { return r.metric === column.label && r.human === human; })[0];
    return el("div", {cls: "figure"}, g, el("div", {cls: "note", text: c ? "Pearson " + fixed(c.pearson, 3) +
      ", Spearman " + fixed(c.spearman, 3) + " (" + c.n + " systems)" : "no correlation"}));
  }
  function meta() {
    if (!D.meta) return;
    var M = D.meta;
    var node = section("meta", "Human judgments");
    node.appendChild(el("p", {cls: "note"}, "System-level agreement with the human scores of ", iso(M.source),
      " over " + M.systems.length + " systems (", isoList(M.systems), ")",
      M.left_out.length ? ["; without human scores: ", isoList(M.left_out)] : null, "."));
    M.notes.forEach(function (n) { node.appendChild(el("p", {cls: "note"}, named(n, systems.concat(M.source)))); });
    var humans = Object.keys(M.human);
    var head = el("tr", null, el("th", {text: "metric"}));
    humans.forEach(function (h) { add(head, [el("th", null, iso(h), " Pearson"), el("th", null, iso(h), " Spearman")]); });
    var table = el("table", {id: "meta-table"}, el("thead", null, head));
    var body = el("tbody");
    D.columns.forEach(function (column) {
      var row = el("tr", null, el("td", {text: column.label}));
      humans.forEach(function (h) {
        var c = M.correlations.filter(function (r) { return r.metric === column.label && r.human === h; })[0];
        add(row, [el("td", {text: c ? fixed(c.pearson, 3) : "\u2013"}), el("td", {text: c ? fixed(c.spearman, 3) : "\u2013"})]);
      });
      body.appendChild(row);
    });
    table.appendChild(body);
    node.appendChild(el("div", {cls: "scroll"}, table));
    var state = {human: humans[0]};
    var figures = el("div", {cls: "figures", id: "meta-figures"});
    var humanSelect = select(humans.map(function (h, i) { return option(h, h, i === 0); }),
      function () { state.human = humanSelect.value; draw(); });
    node.appendChild(el("div", {cls: "controls"}, labelled("human score", humanSelect)));
    node.appendChild(figures);
    function draw() {
      figures.textContent = "";
      D.columns.forEach(function (column) { figures.appendChild(scatter(column, state.human, M)); });
    }
    draw();
  }

  function signal(name) {  // data-rendered / data-complete = "yes", and the event report-rendered / report-complete
    document.documentElement.setAttribute("data-" + name, "yes");
    document.dispatchEvent(new Event("report-" + name));
  }
  header();
  summary();
  types();
  attribution();
  meta();
  section("sentences", "Sentences").appendChild(el("p", {cls: "note", id: "sentences-loading",
    text: "Reading " + D.corpus.sentences + " sentences\u2026"}));
  decodeFirst().then(function () {
    document.getElementById("sentences").textContent = "";
    sentences();
    signal("rendered");
    // the other blocks a frame later: the first sentences are painted first
    return new Promise(function (resolve) { setTimeout(resolve, 16); });
  }).then(decodeAll).then(function () { signal("complete"); }).catch(function (error) {
    var note = document.getElementById("sentences-loading");
    if (note) note.textContent = "The sentences could not be read: " + error;
    console.error("report rows: " + error);
  });
})();
