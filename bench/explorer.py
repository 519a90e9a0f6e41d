"""How big the explorer's pages are and how fast they open, against the targets it was built to:
the attention step interactive in under 1 s, a seq2seq decoder step folded to about 60 boxes
or fewer and under 2 MB.

    python bench/explorer.py                     # or: make bench
    python bench/explorer.py --loads 5 --run runs/demo

Each page is opened `--loads` times in headless Chromium (the system's, driven by Playwright);
"ready" is the page's own `window.explorer.readyMs`, from navigation start to drawn. The
seq2seq page is one decoder step of `--run`, or of a small run trained here on `reverse` when
none is given. Times depend on the machine's load: they are figures, not tests.
"""

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))          # the project, before bench/ (bench/seq2seq.py is not it)

from minigrad import Tensor
from minigrad.viz import explore

BROWSER = "/usr/bin/chromium"


def attention_page(folder):
    from attention.draw import attention_step, worked_example
    context = attention_step(*worked_example())[2]
    return explore(context, predict=True).save(folder / "attention.html")


def lstm_cell_page(folder):
    from minigrad.viz.__main__ import main
    main(["explore", "lstm-cell", "--predict", "--out", str(folder / "lstm-cell.html")])
    return folder / "lstm-cell.html"


def seq2seq_page(folder, run):
    from seq2seq.commands.cli import main
    if run is None:
        run = folder / "run"
        main(["train", "--task", "reverse", "--num-examples", "300", "--min-len", "3",
              "--max-len", "6", "--epochs", "1", "--no-progress", "--out", str(run)])
    main(["explore", str(run), "--predict", "--out", str(folder / "seq2seq.html")])
    return folder / "seq2seq.html"


def wide_page(folder):
    """One tensor feeding 1,000 ops: the layout's worst case for long arrows."""
    x = Tensor(np.arange(3.0), requires_grad=True)
    total = x * 1.0
    for k in range(2, 1001):
        total = total + x * float(k)
    return explore(total.sum()).save(folder / "wide.html")


def measure(browser, path, loads):
    times, boxes = [], None
    for _ in range(loads):
        page = browser.new_page()
        page.goto(path.as_uri())
        page.wait_for_function("window.explorer && window.explorer.ready", timeout=120_000)
        times.append(page.evaluate("window.explorer.readyMs"))
        boxes = page.evaluate("window.explorer.boxes()")
        page.close()
    return path.stat().st_size, boxes, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--run", help="a trained run for the seq2seq page")
    args = parser.parse_args()
    if shutil.which(BROWSER) is None:
        raise SystemExit(f"bench/explorer.py needs the system browser {BROWSER} (apt install "
                         "chromium)")
    from playwright.sync_api import sync_playwright
    folder = Path(tempfile.mkdtemp())
    pages = {"attention step": attention_page(folder), "lstm-cell": lstm_cell_page(folder),
             "seq2seq decoder step": seq2seq_page(folder, args.run),
             "1,000 uses of one tensor": wide_page(folder)}
    targets = {"attention step": "ready < 1,000 ms",
               "seq2seq decoder step": "<= ~60 boxes, < 2 MB"}
    print(f"{'page':26s} {'size':>10s} {'boxes':>6s} {'ready, ms (median, min)':>24s}  target")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=BROWSER)
        for name, path in pages.items():
            size, boxes, times = measure(browser, path, args.loads)
            ready = f"{statistics.median(times):.0f}, {min(times):.0f}"
            print(f"{name:26s} {size / 1000:8.0f} kB {boxes:6d} {ready:>24s}  "
                  f"{targets.get(name, '')}")
        browser.close()
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
