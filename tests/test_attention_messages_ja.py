"""The attention floor's messages in Japanese (attention/messages): `python -m attention`'s
one-line errors and what it prints, the figures' errors, and the verdicts of
`python -m attention.grade` and `python -m seq2seq.grade`, each under --lang ja (or the
language chosen as tests/test_messages.py chooses it), with the English unchanged.
conftest.py pins English for every test; these ask for Japanese."""

import pytest

from minigrad.language import choose
from attention.__main__ import main as attention_main


def run(argv, capsys, tmp_path, monkeypatch):
    """(exit status, stderr) of `python -m attention ARGV`, run in this process."""
    monkeypatch.chdir(tmp_path)
    try:
        status = attention_main(argv)
    except SystemExit as stop:                  # argparse's errors end the parser
        status = stop.code
    return status, capsys.readouterr().err


# ---- the command line's errors -------------------------------------------------------------

COMMAND_ERRORS = [
    (["demo", "--steps", "0"], "--steps must be at least 1, not 0",
     "--steps には 1 以上を指定してください (指定された値: 0)"),
    (["draw", "--keys", "3"], "--keys goes with --random; the worked example does not use it",
     "--keys は --random と一緒に使います。計算例では使いません"),
    (["draw", "--seed", "2"],
     "--seed goes with --random; the worked example has no random numbers",
     "--seed は --random と一緒に使います。計算例には乱数がありません"),
    (["explore", "--seed", "2"], "--seed goes with --random, --self or --block; the worked "
     "example has no random numbers", "--seed は --random (または --self、--block) と一緒に"
     "使います。計算例には乱数がありません"),
    (["draw", "--random", "1000"], "--random must be an integer in [1, 256], got 1000 (a drawing "
     "or a page shows every number: more than a few hundred a side is unreadable)",
     "--random には整数 ([1, 256] の範囲) を指定してください (指定された値: 1000) (図やページは"
     "すべての数を表示します。1 辺が数百を超えると読めません)"),
    (["explore", "--self", "--block"], "--self and --block are two pages; choose one (--block "
     "holds self-attention with its residual)", "--self と --block は別々のページです。"
     "どちらかひとつを選んでください (--block はセルフアテンションと残差接続を含みます)"),
    (["explore", "--causal"], "--causal applies to --self or --block",
     "--causal は --self か --block と一緒に使います"),
    (["explore", "--self", "--composed"], "--composed applies to the layer norms of --block; "
     "--self has none", "--composed は --block の層正規化に使います。--self には層正規化が"
     "ありません"),
    (["explore", "--block", "--hard"], "--hard explores one attention step; it does not go with "
     "--block", "--hard はアテンションの 1 ステップを探るためのものです。--block とは一緒に"
     "使えません"),
    (["explore", "--self", "--keys", "2"], "--keys goes with --random; --self does not use it",
     "--keys は --random と一緒に使います。--self では使いません"),
    (["explore", "--self", "--heads", "3"], "--heads 3 does not divide d_model 8: each head gets "
     "d_model / heads numbers (try 1, 2, 4 or 8)", "--heads 3 は d_model 8 を割り切れません。"
     "各ヘッドは d_model / heads 個の数を受け持ちます (1、2、4、8 のいずれかを試してください)"),
    (["scaling", "--out", "x.txt"], "--out 'x.txt': name a .png, .svg or .pdf file",
     "--out 'x.txt': .png、.svg、.pdf のいずれかのファイルを指定してください"),
]


@pytest.mark.parametrize("argv, english, japanese", COMMAND_ERRORS)
def test_the_commands_one_line_errors_are_japanese_under_lang_ja(argv, english, japanese,
                                                                 capsys, tmp_path, monkeypatch):
    usage = f" (see python -m attention {argv[0]} --help)"         # argparse's own checks
    status, err = run(argv, capsys, tmp_path, monkeypatch)
    assert (status, err) in ((1, f"error: {english}\n"), (2, f"error: {english}{usage}\n"))
    choose(None)
    status, err = run([*argv, "--lang", "ja"], capsys, tmp_path, monkeypatch)
    usage = f" (python -m attention {argv[0]} --help を参照してください)"
    assert (status, err) in ((1, f"エラー: {japanese}\n"), (2, f"エラー: {japanese}{usage}\n"))


def test_a_demo_out_that_is_a_file_is_refused_before_training(capsys, tmp_path,
                                                               monkeypatch):
    """`attention demo --out README.md` trained, printed its report, then ended with Python's
    '[Errno 17] File exists': it is refused first, in one line, and the file is left as it was."""
    (tmp_path / "notes.md").write_text("mine", encoding="utf-8")
    status, err = run(["demo", "--out", "notes.md", "--steps", "1"], capsys, tmp_path,
                      monkeypatch)
    assert (status, err) == (1, "error: --out notes.md is a file; the demo writes its figure "
                             "into a folder\n")
    choose(None)
    status, err = run(["demo", "--out", "notes.md", "--steps", "1", "--lang", "ja"], capsys,
                      tmp_path, monkeypatch)
    assert (status, err) == (1, "エラー: --out notes.md はファイルです。デモは図をフォルダの中に"
                             "書き出します\n")
    assert (tmp_path / "notes.md").read_text(encoding="utf-8") == "mine"


def test_the_lang_option_is_on_every_attention_command(capsys, tmp_path, monkeypatch):
    for argv in (["--lang", "ja", "scaling", "--seed", "-1"], ["scaling", "--seed", "-1",
                                                                "--lang", "ja"]):
        choose(None)
        status, err = run(argv, capsys, tmp_path, monkeypatch)
        assert (status, err) == (1, "エラー: --seed には整数 (>= 0) を指定してください "
                                    "(指定された値: -1)\n"), argv


def test_a_japanese_locale_speaks_japanese_in_explore_and_on_its_page(
        capsys, tmp_path, monkeypatch):
    """explore's --lang is also the page's; not written, the locale decides both."""
    monkeypatch.setenv("LANGUAGE", "ja")
    status, err = run(["explore", "--causal"], capsys, tmp_path, monkeypatch)
    assert (status, err) == (1, "エラー: --causal は --self か --block と一緒に使います\n")
    assert run(["explore", "--out", "page.html"], capsys, tmp_path, monkeypatch)[0] == 0
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert 'lang="ja"' in page


def test_a_figure_over_a_file_no_figure_wrote_is_refused_in_japanese(tmp_path):
    from attention.figures import check_figure_path
    (tmp_path / "thesis.png").write_text("mine")
    choose("ja")
    with pytest.raises(FileExistsError) as refused:
        check_figure_path(tmp_path / "thesis.png")
    assert str(refused.value) == (f"{tmp_path / 'thesis.png'} はすでにあり、以前の図が書いた"
                                  "ものではありません。置き換えるには --overwrite (Python からは "
                                  "overwrite=True) を指定してください")
    with pytest.raises(ValueError, match=r"\.txt は matplotlib が書き出せる画像形式ではありません"):
        check_figure_path(tmp_path / "a.txt")
    choose("en")
    with pytest.raises(FileExistsError, match="exists and no earlier figure wrote it; pass "):
        check_figure_path(tmp_path / "thesis.png")


# ---- what the demo and scaling print -------------------------------------------------------

def test_the_demo_prints_its_tables_in_japanese_under_lang_ja_and_english_unchanged():
    from attention.demo import DemoConfig, demo
    config = DemoConfig(steps=2, test_size=50, batch_size=8, key_size=4)
    english, japanese = [], []
    demo(config, log=english.append)
    choose("ja")
    demo(config, log=japanese.append)
    assert english[0] == ("Gradients at the initial projection W (one batch; norms over all "
                          "elements):")
    assert english[1] == "                             soft         hard"
    assert english[2].startswith("  dL/dscores backprop ")
    assert english[6] == "\nTraining W from the same random rotation, 2 steps of Adam:"
    assert english[7] == "   step  soft loss  soft acc  hard loss  hard acc"
    assert english[-2].startswith("  hard attention moved W by 0 (largest change of any element)")
    assert english[-1].startswith("  for comparison, W = identity (q along x) on the same test "
                                  "set: ")
    assert japanese[0] == "初期の射影 W での勾配 (1 バッチ、全要素をまとめたノルム):"
    assert japanese[1] == " " * 27 + "ソフト" + " " * 7 + "ハード"      # 12 columns each
    assert japanese[2].startswith("  dL/dscores 逆伝播   ")
    assert japanese[6] == "\n同じランダムな回転から W を学習します (Adam で 2 ステップ):"
    assert japanese[7] == "  ステップ ソフト損失 ソフト正解率 ハード損失 ハード正解率"
    assert japanese[-2] == "  ハードアテンションが W を動かした量: 0 (全要素のうち最大の変化)"
    assert japanese[-1].startswith("  比較のため、W = 単位行列 (q は x の向き) の同じテスト"
                                   "セットでの正解率: ")
    # the columns line up: each number ends under its heading's end
    assert len(english[8]) == len(english[7])
    assert len(japanese[8]) == len(japanese[7]) + len("ステップソフト損失ソフト正解率ハード損失"
                                                      "ハード正解率")


def test_scaling_prints_its_table_in_japanese_under_lang_ja(tmp_path, capsys, monkeypatch):
    from attention import scaling
    small = scaling.ScalingConfig
    monkeypatch.setattr(scaling, "ScalingConfig",
                        lambda seed: small(sizes=(1, 4), queries=8, seed=seed))
    args = dict(seed=0, overwrite=False)
    scaling.run_command(type("Args", (), dict(args, out=str(tmp_path / "en.png"))))
    english = capsys.readouterr().out.splitlines()
    choose("ja")
    scaling.run_command(type("Args", (), dict(args, out=str(tmp_path / "ja.png"))))
    japanese = capsys.readouterr().out.splitlines()
    assert english[0] == "  d_k           entropy saturated   |dL/ds|   |dL/dq|"
    assert english[1].startswith("    1  unscaled ")
    assert english[-2] == "(entropy of uniform weights over 16 keys: ln 16 = 2.773)"
    assert english[-1] == f"figure: {tmp_path / 'en.png'}"
    assert japanese[0] == "  d_k               エントロピー      飽和   |dL/ds|   |dL/dq|"
    assert japanese[1].startswith("    1  スケールなし ")
    assert japanese[2].startswith("       スケールあり ")
    assert japanese[-2] == "(キー 16 個にわたる一様な重みのエントロピー: ln 16 = 2.773)"
    assert japanese[-1] == f"図: {tmp_path / 'ja.png'}"


# ---- python -m attention.grade: the encoder block's diagnosis, the known mistakes ------------

def graded_in(lang, exercise, path):
    """The failure `python -m attention.grade` reports for the file at `path`, in `lang` (the
    graded code's process speaks it too)."""
    from attention.grade import SolutionFailed, grade
    choose(lang)
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def test_the_encoder_blocks_diagnosis_is_japanese_under_lang_ja(tmp_path):
    from test_coursework_encoder_block import block_file
    path = block_file(tmp_path, ("h = x + attn   ", "h = attn   "))
    english, japanese = graded_in("en", "encoder_block", path), graded_in("ja", "encoder_block",
                                                                          path)
    assert ("the residual is missing: your h is attn, without the sublayer's input x; the block "
            "adds it: h = x + attn\n  check the line that makes h\n") in english
    assert '「Pre-LN (norm_first=True)、ヘッド 2 個」' in japanese.splitlines()[0]
    assert ("  残差接続が抜けています: あなたの h は attn で、サブレイヤーの入力 x が足されて"
            "いません。ブロックでは h = x + attn のように足します\n"
            "  h を作る行を確かめてください\n") in japanese
    path = block_file(tmp_path, ("    if norm_first:", "    if not norm_first:"))
    assert ("  層正規化の位置が違います: あなたの h は norm1(x + attn) で、これは post-norm の"
            "順序ですが、このケースは pre-norm (norm_first=True) です。正しくは h = x + attn で、"
            "attn は norm1(x) から計算します\n  その行を確かめてください: あなたのファイルの ") in (
        graded_in("ja", "encoder_block", path))
    path = block_file(tmp_path, ("F.relu(", "F.gelu("))
    assert "のうち最初に食い違うのはフィードフォワードネットワークの出力 ff です: " in graded_in(
        "ja", "encoder_block", path)
    assert ("the feed-forward's output ff is the first of attn, h or ff that differs: "
            in graded_in("en", "encoder_block", path))


def test_the_known_mistakes_are_named_in_japanese_under_lang_ja(tmp_path):
    from test_coursework_transformer import ANGLES, CAUSAL, POSITIONS, SIN_COS, TRIL, changed
    halves = changed(tmp_path, POSITIONS, SIN_COS, "table = np.concatenate([np.sin(angles), "
                     "np.cos(angles[:, :d_model // 2])], 1)")
    assert graded_in("ja", "positional_encoding", halves).splitlines()[3] == (
        "  よくある間違い: sin と cos が前半と後半 [sin ..., cos ...] に分かれています。正しくは"
        "交互に並びます: 特徴量 2i に sin、その隣の 2i+1 に cos です")
    assert graded_in("en", "positional_encoding", halves).splitlines()[3] == (
        "  a known mistake: the sines and the cosines are in two halves [sin ..., cos ...]; they "
        "interleave: sin in feature 2i, cos in feature 2i+1 beside it")
    base = changed(tmp_path, POSITIONS, ANGLES, ANGLES.replace("10000", "1000"))
    assert graded_in("ja", "positional_encoding", base).splitlines()[3] == (
        "  よくある間違い: 波長の底が 10000 ではなく 1000 になっています: "
        "pos / 10000^(2i/d_model)")
    ahead = changed(tmp_path, CAUSAL, TRIL, "np.tril(np.ones((length, length), dtype=bool), k=1)")
    japanese = graded_in("ja", "causal_attention", ahead)
    assert japanese.splitlines()[0].startswith(
        "causal_attention: 出力 context が間違っています (ケース 1/4「位置 4 個の系列ひとつ、d=3」")
    assert ("  未来が漏れています: インデックス 2 のクエリが、後のキー (インデックス 3) に重み "
            "0.253 を与えています (weights の要素 (0, 2, 3))。これはちょうど 0 でなければ"
            "なりません (ソフトマックスの前でスコアを -inf にします)") in japanese.splitlines()
    leak = changed(tmp_path, CAUSAL, "Tensor(np.array(-np.inf))", "Tensor(np.array(-1e4))")
    assert ("  よくある間違い: マスクしたスコアが -inf ではなく、-1e4 のような大きな負の数です "
            "(スコアに書き込んでいます)。このケースのスコアは 1.99e+04 に達するので、後のキーに"
            "重みが残り、未来が漏れます。exp(-inf) はスコアがいくつでも 0 です") in graded_in(
        "ja", "causal_attention", leak).splitlines()


# ---- python -m seq2seq.grade: the beam search's verdicts -----------------------------------

GREEDY = """
from seq2seq.models.decoding import greedy

def beam_search(model, src, bos_id, eos_id, beam_size=4, max_len=50):
    [ids], [weights] = greedy(model, src, bos_id, eos_id, max_len)
    return ids, weights
"""


def test_the_beam_search_grader_speaks_japanese_under_lang_ja(tmp_path, capsys):
    from minigrad.grade.grader import main
    from seq2seq.grade import EXERCISES
    path = tmp_path / "my_beam.py"
    path.write_text(GREEDY, encoding="utf-8")
    assert main(EXERCISES, "python -m seq2seq.grade", ["beam_search", str(path)]) == 1
    english = capsys.readouterr().err.splitlines()
    assert main(EXERCISES, "python -m seq2seq.grade", ["--lang", "ja", "beam_search",
                                                       str(path)]) == 1
    japanese = capsys.readouterr().err.splitlines()
    assert english == [
        "failed: beam_search: your translation [5, 5] has log-probability -3.72006; the reference "
        'found [7, 5] with -3.29932 (higher is better), for case 2 of 7, "greedy is not the '
        'best: a beam of 2 does better" (source [6, 7, 5, 5, 7], beam_size 2, max_len 7)',
        "  to reproduce: from seq2seq.grade import grading_model, CASES; model = grading_model(); "
        "label, source, beam_size, max_len = CASES[1]"]
    assert japanese == [
        "不合格: beam_search: あなたの翻訳 [5, 5] の対数確率は -3.72006 ですが、模範解答が見つけた"
        "翻訳 [7, 5] の対数確率は -3.29932 です (大きいほど良い) (ケース 2/7「貪欲デコーディング"
        "は最良ではありません: 幅 2 のビームのほうが良い結果です」(入力系列 [6, 7, 5, 5, 7]、"
        "beam_size 2、max_len 7))",
        "  再現するには: from seq2seq.grade import grading_model, CASES; model = grading_model(); "
        "label, source, beam_size, max_len = CASES[1]"]


def test_the_beam_search_graders_pass_is_japanese_under_lang_ja(tmp_path):
    from seq2seq.grade import grade_file
    from seq2seq.models import decoding
    path = tmp_path / "my_beam.py"
    path.write_text(open(decoding.__file__, encoding="utf-8").read(), encoding="utf-8")
    choose("ja")
    assert grade_file(path) == (
        "合格: beam_search: 7 個のケースで、beam_size=1 では貪欲デコーディングと一致し、翻訳は"
        "模範解答と同じかそれ以上に確からしく、アテンションの重みも正しいことを確かめました")


# ---- the errors of the Python functions a notebook calls: figures, blocks, explore ----------

def refused_in(lang, call):
    """The message of the error `call()` raises, in `lang`."""
    choose(lang)
    with pytest.raises((ValueError, TypeError)) as caught:
        call()
    return str(caught.value)


@pytest.mark.parametrize("call, english, japanese", [
    (lambda: __import__("attention.figures").figures.plot_heads(__import__("numpy").zeros(
        (2, 1, 3, 3))), "weights of shape (2, 1, 3, 3) hold 2 sentences of (heads, queries, "
     "keys): draw one, weights[b]", "形状 (2, 1, 3, 3) の weights には (heads, queries, keys) "
     "の文が 2 個入っています: weights[b] のようにひとつずつ描いてください"),
    (lambda: __import__("attention.figures").figures.plot_heads(__import__("numpy").zeros(
        (2, 3)), ["a"]), "matrix 0 has shape (2, 3), but 1 query tokens were given",
     "インデックス 0 の行列の形状は (2, 3) ですが、クエリのトークンが 1 個渡されました"),
    (lambda: __import__("attention.figures").figures.plot_heads(__import__("numpy").zeros(
        (2, 3)), key_tokens=["a"]), "matrix 0 has shape (2, 3), but 1 key tokens were given",
     "インデックス 0 の行列の形状は (2, 3) ですが、キーのトークンが 1 個渡されました"),
    (lambda: __import__("attention.figures").figures.plot_heads(__import__("numpy").zeros(
        (2, 2, 3)), titles=["a"]), "1 titles for 2 matrices",
     "行列 2 個に対してタイトルが 1 個です"),
    (lambda: __import__("attention").EncoderBlock(4, 2, 8, activation="tanh"),
     "EncoderBlock: activation must be one of ['gelu', 'relu'] or a function of a tensor, not "
     "'tanh'", "EncoderBlock: activation には ['gelu', 'relu'] のいずれか、またはテンソルの関数を"
     "指定してください ('tanh' は使えません)"),
    (lambda: __import__("attention").DecoderBlock(4, 2, 8, norm_first="yes"),
     "DecoderBlock: norm_first must be True (pre-norm) or False (post-norm, as the 2017 paper), "
     "not 'yes'", "DecoderBlock: norm_first には True (pre-norm) か False (post-norm、2017 年の"
     "論文の順序) を指定してください ('yes' は使えません)"),
    (lambda: __import__("attention.explore_self").explore_self.self_attention_step(heads=3),
     "explore_self_attention: 3 heads do not divide d_model 8 (each head gets d_model / heads "
     "numbers)", "explore_self_attention: ヘッド 3 個では d_model 8 を割り切れません (各ヘッドは "
     "d_model / heads 個の数を受け持ちます)"),
    (lambda: __import__("attention.explore_self").explore_self.self_attention_step(
        composed=True), "explore_self_attention: composed=True applies to the layer norms of a "
     "block (block=True); self-attention alone has none", "explore_self_attention: "
     "composed=True はブロック (block=True) の層正規化に使います。セルフアテンションだけでは"
     "層正規化がありません"),
])
def test_the_python_functions_refuse_in_japanese_under_japanese(call, english, japanese):
    assert refused_in("en", call) == english
    assert refused_in("ja", call) == japanese


def test_a_decoder_block_given_no_positions_refuses_in_japanese():
    import numpy as np

    from minigrad import Tensor
    from attention import DecoderBlock
    block, x = DecoderBlock(4, 2, 8), Tensor(np.zeros((1, 0, 4)))
    memory = Tensor(np.zeros((1, 2, 4)))
    assert refused_in("ja", lambda: block(x, memory)) == (
        "DecoderBlock: x の形状は T >= 1 の (..., T, d_model) でなければなりません (渡された形状: "
        "(1, 0, 4))")
    assert refused_in("en", lambda: block(x, memory)) == (
        "DecoderBlock: expected x of shape (..., T, d_model) with T >= 1, got (1, 0, 4)")
