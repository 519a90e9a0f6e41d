// visible.js: what is drawn (part 2 of the explorer's script; explorer.js lists the parts).
// The boxes and arrows for the scopes folded (the rules of minigrad/viz/plan.py), their lines of
// text, their sizes, and their places (layout.js lays them out, once per set of folded scopes).

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
// folded scope and used only there is hidden, and so is a constant or a parameter used only
// there (the scope's box counts its parameters: held[scope], tensor indices).
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
    if ((t.needs_grad && t.kind !== "parameter") || !t.users.length) return true;
    var first = group[t.users[0][0]];
    return first < 0 || t.users.some(function (u) { return group[u[0]] !== first; });
  }
  var nodes = [], edges = [], seen = {}, held = {};
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
    if (!drawn(i)) {
      if (t.kind === "parameter") {
        var scope = group[t.users[0][0]];
        (held[scope] = held[scope] || []).push(i);
      }
      return;
    }
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
  return {nodes: nodes, edges: edges, group: group, held: held};
}

// The text lines of a box, each [text, css class]. Tensor boxes keep room for their
// gradient's lines from the start, so that nothing moves while stepping.
var measure = document.createElement("canvas").getContext("2d");
function textWidth(text, bold) {
  measure.font = (bold ? "bold " : "") + "11px Helvetica, Arial, sans-serif";
  return measure.measureText(text).width;
}

function gradLines(ref, partial) {
  var lines = arrays[ref].lines, head = say(partial ? "page.grad_so_far" : "page.grad", {});
  return lines.length === 1 ? [head + " " + lines[0]] : [head].concat(lines);
}

function boxLines(node, k) {
  if (node.kind === "op") {
    var op = ops[node.op];
    var when = op.step === null ? say("page.not_on_path", {})
        : say("page.backward_step", {step: op.step});
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
    var lines = [[say("page.folded_scope", {name: path[path.length - 1]}), "bold"],
                 [say("page.ops_in_scope", {count: members.length, kinds: summary}), ""]];
    var held = visible.held[node.scope] || [];
    if (held.length) lines.push([parametersText(held), ""]);
    if (numbers.length) {
      lines.push([say("page.backward_steps", {first: numbers[0],
                                              last: numbers[numbers.length - 1]}),
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

// "2 parameters: 4,160 numbers", as minigrad/viz/labels.py writes it in a drawing.
function parametersText(held) {
  var numbers = held.reduce(function (n, i) {
    return n + tensors[i].shape.reduce(function (a, b) { return a * b; }, 1);
  }, 0);
  var count = numbers.toLocaleString("en-US");
  return (held.length === 1 ? say("page.parameters_one", {})
                            : say("page.parameters", {count: held.length})) + ": " +
    (numbers === 1 ? say("page.numbers_one", {}) : say("page.numbers", {count: count}));
}

// The gradient lines of a tensor box at step k, padded to the same count at every step.
function tensorGradLines(i, k) {
  var t = tensors[i];
  if (!t.needs_grad || (t.grad === null && !t.terms.length)) return [];
  var room = reservedLines(i), now = gradientAt(i, k), lines;
  if (now === null) lines = [[say("page.grad_unknown", {}), "muted"]];
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
      return textWidth(say("page.frame", {name: path[path.length - 1]}), false) + 12;
    });
  }
  drawing = layouts[key];
  buildGraph();
}
