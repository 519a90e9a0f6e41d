"""minigrad のメッセージ (日本語)。キーと差し込み箇所 ({path} など) は en.py と同じです。採点
プログラムが解答を拒否する理由は ja_refusals.py にあります。"""

from minigrad.messages.ja_ops import OPS
from minigrad.messages.ja_refusals import REFUSALS
from minigrad.messages.ja_tools import TOOLS

MESSAGES = {
    # ---- コマンドの失敗を 1 行で (minigrad.command) -------------------------------------------
    "engine_demo.gradcheck": ("gradcheck: softmax(keys @ q) @ keys  -> 逆伝播の勾配と有限差分の"
                              "勾配が一致しました"),
    "engine_demo.step": "ステップ {step:4d}  損失 {loss:.4f}  正解率 {accuracy:.1%}",
    "command.error": "エラー: {message}",
    "command.usage": "エラー: {message} ({prog} --help を参照してください)",
    "command.interrupted": "中断しました",
    "command.exit_called": ("エラー: {site} が {call} を呼んだため、コマンドは最後まで実行"
                            "されませんでした"),
    "command.out_of_memory": "メモリが足りません",
    "command.recursion": "再帰が深すぎます ({text})",
    "command.missing_key": "キー {key} がありません",
    "command.no_dependency": ("{python} にはこのプロジェクトが必要とするモジュール {name!r} "
                              "がありません。プロジェクトの環境でコマンドを実行してください "
                              "(`make` の後に `. .venv/bin/activate`、または .venv/bin/python -m "
                              "...)。あるいは、この環境にプロジェクトをインストールしてください"),
    "command.no_such_file": "ファイルまたはフォルダがありません: {path!r}",
    "command.permission": "アクセスが許可されていません: {path!r}",
    "command.is_a_directory": "{path!r} はフォルダです。ファイルを指定してください",

    # ---- argparse のエラー (minigrad.command.Parser) ------------------------------------------
    "argparse.invalid_value": "引数 {argument}: {value} は {kind} の値として正しくありません",
    "argparse.invalid_number": "引数 {argument}: {value} は{kind}ではありません",
    "argparse.kind_int": "整数",
    "argparse.kind_float": "数値",
    "argparse.invalid_choice": ("引数 {argument}: {value} は選べません (選択肢: {choices})"),
    "argparse.required": "次の引数が必要です: {names}",
    "argparse.unrecognized": "認識できない引数です: {names}",
    "argparse.one_argument": "引数 {argument}: 値をひとつ指定してください",

    # ---- 数値の設定が範囲外 (minigrad.settings) -----------------------------------------------
    "setting.integer": "整数",
    "setting.number": "有限の数",
    "setting.wanted": "{kind} ({range})",
    "setting.between": "{interval} の範囲",
    "setting.wrong_type": "には{wanted} を指定してください (指定された値: {value}、型 {type})",
    "setting.out_of_range": "には{wanted} を指定してください (指定された値: {value}){reason}",

    # ---- ファイル (minigrad.files, minigrad.checkpoint) ---------------------------------------
    "files.exists": "{path} はすでにあります。置き換えるには {option} を指定してください",
    "files.not_checkpoint": ("{path!r} は minigrad のチェックポイントではありません ({why}。"
                             "読み込みません)"),
    "files.wrote": "{path} に書き出しました",
    "files.wrote_drawing": "{path} に書き出しました (DOT テキストは {dot})",
    "files.pickle": "pickle ファイルです",
    "files.not_npz": ".npz アーカイブではありません",

    # ---- 採点プログラムのコマンドと判定 (minigrad.grade.grader) -------------------------------
    "grade.passed": "合格: {report}",
    "grade.failed": "不合格: {report}",
    "grade.no_exercise": "課題 {name!r} はありません。課題は次のとおりです: {names}",
    "grade.directory": "{path} はフォルダです。.py ファイルを指定してください",
    "grade.not_regular": ("{path} は通常のファイルではありません (FIFO、デバイス、ソケットなど)。"
                          ".py ファイルを指定してください"),
    "grade.no_file": "ファイルがありません: {path}",
    "grade.elsewhere": "{name} は {command} {name} {path} で採点します",
    "grade.invalid_exercise": "引数 exercise: {name!r} は選べません (選択肢: {names})",
    "grade.function_passed": ("{name}: {cases} 個のケースで、出力 ({outputs}) と {inputs} "
                              "に関する勾配が模範解答と一致し、あなたの勾配は有限差分とも一致しました"),
    "grade.to_get_inputs": ("この入力を得るには: from {package} import case_inputs; arrays, "
                            "settings = case_inputs({name!r}, {number})"),
    "grade.case": 'ケース {number}/{total}「{label}」({parts})',
    "grade.no_gradient_check": ("{name}: すべての入力の勾配確認の結果が返ってきませんでした "
                                "({where})"),
    "grade.finite_differences": ("{name}: あなたの逆伝播が有限差分と一致しません ({where}): "
                                 "{error}"),
    "grade.unreadable_check": ("{name}: 採点プログラムが読めない勾配確認の結果が返ってきました "
                               "({where})"),
    "grade.own_op": ("{name}: 出力はあなた自身の演算 (op) で作ってください (forward と backward "
                     "を持つ minigrad.Function のサブクラスを、あなたのファイルに定義します)。"
                     "しかし {made_by} が作っていました ({where})"),
    "grade.own_op_elsewhere": ("{made_by} (定義は {file} にあり、採点したファイルにはありません。"
                               "そちらへ移してください)"),
    "grade.no_op": "演算 (op) なし",
    "grade.too_long": ("{name}: あなたのコードは {limit} 秒を超えても全ケースを終えませんでした "
                       "(無限ループでしょうか)。採点は通常数秒で終わります"),
    "grade.stopped": ("あなたのコードの実行中に採点プログラムが {signal} を受け取ったため、採点を"
                      "中止しました (送ったのはあなたのコードか、外部です): 判定はありません"),

    # ---- 学生のファイル: 読み込みと呼び出し (minigrad.grade.solution) -------------------------
    "grade.syntax_error": "{path} の {line} 行目: 構文エラー: {error}",
    "grade.import_raised": "{path} を読み込むと例外が起きました: {error}",
    "grade.defines_none": ("{name}: あなたのファイルには `{defines}` が定義されていません。"
                           "必要なのは {signature} です"),
    "grade.not_callable": "{name}: あなたのファイルの `{defines}` は {type} で、関数ではありません",
    "grade.call_raised": "{name}: あなたの {defines} を{case}で呼ぶと例外が起きました: {error}",
    "grade.your_line": " (あなたのファイルの {line} 行目: {code})",
    "grade.file_line": "あなたのファイルの {number} 行目: {code}",
    "grade.file_line_only": "あなたのファイルの {number} 行目",
    "grade.exit_called": ("SystemExit: あなたのコードが {call} を呼びました。これでは採点が"
                          "止まってしまいます"),

    # ---- 配列の比較 (minigrad.grade.compare) --------------------------------------------------
    # {what} (grade.output, grade.gradient, grade.the_*) は空白を挟まずに助詞へ続きます
    # ({what}が、{what}の形は): コードの名前で終わる「出力 {output} 」は自分で空白を持ちます
    "grade.output": "{name}: 出力 {output} ",
    "grade.gradient": "{name}: {input} に関する勾配",
    "grade.cut": "{name}: {cut} ({where}):",
    "grade.wrong_shape": "{what}の形は {got} ですが、正しくは {expected} です ({where})",
    "grade.not_finite": ("{what}が間違っています ({where}): 要素 {element} が {value} ですが、"
                         "正しくは {expected} です (オーバーフロー? ゼロ除算?)"),
    "grade.wrong_values": ("{what}が間違っています ({where}):\n"
                           "  要素 {element}: あなたの値 {yours}、正しい値 {expected} (差 {off})\n"
                           "  {total} 個の要素のうち {wrong} 個が atol={atol} + rtol={rtol} * "
                           "|正しい値| を超えてずれています"),
    "grade.returned_count": ("{name}: あなたの {defines} は {count} 個の値を返しました。"
                             "必要なのは {wanted} です ({where})"),
    "grade.not_tensor": ("{name}: 出力 {output} は {type} です。minigrad の Tensor を返して"
                         "ください ({where})"),

    # ---- 採点中のコードのプロセスが返したもの (minigrad.grade.results, run_cases) ------------
    # 「出力 {output} 」と「途中結果 {local} 」はコードの名前で終わるので、後ろに空白を付けて
    # います。差し込まれる側 ({what}が…、{what}の形は…) は空白を入れずに続けます。
    "grade.the_output": "出力 {output} ",
    "grade.the_gradient": "{input} に関する勾配",
    "grade.the_returned": "{input} の勾配",
    "grade.the_check": "勾配確認の結果",
    "grade.intermediate": "途中結果 {local} ",
    "grade.case_numbers": "{name} のケースは 1 から {count} までです ({number} はありません)",
    "grade.not_connected": ("{name}: 出力 {output} が入力とつながっていません (requires_grad "
                            "が False です) ({where}): .data や NumPy ではなく、テンソルの演算で"
                            "計算してください"),
    "grade.backward_raised": ("{name}: あなたの {defines} を通して逆伝播すると例外が起きました "
                              "({where}): {error}"),
    "grade.gradcheck_raised": ("{name}: あなたの {defines} の勾配確認 (gradcheck) で例外が"
                               "起きました ({where}): {error}"),
    "grade.numerical_backward": ("{name}: あなたの backward が forward ({forward}) をもう一度"
                                 "実行しています ({where}): これは数値微分です (有限差分であり、"
                                 "手で導いた導関数ではありません)。dL/dx を紙の上で導き、"
                                 "forward が self に保存したものから、NumPy で backward に書いて"
                                 "ください。"),
    "grade.again_as": "{name}、{function} としてもう一度",
    "grade.which_is": "{name} (実体は {function})",
    "results.unreadable": ("{name}: あなたのコードのプロセスが、採点プログラムの読めない結果を"
                           "返しました (結果ファイルが置き換えられたのでしょうか)"),
    "results.too_large": ("{name}: あなたのコードのプロセスが {size} の結果ファイルを返しました。"
                          "採点プログラムが読むのは {most} までです (結果ファイルが置き換え"
                          "られたのでしょうか)"),
    "results.refused": ("{name}: あなたのコードのプロセスが返した結果を、採点プログラムは"
                        "読みません: {why}"),
    "results.the_file": "結果ファイル",
    "results.may_hold": "結果ひとつに許される {size}",
    "results.ended": ("あなたのコードのプロセスは、結果を返す前に終了しました (終了ステータス "
                      "{status})"),
    "results.stderr": "。stderr の最後: {lines}",
    "results.crashed": "{name}: {ended}。os._exit を呼んだか、クラッシュしたのでしょうか",
    "results.unsealed": ("{name}: {ended}。os._exit を呼んだか、クラッシュしたのでしょうか。"
                         "封印が保証しない結果ファイルは読みません"),
    "results.changed": ("{name}: あなたのコードが、採点プログラムのコードが記録したもの "
                        "({array}) を、返す前に変えました"),
    "results.no_case": "{name}: あなたのコードは結果を返しませんでした ({where})",
    "results.missing": "{name}: {what}が返ってきませんでした ({where})",
    "results.not_numbers": ("{name}: {what}が、数ではなく {dtype} の値として返ってきました "
                            "({where})"),

    # ---- 保存された正しい答えが壊れている (minigrad.grade.expected) ------------------------
    "expected.unreadable": "採点プログラムの期待値を {file} から読めません: {error}",
    "expected.no_member": "採点プログラムの期待値 ({file}) に {member} がありません",
    "expected.wrong_member": ("採点プログラムの期待値 ({file}): {member} は {dtype} {shape} "
                              "ですが、正しくは float64 {wanted} です"),
    "expected.any_shape": "(形は任意)",

    # ---- 間違いの場所 (minigrad.grade.diagnose) -----------------------------------------------
    "diagnose.name_them": ("(途中の結果に式と同じ名前 {names} を付けると、採点プログラムが"
                           "最初に食い違うものを教えます)"),
    "diagnose.first_shape": ("{names} のうち最初に食い違うのは{what} です: あなたの形は {got}、"
                             "模範解答の形は {expected} です"),
    "diagnose.first_values": ("{names} のうち最初に食い違うのは{what} です: 要素 {element}、"
                              "あなたの値 {yours}、正しい値 {expected} (差 {off})。{total} 個の"
                              "要素のうち {wrong} 個がずれています"),
    "diagnose.check_line": "その行を確かめてください: {line}",
    "diagnose.check_maker": "{name} を作る行を確かめてください",
    "diagnose.agree_one": "{names} は模範解答と一致します: 間違いはその後の計算にあります",
    "diagnose.agree_many": "{names} は模範解答と一致します: 間違いはそれらの後の計算にあります",
    "diagnose.output_line": " (出力を作る行: {line})",
    "diagnose.not_found": "({names} はあなたのローカル変数に見つからないため、比べていません)",
    "diagnose.joiner": "、",
    "diagnose.and": "と",
    "diagnose.or": "か",
    "diagnose.no_gradient": "{part} に勾配が届いていません",
    "diagnose.cut": ("模範解答の勾配はそこで 0 ではありませんが、あなたの勾配は {yours} です。"
                     "出力は"
                     "正しいので、{name} と出力の間で計算グラフが切れています: 値が計算グラフの外へ"
                     "取り出され (Tensor(t.data)、t.detach()、.data に対する NumPy の計算)、その"
                     "コピーから計算が続いたため、勾配が逆伝播しません。"),
    "diagnose.missing": "None (ありません)",
    "diagnose.rows": "{block} ({name} の行 {first} から {last})",
    "diagnose.elements": "{name} の {size} 個の要素のうち {count} 個",

    # ---- 計算グラフの外で作られたテンソル (minigrad.grade.diagnose, suspects) ----------------
    "diagnose.makes": ("あなたのファイルの {line} 行目で、計算グラフの外にある {shape} のテンソル"
                       "{named}を作っています{copy}{stops}。{made_by}{used}"),
    "diagnose.takes_in": ("あなたのファイルの {line} 行目で、計算グラフの外にある {shape} の"
                          "テンソルを受け取っています{copy}{stops}。.data から新しい Tensor を"
                          "作っていませんか?"),
    "diagnose.named": " {name} ",
    "diagnose.copy_of": " ({name} のコピー)",
    "diagnose.stops": "。requires_grad が True なので、勾配はそこで止まります",
    "diagnose.no_flow": "。ここから勾配は逆伝播しません",
    "diagnose.made_tensor": ("配列 (t.data) から新しく作った Tensor です: テンソルそのもので"
                             "計算してください"),
    "diagnose.made_detach": (".detach() が作った、計算グラフから切り離されたコピーです: テンソル"
                             "そのものを使ってください"),
    "diagnose.made_array": ("演算 (op) がテンソルに変えた NumPy 配列です: .data や NumPy では"
                            "なく、テンソルで計算してください"),
    "diagnose.used_one": " ({lines} 行目でそれを使っています)",
    "diagnose.used_many": " ({lines} 行目でそれを使っています)",
    "diagnose.path_cut": "出力は正しいので、入力から出力への経路がどこかで切れています:",
    "diagnose.your_backward": ("(出力は正しいので、あなたの {op} の backward を確かめてください"
                               "{where})"),
    "diagnose.made_at": "。作られた行: {line}",
    "diagnose.leaves_graph": ("(出力は正しく、計算グラフの演算はすべて minigrad のものです: .data "
                              "や NumPy を通って計算グラフの外へ出る値を探してください)"),

    # ---- layer_norm_op の逆伝播のよくある間違い (minigrad.grade.layer_norm_mistakes) --------
    "mistake.as_constants": ("あなたの dL/dx は g / sigma です (g = dL/dy * weight): 平均と分散"
                             "を定数として扱っていますが、どちらも行のすべての x_i に依存する"
                             "ので、- mean(g) と - xhat * mean(g * xhat) の項が加わります: "
                             "{right}"),
    "mistake.without_mean_term": ("勾配の平均の項がありません: あなたの dL/dx は (g - xhat * "
                                  "mean(g * xhat)) / sigma です。平均は行のすべての x_i に依存"
                                  "するので、mean(g) を引きます: {right}"),
    "mistake.without_variance_term": ("勾配の分散の項がありません: あなたの dL/dx は (g - "
                                      "mean(g)) / sigma です。sigma は行のすべての x_i に依存"
                                      "するので、xhat * mean(g * xhat) を引きます: {right}"),
    "mistake.without_weight": ("g に weight が掛けられていません: あなたの dL/dx は g = dL/dy "
                               "とした正しい式です。y = xhat * weight + bias なので、xhat に"
                               "届く勾配は g = dL/dy * weight です: {right}"),
    "mistake.keepdims": ("dL/d{name} の形は {shape} です: 行について合計していますが、その軸が"
                         "残っています (keepdims): {name} は ({size},) なので、その勾配も "
                         "({size},) です"),
    "mistake.unsummed": ("dL/d{name} が先頭の軸について合計されていません: あなたの勾配の形は "
                         "{shape} で、行ごとの {sums} です。{name} ({size},) は x の行に"
                         "ブロードキャストされるので、dL/d{name} は最後の軸以外のすべての軸に"
                         "ついての {sums} の合計です"),

    # ---- GRU のゲート (minigrad.grade.exercises) ----------------------------------------------
    "gru.reset_gate": "リセットゲート r",
    "gru.update_gate": "更新ゲート z",
    "gru.candidate": "候補状態 n",

    # ---- 解答を拒否する理由 (minigrad.grade.refusals など): ja_refusals.py -------------------
    **REFUSALS,

    # ---- ファイル、設定、描画、エクスプローラ (minigrad.viz): ja_tools.py ----------------------
    **TOOLS,

    # ---- 自分で書いた演算: forward や backward が返したもの (op_errors): ja_ops.py -------------
    **OPS,
}
