"""The explorer's words in Japanese (日本語): the same keys as en.py, which says what each is,
and the ops' rules (rule.OpName, in ja_rules.py).
"""

from minigrad.viz.explorer.words.ja_rules import RULES

TEXT = {
    # ---- the page's fixed parts (page.py) ----
    "html.lang": "ja",
    "html.title": "逆伝播エクスプローラ",
    "html.first": "最初へ (Home)",
    "html.back": "戻る (\u2190)",
    "html.next": "進む (\u2192)",
    "html.last": "最後へ (End)",
    "html.smaller": "縮小",
    "html.larger": "拡大",
    "html.scopes": "スコープ (チェックすると折りたたみます)",
    "html.legend": "凡例",
    "html.parameter": "パラメータ",
    "html.input": "入力 (勾配が必要)",
    "html.constant": "定数 (破線の矢印: 勾配は戻りません)",
    "html.root": "根 (逆伝播の出発点)",
    "html.op": "演算 (op)",
    "html.folded": "折りたたんだスコープ",
    "html.current": "このステップの演算",
    "html.arriving": "その出力に届いた勾配。破線: 勾配を送る先の入力",
    "html.gradients": "勾配 (オレンジ: まだ項がそろっていない途中の和)",
    "html.help": "キー: \u2192 進む、\u2190 戻る、Home 最初へ、End 最後へ (予測モードの解答欄では"
                 "カーソルが動きます。Enter で判定、Esc で解答欄を離れます)。箱をクリックすると"
                 "そのステップへ、折りたたんだスコープをクリックすると展開、枠の名前をクリックすると"
                 "折りたたみます。数値:「すべての値 (正確)」でエンジンの値そのものを表示します。",
    "html.frame": "逆伝播エクスプローラ",
    # ---- the graph (visible.js, graph.js) ----
    "page.grad": "勾配",
    "page.grad_so_far": "途中の勾配",
    "page.grad_unknown": "勾配 ?",
    "page.not_on_path": "逆伝播の経路外",
    "page.backward_step": "逆伝播 #{step}",
    "page.backward_steps": "逆伝播 #{first}\u2013#{last}",
    "page.folded_scope": "{name}  (折りたたみ中: クリックで展開)",
    "page.frame": "{name}  (クリックで折りたたみ)",
    "page.ops_in_scope": "演算 {count} 個: {kinds}",
    "page.parameters_one": "パラメータ 1 個",
    "page.parameters": "パラメータ {count} 個",
    "page.numbers_one": "数値 1 個",
    "page.numbers": "数値 {count} 個",
    # ---- the panel (panel.js, explorer.js) ----
    "page.counter": "ステップ {step} / {steps}",
    "page.forward": "順伝播",
    "page.forward_text": "各箱にはそのテンソルの値が表示されています。逆伝播 (backpropagation) は"
                         "演算ごとに 1 ステップ、エンジンが実行する順に全 {steps} ステップです。"
                         "\u2192 (進む) を押してください。ステップ 1 は根 {root} を作った"
                         "演算です。",
    "page.root": "根 {root} {shape}",
    "page.step": "ステップ {step}: {op}",
    "page.in_scope": "スコープ: {scope}",
    "page.rule": "この演算の規則 (式と微分)",
    "page.arriving": "出力 {name} {shape} に届いた勾配",
    "page.sent_back": "各入力へ送り返す勾配",
    "page.labels_left": "グラフでは最初の {shown} 個の入力の矢印にだけラベルがあります。残り "
                        "{left} 個はここに示します。",
    "page.input": "入力 {position}: {name} {shape}",
    "page.output": "出力: {name} {shape}",
    "page.no_gradient": "勾配は送られません",
    "page.constant": "勾配は不要です (定数): 何も送り返しません",
    "page.hidden": "{name} についての問題に答えるまで隠しています",
    "page.summarised": "{shape} {dtype}、先頭の値 {head}、\u2026。ノルム {norm}",
    "page.not_embedded": "値 {size} 個: ページを小さく保つため埋め込んでいません (explore の "
                         "max_elements と max_bytes で決まります)",
    "page.all_values": "すべての値 {size} 個 {shape} {dtype} (正確)",
    "page.all_values_norm": "すべての値 {size} 個 {shape} {dtype} (正確)。ノルム {norm}",
    "page.no_scopes": "このグラフにはスコープがありません。",
    "page.terms": "{name} は{uses}テンソルです。これは全 {terms} 項のうち {term} 項目です。",
    "page.terms_all": "勾配は {terms} 項すべての和です:",
    "page.terms_so_far": "ここまでの和:",
    "page.term_step": "ステップ {step}: ",
    "page.more_terms": "+ \u2026 ほかに {count} 項",
    "page.sum_so_far": "= 途中の和 ",
    "page.first_values": "各 {shape}、全 {size} 個の値のうち先頭 {shown} 個:",
    "page.before_hooks": "これはフック適用前の和です。フック適用後の勾配 (逆伝播が先へ渡す値):",
    # ---- between two sentences of one text on the page: none after 「。」 ----
    "page.gap": "",
    # ---- predict mode (predict.js, explorer.js) ----
    "page.question": "見る前に予測してください: \u2202L/\u2202{name}{index} はいくつですか? {what}",
    "page.what_op": "(この演算がそこへ送り返す値)",
    "page.what_mask": "(このマスクがそこへ送り返す値)",
    "page.what_total": "(勾配全体: {uses}テンソルで、すべての使用箇所から項が届きました)",
    "page.what_softmax": "(ソフトマックスがステップ {first} から {last} の演算を通して"
                         "そこへ送り返す値。ここでソフトマックスの出力に届いた勾配と、ソフトマックスの値から"
                         "求めてください)",
    "page.what_masked_softmax": "(ソフトマックス、続いてステップ {mask} のマスクが、ステップ "
                                "{first} から {last} を通してそこへ送り返す値。ここでソフトマッ"
                                "クスの出力に届いた勾配と、ソフトマックスの値から求めてください)",
    "page.working": "計算に使う値",
    "page.received_before": "このステップより前に {name} が受け取った値",
    "page.not_caught": "この問題では見分けられない誤り: {mistakes}。",
    "page.not_caught_joiner": "、",
    "page.answer_box": "あなたの答え",
    "page.check": "判定",
    "page.show_me": "答えを見る",
    "page.not_quite": "違います: {number}。",
    "page.close": "違います: {number}。",
    "page.matches": "よくある誤りと一致します: {mistake}。",
    "page.matches_none": "既知のよくある誤りのどれとも一致しません。",
    "page.try_again_one": "もう一度どうぞ (あと 1 回で数値を表示します)。"
                          "「答えを見る」も押せます。",
    "page.try_again": "もう一度どうぞ (あと {left} 回で数値を表示します)。"
                      "「答えを見る」も押せます。",
    "page.answer_note": "Enter で判定、Esc で解答欄を離れます (\u2190 \u2192 キーで再びステップを"
                        "移動できます)。",
    "page.stops_here": "ステップ {step} には先に答える問題があります。答えるか「答えを見る」を"
                       "押してください。同じ操作をもう一度すると先へ進みます (その数値も表示"
                       "されます)。キーで進むときは、先に Esc で解答欄を離れてください。",
    "page.right": "正解: {number}。",
    "page.right_at_try": "正解: {number} ({tries} 回目)。",
    "page.passed": "答えずに通過しました (以降のステップで表示されます)。",
    "page.shown": "答えずに表示しました。",
    "page.shown_after_one": "1 回答えた後に表示しました (最後の答え: {number})。",
    "page.shown_after": "{tries} 回答えた後に表示しました (最後の答え: {number})。",
    "page.engine_number": "エンジンの値: {number}。",
    "page.off_by": "差は {off} です。{tolerance} 以内なら正解です。",
    "page.type_a_number": "数値を入力してください (例: 0.25、-1.5e-3)。",
    "page.no_questions": "このページでは予測モードの問題はありません: {why}。",
    # ---- the hint (hint.js) ----
    "page.hint": "ヒント: この要素についての演算の規則と、そこで使う数値",
    "page.hint_more": "\u2026 全 {count} 個のうち先頭 {shown} 個。残りは「計算に使う値」にあります",
    "page.hint_then_mask": "、続いてステップ {step} のマスク: {rule}",
    "page.hint_by_rule_row": "{grad} は演算の規則により、行 {row} 全体から求めます:",
    "page.hint_by_rule": "{grad} は演算の規則により求めます: {rule}",
    "page.hint_before": "これに、このステップより前に受け取った値を足します: {numbers}",
    # ---- the summary (summary.js, explorer.js) ----
    "page.summary": "まとめ",
    "page.hide_summary": "まとめを閉じる",
    "page.summary_title": "予測モードのまとめ",
    "page.summary_question": "ステップ {step}、\u2202L/\u2202{name}{index}: ",
    "page.typed": "あなたの答え {numbers}。",
    "page.right_first": "1 回目で正解",
    "page.right_at": "{tries} 回目で正解",
    "page.passed_seen": "通過 (数値は表示済み)",
    "page.revealed": "表示済み",
    "page.not_answered": "まだ正解していません",
    "page.with_mistakes": " (一致したよくある誤り: {count} 回)",
    "page.number_joiner": "、",
    "page.mistakes_made": "一致したよくある誤り:",
    "page.no_mistakes": "よくある誤りとの一致はありません。",
    "page.times_one": "{text}: 1 回",
    "page.times": "{text}: {times} 回",
    "page.save_results": "結果を保存 (JSON)",
    "page.score": "予測モード: 1 回目で正解 {right} 問 (回答 {asked} 問中)、再挑戦で正解 "
                  "{retried} 問 (この逆伝播の問題は全 {questions} 問)",
    # ---- a tensor's name, and how it is used (names.py, question.py, state.js) ----
    "name.output": "{op} の出力",
    "name.leaf": "葉テンソル",
    "name.constant": "定数",
    "name.input": "入力 {position}",
    "uses.by_ops": " {ops} 個の演算で使われている",
    "uses.by_one_op": " 1 個の演算で {times}使われている",
    "uses.by_several": " {ops} 個の演算で合わせて {times}使われている",
    "uses.twice": "2 回",
    "uses.times": "{count} 回",
    # ---- why predict mode asks nothing (predict.py) ----
    "why.question": "問題 1 問",
    "why.questions": "問題 {count} 問",
    "why.step": "ステップ {step}",
    "why.op_at_step": "ステップ {step} の {op}",
    "why.too_many_numbers": "見つかった{questions} ({where}) には最大 {largest} 個の数値の配列が"
                            "必要で、max_elements={max_elements} を超えています。"
                            "max_elements={largest} に上げてください",
    "why.too_many_bytes": "見つかった{questions} ({where}) に必要な配列が "
                          "max_bytes={max_bytes} を超えています。max_bytes を上げてください",
    "why.not_finite": "勾配に nan または inf が含まれます",
    "why.hooked": "入力にフックがあります",
    "why.all_not_finite": "問題を出す演算の勾配が有限ではありません ({listed})",
    "why.all_hooked": "問題にするテンソルにフック (register_hook) があり、ページでは表示できません "
                      "({listed})",
    "why.none_apart": "問題を出す演算 ({listed}) で、勾配がページに表示済みの数値 (または 0) と"
                      "はっきり異なる要素がありません",
    "why.none_chosen": "このグラフには predict_at が選ぶ演算がありません",
    "why.none_asked": "このグラフには予測モードが問題を出す演算 (MatMul、Softmax、ソフトマックス、"
                      "ブロードキャストされた入力や複数回使われた入力) がありません。"
                      "predict_at=... で演算を選んでください",
    "why.no_docstring": "{op} には docstring がありません。その backward を読んでください",
    # ---- arrays summarised in a box (arrays.py) ----
    "lines.mean_std": "平均 {mean}  標準偏差 {std}",
    "lines.min_max": "最小 {min}  最大 {max}",
    "lines.norm": "{shape} ノルム {norm}",
    "lines.no_finite": "有限の値なし",
    "lines.empty": "(空)",
    "lines.values": "{dtype} の値",
    # ---- an op's title: how many entries of a mask are True (data.py, op_title) ----
    "title.all_true": "すべて True",
    "title.true_count": "{size} 個中 {kept} 個が True",
    # ---- the known mistakes (mistakes.py, judging.py) ----
    "mistake.missed_sum": "それはひとつの項だけです。{name} は{used}ので、勾配は各使用箇所から"
                          "戻る値の和です",
    "mistake.broadcast_sum": "それは和をとる前の 1 要素です。{name} {shape} は順伝播で "
                             "{out_shape} にブロードキャストされたので、勾配はブロードキャスト"
                             "された軸に沿って dL/dy の和をとります",
    "mistake.transposed": "それは転置を間違えた行列積です。Y = A @ B では dL/dA = dL/dY @ B^T、"
                          "dL/dB = A^T @ dL/dY です",
    "mistake.softmax_diagonal": "それはソフトマックスのヤコビ行列の対角成分 y_i (1 - y_i) "
                                "dL/dy_i だけです。どの重みもすべてのスコアに依存するので、"
                                "dL/dx_i = y_i (dL/dy_i - sum_j y_j dL/dy_j) です",
    "mistake.sublayer_only": "それはサブレイヤを通って戻る分だけです。{name} はサブレイヤの出力"
                             "にも足されている (残差接続、y = x + f(x)) ので、dL/dy は和を通って"
                             "そのまま届きます。dL/dx = dL/dy + f が送り返す値 です",
    "mistake.scale_forgotten": "それは定数倍を忘れた dL/dy です。順伝播で {name} を定数 {scale} "
                               "倍したので、逆伝播でも勾配を同じだけ倍します",
    "mistake.norm_constants": "それは行の平均と分散を定数とみなした dL/dy * weight / sigma です。"
                              "どちらも行のすべての要素に依存するので、dL/dx = (1/sigma) (g - "
                              "mean(g) - xhat mean(g xhat))、g = dL/dy * weight です",
    "mistake.through_mask": "それはマスクがない場合の勾配です。{name} のマスクされた要素は出力に"
                            "寄与しない (where(mask, scores, -inf) はその値を残さない) ので、"
                            "勾配はちょうど 0 です",
    "mistake.derivative_forgotten": "それは傾きを掛けずに渡した dL/dy です。y = sigmoid(x) "
                                    "なら dL/dx = dL/dy * y (1 - y)、y = tanh(x) なら dL/dx = "
                                    "dL/dy * (1 - y**2) です",
    "mistake.sigmoid_as_slope": "それはシグモイド自体を傾きとした dL/dy * y です。y = "
                                "sigmoid(x) の傾きは y (1 - y) なので、dL/dx = dL/dy * y "
                                "(1 - y) です",
    "mistake.square_forgotten": "それは tanh の傾きを 1 - y としています。正しくは 1 - y**2 "
                                "なので、dL/dx = dL/dy * (1 - y**2) です",
    "mistake.output_for_factor": "それは dL/dy に積そのものを掛けています。y = a * b では "
                                 "dL/da = dL/dy * b、つまりもう一方の因子を掛けます",
    "mistake.own_factor": "それは dL/dy に {name} 自身の値を掛けています。y = a * b では "
                          "dL/da = dL/dy * b、つまりもう一方の因子を掛けます",
    "mistake.sign": "大きさは正しく、符号が逆です",
    "mistake_name.missed_sum": "すべての使用箇所の和の代わりにひとつの項だけ",
    "mistake_name.broadcast_sum": "ブロードキャストの和をとる前の勾配の 1 要素",
    "mistake_name.transposed": "転置を間違えた行列積",
    "mistake_name.softmax_diagonal": "ソフトマックスのヤコビ行列を対角成分 y_i (1 - y_i) "
                                     "dL/dy_i だけとみなす",
    "mistake_name.sublayer_only": "dL/dy を足さず、サブレイヤを通って戻る分だけ",
    "mistake_name.scale_forgotten": "定数倍を忘れた dL/dy",
    "mistake_name.norm_constants": "層正規化の平均と分散を定数とみなす",
    "mistake_name.through_mask": "マスクを通り抜ける勾配",
    "mistake_name.derivative_forgotten": "傾きを掛けずに渡した dL/dy",
    "mistake_name.sigmoid_as_slope": "シグモイド自体を傾きとする dL/dy * y",
    "mistake_name.square_forgotten": "tanh の傾きを 1 - y とする",
    "mistake_name.output_for_factor": "もう一方の因子の代わりに積そのもの",
    "mistake_name.own_factor": "もう一方の因子の代わりに自分自身の因子",
    "mistake_name.sign": "符号の誤り",
    "not_caught.item": "{mistake} ({why})",
    "not_caught.same": "ここでは別の誤りと同じ数値になります",
    "not_caught.zero": "ここでは正しい数値か 0 になります",
}

TEXT.update(RULES)                      # rule.OpName: the ops' rules (ja_rules.py)
