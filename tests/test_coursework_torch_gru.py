"""gru_cell graded against torch's GRU: a solution whose forward is torch's GRU cell (and whose
backward is torch.autograd.grad) runs an answer to the exercise, and fails as a solution that
runs the project's own version of a piece does."""

import pytest

from minigrad.grade import SolutionFailed, grade

from conftest import student_file

pytest.importorskip("torch")

TORCH_GRU = """
    import numpy as np
    import torch

    from minigrad import Function


    class TorchGRU(Function):
        saves = ("args", "out")

        def forward(self, x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            self.args = [torch.tensor(a, requires_grad=True)
                         for a in (x, h, weight_ih, weight_hh, bias_ih, bias_hh)]
            self.out = CALL(*self.args)
            return self.out.detach().numpy()

        def backward(self, grad_y):
            grads = torch.autograd.grad(self.out, self.args, torch.tensor(grad_y),
                                        retain_graph=True)
            return tuple(g.numpy() for g in grads)


    def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
        return TorchGRU()(x, h, weight_ih, weight_hh, bias_ih, bias_hh)
"""


@pytest.mark.parametrize("call", ["torch._VF.gru_cell", "torch.gru_cell",
                                  "lambda *a: torch.nn.functional.__dict__ and "
                                  "torch._C._VariableFunctions.gru_cell(*a)",
                                  "torch.ops.aten.gru_cell", "torch.ops.aten.gru_cell.default"])
def test_torchs_gru_cell_is_an_answer_to_gru_cell(tmp_path, call):
    path = student_file(tmp_path, TORCH_GRU.replace("CALL", f"({call})"))
    with pytest.raises(SolutionFailed) as caught:
        grade("gru_cell", path)
    assert str(caught.value).startswith(
        "gru_cell: your gru_cell runs torch.gru_cell, an answer to this exercise")
