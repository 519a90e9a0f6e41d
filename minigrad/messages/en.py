"""minigrad's messages in English: the command line's one-line errors (minigrad.command), the
settings' (minigrad.settings), the files' (minigrad.files, minigrad.checkpoint) and the
graders' verdicts and diagnoses (minigrad.grade); why the graders refuse a solution, in
en_refusals.py. Japanese: ja.py and ja_refusals.py, with the same keys."""

from minigrad.messages.en_ops import OPS
from minigrad.messages.en_refusals import REFUSALS
from minigrad.messages.en_tools import TOOLS

MESSAGES = {
    # ---- any command's failure, as one line (minigrad.command) --------------------------------
    "engine_demo.gradcheck": ("gradcheck: softmax(keys @ q) @ keys  -> analytic and numeric "
                              "gradients agree"),
    "engine_demo.step": "step {step:4d}  loss {loss:.4f}  accuracy {accuracy:.1%}",
    "command.error": "error: {message}",
    "command.usage": "error: {message} (see {prog} --help)",
    "command.interrupted": "interrupted",
    "command.exit_called": "error: {site} called {call}: the command did not finish",
    "command.out_of_memory": "out of memory",
    "command.recursion": "too deep a recursion ({text})",
    "command.missing_key": "missing key {key}",
    "command.no_dependency": ("{python} has no module {name!r}, which the project needs: run "
                              "the command in the project's environment (`. .venv/bin/activate` "
                              "after `make`, or .venv/bin/python -m ...), or install the project "
                              "into this one"),
    "command.no_such_file": "no such file or folder: {path!r}",
    "command.permission": "permission denied: {path!r}",
    "command.is_a_directory": "{path!r} is a folder, not a file",

    # ---- argparse's own errors, as minigrad.command.Parser reports them -----------------------
    "argparse.invalid_value": "argument {argument}: invalid {kind} value: {value}",
    "argparse.invalid_number": "argument {argument}: invalid {kind} value: {value}",
    "argparse.kind_int": "int",
    "argparse.kind_float": "float",
    "argparse.invalid_choice": "argument {argument}: invalid choice: {value} (choose from "
                               "{choices})",
    "argparse.required": "the following arguments are required: {names}",
    "argparse.unrecognized": "unrecognized arguments: {names}",
    "argparse.one_argument": "argument {argument}: expected one argument",

    # ---- a numeric setting out of its range (minigrad.settings) -------------------------------
    "setting.integer": "an integer",
    "setting.number": "a finite number",
    "setting.wanted": "{kind} {range}",
    "setting.between": "in {interval}",
    "setting.wrong_type": "must be {wanted}, got {value} ({type})",
    "setting.out_of_range": "must be {wanted}, got {value}{reason}",

    # ---- files (minigrad.files, minigrad.checkpoint) ------------------------------------------
    "files.exists": "{path} exists; pass {option} to replace it",
    "files.not_checkpoint": "{path!r} is not a minigrad checkpoint ({why}; refused)",
    "files.wrote": "wrote {path}",
    "files.wrote_drawing": "wrote {path} (and its DOT text, {dot})",
    "files.pickle": "a pickle",
    "files.not_npz": "not an .npz archive",

    # ---- the graders' command and verdict (minigrad.grade.grader) -----------------------------
    "grade.passed": "passed: {report}",
    "grade.failed": "failed: {report}",
    "grade.no_exercise": "no exercise {name!r}; the exercises are: {names}",
    "grade.directory": "{path} is a directory, not a .py file",
    "grade.not_regular": ("{path} is not a regular file (a FIFO, a device or a socket): name a "
                          ".py file"),
    "grade.no_file": "no such file: {path}",
    "grade.elsewhere": "{name} is graded by {command} {name} {path}",
    "grade.invalid_exercise": "argument exercise: invalid choice: {name!r} (choose from {names})",
    "grade.function_passed": ("{name}: {cases} cases; the outputs ({outputs}) and the gradients "
                              "with respect to {inputs} agree with the reference, and your "
                              "gradients with finite differences"),
    "grade.to_get_inputs": ("to get these inputs: from {package} import case_inputs; arrays, "
                            "settings = case_inputs({name!r}, {number})"),
    "grade.case": 'case {number} of {total}, "{label}" ({parts})',
    "grade.no_gradient_check": ("{name}: your code gave back no gradient check of every input "
                                "for {where}"),
    "grade.finite_differences": ("{name}: your backward disagrees with finite differences for "
                                 "{where}: {error}"),
    "grade.unreadable_check": ("{name}: your code gave back a gradient check the grader cannot "
                               "read, for {where}"),
    "grade.own_op": ("{name}: the output should be made by your own op (a subclass of "
                     "minigrad.Function with forward and backward, defined in your file), but it "
                     "was made by {made_by}, for {where}"),
    "grade.own_op_elsewhere": ("{made_by}, defined in {file}, not in the file graded (move it "
                               "there)"),
    "grade.no_op": "no op",
    "grade.too_long": ("{name}: your code ran for more than {limit} s without finishing the "
                       "cases (an endless loop?); grading takes a few seconds"),
    "grade.stopped": ("grading stopped by {signal}, sent to the grader while your code ran (by "
                      "your code, or from outside): no verdict"),

    # ---- the student's file: loading it, calling it (minigrad.grade.solution) -----------------
    "grade.syntax_error": "{path}, line {line}: syntax error: {error}",
    "grade.import_raised": "importing {path} raised {error}",
    "grade.defines_none": "{name}: your file defines no `{defines}`; expected {signature}",
    "grade.not_callable": "{name}: `{defines}` in your file is a {type}, not a function",
    "grade.call_raised": "{name}: calling your {defines} on {case} raised {error}",
    "grade.your_line": " (your file, line {line}: {code})",
    "grade.file_line": "your file, line {number}: {code}",
    "grade.file_line_only": "your file, line {number}",
    "grade.exit_called": "SystemExit: your code called {call}, which would stop the grading",

    # ---- comparing arrays (minigrad.grade.compare) --------------------------------------------
    "grade.output": "{name}: the output {output}",
    "grade.gradient": "{name}: the gradient with respect to {input}",
    "grade.cut": "{name}: {cut}, for {where}:",
    "grade.wrong_shape": "{what} has shape {got}, expected {expected}, for {where}",
    "grade.not_finite": ("{what} is wrong for {where}: element {element} is {value}, expected "
                         "{expected} (an overflow? a division by zero?)"),
    "grade.wrong_values": ("{what} is wrong for {where}:\n"
                           "  element {element}: yours {yours}, expected {expected} "
                           "(off by {off})\n"
                           "  {wrong} of {total} elements are off by more than atol={atol} + "
                           "rtol={rtol} * |expected|"),
    "grade.returned_count": ("{name}: your {defines} returned {count} value(s) for {where}; "
                             "expected {wanted}"),
    "grade.not_tensor": ("{name}: the output {output} is a {type}, not a minigrad Tensor, for "
                         "{where}"),

    # ---- what the graded code's process gave back (minigrad.grade.results, run_cases) --------
    "grade.the_output": "the output {output}",
    "grade.the_gradient": "the gradient with respect to {input}",
    "grade.the_returned": "the gradient of {input}",
    "grade.the_check": "gradient check",
    "grade.intermediate": "{local}",
    "grade.case_numbers": "{name} has cases 1 to {count}, not {number}",
    "grade.not_connected": ("{name}: the output {output} is not connected to the inputs (it does "
                            "not require grad) for {where}: compute it with tensor operations, "
                            "not on .data or with NumPy"),
    "grade.backward_raised": "{name}: backward through your {defines} raised {error}, for {where}",
    "grade.gradcheck_raised": "{name}: gradcheck of your {defines} raised {error}, for {where}",
    "grade.numerical_backward": ("{name}: your backward runs your forward ({forward}) again, for "
                                 "{where}: that is a numerical derivative (finite differences, "
                                 "not a derivative derived by hand). Derive dL/dx on paper and "
                                 "write it in backward with NumPy, from what forward saved on "
                                 "self."),
    "grade.again_as": "{name}, again as {function}",
    "grade.which_is": "{name}, which is {function}",
    "results.unreadable": ("{name}: your code's process gave back results the grader cannot read "
                           "(was the results file replaced?)"),
    "results.too_large": ("{name}: your code's process gave back a results file of {size}; the "
                          "grader reads at most {most} (was the results file replaced?)"),
    "results.refused": ("{name}: your code's process gave back results the grader refuses to "
                        "read: {why}"),
    "results.the_file": "the results file",
    "results.may_hold": "the {size} a result may hold",
    "results.ended": ("your code's process ended (exit status {status}) before it gave back its "
                      "results"),
    "results.stderr": "; its stderr ended with: {lines}",
    "results.crashed": "{name}: {ended} (os._exit? a crash?)",
    "results.unsealed": ("{name}: {ended} (os._exit? a crash?); a results file its seal does not "
                         "vouch for is not read"),
    "results.changed": ("{name}: your code changed what the grader's code recorded ({array}) "
                        "before it was given back"),
    "results.no_case": "{name}: your code gave back no results for {where}",
    "results.missing": "{name}: your code gave back no {what} for {where}",
    "results.not_numbers": "{name}: {what} came back as {dtype} values, not numbers, for {where}",

    # ---- the stored right answers, damaged (minigrad.grade.expected) ------------------------
    "expected.unreadable": "the grader's expected values cannot be read from {file}: {error}",
    "expected.no_member": "the grader's expected values ({file}) have no {member}",
    "expected.wrong_member": ("the grader's expected values ({file}): {member} is {dtype} "
                              "{shape}, expected float64 {wanted}"),
    "expected.any_shape": "any shape",

    # ---- where a wrong solution goes wrong (minigrad.grade.diagnose) --------------------------
    "diagnose.name_them": ("(name your intermediate results {names} as in the formulas, and the "
                           "grader says which one differs first)"),
    "diagnose.first_shape": ("{what} is the first of {names} that differs: yours has shape "
                             "{got}, the reference's {expected}"),
    "diagnose.first_values": ("{what} is the first of {names} that differs: element {element}, "
                              "yours {yours}, expected {expected} (off by {off}); {wrong} of "
                              "{total} elements are off"),
    "diagnose.check_line": "check its line, {line}",
    "diagnose.check_maker": "check the line that makes {name}",
    "diagnose.agree_one": "{names} agree with the reference: the mistake is in what comes after it",
    "diagnose.agree_many": ("{names} agree with the reference: the mistake is in what comes "
                            "after them"),
    "diagnose.output_line": ", {line}",
    "diagnose.not_found": "({names} not found among your local variables, so not compared)",
    "diagnose.joiner": ", ",
    "diagnose.and": "and",
    "diagnose.or": "or",
    "diagnose.no_gradient": "no gradient reaches {part}",
    "diagnose.cut": ("the reference's gradient there is not 0, yours is {yours}. The outputs are "
                     "right, so the graph is cut between {name} and the outputs: a value was "
                     "taken out of the graph (Tensor(t.data), t.detach(), NumPy on .data) and the "
                     "computation went on from the copy, through which no gradient flows back."),
    "diagnose.missing": "missing (None)",
    "diagnose.rows": "{block} (rows {first} to {last} of {name})",
    "diagnose.elements": "{count} of {size} elements of {name}",

    # ---- a tensor made outside the graph (minigrad.grade.diagnose, suspects) -----------------
    "diagnose.makes": ("your file, line {line} makes {named}a {shape} tensor outside the graph"
                       "{copy}{stops}. {made_by}{used}"),
    "diagnose.takes_in": ("your file, line {line} takes in a {shape} tensor from outside the "
                          "graph{copy}{stops}. Did you make a new Tensor from .data?"),
    "diagnose.named": "{name}, ",
    "diagnose.copy_of": ", a copy of {name}",
    "diagnose.stops": " that requires grad: its gradient stops there",
    "diagnose.no_flow": ": no gradient flows back from it",
    "diagnose.made_tensor": ("It is a new Tensor made from an array (t.data): compute with the "
                             "tensor itself"),
    "diagnose.made_detach": (".detach() made it, a copy cut off from the graph: use the tensor "
                             "itself"),
    "diagnose.made_array": ("It is a NumPy array that an op turned into a tensor: compute with "
                            "tensors, not on .data or with NumPy"),
    "diagnose.used_one": " (line {lines} takes it in)",
    "diagnose.used_many": " (lines {lines} take it in)",
    "diagnose.path_cut": "the outputs are right, so a path from an input to the outputs is cut:",
    "diagnose.your_backward": ("(the outputs are right: look at the backward of your {op}"
                               "{where})"),
    "diagnose.made_at": " (made at {line})",
    "diagnose.leaves_graph": ("(the outputs are right, and every op in your graph is minigrad's: "
                              "look for a value that leaves the graph, through .data or NumPy)"),

    # ---- the known mistakes of layer_norm_op's backward (minigrad.grade.layer_norm_mistakes) --
    "mistake.as_constants": ("your dL/dx is g / sigma (g = dL/dy * weight): the mean and the "
                             "variance are treated as constants, but both depend on every x_i of "
                             "the row, which adds the terms - mean(g) and - xhat * mean(g * "
                             "xhat): {right}"),
    "mistake.without_mean_term": ("the mean's term of the gradient is missing: your dL/dx is (g "
                                  "- xhat * mean(g * xhat)) / sigma; the mean depends on every "
                                  "x_i of the row, which subtracts mean(g): {right}"),
    "mistake.without_variance_term": ("the variance's term of the gradient is missing: your "
                                      "dL/dx is (g - mean(g)) / sigma; sigma depends on every "
                                      "x_i of the row, which subtracts xhat * mean(g * xhat): "
                                      "{right}"),
    "mistake.without_weight": ("weight is not multiplied into g: your dL/dx is the right formula "
                               "with g = dL/dy; y = xhat * weight + bias, so the gradient "
                               "arriving at xhat is g = dL/dy * weight: {right}"),
    "mistake.keepdims": ("dL/d{name} has shape {shape}: it is summed over the rows, but keeps "
                         "their axes (keepdims): {name} is ({size},), so its gradient is too"),
    "mistake.unsummed": ("dL/d{name} is not summed over the leading axes: yours has shape "
                         "{shape}, {sums} for every row; {name} ({size},) is broadcast over the "
                         "rows of x, so dL/d{name} = the sum of {sums} over every axis but the "
                         "last"),

    # ---- the GRU's gates, as the diagnosis names them (minigrad.grade.exercises) ---------------
    "gru.reset_gate": "the reset gate r",
    "gru.update_gate": "the update gate z",
    "gru.candidate": "the candidate state n",

    # ---- why a solution is refused (minigrad.grade.refusals, answers, ...): en_refusals.py ---
    **REFUSALS,

    # ---- files, settings, drawings and the explorer (minigrad.viz): en_tools.py -------------
    **TOOLS,

    # ---- an op a person wrote: what its forward or backward returned (op_errors): en_ops.py ---
    **OPS,
}
