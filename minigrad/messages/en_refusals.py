"""minigrad's messages in English, part two: why the graders refuse a solution, whatever it
computes (minigrad.grade.refusals, answers, untouched, process). Merged into en.py's MESSAGES;
Japanese: ja_refusals.py, with the same keys."""

REFUSALS = {
    # ---- a solution that runs the answer (minigrad.grade.answers) -----------------------------
    "refusal.answer": ("{name}: {who} runs {answer}, an answer to this exercise (the reference, "
                       "or the project's own version of it), so it would pass whatever you "
                       "wrote. Write it yourself: reading the answer is allowed, running it is "
                       "not."),
    "refusal.importing": "your file, as it is imported,",
    "refusal.yours": "your {defines}",
    "refusal.forged_caches": ("{name}: the grader's bytecode caches were forged before this "
                              "grading ({files}): the grader may have run them, so no verdict. "
                              "They are removed; grade again."),
    "refusal.wrote_into_grader": ("{name}: the grader's own files changed while your code was "
                                  "graded ({shown}): the graded code wrote into the grader"
                                  "{caches}. Put them back (git checkout, or reinstall) before "
                                  "grading again."),
    "refusal.and_more": " and {count} more",
    "refusal.caches_removed": (" (the changed bytecode caches were removed: Python compiles "
                               "their sources again)"),
    "answer.from": "{function} (from {file})",
    "answer.again": "{answer} (again, as {function} from {file})",

    # ---- what the graded code did that the guard refused (minigrad.grade.audit) -------------
    "guard.opens": "opens {what} ({file})",
    "guard.opens_process": "opens {path}, another process's files,",
    "guard.writes_by_folder": ("writes to {path}, or could: it opens that folder, whose handle "
                               "names files"),
    "guard.writes": "writes to {path}",
    "guard.process": "starts another process ({event})",
    "guard.signal": "sends a signal to another process ({event})",
    "guard.objects": "looks through the interpreter's objects ({event})",
    "guard.interpreter": "starts another interpreter in its process (a sub-interpreter)",
    "guard.profile": "calls {event} (your file, or a module it imports)",
    "guard.code": "replaces the code of {function}",
    "guard.reads_git": ("reads {path}, a git folder's contents (every version of the project's "
                        "files),"),
    "guard.reads_outside": "reads {path}, outside the places the graded code may read,",
    "guard.replaces": "replaces {name}, which the grader's guard relies on,",
    "guard.path_object": ("names a path with an object of its own type ({type}), which could "
                          "name one file to the check and another to the call ({event})"),
    "guard.torch_past_finder": ("uses torch past the grader's finder that checks its file "
                                "functions (taken out of sys.meta_path)"),
    "guard.torch_unchecked": ("uses torch with {function} unchecked by the grader (torch "
                              "imported past its finder, or the function put back)"),
    "guard.torch_not_module": ("puts in sys.modules['torch'] something that is not torch (a "
                               "{type}), where the grader checks torch's file functions"),
    "guard.torch_lacks": ("puts in sys.modules['torch'] something that is not torch (a module "
                          "without torch.{name}), where the grader checks torch's file "
                          "functions"),
    "guard.changes": "changes {module}.{name}, the grader's own code in its process",

    # ---- the files no one may open there, as a refusal names them (minigrad.grade.process) ---
    "blocked.expected": "the grader's expected values",
    "blocked.reference": "the reference solutions",
    "blocked.expected_copy": "a copy of the grader's expected values",
    "blocked.reference_copy": "a copy of the reference solutions",
    "blocked.module": "the file of {module}",

    # ---- the failure line around a refusal (minigrad.grade.refusals) -------------------------
    "refusal.refused": "the grader refuses this: {why}",
    "refusal.refused_quietly": "the grader refuses this: it starts another process",
    "refusal.writes": ("{name}: your code {why} while it is graded: it may write files in its "
                       "own temporary folder only ({folder}), so that it cannot change the "
                       "grader, or any other code, for the next grading."),
    "refusal.other_process": ("{name}: your code {why} while it is graded: the grader's memory "
                              "holds the right answers, so the graded code may open its own "
                              "process's files under /proc only."),
    "refusal.opens": ("{name}: your code {why}, an answer to this exercise, while it is graded: "
                      "importing or reading it would pass whatever you wrote. Write it "
                      "yourself: reading the answer is allowed, running it is not."),
    "refusal.reads": ("{name}: your code {why} while it is graded: the graded code may read only "
                      "its own folder, the project's packages and installed libraries."),
    "refusal.path_object": ("{name}: your code {why} while it is graded: the grader could not "
                            "tell which file it opens or changes. Name a path with a str, bytes "
                            "or pathlib.Path."),
    "refusal.guard": ("{name}: your code {why} while it is graded: the grader could not tell "
                      "what it opens, starts or changes. Leave the standard library's "
                      "functions, and the grader's, as they are."),
    "refusal.torch": ("{name}: your code {why} while it is graded: torch's file functions open "
                      "files in C++, where only the grader's wrappers see them. Use torch as "
                      "the grader loads it."),
    "refusal.torch_modules": ("{name}: your code {why} while it is graded: torch's file "
                              "functions open files in C++, where only the grader's wrappers "
                              "see them. Leave sys.modules['torch'] as importing torch left "
                              "it."),
    "refusal.signal": ("{name}: your code {why} while it is graded: it may signal its own "
                       "process only, so that it cannot stop or kill the grader."),
    "refusal.hides": ("{name}: your code {why} while it is graded, which would hide from the "
                      "grader whether it runs an answer to this exercise. Write it yourself: "
                      "reading the answer is allowed, running it is not."),
}
