"""minigrad's messages in English, part four: what the engine says of an op a person wrote
(minigrad.op_errors), its forward's or backward's result, which the coursework graders quote in
their verdicts. Merged into en.py's MESSAGES; Japanese: ja_ops.py, same keys."""

OPS = {
    # ---- an op's forward or backward returned what the engine cannot use ---------------------
    "op.wrote_in_place": ("; {kind}.forward wrote into an input array in place (x -= m, x[i] = v, "
                          "out=x): those arrays belong to other tensors; make a new array instead "
                          "(x = x - m)"),
    "op.set_inputs": ("{kind}.forward set self.inputs, the name the engine keeps for the op's "
                      "input tensors; save your arrays under other names (and in `saves`)"),
    "op.forward_tensor": ("{kind}.forward returned a Tensor; forward works on NumPy arrays (its "
                          "arguments are arrays, not tensors) and returns an array"),
    "op.backward_tensor": ("{op}.backward returned a Tensor; backward works on NumPy arrays and "
                           "returns arrays (return grad.data, or compute with NumPy)"),
    "op.wrong_count": ("{op}.backward returned {got} gradient(s) for {count} input(s); return a "
                       "tuple with one gradient (or None) per input"),
    "op.wrong_shape": ("{op}.backward returned a gradient of shape {got} for input {index}, which "
                       "has shape {shape}{hint}"),
    "op.broadcast_hint": ("; the input was broadcast: sum the gradient over the broadcast axes "
                          "(minigrad.ops.arithmetic.unbroadcast(grad, shape))"),
}
