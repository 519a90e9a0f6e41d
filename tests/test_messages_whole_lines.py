"""Under --lang ja a line is Japanese from end to end: the graders' reports of a cut graph and
of a copy made outside the graph, the training's progress within an epoch, the `wrote PATH`
lines of explore and draw. Each was English, or half English, before its words moved into the
catalogs (minigrad/messages, seq2seq/commands/messages)."""

import pytest

from minigrad.grade import SolutionFailed, grade
from minigrad.language import choose

from conftest import student_file

GRU = """
    from minigrad import Tensor

    def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
        H = h.shape[-1]
        from_x = x @ weight_ih.T + bias_ih                          # (B, 3H)
        from_h = h @ weight_hh.T + bias_hh                          # (B, 3H)
        r = (from_x[:, :H] + from_h[:, :H]).sigmoid()
        z = (from_x[:, H:2 * H] + from_h[:, H:2 * H]).sigmoid()
        n = (from_x[:, 2 * H:] + r * from_h[:, 2 * H:]).tanh()
        return (1 - z) * n + z * h
"""


def japanese_failure(tmp_path, old, new):
    choose("ja")
    with pytest.raises(SolutionFailed) as caught:
        grade("gru_cell", student_file(tmp_path, GRU.replace(old, new)))
    return str(caught.value).splitlines()


# ---- the graders ------------------------------------------------------------------------------

def test_a_cut_graph_is_reported_in_japanese_with_its_case_in_japanese(tmp_path):
    lines = japanese_failure(tmp_path, "r * from_h[:, 2 * H:]",
                             "r * Tensor(from_h.data)[:, 2 * H:]")
    assert lines[0].startswith("gru_cell: W_hn (weight_hh の 10 行目から 14 行目) に勾配が届いて"
                               "いません (ケース 1/4「one example」(")
    assert lines[0].endswith(")):")
    assert ", for " not in lines[0]
