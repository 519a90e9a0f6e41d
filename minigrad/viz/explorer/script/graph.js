// graph.js: the graph (part 3 of the explorer's script; explorer.js lists the parts). The SVG,
// built once per layout; each step updates the gradients so far, highlights the current op,
// labels the arrows its gradients go back along, and scrolls it into view.

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
    label.textContent = say("page.frame", {name: frame.path[frame.path.length - 1]});
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
  var ref = step.grads[position], hide = hidesSend(asked, ops[step.op].inputs[position]);
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

// Until the learner zooms (- and +), the graph is drawn as wide as its column, no wider, so
// that no box runs on under the panel; zoomed in, the column scrolls.
var ZOOM_LIMITS = [0.2, 3], zoomedByHand = false;
function setZoom() {
  for (var pass = 0; pass < (zoomedByHand ? 1 : 2); pass++) {   // (the second pass: the
    if (!zoomedByHand) {                                        // room left by a scrollbar
      var room = document.getElementById("graph").clientWidth - 2;     // the first made)
      state.zoom = Math.max(ZOOM_LIMITS[0], Math.min(1, room / view.width));
    }
    view.svg.setAttribute("width", view.width * state.zoom);
    view.svg.setAttribute("height", view.height * state.zoom);
  }
}

// Scroll the graph so that the current op is in view with its inputs and its output (the
// boxes drawn for them), when they all fit; otherwise so that the op is, at least. At step 0
// (the page opens there) the root is, where backward starts, with the op that made it (step
// 1's): a model's drawing is thousands of pixels tall, and its root is at the foot. Nothing
// moves while they are in view already.
var MARGIN = 16;
function opBox(j) {             // an op's box, or that of the folded scope it is drawn in
  return drawing.boxes["op" + j] || drawing.boxes["scope" + visible.group[j]];
}
function scrollToCurrent() {
  var k = state.step, holder = document.getElementById("graph"), box, near;
  if (k === 0) {
    box = drawing.boxes["t" + DATA.root];
    near = steps.length && opBox(steps[0].op) ? [box, opBox(steps[0].op)] : [box];
  } else {
    var step = steps[k - 1];
    box = opBox(step.op);
    near = [box];
    ops[step.op].inputs.concat([step.output]).forEach(function (x) {
      if (drawing.boxes["t" + x]) near.push(drawing.boxes["t" + x]);
    });
  }
  if (!box) return;
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
