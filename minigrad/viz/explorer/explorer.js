// explorer.js: the backprop explorer page. Plain JavaScript, no library, no build step; the
// page needs nothing from the network. Python (minigrad/viz/explorer) writes the data: the
// graph, every tensor's values, and the steps of the engine's own backward walk. The script
// draws them and lets the learner step through. It is in parts, one topic each, that page.py
// inlines in this order, as one script in one function (they share its variables, and only
// window.explorer is seen outside):
//
//   script/state.js     the data (the JSON in the page, its arrays read back exactly), and the
//                       state (the step shown, the scopes folded, the answers given)
//   script/visible.js   what is drawn: the boxes and arrows for the scopes folded (the rules of
//                       minigrad/viz/plan.py), sized, laid out by layout.js
//   script/graph.js     the SVG, built once per layout; each step updates the gradients so far
//                       and highlights the current op
//   script/panel.js     the current op, its rule, the gradients in and out, running sums
//   script/predict.js   predict mode: a question before the gradient is shown, tries, known
//                       mistakes recognised, the score
//   script/hint.js      predict mode's hint after a second wrong try: the op's rule and its
//                       numbers for the element asked
//   script/summary.js   predict mode's summary: each question's tries, a tally by mistake, a
//                       JSON download
//   explorer.js         (this file) controls: buttons, keys, clicks, and window.explorer, the
//                       state object for tests; then the page starts
//
// window.explorer (documented in docs/exploring-backprop.md):
//   step, steps          the step shown (0: the forward pass; k: the k-th op backward visits)
//   next(), prev(), first(), last(), goto(k)
//   current()            {number, op, type, scope, output, inputs (names), output_value,
//                         input_values (the forward values), output_grad, input_grads,
//                         totals}: the engine's numbers as nested arrays (null where an array
//                         was too large to embed, or where no gradient flows)
//   fold(scope), unfold(scope), folded()      a scope name, or a path of names
//   question(), answer(number), reveal(), score, results()      predict mode (a step may ask
//                        several questions, one after the other; question() is the one asked
//                        now, with its `attempts`). answer() returns {right, mistake, answer}:
//                        `answer` is null after a wrong try that is not the last (MAX_TRIES),
//                        so that the number is not given away. score: {right (at the first
//                        try), retried (right after a retry), asked, questions}. results():
//                        each question's tries, and a tally by known mistake (summary.js)
//   boxes()              how many boxes are drawn now
//   ready, readyMs       true once drawn; milliseconds from navigation start to then

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
    banner.textContent = say("page.no_questions", {why: DATA.no_questions});
  }
  if (questions.length) {
    var line = document.getElementById("score"), toggle = el("button", {
      id: "show-summary", text: say(state.summary ? "page.hide_summary" : "page.summary", {})});
    toggle.addEventListener("click", function () { state.summary = !state.summary; render(); });
    line.hidden = false;
    line.textContent = scoreText(score()) + " ";
    line.appendChild(toggle);
    if (state.summary || state.step === steps.length) {     // after the last step, or asked
      document.getElementById("step").appendChild(summaryView());
    }
  }
  drawScopes();
}

// A question not yet answered counts as passed, its number seen, once the learner stands on
// any step from the one where the page first draws that number (seenAt) on: every later step
// draws it too. A question before that is asked again when its step is shown again.
function goto(k) {
  k = Math.max(0, Math.min(steps.length, Math.round(Number(k)) || 0));
  questions.forEach(function (q) {
    if (k >= seenAt(q) && !done(q)) record(q).passed = true;
  });
  state.step = k;
  render();
  return k;
}

// A move by the learner's hand (a key, a button, a click on a box) that would pass a question
// not yet answered stops at it first, so that one press cannot pass it unseen; the same move
// again goes on (and the numbers it draws count as seen).
function jump(k) {
  var stop = questions.filter(function (q) {
    return !done(q) && q.step >= state.step && seenAt(q) <= k;
  }).sort(function (a, b) { return a.step - b.step; })[0];
  if (!stop || state.confirm === k) {
    state.confirm = null;
    return goto(k);
  }
  state.confirm = k;
  goto(stop.step);
  var note = document.getElementById("answer-note");
  if (note) note.textContent = say("page.stops_here", {step: stop.step});
  return stop.step;
}

// The step where the page first draws the number of question q: the next one (the box of its
// tensor shows its gradient from there on); for a softmax's question, the first step of its
// ops that sends an array holding the answer (the Exp's input, shifted by a constant max, gets
// dL/dscores itself), or else the last of them, where all they send has arrived.
function seenAt(q) {
  if (!q.span) return q.step + 1;
  if (q.seen === undefined) {
    q.seen = q.span[1];
    for (var k = q.step + 1; k < q.span[1] && q.seen === q.span[1]; k++) {
      if (steps[k - 1].grads.some(function (ref) { return holdsAnswer(ref, q); })) q.seen = k;
    }
  }
  return q.seen;
}

function holdsAnswer(ref, q) {
  var shape = tensors[q.tensor].shape, flat = ref === null ? null : numbers(ref), at = 0;
  if (flat === null || arrays[ref].shape.join() !== shape.join()) return false;
  q.index.forEach(function (i, axis) { at = at * shape[axis] + i; });
  return Math.abs(flat[at] - q.answer) <= q.tolerance;
}

function clickBox(node) {
  if (node.kind === "scope") return setFolded(node.scope, false);
  if (node.kind === "op") {
    if (ops[node.op].step !== null) jump(ops[node.op].step);
    return;
  }
  var t = tensors[node.tensor];
  if (t.creator !== null && ops[t.creator].step !== null) jump(ops[t.creator].step);
  else if (t.terms.length) jump(t.terms[t.terms.length - 1][0]);
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
    list.appendChild(el("div", {"class": "note", text: say("page.no_scopes", {})}));
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
            inputs: [], output_value: nested(tensors[DATA.root].values), input_values: [],
            output_grad: null, input_grads: [], totals: []};
  }
  var step = steps[k - 1], op = ops[step.op];
  return {number: k, op: op.title, type: op.type, scope: op.scope.slice(),
          output: tensorName(step.output), inputs: op.inputs.map(tensorName),
          output_value: nested(tensors[step.output].values),
          input_values: op.inputs.map(function (i) { return nested(tensors[i].values); }),
          output_grad: nested(step.grad_y), input_grads: step.grads.map(nested),
          totals: step.totals.map(nested)};
}

function zoom(factor) {
  zoomedByHand = true;
  state.zoom = Math.max(ZOOM_LIMITS[0], Math.min(ZOOM_LIMITS[1], state.zoom * factor));
  setZoom();
  scrollToCurrent();
}

window.addEventListener("resize", function () { if (!zoomedByHand) setZoom(); });

document.addEventListener("keydown", function (event) {
  var typing = event.target && event.target.tagName === "INPUT" &&
               event.target.type === "text";
  if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
  var moves = {ArrowRight: function () { jump(state.step + 1); },
               ArrowLeft: function () { goto(state.step - 1); },
               Home: function () { goto(0); }, End: function () { jump(steps.length); }};
  if (moves[event.key]) { moves[event.key](); event.preventDefault(); }
});
[["first", function () { goto(0); }], ["prev", function () { goto(state.step - 1); }],
 ["next", function () { jump(state.step + 1); }], ["last", function () { jump(steps.length); }],
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
    return Array.from(state.folded).sort(function (a, b) { return a - b; })    // the page's order
      .map(function (k) { return DATA.scopes[k]; });
  },
  question: function () {             // the one asked now, else the step's last
    var here = questionsAt[state.step] || [], q = pending(state.step) || here[here.length - 1];
    return q ? {tensor: tensorName(q.tensor), input: q.input, index: q.index.slice(),
                total: q.total, span: q.span, answered: done(q),
                attempts: state.answers[q.id] ? state.answers[q.id].tries.slice() : []} : null;
  },
  answer: answer,
  reveal: reveal,
  get score() { return score(); },
  results: results,
  boxes: function () { return visible.nodes.length; },
  ready: false,
  readyMs: null
};

relayout();
render();
window.explorer.ready = true;
window.explorer.readyMs = performance.now();
