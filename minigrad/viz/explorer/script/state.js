// state.js: the page's data, and the state of what it shows (part 1 of the explorer's script;
// explorer.js lists the parts). The data: the JSON Python wrote into the page, its arrays read
// back exactly, and how they are written as text. The state: the step shown, the scopes folded,
// the answers given; what each tensor shows at a step.

var DATA = JSON.parse(document.getElementById("explorer-data").textContent);
var tensors = DATA.tensors, ops = DATA.ops, steps = DATA.steps, arrays = DATA.arrays;
var questions = DATA.questions || [];

// The words of the page's language (Python's words/ table: page.*, name.*, uses.*): say(key,
// {name: value}) is the text of `key` with each {name} filled in, as Python's `say` does.
var WORDS = DATA.text;
function say(key, values) {
  if (!(key in WORDS)) throw new Error("no words for " + key);
  return WORDS[key].replace(/\{(\w+)\}/g, function (all, name) { return String(values[name]); });
}

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
  if (t.label) return t.label;          // never another tensor's (explorer/names.py)
  if (t.name) return t.name;
  if (t.creator !== null) return say("name.output", {op: ops[t.creator].type});
  return say(t.needs_grad ? "name.leaf" : "name.constant", {});
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

// ---- The state --------------------------------------------------------------------------

var state = {step: 0, folded: new Set(DATA.folded), answers: {}, zoom: 1, summary: false};
var questionsAt = {};                 // step -> its questions, in the order they are asked
questions.forEach(function (q, n) {
  q.id = n;                           // answers are kept by it
  (questionsAt[q.step] = questionsAt[q.step] || []).push(q);
});

// What the learner did with question q (state.answers[q.id], made at the first try or when
// its number is shown): {tries: the numbers typed, mistakes: the known mistake each wrong try
// matched (or null), right: the last try was right, revealed: its number was shown without
// a right answer ("Show me", or MAX_TRIES wrong tries), passed: it was stepped past and its
// number then shown (goto, in explorer.js)}.
var MAX_TRIES = 3;
function record(q) {
  if (!state.answers[q.id]) {
    state.answers[q.id] = {tries: [], mistakes: [], right: false, revealed: false, passed: false};
  }
  return state.answers[q.id];
}

// Whether question q asks no more: answered right, or its number shown.
function done(q) {
  var given = state.answers[q.id];
  return !!given && (given.right || given.revealed || given.passed);
}

// The question step k asks now (its first one not done), or null. While it waits, nothing
// on the page shows a number of its tensor at this step (boxes, arrows, panel, totals).
function pending(k) {
  return (questionsAt[k] || []).find(function (q) { return !done(q); }) || null;
}

// Whether the question waiting, q, hides what the step sends to tensor i: the asked tensor's
// term, and for a softmax built from ops (q.span) all its first op sends, which is the start
// of the chain the question asks the learner to work through.
function hidesSend(q, i) {
  return !!q && (q.tensor === i || !!q.span);
}

// What tensor i shows at step k: the sum of the terms that have arrived, as {ref, count, of};
// null before the first. Once all have, it is the tensor's gradient as the engine hands it on:
// after its hooks. The root has its gradient at step 1.
function gradientAt(i, k) {
  var t = tensors[i];
  if (i === DATA.root) return k >= 1 ? {ref: t.grad, count: 1, of: 1} : null;
  var hidden = pending(k), arrived = t.terms.filter(function (term) {
    return term[0] < k || (term[0] === k && !hidesSend(hidden, i));
  });
  if (!arrived.length) return null;
  var sum = arrived[arrived.length - 1][2], done = arrived.length === t.terms.length;
  return {ref: done && t.grad !== null ? t.grad : sum, count: arrived.length,
          of: t.terms.length};
}

// How tensor i is used, in words, from the terms it receives: "used by 2 ops", "used twice
// by one op" (x * x), "used 3 times, by 2 ops".
function usesText(i) {
  var terms = tensors[i].terms, ops = new Set(terms.map(function (term) { return term[0]; }));
  var times = terms.length === 2 ? say("uses.twice", {})
                                 : say("uses.times", {count: terms.length});
  if (ops.size === terms.length) return say("uses.by_ops", {ops: ops.size});
  return ops.size === 1 ? say("uses.by_one_op", {times: times})
                        : say("uses.by_several", {times: times, ops: ops.size});
}
