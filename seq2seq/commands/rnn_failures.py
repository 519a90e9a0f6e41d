"""A layer file's code that fails, said in one line that names it.

- Before a run touches its folder, `check_in_child` imports the file and checks its layer on a
  tiny batch in a child process, so that a layer which ends the process (`os._exit(0)`) is an
  error line, not a silent exit with status 0.
- A layer that passed its checks may still raise later, in training or in a later command:
  `layer_site` finds the layer file's line the error passed through, for the line that says so.

Loading the file, and the copy a run keeps of it: seq2seq.commands.rnn_file.
"""

import os
import secrets
import subprocess
import sys
import traceback
from pathlib import Path

from seq2seq.commands.messages import message
from seq2seq.commands.rnn_file import BLOCK, KINDS, RNN, RnnFileError


def layer_site(error):
    """('FILE, line N', the option that named the file): the innermost line of a layer file (one
    `load` ran in this process, for --rnn or --block) that `error` passed through, or None. A
    layer that passed its checks may still raise later, in training or in a later command: the
    line that says so should name the layer's line, not only its message ("boom"), as the one
    for a sys.exit() there does."""
    files = {getattr(module, "__file__", None): kind.option
             for name, module in list(sys.modules.items()) for kind in KINDS
             if name.startswith(f"seq2seq_{kind.entry}_")}
    mine = [f for f in traceback.extract_tb(error.__traceback__) if f.filename in files]
    if not mine:
        return None
    return (message("layer.site", file=mine[-1].filename, number=mine[-1].lineno),
            files[mine[-1].filename])


# What the child process runs: import the file, make its layer and check it on a tiny batch
# (seq2seq.models.recurrent.make_rnn; an encoder block: block_contract.check_block, with the
# run's norm and sizes, as the run will make it), whatever fails; then print the token it was
# given. No token means the layer's
# code ended the process itself. No module of the working folder stands in for another there
# (minigrad.working_folder).
_CHILD = """
import sys
del sys.path[0]                 # the working folder, which `python -c` puts first
token, spec, entry, norm_first = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "True"
try:
    from seq2seq.commands.rnn_file import BLOCK, load
    if entry == "rnn":
        from seq2seq.models.recurrent import make_rnn
        make_rnn(load(spec)[0], 3, 4)
    else:
        from seq2seq.models.block_contract import check_block
        sizes = [int(size) for size in sys.argv[5:]]     # d_model, heads, d_ff: the run's
        check_block(load(spec, kind=BLOCK)[0], norm_first, *sizes)
except BaseException:
    pass
sys.stdout.flush()
print(token, flush=True)
"""


CHECK_SECONDS = 120     # importing a layer file and one tiny batch take a second or two


def check_in_child(spec, kind=RNN, config=None):
    """Run the layer file `spec` ('PATH.py:CLASS'), and its layer's contract check, in a child
    process: a file that ends the process (os._exit, at import or in its layer's methods) is a
    RnnFileError here, before the run touches its folder. An encoder block is made with the
    run's `config` (its norm, d_model, heads and d_ff), as it will be trained: a block that ends
    the process at those sizes only is caught too. Other failures are left to the import in
    this process, whose messages say more."""
    norm_first = config is None or config.norm != "post"
    sizes = (config.d_model, config.heads, config.d_ff) if kind is BLOCK and config else ()
    token = secrets.token_hex(8)
    package = str(Path(__file__).resolve().parents[2])   # holds seq2seq/
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [package, *filter(None, [os.environ.get("PYTHONPATH")])])}
    try:
        child = subprocess.run([sys.executable, "-c", _CHILD, token, spec, kind.entry,
                                str(norm_first), *map(str, sizes)], env=env,
                               stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               errors="replace", timeout=CHECK_SECONDS)
    except subprocess.TimeoutExpired:
        raise RnnFileError(message("layer.still_running", option=kind.option, spec=spec,
                                   seconds=CHECK_SECONDS)) from None
    if token not in child.stdout:
        raise RnnFileError(message("layer.ended_process", option=kind.option, spec=spec,
                                   status=child.returncode))
