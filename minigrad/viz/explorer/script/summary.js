// summary.js: predict mode's summary (part 7 of the explorer's script; explorer.js lists the
// parts): every question with the numbers typed, whether right at the first try, whether its
// number was shown, the known mistakes matched, and a tally by mistake. The page shows it
// after the last step (or with the "Summary" button), window.explorer.results() gives it as
// data, and a button saves it as JSON (a Blob link: nothing is sent anywhere), so that a
// teacher can collect a class's results.

function results() {
  var tally = [], byText = {};
  var listed = questions.map(function (q) {
    var given = state.answers[q.id] || {tries: [], mistakes: [], right: false, revealed: false,
                                        passed: false};
    var matched = given.mistakes.filter(Boolean);
    matched.forEach(function (m) {
      var key = pathKey([m.kind, m.text]);
      if (!byText[key]) tally.push(byText[key] = {kind: m.kind, text: m.text, times: 0});
      byText[key].times++;
    });
    return {step: q.step, tensor: tensorName(q.tensor), index: q.index.slice(),
            attempts: given.tries.slice(), right: given.right,
            first_try: given.right && given.tries.length === 1,
            revealed: given.revealed || given.passed, passed: given.passed,
            mistakes: matched.map(function (m) { return m.kind; })};
  });
  return {title: DATA.title || null, score: score(), questions: listed, mistakes: tally};
}

function summaryView() {
  var r = results(), box = el("div", {"class": "summary", id: "summary"});
  box.appendChild(el("h3", {text: "Summary of predict mode"}));
  box.appendChild(el("div", {text: scoreText(r.score)}));
  var lines = r.questions.map(function (q, n) {
    var what = "step " + q.step + ", \u2202L/\u2202" + nameIn(questions[n].tensor) +
               (q.index.length ? "[" + q.index.join(", ") + "]" : "") + ": ";
    var tries = q.attempts.length ? "typed " + q.attempts.join(", ") + "; " : "";
    return what + tries + (q.first_try ? "right at the first try"
      : q.right ? "right at try " + q.attempts.length : q.passed ? "passed, its number seen"
      : q.revealed ? "shown" : "not answered yet") +
      (q.mistakes.length ? " (mistakes: " + q.mistakes.join(", ") + ")" : "");
  });
  box.appendChild(el("pre", {"class": "results", text: lines.join("\n")}));
  box.appendChild(el("div", {text: r.mistakes.length ? "Known mistakes made:"
                                                     : "No known mistake made."}));
  r.mistakes.forEach(function (m) {
    box.appendChild(el("div", {"class": "note", text: m.text + ": " + m.times +
                                                      (m.times === 1 ? " time" : " times") +
                                                      " (" + m.kind + ")"}));
  });
  var save = el("button", {id: "download-results", text: "Save the results (JSON)"});
  save.addEventListener("click", download);
  box.appendChild(save);
  return box;
}

// The results as a JSON file, named after the page's title: "Week 2" -> Week-2-results.json
// (its first 60 characters: at 4 bytes a character, with -results.json, under the 255 bytes a
// file name may have).
function download() {
  var name = (DATA.title || "backprop explorer").replace(/[^\p{L}\p{N}]+/gu, "-")
    .slice(0, 60).replace(/^-+|-+$/g, "") || "backprop-explorer";
  var blob = new Blob([JSON.stringify(results(), null, 1)], {type: "application/json"});
  var link = el("a", {href: URL.createObjectURL(blob), download: name + "-results.json"});
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
}

function scoreText(s) {
  return "Predict mode: right at the first try: " + s.right + " of " + s.asked + " asked; " +
         "right after a retry: " + s.retried + " (" + s.questions + " questions in this pass)";
}
