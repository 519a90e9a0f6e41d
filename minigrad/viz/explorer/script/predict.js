// predict.js: predict mode (part 5 of the explorer's script; explorer.js lists the parts). A
// question before a gradient is shown, its answer checked, known mistakes recognised (Python
// computes them: minigrad/viz/explorer/mistakes.py), and the score. A wrong try asks again:
// the second offers a hint (hint.js), the third shows the number; "Show me" shows it at any
// try. The tolerance is written only once the question asks no more.

function questionText(q) {
  // a name of several words, or with an operator, in brackets (hint.js, nameIn)
  var name = nameIn(q.tensor), index = q.index.length ? "[" + q.index.join(", ") + "]" : "";
  var span = q.span ? {first: q.span[0], last: q.span[1], mask: q.span[1]} : {};
  var what = q.mask ? say(q.span ? "page.what_masked_softmax" : "page.what_mask", span)
    : q.span ? say("page.what_softmax", span)
    : q.total ? say("page.what_total", {uses: usesText(q.tensor)})
    : say("page.what_op", {});
  return say("page.question", {name: name, index: index, what: what});
}

// The values a question is answered from, besides the gradient arriving (shown above): the
// op's inputs and output and, for a whole gradient, what the tensor had before this step.
function workingValues(q) {
  var step = steps[q.step - 1], op = ops[step.op];
  var box = el("details", {"class": "working"}, [el("summary", {
    text: say("page.working", {})})]);
  op.inputs.concat([step.output]).forEach(function (i, n) {
    box.appendChild(el("div", {"class": "name", text: say(n < op.inputs.length ? "page.input"
      : "page.output", {position: n, name: tensorName(i), shape: shapeText(tensors[i].shape)})}));
    box.appendChild(arrayView(tensors[i].values, true));
  });
  var before = tensors[q.tensor].terms.filter(function (term) { return term[0] < q.step; });
  if (q.total && before.length) {
    box.appendChild(el("div", {"class": "name", text: say("page.received_before",
                                                          {name: tensorName(q.tensor)})}));
    box.appendChild(arrayView(before[before.length - 1][2]));
  }
  return box;
}

function questionView(q) {
  var box = el("div", {"class": "question"});
  box.appendChild(el("div", {text: questionText(q)}));
  if (q.not_caught && q.not_caught.length) box.appendChild(el("div", {"class": "not-caught",
    text: say("page.not_caught", {mistakes: q.not_caught.join(say("page.not_caught_joiner",
                                                                   {}))})}));
  var given = state.answers[q.id];
  if (done(q)) {
    box.appendChild(el("div", {"class": "feedback"}, [
      el("span", {"class": given.right ? "right" : "wrong", text: verdict(given)}),
      document.createTextNode(say("page.gap", {}) + outcome(q, given))]));
    return box;
  }
  var input = el("input", {type: "text", id: "answer", "aria-label": say("page.answer_box", {}),
                           autocomplete: "off"});
  var check = el("button", {id: "check", text: say("page.check", {})});
  var show = el("button", {id: "reveal", text: say("page.show_me", {})});
  check.addEventListener("click", function () { answer(input.value); });
  show.addEventListener("click", reveal);
  // In the box the arrow keys, Home and End move the cursor; Enter checks the answer and
  // Escape leaves the box, so that the keys step through the pass again.
  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter") answer(input.value);
    else if (event.key === "Escape") input.blur();
  });
  if (given && given.tries.length) {               // the last try, and what it matched
    var last = given.mistakes[given.mistakes.length - 1], left = MAX_TRIES - given.tries.length;
    var gap = say("page.gap", {});
    box.appendChild(el("div", {"class": "feedback"}, [
      el("span", {"class": "wrong", text: say(last ? "page.close" : "page.not_quite",
                                              {number: given.tries[given.tries.length - 1]})}),
      document.createTextNode(gap + (last ? say("page.matches", {mistake: last.text})
        : say("page.matches_none", {})) + gap +
        say(left === 1 ? "page.try_again_one" : "page.try_again", {left: left}))]));
  }
  box.appendChild(el("div", {}, [input, check, show]));
  if (given && given.tries.length >= 2) box.appendChild(hintView(q));
  box.appendChild(el("div", {"class": "note", id: "answer-note",
                             text: say("page.answer_note", {})}));
  box.appendChild(workingValues(q));
  return box;
}

function verdict(given) {
  var last = given.tries[given.tries.length - 1];
  var said = {number: last, tries: given.tries.length};
  if (given.right) return say(given.tries.length > 1 ? "page.right_at_try" : "page.right", said);
  if (given.passed) return say("page.passed", said);
  if (!given.tries.length) return say("page.shown", said);
  if (given.tries.length < MAX_TRIES) {                 // "Show me" after a wrong try
    return say(given.tries.length === 1 ? "page.shown_after_one" : "page.shown_after", said);
  }
  // "close" only when the last try matched a known mistake (the sign, a missed term ...)
  return say(given.mistakes[given.mistakes.length - 1] ? "page.close" : "page.not_quite", said);
}

// What the page says once a question asks no more: the last mistake matched, the engine's
// number and, for a number typed, how close it was (now the tolerance may be written).
function outcome(q, given) {
  var truth = say("page.engine_number", {number: exact(q.answer, tensors[q.tensor].dtype)});
  var last = given.tries[given.tries.length - 1], said = truth;
  if (!given.right && given.tries.length) {
    var mistake = given.mistakes[given.mistakes.length - 1];
    said = (mistake ? say("page.matches", {mistake: mistake.text})
                    : say("page.matches_none", {})) + say("page.gap", {}) + truth;
  }
  if (given.tries.length && !given.passed) {
    said += say("page.gap", {}) + say("page.off_by", {
      off: fourDigits(Math.abs(last - q.answer)), tolerance: fourDigits(q.tolerance)});
  }
  return said;
}

// A decimal number, maybe with an exponent (not 0xC, 0b1, Infinity: Number() reads them);
// NaN for anything else.
function typedNumber(value) {
  var typed = String(value).trim().replace("\u2212", "-");
  return typeof value === "number" ? value
      : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(typed) ? Number(typed) : NaN;
}

// Check a try at the current step's question; returns what the page says, as data:
// {right, mistake: its kind or null, answer: the engine's number once the question asks no
// more (right, or the last try), else null, so that a wrong try does not give it away}.
function answer(value) {
  var q = pending(state.step);
  if (!q) return null;
  var number = typedNumber(value);
  if (!isFinite(number)) {
    var note = document.getElementById("answer-note");
    if (note) note.textContent = say("page.type_a_number", {});
    return null;
  }
  var right = Math.abs(number - q.answer) <= q.tolerance;
  var mistake = right ? null : q.mistakes.find(function (m) {
    return Math.abs(number - m.value) <= (m.tolerance || q.tolerance);
  }) || null;
  var given = record(q);
  given.tries.push(number);
  if (right) given.right = true;
  else given.mistakes.push(mistake);
  if (!right && given.tries.length >= MAX_TRIES) given.revealed = true;
  render();
  return {right: right, mistake: mistake ? mistake.kind : null,
          answer: done(q) ? q.answer : null};
}

function reveal() {
  var q = pending(state.step);
  if (!q) return;
  record(q).revealed = true;
  render();
}

// The score: right at the first try, right after a retry, of the questions asked (tried, or
// their number shown).
function score() {
  var given = questions.map(function (q) { return state.answers[q.id]; }).filter(function (a) {
    return a && (a.tries.length || a.right || a.revealed || a.passed);
  });
  return {right: given.filter(function (a) { return a.right && a.tries.length === 1; }).length,
          retried: given.filter(function (a) { return a.right && a.tries.length > 1; }).length,
          asked: given.length, questions: questions.length};
}
