"""attention のメッセージ (日本語)。キーと差し込み箇所 ({path} など) は en.py と同じです。"""

MESSAGES = {
    # ---- コマンドのエラー (attention.__main__, draw, explore, scaling, figures) ---------------
    "command.steps": "--steps には 1 以上を指定してください (指定された値: {steps})",
    "example.goes_with_random": "{option} は --random と一緒に使います。{page} では使いません",
    "example.worked_no_sizes": "{option} は --random と一緒に使います。計算例では使いません",
    "example.seed_alone": ("--seed は --random{also} と一緒に使います。計算例には乱数が"
                           "ありません"),
    "example.or_self_block": " (または --self、--block)",
    "example.too_many": ("図やページはすべての数を表示します。1 辺が数百を超えると読めません"),
    "explore.self_and_block": ("--self と --block は別々のページです。どちらかひとつを選んで"
                               "ください (--block はセルフアテンションと残差接続を含みます)"),
    "explore.needs_self_or_block": "{option} は --self か --block と一緒に使います",
    "explore.composed_self": ("--composed は --block の層正規化に使います。--self には層正規化"
                              "がありません"),
    "explore.one_step": ("{option} はアテンションの 1 ステップを探るためのものです。{page} とは"
                         "一緒に使えません"),
    "explore.heads_divide": ("--heads {heads} は d_model {d_model} を割り切れません。各ヘッドは "
                             "d_model / heads 個の数を受け持ちます (1、2、4、8 のいずれかを"
                             "試してください)"),
    "scaling.out_format": ("--out {out!r}: .png、.svg、.pdf のいずれかのファイルを指定して"
                           "ください"),
    "figure.not_format": ("{path} に描けません: .{format} は matplotlib が書き出せる画像形式"
                          "ではありません (.png、.pdf、.svg など)"),
    "figure.symlink": ("{path} はシンボリックリンクです。置き換えるには --overwrite (Python "
                       "からは overwrite=True) を指定してください"),
    "figure.not_ours": ("{path} はすでにあり、以前の図が書いたものではありません。置き換える"
                        "には --overwrite (Python からは overwrite=True) を指定してください"),

    # ---- `python -m attention demo` と `scaling` の出力 (attention.demo, scaling) -------------
    "demo.gradients": "初期の射影 W での勾配 (1 バッチ、全要素をまとめたノルム):",
    "demo.soft": "ソフト",
    "demo.hard": "ハード",
    "demo.backprop": "逆伝播",
    "demo.numeric": "有限差分",
    "demo.training": "同じランダムな回転から W を学習します (Adam で {steps} ステップ):",
    "demo.step": "ステップ",
    "demo.soft_loss": "ソフト損失",
    "demo.soft_acc": "ソフト正解率",
    "demo.hard_loss": "ハード損失",
    "demo.hard_acc": "ハード正解率",
    "demo.final": "最終",
    "demo.moved": "ハードアテンションが W を動かした量: {moved:g} (全要素のうち最大の変化)",
    "demo.ideal": ("比較のため、W = 単位行列 (q は x の向き) の同じテストセットでの正解率: "
                   "{ideal:.1%}"),
    "scaling.entropy": "エントロピー",
    "scaling.saturated": "飽和",
    "scaling.unscaled": "スケールなし",
    "scaling.scaled": "スケールあり",
    "scaling.uniform": ("(キー {keys} 個にわたる一様な重みのエントロピー: ln {keys} = "
                        "{value:.3f})"),
    "scaling.figure": "図: {path}",
}
