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
  box.appendChild(el("h3", {text: say("page.summary_title", {})}));
  box.appendChild(el("div", {text: scoreText(r.score)}));
  var lines = r.questions.map(function (q, n) {
    var what = say("page.summary_question", {step: q.step, name: nameIn(questions[n].tensor),
      index: q.index.length ? "[" + q.index.join(", ") + "]" : ""});
    var tries = q.attempts.length ? say("page.typed", {
      numbers: q.attempts.join(say("page.number_joiner", {}))}) : "";
    return what + tries + say(q.first_try ? "page.right_first" : q.right ? "page.right_at"
      : q.passed ? "page.passed_seen" : q.revealed ? "page.revealed" : "page.not_answered",
                              {tries: q.attempts.length}) +
      (q.mistakes.length ? say("page.with_mistakes", {count: q.mistakes.length}) : "");
  });
  box.appendChild(el("pre", {"class": "results", text: lines.join("\n")}));
  box.appendChild(el("div", {text: say(r.mistakes.length ? "page.mistakes_made"
                                                         : "page.no_mistakes", {})}));
  r.mistakes.forEach(function (m) {
    box.appendChild(el("div", {"class": "note", text: say(m.times === 1 ? "page.times_one"
                                                          : "page.times", m)}));
  });
  var save = el("button", {id: "download-results", text: say("page.save_results", {})});
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
  return say("page.score", s);
}
