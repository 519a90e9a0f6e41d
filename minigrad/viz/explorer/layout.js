// layout.js: where the boxes of the explorer's graph go. Plain JavaScript, no library.
//
// A layered drawing, top to bottom, as Graphviz's `dot` draws the project's static graphs
// (the method of Sugiyama et al., 1981, in its simplest form):
//   1. rank    each box gets a row; an arrow always goes down (a box sits one row above the
//              first box that uses it, so a weight sits right above the op that takes it)
//   2. route   an arrow longer than one row gets a waypoint in every row it crosses (a
//              straight stretch down that row, beside the boxes in it); the long arrows of one
//              tensor share their waypoints, as one trunk that each leaves at its own row (a
//              tensor used by a thousand ops has a thousand waypoints, not half a million)
//   3. order   within a row, boxes move to the mean position of their neighbours, sweeping
//              down and up; the order with the fewest crossing arrows is kept. An arrow ends
//              at its port, a point along the top of its box (an op's inputs in argument
//              order, left to right), and counts as crossing another by where it ends
//   4. place   each row is laid out left to right, every box as close to its neighbours' mean
//              as the boxes' widths allow (a least-squares fit, solved exactly per row), an
//              op placed so that its ports sit below the inputs they take
// Scopes nest: an unfolded scope is laid out on its own first, then moves as one big box (its
// frame) inside the layout around it. An arrow between two scopes takes the waypoints of the
// arrow between their frames, so frames never overlap and arrows go around them.
//
// layoutGraph(nodes, edges, frameWidth) takes
//   nodes       [{id, w, h, path}]   path: the scope path (names) of the frame it sits in
//   edges       [{from, to, port}]   box ids; port: where the arrow ends along the top of
//                                    its box, from 0 (left) to 1 (right); 0.5 if not given
//   frameWidth  path -> the least width of that frame (for its name)
// and returns {boxes: {id: {x, y, w, h}}, frames: [{path, x, y, w, h}],
//              routes: [[x, y], ...] one per edge: what to draw of it,
//              fullRoute(k): every point of edge k, from its box to its port,
//              width, height}   (x, y: top-left corner)
// An arrow that leaves a trunk drawn by another arrow of its tensor is drawn from where it
// leaves it: so the drawing of a tensor used a thousand times stays small. fullRoute gives the
// whole way (for the arrows of the current step).

var LAYOUT = {ROW_GAP: 34, BOX_GAP: 18, LANE_GAP: 8, FRAME_PAD: 10, FRAME_LABEL: 18,
              SWEEPS: 12, PORT_SHIFT: 0.5};    // (how far a port moves an arrow, in slots)

function layoutGraph(nodes, edges, frameWidth) {
  "use strict";
  var root = {path: [], items: [], edges: []};
  // The frames by their paths, keyed by the path's JSON in a Map: any scope name is a key of
  // its own (a name "" is not the root, "constructor" is no method of an object, and a name
  // with "\u0000" in it is not a path of two names).
  var blocks = new Map([[frameKey([]), root]]);
  function frameKey(path) { return JSON.stringify(path); }
  function frameOf(path) { return blocks.get(frameKey(path)); }

  // The frame (block) of a scope path, made with all its enclosing frames when first needed
  // (outermost first, in a loop: no recursion, however deep the scopes nest).
  function block(path) {
    var depth = path.length;
    while (depth > 0 && !blocks.has(frameKey(path.slice(0, depth)))) depth--;
    for (depth++; depth <= path.length; depth++) {
      var parent = blocks.get(frameKey(path.slice(0, depth - 1)));
      var made = {path: path.slice(0, depth), items: [], edges: [], parent: parent};
      blocks.set(frameKey(made.path), made);
      parent.items.push({block: made});
    }
    return blocks.get(frameKey(path));
  }

  var itemOf = {};                        // box id -> its item in its own block
  nodes.forEach(function (node) {
    var item = {id: node.id, w: node.w, h: node.h};
    block(node.path).items.push(item);
    itemOf[node.id] = {item: item, path: node.path};
  });

  // An arrow between boxes in different frames runs through every frame it crosses: in each
  // frame it leaves, from its box (or the frame holding it) down to an exit at the bottom; in
  // the innermost frame holding both ends, between the two items holding them; in each frame
  // it enters, from an entry at the top down to its box. The arrows of one tensor share each
  // exit and entry. So the layout of every frame keeps a lane for each arrow that crosses it.
  function holder(path, depth, id) {          // the item of frame path[:depth] holding box id
    if (path.length === depth) return itemOf[id].item;
    var child = frameOf(path.slice(0, depth + 1));
    return child.parent.items.find(function (item) { return item.block === child; });
  }
  function port(b, kind, id) {
    b.ports = b.ports || {};
    if (!b.ports[kind + id]) {
      b.ports[kind + id] = {w: 4, h: 0, port: kind};
      b.items.push(b.ports[kind + id]);
    }
    return b.ports[kind + id];
  }
  function join(b, from, to) {                // the link from one item to another, once
    from.links = from.links || new Map();
    if (!from.links.has(to)) {
      from.links.set(to, {from: from, to: to});
      b.edges.push(from.links.get(to));
    }
    return from.links.get(to);
  }
  var placed = edges.map(function (edge) {
    var a = itemOf[edge.from].path, b = itemOf[edge.to].path, depth = 0, d, inner;
    while (depth < a.length && depth < b.length && a[depth] === b[depth]) depth++;
    var legs = [];                            // [frame, link, its exit or entry], in order
    for (d = a.length; d > depth; d--) {
      inner = frameOf(a.slice(0, d));
      var exit = port(inner, "exit", edge.from);
      legs.push([inner, join(inner, holder(a, d, edge.from), exit), exit]);
    }
    var owner = frameOf(a.slice(0, depth));
    legs.push([owner, join(owner, holder(a, depth, edge.from), holder(b, depth, edge.to)), null]);
    for (d = depth + 1; d <= b.length; d++) {
      inner = frameOf(b.slice(0, d));
      var entry = port(inner, "entry", edge.from);
      legs.push([inner, join(inner, entry, holder(b, d, edge.to)), entry]);
    }
    // The last link ends at the box itself: at the mean of the ports of the arrows it carries
    // (x * x: one link, two arrows, to ports 1/3 and 2/3).
    var last = legs[legs.length - 1][1], at = edge.port === undefined ? 0.5 : edge.port;
    last.ports = (last.ports || []).concat([at]);
    last.port = last.ports.reduce(function (m, q) { return m + q; }, 0) / last.ports.length;
    return {edge: edge, legs: legs, port: at};
  });

  // The frames innermost first (each after every frame inside it), laid out in that order: a
  // frame's layout needs the sizes of the frames in it. A loop, not recursion.
  var inward = [root];
  for (var f = 0; f < inward.length; f++) {
    inward[f].items.forEach(function (item) { if (item.block) inward.push(item.block); });
  }
  for (f = inward.length - 1; f >= 0; f--) {
    layoutBlock(inward[f], frameWidth || function () { return 40; });
  }
  var boxes = {}, frames = [];
  root.x0 = 0; root.y0 = 0;
  inward.forEach(place);              // outermost first: a frame's origin before its items

  // Absolute positions: the frame's own items, and the origins of the frames in it.
  function place(b) {
    var x0 = b.x0, y0 = b.y0;
    b.items.forEach(function (item) {
      if (item.block) {
        frames.push({path: item.block.path, x: x0 + item.x, y: y0 + item.y, w: item.w, h: item.h});
        item.block.x0 = x0 + item.x + LAYOUT.FRAME_PAD + item.block.shift;
        item.block.y0 = y0 + item.y + LAYOUT.FRAME_LABEL + LAYOUT.FRAME_PAD / 2;
      } else if (!item.port) {
        boxes[item.id] = {x: x0 + item.x, y: y0 + item.y, w: item.w, h: item.h};
      }
    });
  }

  // The points of an edge's legs from leg `first` on; with `branch`, leg `first` starts where
  // it leaves its trunk (the bottom of its last waypoint), the way there being drawn by the
  // arrow that owns the trunk.
  function legPoints(p, first, branch) {
    var points = [];
    for (var n = first; n < p.legs.length; n++) {
      var leg = p.legs[n], b = leg[0], link = leg[1];
      var gate = leg[2] && [b.x0 + leg[2].x + leg[2].w / 2, b.y0 + leg[2].y];
      var own = link.trunk.points.slice(branch && n === first ? 2 * link.depth - 1 : 0,
                                        2 * link.depth);
      if (gate && leg[2].port === "entry" && !(branch && n === first)) points.push(gate);
      own.forEach(function (q) { points.push([b.x0 + q[0], b.y0 + q[1]]); });
      if (gate && leg[2].port === "exit") points.push(gate);
    }
    return points;
  }
  function fullRoute(k) {
    var p = placed[k], from = boxes[p.edge.from], to = boxes[p.edge.to];
    return straighten([[from.x + from.w / 2, from.y + from.h]].concat(legPoints(p, 0, false),
                                                                       [[to.x + to.w * p.port,
                                                                         to.y]]));
  }
  var routes = placed.map(function (p, k) {
    var branch = -1;
    p.legs.forEach(function (leg, n) {
      if (leg[1].depth > 0 && leg[1].trunk.owner !== leg[1]) branch = n;
    });
    if (branch < 0) return fullRoute(k);
    var to = boxes[p.edge.to];
    return straighten(legPoints(p, branch, true).concat([[to.x + to.w * p.port, to.y]]));
  });
  return {boxes: boxes, frames: frames, routes: routes, fullRoute: fullRoute, width: root.w,
          height: root.h};
}

// A route without the waypoints that lie on a straight vertical line between their neighbours
// (a long trunk is one stretch, not a point in every row).
function straighten(points) {
  "use strict";
  return points.filter(function (q, k) {
    if (k === 0 || k === points.length - 1) return true;
    var p = points[k - 1], r = points[k + 1];
    return !(Math.abs(p[0] - q[0]) < 0.5 && Math.abs(r[0] - q[0]) < 0.5);
  });
}

// Lay out one frame's items (boxes, and frames already laid out: layoutGraph lays out the
// innermost first), setting item.x, item.y (top-left, in the frame's own coordinates), the
// waypoints of its edges, and b.w, b.h.
function layoutBlock(b, frameWidth) {
  "use strict";
  b.items.forEach(function (item) {
    if (!item.block) return;
    var inner = Math.max(item.block.w, frameWidth(item.block.path) - 2 * LAYOUT.FRAME_PAD);
    item.block.shift = (inner - item.block.w) / 2;      // a narrow content sits centred
    item.w = inner + 2 * LAYOUT.FRAME_PAD;
    item.h = item.block.h + LAYOUT.FRAME_LABEL + LAYOUT.FRAME_PAD;
  });
  var items = b.items, n = items.length;
  items.forEach(function (item, i) { item.index = i; });
  var links = b.edges;

  // 1. Rank. Arrows that would close a cycle (scopes used, left and entered again) are turned
  // round for the ranking; then each item sits one row above the first item that uses it.
  var succ = items.map(function () { return []; });
  var onStack = new Array(n).fill(0);                 // 0 new, 1 on the stack, 2 done
  var outgoing = items.map(function () { return []; });
  links.forEach(function (link) { outgoing[link.from.index].push(link); });
  for (var s = 0; s < n; s++) {
    if (onStack[s]) continue;
    var stack = [[s, 0]];
    onStack[s] = 1;
    while (stack.length) {
      var top = stack[stack.length - 1], v = top[0];
      if (top[1] < outgoing[v].length) {
        var link = outgoing[v][top[1]++], w = link.to.index;
        link.reversed = onStack[w] === 1;
        if (link.reversed) succ[w].push(v); else succ[v].push(w);
        if (!onStack[w]) { onStack[w] = 1; stack.push([w, 0]); }
      } else { onStack[v] = 2; stack.pop(); }
    }
  }
  var below = new Array(n).fill(-1);                  // longest path down to a sink
  function depth(v) {                                  // iterative: no recursion limit
    var todo = [v];
    while (todo.length) {
      var u = todo[todo.length - 1];
      if (below[u] >= 0) { todo.pop(); continue; }      // (reached twice)
      var pending = succ[u].filter(function (w) { return below[w] < 0; });
      if (pending.length) {                              // one by one: push.apply would
        pending.forEach(function (w) { todo.push(w); });  // overflow the stack at 100,000
        continue;
      }
      todo.pop();
      below[u] = succ[u].reduce(function (m, w) { return Math.max(m, below[w] + 1); }, 0);
    }
  }
  for (var i = 0; i < n; i++) if (below[i] < 0) depth(i);
  // (Math.max.apply over 100,000 rows overflows the stack: a reduce does not.)
  var rows = below.reduce(function (m, r) { return Math.max(m, r); }, 0) + 1;
  // Counted from the bottom, so that every item sits one row above its first user; the
  // entries of arrows coming in from outside the frame sit in a row of their own, on top.
  var entries = items.some(function (item) { return item.port === "entry"; }) ? 1 : 0;
  items.forEach(function (item, i) {
    item.rank = item.port === "entry" ? 0 : rows - 1 - below[i] + entries;
  });
  rows += entries;

  // 2. Route: a chain of waypoints (zero-height dummies) for every row an arrow crosses.
  var layers = [];
  for (var r = 0; r < rows; r++) layers.push([]);
  // Each vertex keeps its neighbours in the rows above and below (up, down) and where each
  // arrow ends: upAt[k], the port on the vertex itself of the arrow from up[k]; downAt[k], the
  // port on down[k] of the arrow to it (0.5: the middle; a waypoint's is always the middle).
  function vertex(fields) {
    fields.up = []; fields.down = []; fields.upAt = []; fields.downAt = [];
    return fields;
  }
  function connect(u, v, at) {
    u.down.push(v); u.downAt.push(at);
    v.up.push(u); v.upAt.push(at);
  }
  var all = items.map(function (item) {
    return vertex({item: item, w: item.w, order: item.index});
  });
  all.forEach(function (v) { layers[v.item.rank].push(v); });
  // A trunk: the waypoints below one item, one per row, shared by its arrows (an arrow turned
  // round has one of its own); each link uses the first `depth` of them, and the deepest link
  // owns the trunk (it draws it).
  var trunks = {}, allTrunks = [];
  links.forEach(function (link) {
    var a = all[link.from.index], z = all[link.to.index];
    if (link.reversed) { var t = a; a = z; z = t; }
    var trunk = link.reversed ? null : trunks[a.item.index];
    if (!trunk) {
      trunk = {waypoints: [], reversed: link.reversed, owner: null};
      if (!link.reversed) trunks[a.item.index] = trunk;
      allTrunks.push(trunk);
    }
    var above = a, depth = 0;
    for (var row = a.item.rank + 1; row < z.item.rank; row++, depth++) {
      if (!trunk.waypoints[depth]) {
        trunk.waypoints[depth] = vertex({w: 6, order: a.order, rank: row});
        layers[row].push(trunk.waypoints[depth]);
        connect(above, trunk.waypoints[depth], 0.5);
      }
      above = trunk.waypoints[depth];
    }
    connect(above, z, link.reversed || link.port === undefined ? 0.5 : link.port);
    link.trunk = trunk;
    link.depth = depth;
    if (!trunk.owner || trunk.owner.depth < depth) trunk.owner = link;
  });

  // 3. Order: barycentre sweeps, keeping the order with the fewest crossings.
  layers.forEach(function (layer) {
    layer.sort(function (p, q) { return p.order - q.order; });
    layer.forEach(function (v, k) { v.pos = k; });
  });
  var best = layers.map(function (layer) { return layer.slice(); });
  var fewest = crossings(layers);
  for (var sweep = 0; sweep < LAYOUT.SWEEPS && fewest > 0; sweep++) {
    var down = sweep % 2 === 0;
    for (var q = 0; q < rows; q++) {
      var layer = layers[down ? q : rows - 1 - q];
      layer.forEach(function (v) {
        var near = down ? v.up : v.down, at = down ? v.upAt : v.downAt, sum = 0;
        near.forEach(function (u, j) {                 // where the arrow to u would end
          sum += u.pos + (down ? -1 : 1) * (at[j] - 0.5) * LAYOUT.PORT_SHIFT;
        });
        v.key = near.length ? sum / near.length : v.pos;
      });
      layer.sort(function (p, q2) { return p.key - q2.key; });
      layer.forEach(function (v, k) { v.pos = k; });
    }
    var count = crossings(layers);
    if (count < fewest) {
      fewest = count;
      best = layers.map(function (l) { return l.slice(); });
    }
  }
  layers = best;
  layers.forEach(function (layer) { layer.forEach(function (v, k) { v.pos = k; }); });

  // 4. Place: left to right, then each box pulled toward its neighbours' mean.
  layers.forEach(function (layer) {
    var x = 0;
    layer.forEach(function (v, k) {
      if (k > 0) x += gap(layer[k - 1], v);
      v.x = x + v.w / 2;
      x += v.w;
    });
  });
  for (var pass = 0; pass < 8; pass++) {
    var order = pass % 2 === 0 ? layers : layers.slice().reverse();
    order.forEach(function (layer) {
      var wanted = layer.map(function (v) {           // under its inputs, over its users
        var sum = 0, count = v.up.length + v.down.length;
        v.up.forEach(function (u, j) { sum += u.x - (v.upAt[j] - 0.5) * v.w; });
        v.down.forEach(function (u, j) { sum += u.x + (v.downAt[j] - 0.5) * u.w; });
        return count ? sum / count : v.x;
      });
      fitRow(layer, wanted);
    });
  }
  var left = Infinity, right = -Infinity;
  layers.forEach(function (layer) {
    layer.forEach(function (v) {
      left = Math.min(left, v.x - v.w / 2);
      right = Math.max(right, v.x + v.w / 2);
    });
  });
  if (!isFinite(left)) { left = 0; right = 0; }

  // Rows: each as tall as its tallest box, boxes centred in it.
  var y = 0;
  layers.forEach(function (layer) {
    var height = layer.reduce(function (m, v) { return Math.max(m, v.item ? v.item.h : 0); }, 0);
    layer.forEach(function (v) {
      if (v.item) {
        v.item.x = v.x - v.w / 2 - left;
        v.item.y = v.item.port === "entry" ? y : v.item.port === "exit" ? y + height
                                                : y + (height - v.item.h) / 2;
      } else {                                      // a waypoint crosses the whole row
        v.top = y; v.bottom = y + height;
      }
    });
    y += height + LAYOUT.ROW_GAP;
  });
  allTrunks.forEach(function (trunk) {              // (a turned link runs up its trunk)
    var waypoints = trunk.reversed ? trunk.waypoints.slice().reverse() : trunk.waypoints;
    trunk.points = [];
    waypoints.forEach(function (v) {
      var x = v.x - left, ends = trunk.reversed ? [v.bottom, v.top] : [v.top, v.bottom];
      trunk.points.push([x, ends[0]], [x, ends[1]]);
    });
  });
  b.w = right - left;
  b.h = Math.max(0, y - LAYOUT.ROW_GAP);
}

// The space between two neighbours in a row: wide between boxes, narrow beside a waypoint.
function gap(v, w) {
  "use strict";
  var box = function (u) { return u.item && !u.item.port; };
  return box(v) && box(w) ? LAYOUT.BOX_GAP : LAYOUT.LANE_GAP;
}

// How many pairs of arrows cross between neighbouring rows: two arrows cross when their
// upper ends and their lower ends (ports counted) come in opposite orders. Counted as the
// inversions of the lower ends, sorted by the upper ones, with a Fenwick tree: O(E log E)
// per pair of rows (comparing every pair of arrows took minutes for a wide fan-out).
function crossings(layers) {
  "use strict";
  var total = 0;
  layers.forEach(function (layer) {
    var pairs = [];
    layer.forEach(function (v) {
      v.down.forEach(function (w, j) {
        pairs.push([v.pos, w.pos + (v.downAt[j] - 0.5) * LAYOUT.PORT_SHIFT]);
      });
    });
    if (pairs.length < 2) return;
    var ends = pairs.map(function (p) { return p[1]; }).sort(function (a, b) { return a - b; });
    var rank = new Map();
    ends.forEach(function (e) { if (!rank.has(e)) rank.set(e, rank.size + 1); });
    pairs.sort(function (p, q) { return p[0] - q[0] || p[1] - q[1]; });
    var tree = new Array(rank.size + 1).fill(0), seen = 0;
    pairs.forEach(function (p) {
      var r = rank.get(p[1]), atMost = 0, i;
      for (i = r; i > 0; i -= i & -i) atMost += tree[i];
      total += seen - atMost;                         // those before it that end right of it
      for (i = r; i <= rank.size; i += i & -i) tree[i]++;
      seen++;
    });
  });
  return total;
}

// Put the boxes of one row (in their order) as near to `wanted` (their centres) as their
// widths allow: minimise sum (x_i - wanted_i)^2 with x_(i+1) - x_i >= the two half widths
// plus a gap. With offsets o_i (the tightest packing), y_i = x_i - o_i must not decrease: an
// isotonic regression, solved exactly by pooling adjacent violators.
function fitRow(layer, wanted) {
  "use strict";
  var offsets = [], o = 0;
  layer.forEach(function (v, i) {
    if (i > 0) o += (layer[i - 1].w + v.w) / 2 + gap(layer[i - 1], v);
    offsets.push(o);
  });
  var pools = [];                                       // [mean, count]
  wanted.forEach(function (x, i) {
    pools.push([x - offsets[i], 1]);
    while (pools.length > 1 && pools[pools.length - 2][0] > pools[pools.length - 1][0]) {
      var last = pools.pop(), prev = pools[pools.length - 1];
      prev[0] = (prev[0] * prev[1] + last[0] * last[1]) / (prev[1] + last[1]);
      prev[1] += last[1];
    }
  });
  var i = 0;
  pools.forEach(function (pool) {
    for (var k = 0; k < pool[1]; k++, i++) layer[i].x = pool[0] + offsets[i];
  });
}
