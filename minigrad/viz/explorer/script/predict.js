// predict.js: predict mode (part 5 of the explorer's script; explorer.js lists the parts). A
// question before a gradient is shown, its answer checked, known mistakes recognised (Python
// computes them: minigrad/viz/explorer/mistakes.py), and the score.

function questionText(q) {
  var name = tensorName(q.tensor), index = q.index.length ? "[" + q.index.join(", ") + "]"
                                                          : "";
  if (!tensors[q.tensor].name) name = "(" + name + ")";
  var what = q.mask ? (q.span ? "(what the softmax, then the mask of step " + q.span[1] +
      ", send back to it, through steps " + q.span[0] + " to " + q.span[1] + ": work it " +
      "out from the gradient arriving here, at the softmax's output, and the softmax's values)"
      : "(what this mask sends back to it)")
    : q.span ? "(what the softmax sends back to it, through its ops of steps " +
      q.span[0] + " to " + q.span[1] + ": work it out from the gradient arriving here, at " +
      "the softmax's output, and the softmax's values)"
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
