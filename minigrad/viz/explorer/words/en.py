"""The explorer's words in English: every sentence, label and button a learner reads on a page,
keyed (words/__init__.py says how they are used; ja.py has the same keys in Japanese).

A `{name}` in a text is filled in where it is used, by Python (`say`) or the page's script
(`say` in script/state.js); a text with no `{...}` is used as it is. Keys:

    html.*          the page's fixed parts (page.py: buttons' tips, headings, legend, keys)
    page.*          what the script writes (script/*.js)
    name.*, uses.*  how a tensor with no name of its own is called, and how it is used
    why.*           why predict mode asks nothing (predict.py, `why_none`)
    mistake.*       a known mistake, said when a wrong answer matches it (mistakes.py)
    mistake_name.*  the same in a few words, for the line of mistakes a question cannot catch
    not_caught.*    why a question cannot catch a mistake (judging.py)
    lines.*         an array summarised in a box (mean, std, min, max; a norm)
    title.*         in an op's title, how many entries of a mask are True

The rules shown for each op are the ops' own docstrings in English (data.py, `rule`); another
language gives them under rule.OpName.
"""

TEXT = {
    # ---- the page's fixed parts (page.py) ----
    "html.lang": "en",
    "html.title": "Backprop explorer",
    "html.first": "first (Home)",
    "html.back": "back (\u2190)",
    "html.next": "next (\u2192)",
    "html.last": "last (End)",
    "html.smaller": "smaller",
    "html.larger": "larger",
    "html.scopes": "Scopes (checked: folded)",
    "html.legend": "Legend",
    "html.parameter": "parameter",
    "html.input": "input (wants a gradient)",
    "html.constant": "constant (dashed arrow: no gradient flows back to it)",
    "html.root": "the root",
    "html.op": "an op",
    "html.folded": "a folded scope",
    "html.current": "the op of this step",
    "html.arriving": "the gradient arriving at its output; dashed: the inputs it sends to",
    "html.gradients": "gradients (orange: a sum still waiting for terms)",
    "html.help": "Keys: \u2192 next, \u2190 back, Home first, End last (in the answer box of "
                 "predict mode they move the cursor: Enter checks, Esc leaves the box). Click "
                 "a box to jump to its step, a folded scope to unfold it, a frame's name to "
                 "fold it. Numbers: \"all values, exactly\" shows the engine's own.",
    "html.frame": "backprop explorer",
    # ---- the graph (visible.js, graph.js) ----
    "page.grad": "grad",
    "page.grad_so_far": "grad so far",
    "page.grad_unknown": "grad ?",
    "page.not_on_path": "not on the backward path",
    "page.backward_step": "backward #{step}",
    "page.backward_steps": "backward #{first}\u2013#{last}",
    "page.folded_scope": "{name}  (folded: click to unfold)",
    "page.frame": "{name}  (click to fold)",
    "page.ops_in_scope": "{count} ops: {kinds}",
    "page.parameters_one": "1 parameter",
    "page.parameters": "{count} parameters",
    "page.numbers_one": "1 number",
    "page.numbers": "{count} numbers",
    # ---- the panel (panel.js, explorer.js) ----
    "page.counter": "step {step} of {steps}",
    "page.forward": "The forward pass",
    "page.forward_text": "Every box shows its tensor's values. The backward pass has {steps} "
                         "steps, one per op, in the order the engine runs them: press \u2192 "
                         "(next). Step 1 is the op that made the root, {root}.",
    "page.root": "The root, {root} {shape}",
    "page.step": "Step {step}: {op}",
    "page.in_scope": "in {scope}",
    "page.rule": "The op's rule (its docstring)",
    "page.arriving": "Arriving at its output, {name} {shape}",
    "page.sent_back": "Sent back to each input",
    "page.labels_left": "In the graph, the arrows of the first {shown} inputs are labelled; + "
                        "{left} more, here.",
    "page.input": "input {position}: {name} {shape}",
    "page.output": "output: {name} {shape}",
    "page.no_gradient": "no gradient sent",
    "page.constant": "needs no gradient (a constant): nothing is sent back",
    "page.hidden": "hidden until you answer the question about {name}",
    "page.summarised": "{shape} {dtype}, first values {head}, \u2026; norm {norm}",
    "page.not_embedded": "{size} values: not embedded, to keep the page small (explore's "
                         "max_elements and max_bytes choose)",
    "page.all_values": "all {size} values {shape} {dtype}, exactly",
    "page.all_values_norm": "all {size} values {shape} {dtype}, exactly; norm {norm}",
    "page.no_scopes": "This graph has no scopes.",
    "page.terms": "{name} is {uses}; this is term {term} of {terms}.",
    "page.terms_all": "Its gradient is the sum of all {terms}:",
    "page.terms_so_far": "The sum so far:",
    "page.term_step": "step {step}: ",
    "page.more_terms": "+ \u2026 {count} more terms",
    "page.sum_so_far": "= so far ",
    "page.first_values": "each {shape}, its first {shown} of {size} values:",
    "page.before_hooks": "That is the sum before its hooks. Its gradient, after them (what "
                         "backward passes on):",
    # ---- between two sentences of one text on the page (panel.js, predict.js) ----
    "page.gap": " ",
    # ---- predict mode (predict.js, explorer.js) ----
    "page.question": "Predict before you look: what is \u2202L/\u2202{name}{index}? {what}",
    "page.what_op": "(what this op sends back to it)",
    "page.what_mask": "(what this mask sends back to it)",
    "page.what_total": "(its whole gradient: it is {uses}, and every use has now sent its term)",
    "page.what_softmax": "(what the softmax sends back to it, through its ops of steps {first} "
                         "to {last}: work it out from the gradient arriving here, at the "
                         "softmax's output, and the softmax's values)",
    "page.what_masked_softmax": "(what the softmax, then the mask of step {mask}, send back to "
                                "it, through steps {first} to {last}: work it out from the "
                                "gradient arriving here, at the softmax's output, and the "
                                "softmax's values)",
    "page.working": "the values to work from",
    "page.received_before": "what {name} received before this step",
    "page.not_caught": "This question cannot catch: {mistakes}.",
    "page.not_caught_joiner": "; ",
    "page.answer_box": "your answer",
    "page.check": "Check",
    "page.show_me": "Show me",
    "page.not_quite": "Not quite: {number}.",             # a wrong number, no known mistake
    "page.close": "Not quite: {number}.",                 # a wrong number, a known mistake
    "page.matches": "It matches a known mistake: {mistake}.",
    "page.matches_none": "It matches none of the known mistakes.",
    "page.try_again_one": "Try again (1 more try before the number is shown), or press Show me.",
    "page.try_again": "Try again ({left} more tries before the number is shown), or press Show "
                      "me.",
    "page.answer_note": "Enter checks; Esc leaves the box (the \u2190 \u2192 keys step again).",
    "page.stops_here": "Step {step} asks a question first: answer it, or press Show me. The same "
                       "move again goes on past it (and shows its number); with the keys, press "
                       "Esc first to leave the answer box.",
    "page.right": "Right: {number}.",
    "page.right_at_try": "Right: {number} (at try {tries}).",
    "page.passed": "Passed without an answer (the steps after it show it).",
    "page.shown": "Shown without an answer.",
    "page.shown_after_one": "Shown after 1 try (the last: {number}).",
    "page.shown_after": "Shown after {tries} tries (the last: {number}).",
    "page.engine_number": "The engine's number: {number}.",
    "page.off_by": "Off by {off}; within {tolerance} counts as right.",
    "page.type_a_number": "Type a number, such as 0.25 or -1.5e-3.",
    "page.no_questions": "Predict mode asks no question on this page: {why}.",
    # ---- the hint (hint.js) ----
    "page.hint": "A hint: the op's rule for this element, and the numbers it takes",
    "page.hint_more": "\u2026 the first {shown} of {count}: the rest are in the values to work "
                      "from",
    "page.hint_then_mask": ", then the mask of step {step}: {rule}",
    "page.hint_by_rule_row": "{grad} by the op's rule, over the row {row}:",
    "page.hint_by_rule": "{grad} by the op's rule: {rule}",
    "page.hint_before": "plus what it received before this step: {numbers}",
    # ---- the summary (summary.js, explorer.js) ----
    "page.summary": "Summary",
    "page.hide_summary": "Hide the summary",
    "page.summary_title": "Summary of predict mode",
    "page.summary_question": "step {step}, \u2202L/\u2202{name}{index}: ",
    "page.typed": "typed {numbers}; ",
    "page.right_first": "right at the first try",
    "page.right_at": "right at try {tries}",
    "page.passed_seen": "passed, its number seen",
    "page.revealed": "shown",
    "page.not_answered": "not answered yet",
    "page.with_mistakes": " (known mistakes matched: {count})",
    "page.number_joiner": ", ",
    "page.mistakes_made": "Known mistakes made:",
    "page.no_mistakes": "No known mistake made.",
    "page.times_one": "{text}: 1 time",
    "page.times": "{text}: {times} times",
    "page.save_results": "Save the results (JSON)",
    "page.score": "Predict mode: right at the first try: {right} of {asked} asked; right after "
                  "a retry: {retried} ({questions} questions in this pass)",
    # ---- a tensor's name, and how it is used (names.py, question.py, state.js) ----
    "name.output": "{op}'s output",
    "name.leaf": "a leaf",
    "name.constant": "a constant",
    "name.input": "input {position}",
    "uses.by_ops": "used by {ops} ops",
    "uses.by_one_op": "used {times} by one op",
    "uses.by_several": "used {times}, by {ops} ops",
    "uses.twice": "twice",
    "uses.times": "{count} times",
    # ---- why predict mode asks nothing (predict.py) ----
    "why.question": "1 question",
    "why.questions": "{count} questions",
    "why.step": "step {step}",
    "why.op_at_step": "{op} at step {step}",
    "why.too_many_numbers": "the {questions} found ({where}) need arrays of up to {largest} "
                            "numbers, over max_elements={max_elements}: raise it with "
                            "max_elements={largest}",
    "why.too_many_bytes": "the {questions} found ({where}) need arrays past "
                          "max_bytes={max_bytes} of numbers: raise max_bytes",
    "why.not_finite": "its gradients hold nan or inf",
    "why.hooked": "its input has hooks",
    "why.all_not_finite": "the gradients at the ops it would ask at are not finite ({listed})",
    "why.all_hooked": "the tensors it would ask about have hooks (register_hook), which the "
                      "page cannot show ({listed})",
    "why.none_apart": "at the ops it would ask at ({listed}), no element's gradient stands "
                      "apart from the numbers the page shows already (or from zero)",
    "why.none_chosen": "no op of this graph is one predict_at chooses",
    "why.none_asked": "no op of this graph is one predict mode asks at (MatMul, Softmax, a "
                      "softmax, an input broadcast or used several times): choose ops with "
                      "predict_at=...",
    "why.no_docstring": "{op} has no docstring: read its backward",
    # ---- arrays summarised in a box (arrays.py) ----
    "lines.mean_std": "mean {mean}  std {std}",
    "lines.min_max": "min {min}  max {max}",
    "lines.norm": "{shape} norm {norm}",
    "lines.no_finite": "no finite values",
    "lines.empty": "(empty)",
    "lines.values": "{dtype} values",
    # ---- an op's title: how many entries of a mask are True (data.py, op_title) ----
    "title.all_true": "all True",
    "title.true_count": "{kept} of {size} True",
    # ---- the known mistakes (mistakes.py, judging.py) ----
    "mistake.missed_sum": "that is one term alone: {name} is {used}, and its gradient is the "
                          "sum of what each use sends back",
    "mistake.broadcast_sum": "that is one element before the sum: {name} {shape} was broadcast "
                             "to {out_shape} in the forward, so its gradient sums dL/dy over "
                             "the broadcast axes",
    "mistake.transposed": "that is a transposed matmul: for Y = A @ B, dL/dA = dL/dY @ B^T and "
                          "dL/dB = A^T @ dL/dY",
    "mistake.softmax_diagonal": "that is the diagonal of the softmax Jacobian only, y_i (1 - "
                                "y_i) dL/dy_i: every weight depends on every score, so dL/dx_i "
                                "= y_i (dL/dy_i - sum_j y_j dL/dy_j)",
    "mistake.sublayer_only": "that is what comes back through the sublayer alone: {name} is "
                             "also added to the sublayer's output (a residual, y = x + f(x)), "
                             "so dL/dy reaches it straight through the sum as well: dL/dx = "
                             "dL/dy + what f sends back",
    "mistake.scale_forgotten": "that is dL/dy passed on unscaled: the forward scaled {name} by "
                               "a constant, {scale}, so backward scales its gradient by it too",
    "mistake.norm_constants": "that takes the row's mean and variance as constants, dL/dy * "
                              "weight / sigma: both depend on every element of the row, so "
                              "dL/dx = (1/sigma) (g - mean(g) - xhat mean(g xhat)), with g = "
                              "dL/dy * weight",
    "mistake.through_mask": "that is the gradient it would get without the mask: a masked "
                            "element of {name} takes no part in the output (where(mask, "
                            "scores, -inf) keeps none of it), so its gradient is exactly 0",
    "mistake.derivative_forgotten": "that is dL/dy passed on without the slope: for y = "
                                    "sigmoid(x), dL/dx = dL/dy * y (1 - y); for y = tanh(x), "
                                    "dL/dx = dL/dy * (1 - y**2)",
    "mistake.sigmoid_as_slope": "that takes the sigmoid itself as its slope, dL/dy * y: the "
                                "slope of y = sigmoid(x) is y (1 - y), so dL/dx = dL/dy * y "
                                "(1 - y)",
    "mistake.square_forgotten": "that takes tanh's slope as 1 - y: it is 1 - y**2, so dL/dx = "
                                "dL/dy * (1 - y**2)",
    "mistake.output_for_factor": "that multiplies dL/dy by the product itself: for y = a * b, "
                                 "dL/da = dL/dy * b, the other factor",
    "mistake.own_factor": "that multiplies dL/dy by {name}'s own value: for y = a * b, dL/da = "
                          "dL/dy * b, the other factor",
    "mistake.sign": "right size, wrong sign",
    "mistake_name.missed_sum": "one term alone in place of the sum of all uses",
    "mistake_name.broadcast_sum": "one element of the gradient before the broadcast sum",
    "mistake_name.transposed": "a matmul with an operand transposed the wrong way",
    "mistake_name.softmax_diagonal": "the softmax Jacobian taken as its diagonal, y_i (1 - y_i) "
                                     "dL/dy_i",
    "mistake_name.sublayer_only": "what comes back through the sublayer alone, without dL/dy",
    "mistake_name.scale_forgotten": "dL/dy passed on unscaled",
    "mistake_name.norm_constants": "the layer norm's mean and variance taken as constants",
    "mistake_name.through_mask": "a gradient through the mask",
    "mistake_name.derivative_forgotten": "dL/dy passed on without the slope",
    "mistake_name.sigmoid_as_slope": "the sigmoid taken as its own slope, dL/dy * y",
    "mistake_name.square_forgotten": "tanh's slope taken as 1 - y",
    "mistake_name.output_for_factor": "the product in place of the other factor",
    "mistake_name.own_factor": "its own factor in place of the other one",
    "mistake_name.sign": "the wrong sign",
    "not_caught.item": "{mistake} ({why})",
    "not_caught.same": "here it gives the same number as another mistake",
    "not_caught.zero": "here it gives the right number, or 0",
}
