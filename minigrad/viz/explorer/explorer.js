// explorer.js: the backprop explorer page. Plain JavaScript, no library, no build step; the
// page needs nothing from the network. Python (minigrad/viz/explorer) writes the data: the
// graph, every tensor's values, and the steps of the engine's own backward walk. This file
// draws them and lets the learner step through:
//
//   1. the data        the JSON in the page, and its arrays read back exactly
//   2. the state       the step shown, the scopes folded, the answers given
//   3. what is drawn   the boxes and arrows for the scopes folded (the rules of
//                      minigrad/viz/dot.py), sized, laid out by layout.js
//   4. the graph       the SVG, built once per layout; each step updates the gradients so far
//                      and highlights the current op
//   5. the panel       the current op, its rule, the gradients in and out, running sums
//   6. predict mode    a question before the gradient is shown; known mistakes recognised
//   7. controls        buttons, keys, clicks, and window.explorer, the state object for tests
//
// window.explorer (documented in docs/exploring-backprop.md):
//   step, steps          the step shown (0: the forward pass; k: the k-th op backward visits)
//   next(), prev(), first(), last(), goto(k)
//   current()            {number, op, type, scope, output, inputs, output_grad, input_grads,
//                         totals}: the engine's numbers as nested arrays (null where an array
//                         was too large to embed, or where no gradient flows)
//   fold(scope), unfold(scope), folded()      a scope name, or a path of names
//   question(), answer(number), reveal(), score      predict mode (a step may ask several
//                        questions, one after the other; question() is the one asked now)
//   boxes()              how many boxes are drawn now
//   ready, readyMs       true once drawn; milliseconds from navigation start to then

(function () {
  "use strict";

  // ---- 1. The data ----------------------------------------------------------------------

  var DATA = JSON.parse(document.getElementById("explorer-data").textContent);
  var tensors = DATA.tensors, ops = DATA.ops, steps = DATA.steps, arrays = DATA.arrays;
  var questions = DATA.questions || [];

  // The exact numbers of array `ref`, flat (a float32 read back with Math.fround: exactly the
  // engine's float32, held in a double), or null when it was too large to embed.
  function numbers(ref) {
    var a = arrays[ref];
    if (a.data === null) return null;
    if (!a.numbers) {
      var round = a.dtype === "float32" ? Math.fround : function (v) { return v; };
      a.numbers = a.data === "" ? [] : a.data.split(",").map(function (text) {
        return round(Number(text));
      });
    }
    return a.numbers;
  }

  // The numbers of array `ref` as nested arrays of its shape (NumPy's tolist()).
  function nested(ref) {
    if (ref === null || ref === undefined) return null;
    var flat = numbers(ref), shape = arrays[ref].shape;
    if (flat === null) return null;
    var at = 0;
    function build(axis) {
      if (axis === shape.length) return flat[at++];
      var list = [];
      for (var k = 0; k < shape[axis]; k++) list.push(build(axis + 1));
      return list;
    }
    return build(0);
  }

  // One number as text: a float32 in its shortest form that reads back to the same float32,
  // anything else as JavaScript writes it (the shortest text that reads back exactly).
  function exact(value, dtype) {
    if (!isFinite(value)) return special(value);
    if (dtype !== "float32") return String(value);
    for (var digits = 1; digits < 10; digits++) {
      var text = value.toPrecision(digits);
      if (Math.fround(Number(text)) === value) return String(Number(text));
    }
    return String(value);
  }

  // NaN and the infinities as the boxes write them (minigrad/viz/labels.py): nan, inf, -inf.
  function special(value) {
    return isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
  }

  // One number to 4 significant digits (a sum's terms, the first values of a summary).
  function fourDigits(text) {
    var value = Number(text);
    return isFinite(value) ? String(Number(value.toPrecision(4))) : special(value);
  }

  function shapeText(shape) {
    return "(" + shape.join(", ") + (shape.length === 1 ? ",)" : ")");
  }

  function tensorName(i) {
    var t = tensors[i];
    if (t.name) return t.name;
    if (t.creator !== null) return ops[t.creator].type + "'s output";
    return t.needs_grad ? "a leaf" : "a constant";
  }

  // A scope path as a key: JSON, so that a scope named "a / b" is never the path "a" > "b".
  function pathKey(path) { return JSON.stringify(path); }

  function startsWith(path, prefix) {
    return prefix.length <= path.length && prefix.every(function (name, n) {
      return path[n] === name;
    });
  }
  var scopeIndex = {};
  DATA.scopes.forEach(function (path, k) { scopeIndex[pathKey(path)] = k; });

  // ---- 2. The state -----------------------------------------------------------------------

  var state = {step: 0, folded: new Set(DATA.folded), answers: {}, zoom: 1};
  var questionsAt = {};                 // step -> its questions, in the order they are asked
  questions.forEach(function (q, n) {
    q.id = n;                           // answers are kept by it
    (questionsAt[q.step] = questionsAt[q.step] || []).push(q);
  });

  // The question step k asks now (its first unanswered one), or null. While it waits, nothing
  // on the page shows a number of its tensor at this step (boxes, arrows, panel, totals).
  function pending(k) {
    return (questionsAt[k] || []).find(function (q) { return !state.answers[q.id]; }) || null;
  }

  // What tensor i shows at step k: the sum of the terms that have arrived, as {ref, count, of,
  // hooked}; null before the first. Once all have, it is the tensor's gradient as the engine
  // hands it on: after its hooks (hooked: a hook changed the sum). The root has its gradient
  // at step 1.
  function gradientAt(i, k) {
    var t = tensors[i];
    if (i === DATA.root) return k >= 1 ? {ref: t.grad, count: 1, of: 1, hooked: false} : null;
    var hidden = pending(k), arrived = t.terms.filter(function (term) {
      return term[0] < k || (term[0] === k && !(hidden && hidden.tensor === i));
    });
    if (!arrived.length) return null;
    var sum = arrived[arrived.length - 1][2], done = arrived.length === t.terms.length;
    var ref = done && t.grad !== null ? t.grad : sum;
    return {ref: ref, count: arrived.length, of: t.terms.length, hooked: ref !== sum};
  }

  // How tensor i is used, in words, from the terms it receives: "used by 2 ops", "used twice
  // by one op" (x * x), "used 3 times, by 2 ops".
  function usesText(i) {
    var terms = tensors[i].terms, ops = new Set(terms.map(function (term) { return term[0]; }));
    var times = {1: "once", 2: "twice"}[terms.length] || terms.length + " times";
    if (ops.size === terms.length) return "used by " + ops.size + " ops";
    return ops.size === 1 ? "used " + times + " by one op"
                          : "used " + times + ", by " + ops.size + " ops";
  }

  // ---- 3. What is drawn: boxes and arrows for the scopes folded ----------------------------

  // The folded scope an op belongs to (the outermost folded prefix of its scope), or -1.
  function groupOf(op) {
    for (var n = 1; n <= op.scope.length; n++) {
      var k = scopeIndex[pathKey(op.scope.slice(0, n))];
      if (state.folded.has(k)) return k;
    }
    return -1;
  }

  function commonPrefix(paths) {
    if (!paths.length) return [];
    return paths.reduce(function (common, path) {
      var n = 0;
      while (n < common.length && n < path.length && common[n] === path[n]) n++;
      return common.slice(0, n);
    });
  }

  // The boxes and arrows (as draw_graph draws them with collapse=...): a tensor made inside a
  // folded scope and used only there is hidden, and so is a constant used only there.
  function visibleGraph() {
    var group = ops.map(groupOf);
    function opPlace(j) {
      return group[j] >= 0 ? DATA.scopes[group[j]].slice(0, -1) : ops[j].scope;
    }
    function drawn(i) {
      var t = tensors[i];
      if (i === DATA.root) return true;
      if (t.creator !== null) {
        var g = group[t.creator];
        return g < 0 || t.users.some(function (u) { return group[u[0]] !== g; });
      }
      if (t.needs_grad || !t.users.length) return true;
      var first = group[t.users[0][0]];
      return first < 0 || t.users.some(function (u) { return group[u[0]] !== first; });
    }
    var nodes = [], edges = [], seen = {};
    function add(node) { if (!seen[node.id]) { seen[node.id] = node; nodes.push(node); } }
    tensors.forEach(function (t, i) {
      var source = null;
      if (t.creator !== null && group[t.creator] < 0) {
        source = "op" + t.creator;
        add({id: source, kind: "op", op: t.creator, path: opPlace(t.creator)});
        ops[t.creator].inputs.forEach(function (x, p) {
          edges.push({from: "t" + x, to: source, position: p, of: ops[t.creator].inputs.length,
                      op: t.creator, tensor: x});
        });
      } else if (t.creator !== null) {
        source = "scope" + group[t.creator];
        add({id: source, kind: "scope", scope: group[t.creator], path: opPlace(t.creator)});
      }
      if (!drawn(i)) return;
      var place = t.creator !== null ? opPlace(t.creator)
          : commonPrefix(t.users.map(function (u) { return opPlace(u[0]); }));
      add({id: "t" + i, kind: "tensor", tensor: i, path: place});
      if (source) edges.push({from: source, to: "t" + i, tensor: i});
    });
    // Arrows into each folded scope, one per tensor coming from outside it.
    var into = {};
    ops.forEach(function (op, j) {
      if (group[j] < 0) return;
      op.inputs.forEach(function (x) {
        var c = tensors[x].creator, key = group[j] + ":" + x;
        if ((c !== null && group[c] === group[j]) || !drawn(x) || into[key]) return;
        into[key] = true;
        edges.push({from: "t" + x, to: "scope" + group[j], tensor: x, scope: group[j]});
      });
    });
    // An arrow's end must exist (an op's input tensor is drawn whenever the op is).
    edges = edges.filter(function (e) { return seen[e.from] && seen[e.to]; });
    return {nodes: nodes, edges: edges, group: group};
  }

  // The text lines of a box, each [text, css class]. Tensor boxes keep room for their
  // gradient's lines from the start, so that nothing moves while stepping.
  var measure = document.createElement("canvas").getContext("2d");
  function textWidth(text, bold) {
    measure.font = (bold ? "bold " : "") + "11px Helvetica, Arial, sans-serif";
    return measure.measureText(text).width;
  }

  function gradLines(ref, partial) {
    var lines = arrays[ref].lines, head = partial ? "grad so far" : "grad";
    return lines.length === 1 ? [head + " " + lines[0]] : [head].concat(lines);
  }

  function boxLines(node, k) {
    if (node.kind === "op") {
      var op = ops[node.op];
      var when = op.step === null ? "not on the backward path"
          : "backward #" + op.step;
      return [[op.title, "bold"], [when, op.step !== null && op.step <= k ? "grad" : "future"]];
    }
    if (node.kind === "scope") {
      var members = [], counts = {};
      ops.forEach(function (op, j) {
        if (visible.group[j] === node.scope) members.push(op);
      });
      members.forEach(function (op) { counts[op.type] = (counts[op.type] || 0) + 1; });
      var kinds = Object.keys(counts).sort(function (a, b) {
        return counts[b] - counts[a] || (a < b ? -1 : 1);
      });
      var summary = kinds.slice(0, 4).map(function (kind) {
        return counts[kind] > 1 ? kind + " \u00d7" + counts[kind] : kind;
      }).join(", ") + (kinds.length > 4 ? ", \u2026" : "");
      var numbers = members.map(function (op) { return op.step; }).filter(function (s) {
        return s !== null;
      }).sort(function (a, b) { return a - b; });
      var path = DATA.scopes[node.scope];
      var lines = [[path[path.length - 1] + "  (folded: click to unfold)", "bold"],
                   [members.length + " ops: " + summary, ""]];
      if (numbers.length) {
        lines.push(["backward #" + numbers[0] + "\u2013#" + numbers[numbers.length - 1],
                    numbers[0] <= k ? "grad" : "future"]);
      }
      return lines;
    }
    var t = tensors[node.tensor], out = [];
    if (t.name) out.push([t.name, "bold"]);
    out.push([shapeText(t.shape) + " " + t.dtype, ""]);
    arrays[t.values].lines.forEach(function (line) { out.push([line, ""]); });
    return out;
  }

  // The gradient lines of a tensor box at step k, padded to the same count at every step.
  function tensorGradLines(i, k) {
    var t = tensors[i];
    if (!t.needs_grad || (t.grad === null && !t.terms.length)) return [];
    var room = reservedLines(i), now = gradientAt(i, k), lines;
    if (now === null) lines = [["grad ?", "muted"]];
    else {
      var partial = now.count < now.of;
      lines = gradLines(now.ref, partial).map(function (text) {
        return [text, partial ? "partial" : "grad"];
      });
    }
    while (lines.length < room) lines.push(["", ""]);
    return lines;
  }

  function reservedLines(i) {
    var t = tensors[i], refs = t.terms.map(function (term) { return term[2]; });
    if (t.grad !== null) refs.push(t.grad);
    return refs.reduce(function (m, ref) { return Math.max(m, gradLines(ref, true).length); }, 1);
  }

  function boxWidth(node) {
    var lines = boxLines(node, Infinity), width = 0;
    if (node.kind === "tensor") {
      var t = tensors[node.tensor];
      t.terms.map(function (term) { return term[2]; }).concat(t.grad === null ? [] : [t.grad])
        .forEach(function (ref) {
          gradLines(ref, true).forEach(function (text) { lines.push([text, ""]); });
        });
    }
    lines.forEach(function (line) {
      width = Math.max(width, textWidth(line[0], line[1] === "bold"));
    });
    return Math.ceil(width) + 14;
  }

  var LINE = 14;
  var visible = null, drawing = null, layouts = {};

  function relayout() {
    visible = visibleGraph();
    var key = Array.from(state.folded).sort().join(",");
    if (!layouts[key]) {
      var nodes = visible.nodes.map(function (node) {
        var count = boxLines(node, 0).length;
        if (node.kind === "tensor") count += tensorGradLines(node.tensor, 0).length;
        return {id: node.id, w: boxWidth(node), h: count * LINE + 8, path: node.path};
      });
      // An op's inputs end along the top of its box in argument order (input 0 leftmost), so
      // that a - b and b - a never look alike; the layout keeps their arrows from crossing.
      var edges = visible.edges.map(function (e) {
        return {from: e.from, to: e.to, port: e.of > 1 ? (e.position + 1) / (e.of + 1) : 0.5};
      });
      layouts[key] = layoutGraph(nodes, edges, function (path) {
        return textWidth(path[path.length - 1] + "  (click to fold)", false) + 12;
      });
    }
    drawing = layouts[key];
    buildGraph();
  }

  // ---- 4. The graph -------------------------------------------------------------------------

  var SVG = "http://www.w3.org/2000/svg";
  var FILL = {parameter: "#d4efdf", input: "#d6eaf8", constant: "#f2f3f4",
              intermediate: "#ffffff", root: "#fdebd0"};

  function svg(tag, attrs, parent) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (name) { e.setAttribute(name, attrs[name]); });
    if (parent) parent.appendChild(e);
    return e;
  }

  function text(parent, x, y, content, cls) {
    var e = svg("text", {x: x, y: y, "text-anchor": "middle"}, parent);
    if (cls) e.setAttribute("class", cls);
    e.textContent = content;
    return e;
  }

  function pathData(points) {
    var d = "M" + points[0][0] + "," + points[0][1];
    for (var k = 1; k < points.length; k++) {
      var p = points[k - 1], q = points[k], dy = (q[1] - p[1]) / 2;
      d += " C" + p[0] + "," + (p[1] + dy) + " " + q[0] + "," + (q[1] - dy) + " " +
           q[0] + "," + q[1];
    }
    return d;
  }

  // The SVG is built once per layout (buildGraph: at the start, and when a scope folds or
  // unfolds); a step changes only what it must (showStep): classes, the gradient lines of the
  // tensors, the labels on the arrows of the current op. A graph of hundreds of boxes steps fast.
  var view = null;
  var SIDE = 90;                                // room beside the graph for the arrows' labels

  function buildGraph() {
    var holder = document.getElementById("graph");
    holder.textContent = "";
    var width = drawing.width + 2 * SIDE, height = drawing.height + 24;
    var root = svg("svg", {viewBox: -SIDE + " -12 " + width + " " + height}, holder);
    view = {svg: root, width: width, height: height, frames: [], edges: [], boxes: [],
            ports: []};
    setZoom();
    var defs = svg("defs", {}, root);
    [["arrow", "#566573"], ["arrow-grad", "#b03a2e"]].forEach(function (m) {
      var marker = svg("marker", {id: m[0], viewBox: "0 0 10 10", refX: 9, refY: 5,
                                  markerWidth: 8, markerHeight: 8, orient: "auto",
                                  markerUnits: "userSpaceOnUse"}, defs);
      svg("path", {d: "M0,0 L10,5 L0,10 z", fill: m[1]}, marker);
    });

    drawing.frames.forEach(function (frame) {
      var g = svg("g", {"class": "frame"}, root), index = scopeIndex[pathKey(frame.path)];
      svg("rect", {x: frame.x, y: frame.y, width: frame.w, height: frame.h, rx: 6}, g);
      var label = svg("text", {x: frame.x + 6, y: frame.y + 13}, g);
      label.textContent = frame.path[frame.path.length - 1] + "  (click to fold)";
      label.addEventListener("click", function () { setFolded(index, true); });
      view.frames.push({g: g, path: frame.path, depth: frame.path.length});
    });

    visible.edges.forEach(function (e, n) {
      var points = drawing.routes[n];
      var base = tensors[e.tensor].needs_grad ? "edge" : "edge constant";
      var g = svg("g", {"class": base, "data-from": e.from, "data-to": e.to}, root);
      var path = svg("path", {d: pathData(points), "marker-end": "url(#arrow)"}, g);
      var end = points[points.length - 1];
      if (e.of > 1 && ["Add", "Mul"].indexOf(ops[e.op].type) < 0) {
        var port = String(e.position), w = textWidth(port, false);
        text(g, end[0] - 7, end[1] - 5, port);
        view.ports.push([end[0] - 7 - w / 2 - 1, end[1] - 15, w + 2, 13]);  // kept clear
      }
      view.edges.push({g: g, path: path, e: e, n: n, d: path.getAttribute("d"), base: base});
    });

    visible.nodes.forEach(function (node) { view.boxes.push(buildBox(root, node)); });
    view.labels = svg("g", {"class": "labels"}, root);   // the current arrows' labels, on top
  }

  // A box: its frame, its fixed lines, and (a tensor's) empty lines for its gradient.
  function buildBox(root, node) {
    var box = drawing.boxes[node.id];
    var g = svg("g", {transform: "translate(" + box.x + "," + box.y + ")"}, root);
    g.setAttribute("data-id", node.id);
    if (node.kind === "tensor") {
      var t = tensors[node.tensor], head = t.name ? 2 : 1;
      svg("rect", {width: box.w, height: box.h, fill: "#fff"}, g);
      svg("rect", {width: box.w, height: head * LINE + 5, fill: FILL[t.kind]}, g);
      svg("rect", {"class": "outline", width: box.w, height: box.h}, g);
    } else if (node.kind === "op") {
      svg("rect", {"class": "outline", width: box.w, height: box.h, rx: 8, fill: "#eaecee"}, g);
    } else {
      svg("rect", {x: 4, y: -4, width: box.w, height: box.h, fill: "#d2b4de",
                   stroke: "#566573"}, g);
      svg("rect", {"class": "outline", width: box.w, height: box.h, fill: "#e8daef"}, g);
    }
    var count = boxLines(node, 0).length;
    if (node.kind === "tensor") count += tensorGradLines(node.tensor, 0).length;
    var lines = [];
    for (var n = 0; n < count; n++) lines.push(text(g, box.w / 2, 4 + LINE * (n + 1) - 3, ""));
    g.addEventListener("click", function () { clickBox(node); });
    return {g: g, node: node, lines: lines};
  }

  function setAttr(e, name, value) {              // only when it changes: no needless redraw
    if (e.getAttribute(name) !== value) e.setAttribute(name, value);
  }

  // Show step state.step on the graph built for the current layout.
  function showStep() {
    var k = state.step, step = k > 0 ? steps[k - 1] : null, asked = pending(k);
    var currentOp = step ? step.op : -1;
    view.frames.forEach(function (frame) {
      var inside = step && startsWith(ops[currentOp].scope, frame.path);
      setAttr(frame.g, "class", inside ? "frame current" : "frame");
    });
    view.labels.textContent = "";
    view.placed = view.ports.slice();   // the labels' rectangles, [x, y, w, h], and the
                                        // port numbers', which no label may cover
    var labelled = 0;                   // (at most MAX_LABELS: see labelsLeft)
    view.edges.forEach(function (v) {
      var e = v.e, current = false;                 // does a gradient flow along it now?
      if (step && e.op === currentOp && e.position !== undefined) {
        current = step.grads[e.position] !== null;
      } else if (step) {
        current = e.from === "op" + currentOp || (e.to === "scope" + visible.group[currentOp] &&
                                                  ops[currentOp].inputs.indexOf(e.tensor) >= 0 &&
                                                  tensors[e.tensor].needs_grad);
      }
      setAttr(v.g, "class", current ? "edge current" : v.base);
      setAttr(v.path, "marker-end", current ? "url(#arrow-grad)" : "url(#arrow)");
      // An arrow that branches off a shared trunk is drawn from there; the current one, all
      // the way from its tensor.
      var points = current ? drawing.fullRoute(v.n) : null;
      setAttr(v.path, "d", current ? pathData(points) : v.d);
      if (current && e.position !== undefined && labelled++ < MAX_LABELS) {
        edgeGradient(view.labels, points, step, e.position, asked);
      }
    });
    view.boxes.forEach(function (b) { showBox(b, k, step, asked); });
    scrollToCurrent();
  }

  // An op with many inputs (a stack of a thousand) has only the arrows of its first
  // MAX_LABELS inputs labelled: more would not fit beside them, and placing them took seconds.
  // The panel says how many more there are, and shows every input's gradient.
  var MAX_LABELS = 6;
  function labelsLeft(step) {
    var sent = step.grads.filter(function (g) { return g !== null; }).length;
    return Math.max(0, sent - MAX_LABELS);
  }

  // The gradient an arrow carries back at the current step, written beside it.
  // Halfway along the arrow; an op's first input has it on the left of its arrow, the others
  // on the right, so that the labels of neighbouring arrows do not cover each other.
  function edgeGradient(g, points, step, position, asked) {
    var ref = step.grads[position], hide = asked && ops[step.op].inputs[position] === asked.tensor;
    var label = hide ? "\u2202 ?" : "\u2202 " + arrays[ref].short;
    var a = points[Math.floor((points.length - 1) / 2)], b = points[Math.floor(points.length / 2)];
    if (a === b) b = points[Math.floor(points.length / 2) + 1];
    var mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    var w = textWidth(label, true) + 6, group = svg("g", {}, g);
    var side = position === 0 && ops[step.op].inputs.length > 1 ? mid[0] - 4 - w : mid[0] + 4;
    var other = side === mid[0] + 4 ? mid[0] - 4 - w : mid[0] + 4;
    function free(x, y, obstacles) {
      return !obstacles.some(function (r) {
        return x < r[0] + r[2] && r[0] < x + w && y < r[1] + r[3] && r[1] < y + 14;
      });
    }
    // Beside the arrow's middle, nearer first: clear of the other labels, the port numbers
    // and the boxes; failing that, sideways along the middle's row, within the drawing (the
    // labels of many arrows of one short trunk, side by side); failing that, moved up past
    // the labels and ports alone (or below, rather than above the drawing).
    var boxes = Object.keys(drawing.boxes).map(function (id) {
      var b = drawing.boxes[id];
      return [b.x, b.y, b.w, b.h];
    });
    var left = side, top = mid[1] - 8, found = false, n;
    var first = points[0][1], last = points[points.length - 1][1] - 14;     // (its own rows)
    for (n = 0; n < 9 && !found; n++) {
      var dy = (n % 2 ? 1 : -1) * Math.ceil(n / 2) * 16;
      if (n && (mid[1] - 8 + dy < first || mid[1] - 8 + dy > last)) continue;
      [side, other].forEach(function (x) {
        if (!found && free(x, mid[1] - 8 + dy, view.placed.concat(boxes))) {
          left = x;
          top = mid[1] - 8 + dy;
          found = true;
        }
      });
    }
    for (n = 1; n <= 2 * MAX_LABELS * (w + 4) / 4 && !found; n++) {    // (in steps of 8)
      var x = side + (n % 2 ? -1 : 1) * Math.ceil(n / 2) * 8;
      if (x >= -SIDE && x + w <= view.width - SIDE &&
          free(x, mid[1] - 8, view.placed.concat(boxes))) {
        left = x;
        found = true;
      }
    }
    while (!found && !free(left, top, view.placed)) top -= 16;
    if (top < -12) {                                // above the drawing: below the arrow instead
      top = mid[1] - 8;
      while (!free(left, top, view.placed) && top + 14 < view.height - 12) top += 16;
    }
    view.placed.push([left, top, w, 14]);
    svg("rect", {x: left, y: top, width: w, height: 14, rx: 3}, group);
    text(group, left + w / 2, top + 11, label, "grad");
  }

  function showBox(b, k, step, asked) {
    var node = b.node, classes = ["box", node.kind], lines = boxLines(node, k);
    if (node.kind === "tensor") {
      var t = tensors[node.tensor], position = step ? ops[step.op].inputs.indexOf(node.tensor)
                                                    : -1;
      classes.push(t.kind);                                 // the root's kind is "root"
      lines = lines.concat(tensorGradLines(node.tensor, k));
      if (step && step.output === node.tensor) classes.push("arriving");
      if (asked && asked.tensor === node.tensor) classes.push("asked");
      else if (position >= 0 && step.grads[position] !== null) classes.push("receiving");
    } else if (step && (node.kind === "op" ? step.op === node.op
                                            : visible.group[step.op] === node.scope)) {
      classes.push("current");
    }
    lines.forEach(function (line, n) {
      var e = b.lines[n];
      if (e.textContent !== line[0]) e.textContent = line[0];
      setAttr(e, "class", line[1] || "");
    });
    setAttr(b.g, "class", classes.join(" "));
  }

  function setZoom() {
    view.svg.setAttribute("width", view.width * state.zoom);
    view.svg.setAttribute("height", view.height * state.zoom);
  }

  // Scroll the graph so that the current op is in view with its inputs and its output (the
  // boxes drawn for them), when they all fit; otherwise so that the op is, at least. Nothing
  // moves while they are in view already.
  var MARGIN = 16;
  function scrollToCurrent() {
    var k = state.step;
    if (k === 0) return;
    var step = steps[k - 1], id = "op" + step.op;
    if (!drawing.boxes[id]) id = "scope" + visible.group[step.op];
    var box = drawing.boxes[id], holder = document.getElementById("graph");
    if (!box) return;
    var near = [box];
    ops[step.op].inputs.concat([step.output]).forEach(function (x) {
      if (drawing.boxes["t" + x]) near.push(drawing.boxes["t" + x]);
    });
    // Where the drawing's (0, 0) is inside the scrolled area, in pixels.
    var page = holder.getBoundingClientRect(), drawn = view.svg.getBoundingClientRect();
    var z = state.zoom;
    var origin = [drawn.left - page.left + holder.scrollLeft + SIDE * z,
                  drawn.top - page.top + holder.scrollTop + 12 * z];
    [["x", "w", "scrollLeft", "clientWidth", 0], ["y", "h", "scrollTop", "clientHeight", 1]]
      .forEach(function (axis) {
        function span(boxes) {
          var lo = Infinity, hi = -Infinity;
          boxes.forEach(function (b) {
            lo = Math.min(lo, b[axis[0]]);
            hi = Math.max(hi, b[axis[0]] + b[axis[1]]);
          });
          return [origin[axis[4]] + lo * z - MARGIN, origin[axis[4]] + hi * z + MARGIN];
        }
        var size = holder[axis[3]], at = holder[axis[2]], all = span(near), op = span([box]);
        var want = all[1] - all[0] <= size ? all : op;
        if (want[0] < at || want[1] > at + size) {
          holder[axis[2]] = (want[0] + want[1]) / 2 - size / 2;
        }
      });
  }

  // ---- 5. The panel ---------------------------------------------------------------------------

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
    box.appendChild(el("pre", {"class": "values", text: a.lines.join("\n")}));
    var head = a.head === "" ? [] : a.head.split(",").map(fourDigits);    // (every digit: below)
    if (a.size > head.length) {                   // a summary above: the first values too
      box.appendChild(el("div", {"class": "note", text: shapeText(a.shape) + " " + a.dtype +
        ", first values " + head.join(", ") + ", \u2026; norm " +
        (a.norm === null ? "-" : a.norm.toPrecision(4))}));
    }
    var flat = numbers(ref);
    if (flat === null) {
      box.appendChild(el("div", {"class": "note", text: a.size + " values: not embedded, " +
        "to keep the page small (explore's max_elements and max_bytes choose)"}));
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
    var details = el("details", {}, [el("summary", {text: "all " + a.size + " values " +
      shapeText(a.shape) + " " + a.dtype + ", exactly" + (a.norm === null ? "" :
      "; norm " + a.norm.toPrecision(6))}), el("pre", {"class": "full", text: rows.join("\n")})]);
    box.appendChild(details);
    return box;
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
    document.getElementById("counter").textContent = "step " + k + " of " + steps.length;
    if (k === 0) {
      var root = tensors[DATA.root];
      panel.appendChild(el("h2", {text: "The forward pass"}));
      panel.appendChild(el("p", {text: "Every box shows its tensor's values. The backward pass " +
        "has " + steps.length + " steps, one per op, in the order the engine runs them: press " +
        "\u2192 (next). Step 1 is the op that made the root, " + tensorName(DATA.root) + "."}));
      panel.appendChild(el("h3", {text: "The root, " + tensorName(DATA.root) + " " +
                                        shapeText(root.shape)}));
      panel.appendChild(arrayView(root.values, true));
      return;
    }
    var step = steps[k - 1], op = ops[step.op], asked = pending(k), here = questionsAt[k] || [];
    panel.appendChild(el("h2", {text: "Step " + k + ": " + op.title}));
    if (op.scope.length) panel.appendChild(el("div", {"class": "note",
                                                      text: "in " + op.scope.join(" \u203a ")}));
    panel.appendChild(el("h3", {text: "The op's rule (its docstring)"}));
    panel.appendChild(el("pre", {"class": "rule", text: op.rule.join("\n")}));
    panel.appendChild(el("h3", {text: "Arriving at its output, " + tensorName(step.output) +
                                      " " + shapeText(tensors[step.output].shape)}));
    panel.appendChild(arrayView(step.grad_y));
    panel.appendChild(el("h3", {text: "Sent back to each input"}));
    if (labelsLeft(step)) {
      panel.appendChild(el("div", {"class": "note", text: "In the graph, the arrows of the " +
        "first " + MAX_LABELS + " inputs are labelled; + " + labelsLeft(step) + " more, here."}));
    }
    op.inputs.forEach(function (x, p) {
      var t = tensors[x], box = el("div", {"class": "input"});
      box.appendChild(el("div", {"class": "name", text: "input " + p + ": " + tensorName(x) +
                                                        " " + shapeText(t.shape)}));
      if (step.grads[p] === null) {
        box.appendChild(el("div", {"class": "note", text: t.needs_grad ?
          "no gradient sent" : "needs no gradient (a constant): nothing is sent back"}));
      } else if (asked && asked.tensor === x) {       // (x * x: both of its inputs)
        box.appendChild(asked.input === p ? questionView(asked) : el("div", {"class": "note",
          text: "hidden until you answer the question about " + tensorName(x)}));
      } else {
        box.appendChild(arrayView(step.grads[p]));
        if (tensors[x].terms.length > 1) box.appendChild(termsView(x, k, p));
        here.forEach(function (q) {
          if (q.input === p && state.answers[q.id]) box.appendChild(questionView(q));
        });
      }
      panel.appendChild(box);
    });
    // A softmax's question, asked at its first op (it is about the softmax's input).
    here.forEach(function (q) {
      if (q.input === null && (q === asked || state.answers[q.id])) {
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
    box.appendChild(el("div", {text: tensorName(x) + " is " + usesText(x) + "; this is term " +
      arrived.length + " of " + terms.length + ". " +
      (done ? "Its gradient is the sum of all " + terms.length + ":" : "The sum so far:")}));
    var skipped = Math.max(0, arrived.length - MAX_TERMS), rows = [];
    arrived.forEach(function (term, n) {          // (a stack of x a thousand times: 8 rows)
      if (skipped && n === MAX_TERMS / 2) rows.push(["+ \u2026 " + skipped + " more terms", []]);
      if (skipped && n >= MAX_TERMS / 2 && n < MAX_TERMS / 2 + skipped) return;
      rows.push([(n ? "+ " : "  ") + "step " + term[0] + ": ", firstNumbers(term[1])]);
    });
    var sum = arrived[arrived.length - 1][2], grad = tensors[x].grad;
    rows.push([done ? "= " : "= so far ", firstNumbers(sum)]);
    box.appendChild(sumLines(rows, arrays[sum]));
    if (arrived.length > 1) box.appendChild(arrayView(sum));
    if (done && grad !== null && grad !== sum) {          // a hook (register_hook) changed it
      box.appendChild(el("div", {text: "That is the sum before its hooks. Its gradient, after " +
                                       "them (what backward passes on):"}));
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
      lines.unshift("each " + shapeText(a.shape) + ", its first " + SUM_SHOWN + " of " +
                    a.size + " values:");
    }
    return el("pre", {"class": "sum", text: lines.join("\n")});
  }

  // ---- 6. Predict mode ------------------------------------------------------------------------

  function questionText(q) {
    var name = tensorName(q.tensor), index = q.index.length ? "[" + q.index.join(", ") + "]"
                                                            : "";
    if (!tensors[q.tensor].name) name = "(" + name + ")";
    var what = q.span ? "(what the softmax sends back to it, through its ops of steps " +
        q.span[0] + " to " + q.span[1] + ": work it out from the gradient arriving here, at " +
        "the softmax's output, and the softmax's values)"
      : q.total && q.hooked ? "(its whole gradient, as backward hands it on: it is " +
                  usesText(q.tensor) + ", every use has now sent its term, and then its hooks " +
                  "(register_hook) change the sum)"
      : q.total ? "(its whole gradient: it is " + usesText(q.tensor) + ", and every use has " +
                  "now sent its term)"
      : "(what this op sends back to it)";
    return "Predict before you look: what is \u2202L/\u2202" + name + index + "? " + what;
  }

  // The values a question is answered from, besides the gradient arriving (shown above): the
  // op's inputs and output and, for a whole gradient, what the tensor had before this step.
  function workingValues(q) {
    var step = steps[q.step - 1], op = ops[step.op];
    var box = el("details", {"class": "working"}, [el("summary", {
      text: "the values to work from"})]);
    op.inputs.concat([step.output]).forEach(function (i, n) {
      box.appendChild(el("div", {"class": "name", text: (n < op.inputs.length ? "input " + n
        : "output") + ": " + tensorName(i) + " " + shapeText(tensors[i].shape)}));
      box.appendChild(arrayView(tensors[i].values, true));
    });
    var before = tensors[q.tensor].terms.filter(function (term) { return term[0] < q.step; });
    if (q.total && before.length) {
      box.appendChild(el("div", {"class": "name", text: "what " + tensorName(q.tensor) +
        " received before this step"}));
      box.appendChild(arrayView(before[before.length - 1][2]));
    }
    return box;
  }

  function questionView(q) {
    var box = el("div", {"class": "question"});
    box.appendChild(el("div", {text: questionText(q)}));
    var given = state.answers[q.id];
    if (!given) {
      var input = el("input", {type: "text", id: "answer", "aria-label": "your answer",
                               autocomplete: "off"});
      var check = el("button", {id: "check", text: "Check"});
      var show = el("button", {id: "reveal", text: "Show me"});
      check.addEventListener("click", function () { answer(input.value); });
      show.addEventListener("click", reveal);
      // In the box the arrow keys, Home and End move the cursor; Enter checks the answer and
      // Escape leaves the box, so that the keys step through the pass again.
      input.addEventListener("keydown", function (event) {
        if (event.key === "Enter") answer(input.value);
        else if (event.key === "Escape") input.blur();
      });
      box.appendChild(el("div", {}, [input, check, show]));
      box.appendChild(el("div", {"class": "note", id: "answer-note", text: "Within " +
        q.tolerance.toPrecision(2) + " counts as right. Enter checks; Esc leaves the box (the " +
        "\u2190 \u2192 keys step again)."}));
      box.appendChild(workingValues(q));
      return box;
    }
    var dtype = tensors[q.tensor].dtype;
    var truth = "The engine's number: " + exact(q.answer, dtype) + ".";
    var verdict = given.passed ? "Passed without an answer (the steps after it show it)."
        : given.revealed ? "Shown without an answer." : given.right
        ? "Right: " + given.value + "." : "Not quite: " + given.value + ".";
    var said = given.revealed || given.right ? truth : (given.mistake
        ? "It matches a known mistake: " + given.mistake.text + ". "
        : "It matches none of the known mistakes. ") + truth;
    box.appendChild(el("div", {"class": "feedback"}, [
      el("span", {"class": given.right ? "right" : "wrong", text: verdict}),
      document.createTextNode(" " + said)]));
    return box;
  }

  // Check an answer to the current step's question; returns what the page says, as data.
  function answer(value) {
    var q = pending(state.step);
    if (!q) return null;
    // A decimal number, maybe with an exponent (not 0xC, 0b1, Infinity: Number() reads them).
    var typed = String(value).trim().replace("\u2212", "-");
    var number = typeof value === "number" ? value
        : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(typed) ? Number(typed) : NaN;
    if (!isFinite(number)) {
      var note = document.getElementById("answer-note");
      if (note) note.textContent = "Type a number, such as 0.25 or -1.5e-3.";
      return null;
    }
    var right = Math.abs(number - q.answer) <= q.tolerance;
    var mistake = right ? null : q.mistakes.find(function (m) {
      return Math.abs(number - m.value) <= q.tolerance;
    }) || null;
    state.answers[q.id] = {value: number, right: right, mistake: mistake};
    render();
    return {right: right, mistake: mistake ? mistake.kind : null, answer: q.answer};
  }

  function reveal() {
    var q = pending(state.step);
    if (!q) return;
    state.answers[q.id] = {revealed: true, right: false, mistake: null};
    render();
  }

  function score() {
    var given = Object.keys(state.answers).map(function (k) { return state.answers[k]; });
    return {right: given.filter(function (a) { return a.right; }).length, asked: given.length,
            questions: questions.length};
  }

  // ---- 7. Controls, and the state object ----------------------------------------------------

  function render() {
    showStep();
    drawPanel();
    // A question waiting: its answer box takes the keys, so that a number typed goes there
    // (in it the arrows move the cursor; Esc leaves it, and the arrows step again).
    var box = document.getElementById("answer");
    if (box && document.activeElement !== box) box.focus();
    if (DATA.no_questions) {                 // predict mode, with nothing to ask: why
      var banner = document.getElementById("score");
      banner.hidden = false;
      banner.textContent = "Predict mode asks no question on this page: " + DATA.no_questions +
        ".";
    }
    if (questions.length) {
      var s = score(), line = document.getElementById("score");
      line.hidden = false;
      line.textContent = "Predict mode: " + s.right + " right of " +
        s.asked + " answered (" + s.questions + " questions in this pass)";
    }
    drawScopes();
  }

  // Moving on past a question left unanswered shows its answer (the later steps do): it
  // counts as shown, as "Show me" does, and coming back shows it so.
  function goto(k) {
    k = Math.max(0, Math.min(steps.length, Math.round(Number(k)) || 0));
    questions.forEach(function (q) {
      if (q.step < k && !state.answers[q.id]) {
        state.answers[q.id] = {revealed: true, passed: true, right: false, mistake: null};
      }
    });
    state.step = k;
    render();
    return k;
  }

  function clickBox(node) {
    if (node.kind === "scope") return setFolded(node.scope, false);
    if (node.kind === "op") {
      if (ops[node.op].step !== null) goto(ops[node.op].step);
      return;
    }
    var t = tensors[node.tensor];
    if (t.creator !== null && ops[t.creator].step !== null) goto(ops[t.creator].step);
    else if (t.terms.length) goto(t.terms[t.terms.length - 1][0]);
  }

  function setFolded(index, fold) {
    if (index === undefined) return;
    if (fold) state.folded.add(index); else state.folded.delete(index);
    relayout();
    render();
  }

  // Scope paths named by a name (every path ending with it) or by a path.
  function scopesNamed(scope) {
    if (Array.isArray(scope)) {
      var k = scopeIndex[pathKey(scope)];
      return k === undefined ? [] : [k];
    }
    var found = [];
    DATA.scopes.forEach(function (path, k) {
      if (path[path.length - 1] === scope) found.push(k);
    });
    return found;
  }

  function fold(scope, folded) {
    var found = scopesNamed(scope);
    if (!found.length) throw new Error("no scope " + JSON.stringify(scope));
    found.forEach(function (k) { if (folded) state.folded.add(k); else state.folded.delete(k); });
    relayout();
    render();
  }

  function drawScopes() {
    var list = document.getElementById("scopes");
    list.textContent = "";
    if (!DATA.scopes.length) {
      list.appendChild(el("div", {"class": "note", text: "This graph has no scopes."}));
      return;
    }
    DATA.scopes.forEach(function (path, k) {
      var box = el("input", {type: "checkbox"});
      box.checked = state.folded.has(k);
      box.addEventListener("change", function () { setFolded(k, box.checked); });
      var label = el("label", {}, [box]);
      label.appendChild(document.createTextNode(" " + "\u00a0\u00a0".repeat(path.length - 1) +
                                                path[path.length - 1]));
      list.appendChild(label);
    });
  }

  function current() {
    var k = state.step;
    if (k === 0) {
      return {number: 0, op: null, type: null, scope: [], output: tensorName(DATA.root),
              inputs: [], output_grad: null, input_grads: [], totals: []};
    }
    var step = steps[k - 1], op = ops[step.op];
    return {number: k, op: op.title, type: op.type, scope: op.scope.slice(),
            output: tensorName(step.output), inputs: op.inputs.map(tensorName),
            output_grad: nested(step.grad_y), input_grads: step.grads.map(nested),
            totals: step.totals.map(nested)};
  }

  function zoom(factor) {
    state.zoom = Math.max(0.2, Math.min(3, state.zoom * factor));
    setZoom();
    scrollToCurrent();
  }

  document.addEventListener("keydown", function (event) {
    var typing = event.target && event.target.tagName === "INPUT" &&
                 event.target.type === "text";
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    var moves = {ArrowRight: function () { goto(state.step + 1); },
                 ArrowLeft: function () { goto(state.step - 1); },
                 Home: function () { goto(0); }, End: function () { goto(steps.length); }};
    if (moves[event.key]) { moves[event.key](); event.preventDefault(); }
  });
  [["first", function () { goto(0); }], ["prev", function () { goto(state.step - 1); }],
   ["next", function () { goto(state.step + 1); }], ["last", function () { goto(steps.length); }],
   ["zoom-in", function () { zoom(1.25); }], ["zoom-out", function () { zoom(0.8); }]
  ].forEach(function (pair) {
    document.getElementById(pair[0]).addEventListener("click", pair[1]);
  });

  window.explorer = {
    get step() { return state.step; },
    get steps() { return steps.length; },
    next: function () { return goto(state.step + 1); },
    prev: function () { return goto(state.step - 1); },
    first: function () { return goto(0); },
    last: function () { return goto(steps.length); },
    goto: goto,
    current: current,
    fold: function (scope) { fold(scope, true); },
    unfold: function (scope) { fold(scope, false); },
    folded: function () {
      return Array.from(state.folded).sort().map(function (k) { return DATA.scopes[k]; });
    },
    question: function () {             // the one asked now, else the step's last
      var here = questionsAt[state.step] || [], q = pending(state.step) || here[here.length - 1];
      return q ? {tensor: tensorName(q.tensor), input: q.input, index: q.index.slice(),
                  total: q.total, span: q.span, answered: !!state.answers[q.id]} : null;
    },
    answer: answer,
    reveal: reveal,
    get score() { return score(); },
    boxes: function () { return visible.nodes.length; },
    ready: false,
    readyMs: null
  };

  relayout();
  render();
  window.explorer.ready = true;
  window.explorer.readyMs = performance.now();
})();
