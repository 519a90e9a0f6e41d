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
    "demo.out_is_a_file": "--out {path} はファイルです。デモは図をフォルダの中に書き出します",
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

    # ---- python -m attention.grade のケース (attention.grade.exercises, encoder_block) --------
    "case.one_query": "例ごとにクエリひとつ、dq=3、dk=4",
    "case.three_queries": "例ごとにクエリ 3 個",
    "case.padded_keys": ("パディングマスク: 最初の例 (インデックス 0) の最後のキーにはアテンション"
                         "を向けられません"),
    "case.self_heads": "セルフアテンション、大きさ 2 のヘッドが 2 個",
    "case.cross_heads": "クロスアテンション、大きさ 2 のヘッドが 3 個",
    "case.one_head": "ヘッドひとつ",
    "case.causal_heads": "因果マスク、ヘッド 2 個",
    "case.pre_norm": "Pre-LN (norm_first=True)、ヘッド 2 個",
    "case.post_norm": "Post-LN (norm_first=False)、ヘッド 2 個",
    "case.padded_start": ("パディングマスク: 最初の例 (インデックス 0) は先頭の位置 2 個が"
                          "パディング"),
    "case.one_head_post_norm": "ヘッドひとつ、Post-LN",
    "case.positions": "位置 6 個、d_model 8",
    "case.odd_d_model": "奇数の d_model (7): 最後の特徴量は sin",
    "case.one_position": "位置ひとつ",
    "case.long_sequence": "長い系列、位置 200 個",
    "case.one_sequence": "位置 4 個の系列ひとつ、d=3",
    "case.batch_of_2": "バッチ 2、位置 5 個、バリューの幅 2",
    "case.attends_itself": "位置ひとつ: 自分自身だけにアテンションを向けます",
    "case.large_scores": "大きなスコア (最大で約 2e4): ここでは -1e4 は -inf の代わりになりません",

    # ---- エンコーダブロックの診断 (attention.grade.encoder_block) ----------------------------
    "block.attn": "セルフアテンションの出力 attn",
    "block.h": "最初のサブレイヤーの結果 h",
    "block.ff": "フィードフォワードネットワークの出力 ff",
    "block.no_residual": ("残差接続が抜けています: あなたの {result} は {shown} で、サブレイヤーの"
                          "入力 {start} が足されていません。ブロックでは {right} のように足します"),
    "block.wrong_norm": ("層正規化の位置が違います: あなたの {result} は {shown} で、これは "
                         "{other}-norm の順序ですが、このケースは {this}-norm (norm_first={pre}) "
                         "です。正しくは {right} で、{sub} は {source} から計算します"),
    "block.itself": "{start} そのもの",

    # ---- よくある間違い (attention.grade.mistakes) -------------------------------------------
    "mistake.known": "よくある間違い: {text}",
    "mistake.swapped": ("sin と cos が入れ替わっています: インデックスが偶数の特徴量 2i に sin、"
                        "奇数の 2i+1 に cos が入ります"),
    "mistake.halves": ("sin と cos が前半と後半 [sin ..., cos ...] に分かれています。正しくは交互"
                       "に並びます: 特徴量 2i に sin、その隣の 2i+1 に cos です"),
    "mistake.exponent_i": ("指数が i/d_model になっています (i はペアの番号)。正しくは 2i/d_model"
                           " で、2i は sin の入る特徴量の、偶数のインデックスです"),
    "mistake.exponent_j": ("各特徴量が自分のインデックス j を 10000^(j/d_model) に使っています。"
                           "ペア (2i, 2i+1) は cos も含めてひとつの波長 10000^(2i/d_model) を共有"
                           "します"),
    "mistake.multiplied": "pos に 10000^(2i/d_model) を掛けています。正しくは割ります",
    "mistake.power_of_ratio": ("(pos / 10000)^(2i/d_model) では pos / 10000 をべき乗しています。"
                               "べき乗するのは 10000 だけで、pos / 10000^(2i/d_model) です (かっこ"
                               "に注意してください)"),
    "mistake.from_one": ("位置が 1 から始まっています。最初の位置は 0 で、その行は "
                         "[0, 1, 0, 1, ...] になります"),
    "mistake.base": ("波長の底が 10000 ではなく {base:.6g} になっています: "
                     "pos / 10000^(2i/d_model)"),
    "mistake.transposed": ("未来が漏れています: マスクが転置されていて、位置 t が 0 ... t ではなく"
                           "キー t ... T-1 (自分自身とそれより後) にアテンションを向けています。"
                           "下三角 (キー j <= クエリ t) を残してください"),
    "mistake.diagonal": ("マスクが対角成分まで隠しています: 位置 t は自分自身を見る必要が"
                         "あります (キー 0 ... t、t を含む)。最初の位置 (インデックス 0) には"
                         "アテンションを向ける先が残りません"),
    "mistake.no_mask": ("未来が漏れています: 何もマスクされておらず、どの位置も、後のキーを含む"
                        "すべてのキーにアテンションを向けています"),
    "mistake.unscaled": ("スコアが sqrt(d) = sqrt({d}) で割られていません: スケール化内積"
                         "アテンションは softmax(q k^T / sqrt(d)) です"),
    "mistake.values_width": ("スコアをバリューの幅 {dv} の平方根で割っています: d はクエリと"
                             "キーの幅 {d} です"),
    "mistake.leak": ("マスクしたスコアが -inf ではなく、-1e4 のような大きな負の数です ({how})。"
                     "このケースのスコアは {peak:.3g} に達するので、後のキーに重みが残り、未来が"
                     "漏れます。exp(-inf) はスコアがいくつでも 0 です"),
    "mistake.written": "スコアに書き込んでいます",
    "mistake.added": "スコアに足しています",
    "mistake.later_key": ("未来が漏れています: インデックス {query} のクエリが、後のキー "
                          "(インデックス {key}) に重み {weight:.3g} を与えています (weights の要素 "
                          "{element})。これはちょうど 0 でなければなりません (ソフトマックスの前で"
                          "スコアを -inf にします)"),

    # ---- Python の関数のエラー: 図、ブロック、explore_self -----------------------------------
    "figure.sentences": ("形状 {shape} の weights には (heads, queries, keys) の文が {count} 個"
                         "入っています: weights[b] のようにひとつずつ描いてください"),
    "figure.weights_shape": ("weights の形状が {shape} です: (heads, queries, keys)、(queries, "
                             "keys)、または (queries, keys) の行列のリストを渡してください"),
    "figure.matrix_shape": ("インデックス {index} の行列の形状が {shape} です: (queries, keys) "
                            "にしてください"),
    "figure.panels": "行列が {count} 個あります: ひとつの図に描けるのは 1 個から {most} 個までです",
    "figure.query_tokens": ("インデックス {index} の行列の形状は {shape} ですが、クエリの"
                            "トークンが {count} 個渡されました"),
    "figure.key_tokens": ("インデックス {index} の行列の形状は {shape} ですが、キーのトークンが "
                          "{count} 個渡されました"),
    "figure.titles": "行列 {matrices} 個に対してタイトルが {titles} 個です",
    "figure.empty_boxes": "ヒートマップでは {sample!r} が空の四角で描かれます: {why}",
    "figure.no_font": "これらの文字を持つフォントがインストールされていません",
    "figure.no_japanese_font": "プロジェクトの日本語フォントがインストールされていません。{how}",
    "blocks.activation": ("{where}: activation には {names} のいずれか、またはテンソルの関数を"
                          "指定してください ({value!r} は使えません)"),
    "blocks.norm_first": ("{where}: norm_first には True (pre-norm) か False (post-norm、2017 年"
                          "の論文の順序) を指定してください ({value!r} は使えません)"),
    "blocks.decoder_x": ("DecoderBlock: x の形状は T >= 1 の (..., T, d_model) でなければなりま"
                         "せん (渡された形状: {shape})"),
    "explore.heads_api": ("explore_self_attention: ヘッド {heads} 個では d_model {d_model} を割り"
                          "切れません (各ヘッドは d_model / heads 個の数を受け持ちます)"),
    "explore.composed_api": ("explore_self_attention: composed=True はブロック (block=True) の"
                             "層正規化に使います。セルフアテンションだけでは層正規化がありません"),
}
