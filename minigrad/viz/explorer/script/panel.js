// panel.js: the panel (part 4 of the explorer's script; explorer.js lists the parts). The
// current op, its rule, the gradient arriving and the gradients sent back, every array's
// numbers exactly on demand, and the running sums of a tensor used more than once.

function el(tag, attrs, children) {
  var e = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (name) {
    if (name === "text") e.textContent = attrs[name];
    else e.setAttribute(name, attrs[name]);
  });
  (children || []).forEach(function (child) { if (child) e.appendChild(child); });
  return e;
}

// An array: the lines a drawing shows (all of a small array, a summary of a large one), and
// every number, exactly, on demand.
function arrayView(ref, forward) {
  var a = arrays[ref], box = el("div", {"class": forward ? "array forward" : "array"});
  box.appendChild(el("pre", {"class": "values", text: shownLines(a).join("\n")}));
  var head = a.head === "" ? [] : a.head.split(",").map(fourDigits);    // (every digit: below)
  if (a.size > head.length) {                   // a summary above: the first values too
    box.appendChild(el("div", {"class": "note", text: say("page.summarised", {
      shape: shapeText(a.shape), dtype: a.dtype, head: head.join(", "),
      norm: a.norm === null ? "-" : a.norm.toPrecision(4)})}));
  }
  var flat = numbers(ref);
  if (flat === null) {
    box.appendChild(el("div", {"class": "note", text: say("page.not_embedded",
                                                          {size: a.size})}));
    return box;
  }
  // One row per index of all axes but the last, labelled with it: [0, 25, :] ...
  var last = a.shape.length ? a.shape[a.shape.length - 1] : 1, rows = [];
  var width = a.shape.length > 1 ? rowLabel(a.shape, flat.length - 1).length : 0;
  for (var at = 0; at < flat.length; at += Math.max(last, 1)) {
    var label = a.shape.length > 1 ? rowLabel(a.shape, at) : "";
    rows.push(label + " ".repeat(width - label.length) + (width ? "  " : "") +
              flat.slice(at, at + last).map(function (v) {
                return exact(v, a.dtype);
              }).join("  "));
  }
  var all = {size: a.size, shape: shapeText(a.shape), dtype: a.dtype,
             norm: a.norm === null ? null : a.norm.toPrecision(6)};
  var details = el("details", {}, [el("summary", {text: say(a.norm === null ? "page.all_values"
    : "page.all_values_norm", all)}), el("pre", {"class": "full", text: rows.join("\n")})]);
  box.appendChild(details);
  return box;
}

// A column (n, 1) as a column. The drawing's boxes write it on one line, to stay small, and
// so do the lines Python wrote for them (labels.value_lines); here, one number per line.
function shownLines(a) {
  var column = a.shape.length > 1 && a.shape[a.shape.length - 1] === 1 && a.size > 1;
  if (!column || a.lines.length !== 1) return a.lines;        // (a summary has two lines)
  var numbers = a.lines[0].split("  "), width = 0;
  numbers.forEach(function (v) { width = Math.max(width, v.length); });
  return numbers.map(function (v) { return " ".repeat(width - v.length) + v; });
}

// An op's rule, wrapped only between terms: each term is kept whole (white-space: pre), so
// that a sign stays with its term (-dL/dy never ends a line with "-"), a shape such as
// (..., n, k) is never split, and an operator starts the line after a break, with the term
// it applies to ("= -dL/dy", "* a", "/ b**2").
function ruleView(lines) {
  var box = el("pre", {"class": "rule"});
  lines.forEach(function (line, n) {
    if (n) box.appendChild(document.createTextNode("\n"));
    var indent = line.match(/^\s*/)[0];
    if (indent) box.appendChild(document.createTextNode(indent));
    ruleTerms(line.slice(indent.length)).forEach(function (part) {
      if (part.term) box.appendChild(el("span", {"class": "term", text: part.term}));
      if (part.space) box.appendChild(document.createTextNode(part.space));
    });
  });
  return box;
}

// A line of a rule as [{term, space}, ...]: split at the spaces outside brackets, an
// operator ("=", "*", "->") or a label ("A:") joined to the term after it.
function ruleTerms(line) {
  var words = [], depth = 0, word = "", space = "";
  for (var n = 0; n < line.length; n++) {
    var c = line[n];
    if (c === " " && depth === 0) { space += c; continue; }
    if (space) { words.push({term: word, space: space}); word = ""; space = ""; }
    if ("([{".indexOf(c) >= 0) depth++;
    if (")]}".indexOf(c) >= 0) depth = Math.max(0, depth - 1);
    word += c;
  }
  if (word) words.push({term: word, space: ""});
  var parts = [];
  words.forEach(function (w) {
    var last = parts[parts.length - 1];
    if (last && (/^[-+*\/@=<>:]+$/.test(last.term) || /:$/.test(last.term))) {
      last.term += last.space + w.term;           // (one space or several: as written)
      last.space = w.space;
    } else {
      parts.push({term: w.term, space: w.space});
    }
  });
  return parts;
}

// The index of the row holding flat element `at` of an array of `shape`: "[0, 25, :]".
function rowLabel(shape, at) {
  var index = [], rest = Math.floor(at / shape[shape.length - 1]);
  for (var axis = shape.length - 2; axis >= 0; axis--) {
    index.unshift(rest % shape[axis]);
    rest = Math.floor(rest / shape[axis]);
  }
  return "[" + index.concat([":"]).join(", ") + "]";
}

function drawPanel() {
  var k = state.step, panel = document.getElementById("step");
  panel.textContent = "";
  document.getElementById("counter").textContent = say("page.counter",
                                                       {step: k, steps: steps.length});
  if (k === 0) {
    var root = tensors[DATA.root];
    panel.appendChild(el("h2", {text: say("page.forward", {})}));
    panel.appendChild(el("p", {text: say("page.forward_text", {steps: steps.length,
                                                               root: tensorName(DATA.root)})}));
    panel.appendChild(el("h3", {text: say("page.root", {root: tensorName(DATA.root),
                                                        shape: shapeText(root.shape)})}));
    panel.appendChild(arrayView(root.values, true));
    return;
  }
  var step = steps[k - 1], op = ops[step.op], asked = pending(k), here = questionsAt[k] || [];
  panel.appendChild(el("h2", {text: say("page.step", {step: k, op: op.title})}));
  if (op.scope.length) {
    panel.appendChild(el("div", {"class": "note",
                                 text: say("page.in_scope", {scope: op.scope.join(" \u203a ")})}));
  }
  panel.appendChild(el("h3", {text: say("page.rule", {})}));
  panel.appendChild(ruleView(op.rule));
  panel.appendChild(el("h3", {text: say("page.arriving", {
    name: tensorName(step.output), shape: shapeText(tensors[step.output].shape)})}));
  panel.appendChild(arrayView(step.grad_y));
  panel.appendChild(el("h3", {text: say("page.sent_back", {})}));
  if (labelsLeft(step)) {
    panel.appendChild(el("div", {"class": "note", text: say("page.labels_left", {
      shown: MAX_LABELS, left: labelsLeft(step)})}));
  }
  op.inputs.forEach(function (x, p) {
    var t = tensors[x], box = el("div", {"class": "input"});
    box.appendChild(el("div", {"class": "name", text: say("page.input", {
      position: p, name: tensorName(x), shape: shapeText(t.shape)})}));
    if (step.grads[p] === null) {
      box.appendChild(el("div", {"class": "note", text: say(t.needs_grad ?
        "page.no_gradient" : "page.constant", {})}));
    } else if (hidesSend(asked, x)) {              // (x * x: both of its inputs)
      box.appendChild(asked.tensor === x && asked.input === p ? questionView(asked)
        : el("div", {"class": "note", text: say("page.hidden",
                                                {name: tensorName(asked.tensor)})}));
      here.forEach(function (q) {
        if (q.input === p && done(q)) box.appendChild(questionView(q));
      });
    } else {
      box.appendChild(arrayView(step.grads[p]));
      if (tensors[x].terms.length > 1) box.appendChild(termsView(x, k, p));
      here.forEach(function (q) {
        if (q.input === p && done(q)) box.appendChild(questionView(q));
      });
    }
    panel.appendChild(box);
  });
  // A softmax's question, asked at its first op (it is about the softmax's input), and a
  // mask's before it, asked there too (masked.py).
  here.forEach(function (q) {
    if (q.input === null && (q === asked || done(q))) {
      panel.appendChild(questionView(q));
    }
  });
}

// Where a tensor gets gradients from several ops: each term as it arrives, and the sum, up
// to the term that input p of step k sends (x * x: input 0's is the first of the step's two);
// of many terms, the first and last MAX_TERMS / 2 written out.
var MAX_TERMS = 8;
function termsView(x, k, p) {
  var terms = tensors[x].terms, step = steps[k - 1], n = terms.filter(function (term) {
    return term[0] < k;
  }).length;
  for (var q = 0; q < p; q++) {
    if (ops[step.op].inputs[q] === x && step.grads[q] !== null) n++;
  }
  var box = el("div", {"class": "terms"}), arrived = terms.slice(0, n + 1);
  var done = arrived.length === terms.length;
  box.appendChild(el("div", {text: say("page.terms", {
    name: tensorName(x), uses: usesText(x), term: arrived.length, terms: terms.length}) +
    say("page.gap", {}) + say(done ? "page.terms_all" : "page.terms_so_far",
                              {terms: terms.length})}));
  var skipped = Math.max(0, arrived.length - MAX_TERMS), rows = [];
  arrived.forEach(function (term, n) {          // (a stack of x a thousand times: 8 rows)
    if (skipped && n === MAX_TERMS / 2) {
      rows.push([say("page.more_terms", {count: skipped}), []]);
    }
    if (skipped && n >= MAX_TERMS / 2 && n < MAX_TERMS / 2 + skipped) return;
    rows.push([(n ? "+ " : "  ") + say("page.term_step", {step: term[0]}),
               firstNumbers(term[1])]);
  });
  var sum = arrived[arrived.length - 1][2], grad = tensors[x].grad;
  rows.push([done ? "= " : say("page.sum_so_far", {}), firstNumbers(sum)]);
  box.appendChild(sumLines(rows, arrays[sum]));
  if (arrived.length > 1) box.appendChild(arrayView(sum));
  if (done && grad !== null && grad !== sum) {          // a hook (register_hook) changed it
    box.appendChild(el("div", {text: say("page.before_hooks", {})}));
    box.appendChild(arrayView(grad));
  }
  return box;
}

// The first numbers of array `ref` (at most SUM_SHOWN of its first values, always in the
// page), each to 4 significant digits.
var SUM_SHOWN = 4;
function firstNumbers(ref) {
  var head = arrays[ref].head === "" ? [] : arrays[ref].head.split(",");
  return head.slice(0, SUM_SHOWN).map(fourDigits);
}

// A sum written out on the same elements of every term, in columns, so that it can be
// checked by hand: all the numbers of a small array, the first few of a large one (its norm
// would not do: the norms of the terms do not add up to the norm of the sum).
function sumLines(rows, a) {
  var label = 0, widths = [];
  rows.forEach(function (row) {
    label = Math.max(label, row[0].length);
    row[1].forEach(function (v, c) { widths[c] = Math.max(widths[c] || 0, v.length); });
  });
  var more = a.size > SUM_SHOWN ? "  \u2026" : "";
  var lines = rows.map(function (row) {
    return row[0] + " ".repeat(label - row[0].length) + row[1].map(function (v, c) {
      return " ".repeat(widths[c] - v.length) + v;
    }).join("  ") + more;
  });
  if (more) {
    lines.unshift(say("page.first_values", {shape: shapeText(a.shape), shown: SUM_SHOWN,
                                            size: a.size}));
  }
  return el("pre", {"class": "sum", text: lines.join("\n")});
}
