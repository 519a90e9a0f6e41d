"""The gallery: explorer pages ready to open, in docs/pages/, made by the project's own commands.

    make pages                             every page, into docs/pages/, and its index README.md;
                                           the same pages in Japanese (`--lang ja`) into
                                           docs/pages/ja/, and their index README.ja.md
    python docs/pages.py --out FOLDER      the same, elsewhere (tests/test_pages.py does this)

Each page is written by the command the index gives for it (`python -m attention explore ...`,
called in this process with `--out` and `--overwrite` added), except the GRU cell's, which this
script builds from minigrad's ops (`gru_cell`). The two seq2seq pages explore tiny runs that this
script trains first, seeded, in a few seconds, with `python -m seq2seq train`, into a temporary
folder: no run is kept.

The same code on the same machine makes the same bytes: every command is seeded, and a page
holds no time and no path. Another CPU's BLAS kernel changes the last digits of the numbers
(and a trained run's more); tests/test_pages.py compares the pages' structure exactly and their
numbers within a tolerance, and says to run `make pages` when they differ. Run it again whenever
the explorer, or what a page shows, changes.
"""

import contextlib
import dataclasses
import io
import json
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "pages"
# Each language of the pages: the folder under OUT that holds them, and the index that lists them.
LANGS = {"en": ("", "README.md"), "ja": ("ja", "README.ja.md")}
DATA = re.compile(r'(<script type="application/json" id="explorer-data">)(.*?)(</script>)', re.S)
if str(ROOT) not in sys.path:                  # run as a script: the packages of this checkout
    sys.path.insert(0, str(ROOT))


@dataclasses.dataclass(frozen=True)
class Page:
    name: str                   # the file in docs/pages/
    shows: str                  # what a learner sees on it (the index says it)
    command: tuple = ()         # the command after `python -m`; () for a page built here
    run: str = ""               # the tiny run the command explores (RUN in `command`), or ""
    shows_ja: str = ""          # what it shows, in Japanese (README.ja.md says it)

    @property
    def trained(self):
        """A page of a trained run: its numbers move more from one machine to another."""
        return bool(self.run)

    def command_line(self, lang="en"):
        """The command that makes the page, as its index (README.md, README.ja.md) says it."""
        if lang == "ja":
            if not self.command:
                return ("python docs/pages.py   (関数 gru_page、lang='ja': GRU を作るコマンドは"
                        "ありません)")
            line = "python -m " + " ".join(self.command) + " --lang ja"
            return f"{line}   (RUN: {self.run} の実行)" if self.run else line
        if not self.command:
            return "python docs/pages.py   (its function gru_page: no command makes a GRU)"
        line = "python -m " + " ".join(self.command)
        return f"{line}   (RUN: the {self.run} run)" if self.run else line


PAGES = (
    Page("attention-step.html", "The worked example of one attention step (one query, four "
         "keys, the values 10 20 30 40): the first page of exploring-backprop.md, section 1.",
         ("attention", "explore"),
         shows_ja=("1 ステップのアテンション (注意機構) の例題 (クエリ 1 つ、キー 4 つ、"
                   "バリュー 10 20 30 40)。exploring-backprop.md の 1 節の最初のページです。")),
    Page("attention-step-predict.html", "The same step in predict mode: it asks for gradients "
         "before showing them, and names the classic mistake a wrong answer matches.",
         ("attention", "explore", "--predict"),
         shows_ja=("同じステップを予測モードで。勾配を表示する前に予測を求め、誤った答えが"
                   "一致するよくある誤りを示します。")),
    Page("attention-random.html", "Two random queries over two keys: square matrices, so a "
         "matmul's gradient transposed the wrong way has the right shape.",
         ("attention", "explore", "--random", "2", "--keys", "2"),
         shows_ja=("2 つのキーに対するランダムな 2 つのクエリ。正方行列なので、転置を間違え"
                   "た行列積の勾配も正しい形になります。")),
    Page("lstm-cell-predict.html", "One LSTM step built from primitive ops (gates i, f, g, o), "
         "in predict mode.", ("minigrad.viz", "explore", "lstm-cell", "--predict"),
         shows_ja=("基本演算で組んだ LSTM の 1 ステップ (ゲート i, f, g, o) を予測モードで。")),
    Page("gru-cell.html", "One GRU step as PyTorch's GRUCell defines it, from primitive ops, "
         "with the names r, z, n and h of the coursework's GRU exercise.",
         shows_ja=("PyTorch の GRUCell の定義どおりの GRU の 1 ステップを基本演算で。"
                   "課題の GRU 演習と同じ名前 r, z, n, h を使います。")),
    Page("lstm-decoder-step.html", "Step 0 of the decoder of a tiny LSTM translator with "
         "attention (one epoch on the reversal task), its encoder and decoder LSTM folded.",
         ("seq2seq", "explore", "RUN"), run="lstm",
         shows_ja=("アテンション付きの小さな LSTM 翻訳モデル (反転タスクで 1 エポック学習)"
                   " のデコーダのステップ 0。エンコーダとデコーダの LSTM は折りたたんであり"
                   "ます。")),
    Page("self-attention.html", "Causal self-attention with 2 heads and its residual, y = x + "
         "MultiHeadAttention(x), in predict mode: each head's softmax and scale, a masked score, "
         "the residual's input.",
         ("attention", "explore", "--self", "--heads", "2", "--causal", "--predict"),
         shows_ja=("ヘッド 2 つの因果マスク付きセルフアテンションと残差接続 y = x + MultiH"
                   "eadAttention(x) を予測モードで。各ヘッドのソフトマックスとスケール、"
                   "マスクされたスコア、残差接続の入力を問います。")),
    Page("encoder-block.html", "A whole pre-norm encoder block (layer norm, self-attention, "
         "residual, feed-forward, residual), causal, 2 heads, in predict mode.",
         ("attention", "explore", "--block", "--heads", "2", "--causal", "--predict"),
         shows_ja=("Pre-LN (pre-norm) のエンコーダブロック全体 (層正規化、セルフアテンショ"
                   "ン、残差接続、フィードフォワードネットワーク、残差接続)。因果マスク付き"
                   "、ヘッド 2 つ、予測モード。")),
    Page("transformer-decoder-step.html", "Step 0 of the decoder of a tiny Transformer "
         "translator (two epochs on the sort task: it sorts most held-out strings), in predict "
         "mode: the heads and the plumbing folded until you open them.",
         ("seq2seq", "explore", "RUN", "--predict"),
         run="transformer",
         shows_ja=("小さな Transformer 翻訳モデル (ソートタスクで 2 エポック学習: 評価用の"
                   "文字列の大半を正しくソートします) のデコーダのステップ 0 を予測モードで"
                   "。ヘッドと配線は開くまで折りたたんであります。")),
)

# The tiny runs, trained by `python -m seq2seq train` with these options (seeded): the LSTM in a
# second, the Transformer in about 5 s of CPU time, long enough that it writes the sorted digits.
RUNS = {
    "lstm": ("--task", "reverse", "--num-examples", "300", "--min-len", "3", "--max-len", "5",
             "--embed-size", "8", "--hidden-size", "16", "--batch-size", "32", "--epochs", "1",
             "--seed", "0"),
    "transformer": ("--task", "sort", "--arch", "transformer", "--d-model", "32", "--heads", "2",
                    "--d-ff", "64", "--layers", "1", "--warmup", "20", "--epochs", "2",
                    "--seed", "0"),
}


def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    """One GRU step, as PyTorch's GRUCell computes it, from primitive ops.

        r = sigmoid(x W_ir^T + b_ir + h W_hr^T + b_hr)        reset gate
        z = sigmoid(x W_iz^T + b_iz + h W_hz^T + b_hz)        update gate
        n =    tanh(x W_in^T + b_in + r * (h W_hn^T + b_hn))  candidate state
        h' = (1 - z) * n + z * h                              the new hidden state

    x: (B, I)   h: (B, H)   weight_ih: (3H, I)   weight_hh: (3H, H)   biases: (3H,), the gates'
    rows in PyTorch's order r, z, n. Returns (h', r, z, n), each (B, H).
    """
    H = h.shape[-1]
    from_x = x @ weight_ih.T + bias_ih                          # (B, 3H)
    from_h = h @ weight_hh.T + bias_hh                          # (B, 3H)
    r = (from_x[:, :H] + from_h[:, :H]).sigmoid()               # reset gate        (B, H)
    z = (from_x[:, H:2 * H] + from_h[:, H:2 * H]).sigmoid()     # update gate       (B, H)
    n = (from_x[:, 2 * H:] + r * from_h[:, 2 * H:]).tanh()      # candidate state   (B, H)
    h_new = (1 - z) * n + z * h                                 # new hidden state  (B, H)
    return h_new, r, z, n


def gru_page(input_size=2, hidden_size=2, seed=0, lang="en"):
    """The explorer of one GRU step on seeded float32 inputs and weights (uniform in
    +-1/sqrt(H), as PyTorch starts them); the root is sum(h'). `lang`: the page's language."""
    from minigrad import Tensor, scope
    from minigrad.viz import explore

    rng = np.random.default_rng(seed)
    bound = 1 / np.sqrt(hidden_size)
    shapes = {"x": (1, input_size), "h": (1, hidden_size),
              "weight_ih": (3 * hidden_size, input_size),
              "weight_hh": (3 * hidden_size, hidden_size),
              "bias_ih": (3 * hidden_size,), "bias_hh": (3 * hidden_size,)}
    leaves = {name: Tensor(rng.uniform(-bound, bound, shape).astype(np.float32) if "_" in name
                           else rng.standard_normal(shape).astype(np.float32),
                           requires_grad=True, name=name) for name, shape in shapes.items()}
    with scope("gru cell"):
        h_new, r, z, n = gru_cell(*leaves.values())
    loss = h_new.sum()
    names = {**leaves, "r": r, "z": z, "n": n, "h'": h_new, "sum(h')": loss}
    title = {"en": "One GRU step (primitive ops): backward of sum(h')",
             "ja": "GRU の 1 ステップ (基本演算): sum(h') の逆伝播"}[lang]
    return explore(loss, names=names, title=title, lang=lang)


def commands():
    """The command lines' own entry points, by the module `python -m` runs."""
    from minigrad.viz.__main__ import main as viz_main
    from attention.__main__ import main as attention_main
    from seq2seq.commands.cli import main as seq2seq_main

    return {"attention": attention_main, "minigrad.viz": viz_main, "seq2seq": seq2seq_main}


def call(main, argv):
    """Run a command's main(argv), its printing kept; a failure raises with what it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        status = main(list(argv))
    if status not in (0, None):
        raise RuntimeError(f"{' '.join(argv)} failed: {printed.getvalue().strip()}")


def build(out=OUT, pages=PAGES, log=print):
    """Write `pages` into the folder `out` (made if missing), in English, and in Japanese into
    out/ja/; and the indexes README.md and README.ja.md when every page is built. Returns the
    paths written."""
    out = Path(out)
    mains, written = commands(), {lang: [] for lang in LANGS}
    with tempfile.TemporaryDirectory() as runs:
        trained = {}
        for page in pages:
            for lang, (folder, _) in LANGS.items():
                path = out / folder / page.name
                path.parent.mkdir(parents=True, exist_ok=True)
                if not page.command:
                    gru_page(lang=lang).save(path, overwrite=True)
                else:
                    argv = list(page.command[1:]) + ["--lang", lang]
                    if page.run:
                        if page.run not in trained:
                            trained[page.run] = Path(runs) / page.run
                            call(mains["seq2seq"], ["train", *RUNS[page.run], "--no-progress",
                                                    "--out", str(trained[page.run])])
                        argv = [str(trained[page.run]) if a == "RUN" else a for a in argv]
                    call(mains[page.command[0]], [*argv, "--out", str(path), "--overwrite"])
                log(f"wrote {path.relative_to(out)} ({path.stat().st_size / 1000:.0f} KB)")
                written[lang].append(path)
    paths = [path for lang in LANGS for path in written[lang]]
    if tuple(pages) == PAGES:
        for lang, (_, name) in LANGS.items():
            index = out / name
            made = index_text if lang == "en" else index_text_ja
            index.write_text(made([page_data(path) for path in written[lang]]),
                             encoding="utf-8")
            paths.append(index)
    return paths


def page_data(path):
    """The data of the page at `path` (what `explore` put in it: ops, steps, questions...)."""
    return json.loads(DATA.search(Path(path).read_text(encoding="utf-8")).group(2))


def index_text(data):
    """docs/pages/README.md: each page, what it shows, and the command that made it; `data` is
    each page's data, in the order of PAGES."""
    lines = ["# The explorer's gallery", "",
             "Pages of the backprop explorer, ready to open in a browser, offline: download one "
             "and open it", "from disk. Each was made by the command below it (with `--out "
             "PAGE --overwrite`), run by", "`make pages` (`docs/pages.py`), which makes them "
             "all again. RUN is a tiny run that `make pages`", "trains first, in seconds:", ""]
    for run, options in RUNS.items():
        lines.append(f"- {run}: `python -m seq2seq train {' '.join(options)}`")
    lines += ["", "What each page is and how to read it: [exploring backprop in the browser]"
              "(../exploring-backprop.md). The same pages in Japanese: "
              "[README.ja.md](README.ja.md) (`--lang ja`).", ""]
    for page, made in zip(PAGES, data):
        asks = f", {len(made['questions'])} questions" if made["questions"] else ""
        lines += [f"## [{page.name}]({page.name})", "", f"{page.shows} ({len(made['steps'])} "
                  f"backward steps{asks}.)", "",
                  f"    {page.command_line()}", ""]
    return "\n".join(lines)


def index_text_ja(data):
    """docs/pages/README.ja.md: the Japanese pages (docs/pages/ja/), as index_text lists the
    English ones."""
    lines = ["# エクスプローラのギャラリー (日本語)", "",
             "逆伝播エクスプローラのページです。ブラウザでオフラインのまま開けます。"
             "ダウンロードしてディスクから開いてください。", "各ページは下に示すコマンド "
             "(`--out PAGE --overwrite` を付けたもの) で作られ、`make pages` "
             "(`docs/pages.py`) がすべて作り直します。", "RUN は `make pages` "
             "が最初に数秒で学習する小さな実行です:", ""]
    for run, options in RUNS.items():
        lines.append(f"- {run}: `python -m seq2seq train {' '.join(options)}`")
    lines += ["", "各ページの内容と読み方: [ブラウザで逆伝播を探る]"
              "(../ja/exploring-backprop.md)。English: [README.md](README.md)。", ""]
    for page, made in zip(PAGES, data):
        asks = f"、問題 {len(made['questions'])} 問" if made["questions"] else ""
        lines += [f"## [{page.name}](ja/{page.name})", "", f"{page.shows_ja} (逆伝播 "
                  f"{len(made['steps'])} ステップ{asks}。)", "",
                  f"    {page.command_line('ja')}", ""]
    return "\n".join(lines)


def main(argv=None):
    from minigrad.command import Parser, add_debug_option, debug_wanted, run

    parser = Parser(prog="python docs/pages.py", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(OUT), help="the folder for the pages (default: "
                        "docs/pages/)")
    add_debug_option(parser)
    args = parser.parse_args(argv)
    return run(lambda: build(args.out) and None, debug=debug_wanted(args))


if __name__ == "__main__":
    sys.exit(main())
