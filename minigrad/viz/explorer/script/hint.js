// hint.js: predict mode's hint (part 6 of the explorer's script; explorer.js lists the parts),
// offered after a second wrong try: the op's rule, then the numbers it takes for the element
// asked, as the page shows them (4 significant digits): the gradient arriving and the values
// the rule multiplies. A matmul and a softmax are written out as sums over the row they read,
// and a layer norm with the whole row it takes;
// any other op gets its docstring's rule and the numbers at the positions that element touches
// (all of a broadcast axis). All of it comes from arrays the question needs (q.needs).

// The numbers a hint lists are terms the element's rule sums (a matmul's, a softmax's or a
// layer norm's row, a broadcast axis), all needed: all are written, up to this many per array;
// past it a line would run past a screen's width several times, and the rest are in "the values
// to work from" below.
var HINT_TERMS = 64;

function hintView(q) {
  var type = ops[steps[q.step - 1].op].type;
  var hint = q.span ? softmaxHint(q) : type === "MatMul" ? matmulHint(q)
           : type === "FusedLayerNorm" ? layerNormHint(q) : null;
  hint = hint || opHint(q);
  if (q.total) hint.numbers.push(beforeText(q));
  return el("div", {"class": "hint", id: "hint"}, [
    el("div", {text: say("page.hint", {})}),
    el("pre", {"class": "rule", text: [hint.rule].concat(hint.numbers.filter(Boolean))
                                        .join("\n")})]);
}

// A tensor's name in a formula: its own, else "(Mul's output)"; in brackets too when it is
// more than one word ("(q @ k^T)").
function nameIn(i) {
  var name = tensorName(i);
  return /^[\p{L}\p{N}_.]+$/u.test(name) ? name : "(" + name + ")";
}

// "name[0, :] = (1, 2, 3)": the numbers of array `ref` where `pattern` (one entry per axis:
// an index, or null for all of the axis) points; at most HINT_TERMS of them, then "...",
// saying how many there are.
function picked(name, ref, pattern) {
  var shape = arrays[ref].shape, flat = numbers(ref), found = [], cap = HINT_TERMS;
  var count = pattern.reduce(function (n, p, axis) { return p === null ? n * shape[axis] : n; },
                             1);
  (function walk(axis, at) {
    if (found.length > cap) return;
    if (axis === shape.length) { found.push(flat[at]); return; }
    var all = pattern[axis] === null, from = all ? 0 : pattern[axis];
    for (var n = from; n < (all ? shape[axis] : from + 1); n++) {
      walk(axis + 1, at * shape[axis] + n);
    }
  })(0, 0);
  var texts = found.slice(0, cap).map(fourDigits);
  if (found.length > cap) {
    texts.push(say("page.hint_more", {shown: cap, count: count}));
  }
  var many = pattern.some(function (p) { return p === null; });
  return indexed(name, pattern) + " = " + (many ? "(" + texts.join(", ") + ")" : texts[0]);
}

function indexed(name, pattern) {
  return name + (pattern.length ? "[" + pattern.map(function (p) {
    return p === null ? ":" : p;
  }).join(", ") + "]" : "");
}

// The pattern over `shape` of the positions of an array of `from` shape that `pattern` points
// at, under broadcasting (axes aligned from the right; a length-1 axis is index 0); null when
// the shapes do not broadcast so.
function aligned(pattern, from, shape) {
  if (shape.length > from.length) return null;
  var out = [];
  for (var d = 0; d < shape.length; d++) {
    var e = from.length - shape.length + d;
    if (shape[d] === 1) out.push(0);
    else if (shape[d] === from[e]) out.push(pattern[e]);
    else return null;
  }
  return out;
}

// The pattern over `out` of the positions an element (index I of `shape`) was broadcast to:
// all of each axis it was broadcast over; null when `shape` does not broadcast to `out`.
function spread(I, shape, out) {
  if (shape.length > out.length) return null;
  var pattern = [];
  for (var d = 0; d < out.length; d++) {
    var e = d - (out.length - shape.length);
    if (e >= 0 && shape[e] !== out[d] && shape[e] !== 1) return null;
    pattern.push(e < 0 || (shape[e] === 1 && out[d] !== 1) ? null : I[e]);
  }
  return pattern;
}

// Y = A @ B: dL/dA[.., i, k] = sum_j dL/dY[.., i, j] B[.., k, j] and dL/dB[.., k, j] =
// sum_i A[.., i, k] dL/dY[.., i, j], with a 1-d operand's axis left out; null when the batch
// axes are broadcast (the rule says so; the op's numbers are then left to opHint).
function matmulHint(q) {
  var step = steps[q.step - 1], op = ops[step.op], a = op.inputs[0], b = op.inputs[1];
  var sa = tensors[a].shape, sb = tensors[b].shape, I = q.index, dy = step.grad_y;
  if (sa.length > 1 && sb.length > 1 && pathKey(sa.slice(0, -2)) !== pathKey(sb.slice(0, -2))) {
    return null;
  }
  var batch = sa.length > 1 && sb.length > 1 ? I.slice(0, -2) : sa.length > 2
    ? (q.input === 0 ? I.slice(0, -2) : null) : sb.length > 2 ? (q.input === 1 ? I.slice(0, -2)
    : null) : [];
  if (batch === null) return null;                 // (a 1-d operand against a batch: summed)
  var gy = "\u2202L/\u2202" + nameIn(step.output), x = "\u2202L/\u2202" + nameIn(q.tensor);
  var A = nameIn(a), B = nameIn(b), pa, pb, py;
  if (q.input === 0) {                             // I = [.., i, k] or [k]
    var k = I[I.length - 1], i = sa.length > 1 ? [I[I.length - 2]] : [];
    pb = sb.length > 1 ? batch.concat([k, null]) : [k];
    py = batch.concat(i, sb.length > 1 ? [null] : []);
  } else {                                         // I = [.., k, j] or [k]
    var kk = sb.length > 1 ? I[I.length - 2] : I[0], j = sb.length > 1 ? [I[I.length - 1]] : [];
    pa = sa.length > 1 ? batch.concat([null, kk]) : [kk];
    py = batch.concat(sa.length > 1 ? [null] : [], j);
  }
  var summed = py.indexOf(null) >= 0, by = summed ? (q.input === 0 ? "j" : "i") : null;
  function term(name, pattern) { return indexed(name, pattern.map(function (p) {
    return p === null ? by : p; })); }
  var rule = x + indexed("", I) + " = " + (summed ? "\u03a3_" + by + " " : "") +
    (q.input === 0 ? term(gy, py) + " \u00b7 " + term(B, pb)
                   : term(A, pa) + " \u00b7 " + term(gy, py));
  var other = q.input === 0 ? picked(B, tensors[b].values, pb)
                            : picked(A, tensors[a].values, pa);
  return {rule: rule,
          numbers: [picked(gy, dy, py), other]};
}

// A softmax over the last axis, y = softmax(x): dL/dx_i = y_i (dL/dy_i - sum_j y_j dL/dy_j),
// on the row of the element asked (the gradient arriving at its output, at this step).
function softmaxHint(q) {
  var step = steps[q.step - 1], row = q.index.slice(0, -1).concat([null]);
  var y = nameIn(step.output), gy = "\u2202L/\u2202" + y, i = q.index;
  var rule = "\u2202L/\u2202" + nameIn(q.tensor) + indexed("", i) + " = " + indexed(y, i) +
    " \u00b7 (" + indexed(gy, i) + " \u2212 \u03a3_j " + indexed(y, row).replace(":", "j") +
    " \u00b7 " + indexed(gy, row).replace(":", "j") + ")" + (q.mask ? say("page.hint_then_mask",
    {step: q.span[1], rule: ops[steps[q.span[1] - 1].op].rule.join(" ")}) : "");
  return {rule: rule, numbers: [picked(gy, step.grad_y, row),
                                picked(y, tensors[step.output].values, row)]};
}

// A layer norm as one op (FusedLayerNorm), asked about x: its rule, with the backward over
// the row, and the whole row it takes: dL/dy and x of the row (mean, sigma and xhat come from
// x), and the weight. About the weight or the bias, opHint.
function layerNormHint(q) {
  var step = steps[q.step - 1], op = ops[step.op], out = step.output;
  if (q.input !== 0) return null;
  var row = q.index.slice(0, -1).concat([null]), weight = op.inputs[1];
  return {rule: say("page.hint_by_rule_row", {grad: "\u2202L/\u2202" + nameIn(q.tensor) +
                indexed("", q.index), row: indexed("", row)}) + "\n" + op.rule.join("\n"),
          numbers: [picked("\u2202L/\u2202" + nameIn(out), step.grad_y, row),
                    picked(nameIn(q.tensor), tensors[q.tensor].values, row),
                    picked(nameIn(weight), tensors[weight].values, [null])]};
}

// Any other op: its rule, and the numbers at the positions the element asked touches: the
// gradient arriving, each input's values and the output's (all of an axis it was broadcast
// over; an array whose shape does not line up with the output's is left out).
function opHint(q) {
  var step = steps[q.step - 1], op = ops[step.op], out = tensors[step.output].shape;
  var shape = tensors[q.tensor].shape, I = q.index;
  var py = spread(I, shape, out) || aligned(I, shape, out);   // (a reduction keeping its axes)
  var numbersOf = [];
  if (py !== null) {
    numbersOf.push(picked("\u2202L/\u2202" + nameIn(step.output), step.grad_y, py));
    op.inputs.concat([step.output]).forEach(function (i) {
      var p = i === q.tensor ? I : aligned(py, out, tensors[i].shape);
      if (p !== null) numbersOf.push(picked(nameIn(i), tensors[i].values, p));
    });
  }
  return {rule: say("page.hint_by_rule", {grad: "\u2202L/\u2202" + nameIn(q.tensor) +
                indexed("", I), rule: op.rule.join(" ").replace(/\s+/g, " ")}),
          numbers: numbersOf};
}

// A whole gradient: what the tensor had received before this step, at the element asked.
function beforeText(q) {
  var before = tensors[q.tensor].terms.filter(function (term) { return term[0] < q.step; });
  if (!before.length) return null;
  return say("page.hint_before", {numbers: picked("\u2202L/\u2202" + nameIn(q.tensor),
                                                  before[before.length - 1][2], q.index)});
}
