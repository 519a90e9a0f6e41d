"""The page sizes that docs/exploring-backprop.md states are the sizes the code writes today,
within 10%: a change that grows or shrinks the pages must change the tutorial too."""

import re
from pathlib import Path

import pytest

from minigrad.viz import explore
from attention.__main__ import main as attention_main
from tests.test_explorer_browser import thousand_uses_of_one_tensor

DOC = (Path(__file__).parent.parent / "docs" / "exploring-backprop.md").read_text(
    encoding="utf-8")
TOLERANCE = 0.10
UNITS = {"KB": 1e3, "MB": 1e6}


def stated(pattern):
    """The sizes in bytes that the tutorial's text matching `pattern` states (one per group of
    the form NUMBER UNIT)."""
    found = re.search(pattern, " ".join(DOC.split()))
    assert found, f"the tutorial no longer says {pattern!r}"
    return [float(number) * UNITS[unit] for number, unit in
            (group.split() for group in found.groups())]


def near(size, stated_size):
    return abs(size - stated_size) <= TOLERANCE * stated_size


def test_the_attention_pages_are_the_size_the_tutorial_says(tmp_path):
    plain, predict = stated(r"the attention page is (\d+ KB) \((\d+ KB) with `--predict`\)")
    for args, expected in [([], plain), (["--predict"], predict)]:
        out = tmp_path / f"step{len(args)}.html"
        assert attention_main(["explore", "--out", str(out), *args]) == 0
        assert near(out.stat().st_size, expected), (args, out.stat().st_size, expected)


@pytest.mark.slow
def test_the_thousand_op_page_is_the_size_the_tutorial_says(tmp_path):
    (expected,) = stated(r"5,001 boxes, a ([\d.]+ MB) page")
    size = explore(thousand_uses_of_one_tensor()).save(tmp_path / "wide.html").stat().st_size
    assert near(size, expected), (size, expected)


@pytest.mark.slow
def test_a_demo_sized_decoder_step_is_the_size_the_tutorial_says(tmp_path):
    from seq2seq.commands.draw import load_step
    from seq2seq.commands.explore import explore_decoder_step
    from seq2seq.commands.train import TrainConfig, train

    pattern = (r"is a (\d+)–(\d+) KB page showing \d+ boxes folded by default, and ([\d.]+) MB "
               r"when its LSTMs are built from primitive ops")
    found = re.search(pattern, " ".join(DOC.split()))
    assert found, f"the tutorial no longer says {pattern!r}"
    low, high = (float(found.group(k)) * UNITS["KB"] for k in (1, 2))
    composed = float(found.group(3)) * UNITS["MB"]
    for fused, size_stated in zip((True, False), ((low + high) / 2, composed)):
        out = tmp_path / f"demo-{fused}"
        train(TrainConfig(task="toy-ja-en", out=str(out), attention="dot", embed_size=32,
                          hidden_size=128, batch_size=64, epochs=1, num_examples=200,
                          bidirectional=True, fused=fused, progress=False),
              log=lambda *args: None)

        class Args:
            run, sentence = str(out), None
        translator, sentence = load_step(Args)
        page = explore_decoder_step(translator, sentence, step=1).save(tmp_path / f"{fused}.html")
        size = page.stat().st_size
        if fused:                                   # a range, as the sizes differ by sentence
            assert low * (1 - TOLERANCE) <= size <= high * (1 + TOLERANCE), (size, low, high)
        else:
            assert near(size, size_stated), (fused, size, size_stated)
