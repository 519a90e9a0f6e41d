"""Debugger aids: look inside the backward pass, and find what went wrong.

    from minigrad import debug

    for step in debug.backward_steps(loss):   # the backward pass one op at a time
        print(step)
    loss.backward(break_on="Softmax")         # pdb (or $PYTHONBREAKPOINT) before Softmax.backward
    with debug.trace(): ...                   # tables of the ops, forward and backward
    with debug.detect_anomaly(): ...          # stop at the first op that makes a NaN or inf
    with debug.guard_saved(): ...             # stop when a saved array was changed in place
    print(debug.check_graph(loss))            # the first op whose backward is wrong (or None)
    with debug.record_sites(): ...            # each op made inside remembers your line
    with debug.local_names() as found: ...    # each tensor named by your variable: explore()

On tensors: `t.register_hook(fn)` sees (and may replace) t's gradient during backward, and
`t.retain_grad()` keeps `.grad` on an intermediate tensor.

steps     backward_steps, Step
trace     trace
anomaly   detect_anomaly, AnomalyError
guard     guard_saved, SavedArrayError
check     check_graph, Mismatch, GraphCheckError
watch     Watcher (the base of trace, detect_anomaly, guard_saved), record_sites
names     local_names (the names of your variables, for the explorer)
show      how tensors and arrays are written
"""

from minigrad.debug.anomaly import AnomalyError, detect_anomaly
from minigrad.debug.check import GraphCheckError, Mismatch, check_graph
from minigrad.debug.guard import SavedArrayError, guard_saved
from minigrad.debug.names import local_names
from minigrad.debug.steps import Step, backward_steps
from minigrad.debug.trace import trace
from minigrad.debug.watch import Watcher, record_sites

__all__ = ["backward_steps", "Step", "trace", "detect_anomaly", "AnomalyError", "guard_saved",
           "SavedArrayError", "check_graph", "Mismatch", "GraphCheckError", "record_sites",
           "Watcher", "local_names"]
