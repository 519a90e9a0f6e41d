"""seq2seq のメッセージ (日本語)。キーと差し込み箇所 ({path} など) は en.py と同じです。"""

from seq2seq.commands.messages import ja_checkpoint, ja_checks, ja_left

MESSAGES = {
    # ---- 読むファイルの種類 (拒否のメッセージが示すもの: minigrad.files.read_small_text) ------
    "what.swap_list": "入れ替えの一覧",
    "what.result_file": "結果ファイル",
    "what.demo_report": "デモの報告",
    "what.run_report": "実行の報告",
    "what.file": "ファイル",

    # ---- ビームサーチの採点プログラム (seq2seq.grade) -----------------------------------------
    "beam.case_greedy": "beam_size=1 は貪欲デコーディング",
    "beam.case_better": "貪欲デコーディングは最良ではありません: 幅 2 のビームのほうが良い結果です",
    "beam.case_another": "別の入力系列で幅 2 のビーム",
    "beam.case_three": "幅 3 のビーム",
    "beam.case_three_short": "短い入力系列で幅 3 のビーム",
    "beam.case_four": "幅 4 のビーム",
    "beam.case_cut": "max_len=2 で翻訳が途中で打ち切られます",
    "beam.case": ("ケース {number}/{total}「{label}」(入力系列 {source}、beam_size {beam_size}、"
                  "max_len {max_len})"),
    "beam.not_a_pair": ("beam_search: (ids, weights) の 2 つ組のタプルを返してください ({where})。"
                        "あなたのコードは {type} を返しました"),
    "beam.ids_not_list": ("beam_search: ids はトークン ID のリストにしてください。返ってきたのは "
                          "{ids!r} です ({where})"),
    "beam.ids_not_integers": "beam_search: ids はトークン ID のリストにしてください ({where})",
    "beam.id_outside": ("beam_search: id {id} はモデルのトークン ID (0 から {last}) ではありません "
                        "({where})"),
    "beam.bos_eos": ("beam_search: ids {ids} には <bos> ({bos}) も <eos> ({eos}) も含めないで"
                     "ください ({where})"),
    "beam.too_long": ("beam_search: トークン {count} 個は max_len={max_len} を超えています "
                      "({where})"),
    "beam.weights_not_numbers": ("beam_search: アテンションの重みは数の配列 (n, S) にしてください。"
                                 "あなたのものは {type} です ({where})"),
    "beam.not_greedy": ("beam_search: beam_size=1 のビームサーチは貪欲デコーディングで、結果は "
                        "{greedy} (対数確率 {best:.6g}) です。あなたのものは {ids} (対数確率 "
                        "{mine:.6g}) でした ({where})"),
    "beam.less_likely": ("beam_search: あなたの翻訳 {ids} の対数確率は {mine:.6g} ですが、模範解答"
                         "が見つけた翻訳 {found} の対数確率は {best:.6g} です (大きいほど良い) "
                         "({where})"),
    "beam.no_weights": ("beam_search: モデルはアテンションを持つので、その重みを出力トークン"
                        "ごとに 1 行ずつ返してください (ここでは {count} 行) ({where})"),
    "beam.weights": "beam_search: アテンションの重みの配列",
    "beam.ids": "トークン ID の列 ids",
    "beam.attention_weights": "アテンションの重み",
    "beam.reproduce": ("再現するには: from seq2seq.grade import grading_model, CASES; model = "
                       "grading_model(); label, source, beam_size, max_len = CASES[{index}]"),
    "beam.passed": ("beam_search: {count} 個のケースで、beam_size=1 では貪欲デコーディングと一致"
                    "し、翻訳は模範解答と同じかそれ以上に確からしく、アテンションの重みも正しいことを"
                    "確かめました"),

    # ---- 学習の進み具合 (seq2seq.commands.progress) -------------------------------------------
    "progress.starting": ("{weights} 個の重みを {pairs} 組のペアで学習します (検証用 {validate} "
                          "組): 1 エポックあたり {batch_size} 組ずつ {batches}、{which}"),
    "progress.epochs_one": "{count} エポック",
    "progress.epochs_many": "{count} エポック",
    "progress.epoch_only": "エポック {epoch}",
    "progress.epoch_range": "エポック {first} から {last}",
    "progress.batches_one": "{count} バッチ",
    "progress.batches_many": "{count} バッチ",
    "progress.epoch": "エポック {epoch}/{epochs}: 損失 {loss}",
    "progress.epoch_name": "エポック {epoch}/{epochs}",
    "progress.in_epoch": "{epoch}: {total} バッチ中 {done} バッチ、{seconds} 秒{extra}",
    "progress.loss_so_far": "、損失 {loss}",
    "progress.all_blank": "  (出力がすべて空白)",
    "progress.timing": "  ({batches}、{seconds} 秒{rate})",
    "progress.rate": "、毎秒 {rate} バッチ",
    "progress.level_word": "トークン: 単語 (空白で区切ります。--level word)",
    "progress.level_char": ("トークン: 文字 (空白も含みます。{how})。--level word にすると各単語が"
                            " 1 トークンになります"),
    "progress.level_default": "ペアファイルの既定",
    "progress.blank_warning": ("警告: 検証用の {count} 個の出力がすべて空白です (空か、空白だけ)。"
                               "{hint}"),
    "progress.blank_spaces": ("空白の一つひとつが、置く場所を学ぶべきトークンです。単語の"
                              "ファイルなら --level word が向いているかもしれません"),
    "progress.blank_more": "エポックを増やすか、--lr を変えると良くなるかもしれません",

    # ---- train (seq2seq.commands.cli, train) --------------------------------------------------
    "train.nothing_left": ("学習することが残っていません: {out} はすでに {epochs}学習済みです "
                           "(--epochs {wanted})。続けるには、より大きな --epochs を指定して"
                           "ください"),
    "train.checkpoint": "チェックポイント: {path}",
    "train.no_task": "そのようなタスクもファイルもありません: {path!r} (タスク: {tasks})",

    # ---- 実行フォルダ (seq2seq.commands.runs, seq2seq.translator) -----------------------------
    "runs.out_empty": "{option} が空です: フォルダを指定してください",
    "runs.out_is_file": "--out {folder} はファイルです。フォルダを指定してください",
    "runs.cannot_make": "--out {folder}: そこにフォルダを作れません ({error})",
    "runs.resume_and_overwrite": ("--resume は学習を続け、--overwrite は置き換えます: どちらか"
                                  "一方を指定してください"),
    "runs.holds_run": "{folder} にはすでに学習結果があります ({files}): {way}",
    "runs.resume_or_overwrite": ("続けるには --resume を、置き換えるには --overwrite を指定して"
                                 "ください"),
    "runs.nothing_to_resume_there": ("続きから学習するための {checkpoint} がありません: 置き換える"
                                     "には --overwrite を指定してください"),
    "runs.overwrite_later": ("--overwrite: {folder} の以前の学習結果は、この学習の最初のエポック"
                             "が保存されるまで残ります"),
    "runs.nothing_to_resume": ("{folder} には続きから学習するものがありません: {checkpoint} が"
                               "ありません (新しく学習するには --resume の代わりに --overwrite "
                               "を指定してください)"),
    "runs.nothing_to_resume_empty": ("{folder} には続きから学習するものがありません: "
                                     "{checkpoint} がありません (新しく学習するには --resume を"
                                     "外してください)"),
    "runs.not_earlier": ("{out} には以前の {what} の結果ではないファイルがあります ({files}): "
                         "別の --out を選ぶか、--overwrite を指定して {what} のファイルを置き"
                         "換えてください"),
    "runs.replacing_files": "{out} にある {what} のファイルを置き換えます",
    "runs.replacing_earlier": "{out} にある以前の {what} の結果を置き換えます",
    "runs.train_one": "(学習するには: python -m seq2seq train --out {path} ...)",
    "runs.not_a_run": "{path}: {checkpoint} がないため、実行フォルダではありません {train}",
    "runs.no_run": "{path}: そのような実行フォルダはありません {train}",

    # ---- evaluate (seq2seq.commands.cli, evaluate) --------------------------------------------
    "evaluate.dropped": ("  (生成したペアのうち {dropped} 組を除きました: その入力文で学習して"
                         "いたためです)"),
    "evaluate.by_length": "入力文の長さごとの完全一致率: {lengths}",

    # ---- translate (seq2seq.commands.cli, seq2seq.translation) --------------------------------
    "translate.empty_text": "翻訳する {name} が空です",
    "translate.unknown_all": ("注意: モデルは入力文の {total} 個のトークン ({shown}) をどれも"
                              "知りません: <unk> しか読んでいないので、この翻訳はこの文について"
                              "何も語っていません"),
    "translate.unknown_some": ("注意: 入力文の {total} 個のトークンのうち {count} 個がモデルの語彙"
                               "になく、<unk> として読みました: {shown}"),
    "translate.longer": ("警告: 入力文は {length} トークンあり、学習したいちばん長い入力文 "
                         "({longest} トークン) より長くなっています: その長さを超える文は一度も"
                         "学習していません"),
    "translate.only_spaces": "注意: 翻訳は空白だけです",
    "translate.empty": "注意: 翻訳は空です",
    "translate.no_text_heatmap": ("(片側が {most} トークンを超えるため、テキストのヒートマップは"
                                  "表示しません: --plot PNG で描けます)"),
    "translate.heatmaps_written": "ヒートマップ (行が層、列がヘッド): {path}",
    "translate.heatmap_written": "ヒートマップ: {path}",

    "heatmap.legend": "重み:  {shades}",

    # ---- アテンションの論文の実験 (seq2seq.papers) --------------------------------------------
    "papers.training": "{name} を学習します",
    "papers.training_model": "{name} のモデルを学習します",
    "papers.training_transformer": "{name} の Transformer を学習します",
    "papers.written": "{out}/{json} に書き出しました",
    "papers.written_both": "{out}/{figure} と {json} に書き出しました",
    "papers.nothing_drawn": " (正しく翻訳できた文がないため、図は描いていません)",
    "papers.train_run": ("{out} には train の学習結果があります ({files}): {what} の実験には別の "
                         "--out を選んでください"),
    "papers.not_a_model": ("{folder} は以前の {what} の結果のモデルのフォルダではありません ({out} "
                           "の {json} に記録がありません): {out} の外へ移すか、別の --out を選んで"
                           "ください"),
    "papers.not_its_files": ("{folder} にはそのモデルのものではないファイルがあり ({files})、新しい"
                             "結果で置き換えられてしまいます: 外へ移すか、別の --out を選んで"
                             "ください"),
    "papers.not_unfinished": ("{path} は実験の途中の結果ではありません (実験のコマンドは、そこに "
                              "{next} と {replaced} を {next}/{begun} とともに作ります): そのまま"
                              "にしてあります。{out} の外へ移すか、別の --out を選んでください"),
    "papers.finished_swap": ("止まったコマンドが始めていた、{out} の以前の結果の置き換えを終え"
                             "ました"),
    "papers.removed_unfinished": "止まったコマンドが {place} に残した途中の結果を削除しました",
    "papers.built_in_task": ("には組み込みのタスク ({tasks}) を指定してください: {command} は"
                             "そのタスクの新しい文を生成して採点します (指定された値: {task!r})"),
    "papers.digit_task": ("には {tasks} のどれかを指定してください (出力が入力と同じ長さになる"
                          "数字のタスクです。指定された値: {task!r})"),
    "papers.a_digit_task": ("には {tasks} のどれかを指定してください (数字のタスクです。指定"
                            "された値: {task!r})"),
    "papers.at_least": ("には {least} 以上を指定してください (指定された値: {value}): {command} "
                        "では、{why}"),
    "papers.why_length": ("これより少ないペアではどちらのモデルもタスクを学べず、どちらも失敗した "
                          "2 つのモデルからは長さについて何もわかりません"),
    "papers.why_learns": "これより少ないペアではどちらのモデルもタスクを学べません",
    "papers.why_tenth": "1 割を採点用に取り分けます",
    "papers.why_sources": "入力文の 1 割をモデルの採点用に取り分けます",
    "papers.test_below": ("{tested} は学習するいちばん長い入力文の長さ {high} (--max-len) より"
                          "小さくなっています: より長い文で試すのが目的です"),
    "papers.min_above": "{low} はタスクのいちばん長い入力文の長さ {high} より大きくなっています",
    "papers.test_not_above": ("{tested} が --max-len {high} より大きくありません: 学習したどの系列"
                              "よりも長い系列で試すのが目的です"),
    "papers.table_too_short": ("{tested} には {tested} までの位置が必要ですが、学習する位置の表は "
                               "{rows} 行しかありません (0 ... {last}: 2 x (--max-len + 2) + 10): "
                               "最大 {last} です"),
    "papers.seeds_numbers": "にはカンマで区切った整数を指定してください (指定された値: {text!r})",
    "papers.seeds_count": ("には異なるシードを 1 個から 10 個指定してください (指定された値: "
                           "{text!r})"),
    "papers.why_seeds": "シードごとに Transformer をひとつ学習します",
    "papers.not_a_task": ("に指定された {name!r} は組み込みのタスク ({tasks}) ではありません "
                          "(カンマ区切りで指定します)"),
    "papers.task_twice": "に同じタスクが 2 回あります: {text!r}",
    "papers.two_budgets": "と --budget はどちらも予算です: どちらか一方を指定してください",
    "papers.why_budget": "モデルごと、タスクごとの学習の CPU 秒数で、最大 1 日です",
    "papers.why_updates": "モデルごと、タスクごとの学習の更新回数です",
    "papers.no_task_left": "には比べるタスクが残っていません",
    "papers.skipping_dates": ("dates を飛ばします: {why} (組み込みのタスクは本のデータではありま"
                              "せん: そのペアファイルを指定してください)"),
    "papers.no_dates_file": "--dates-file が指定されていません",
    "papers.every_above": ("{every} が --updates {updates} より大きくなっています: 損失の曲線に"
                           "点がひとつもなくなります"),
    "papers.why_warmup": ("ウォームアップのあるモデルのウォームアップの更新回数です。ほかのモデル"
                          "にはありません"),
    "papers.warmup_too_long": ("{warmup} が --updates {updates} より小さくありません: ウォーム"
                               "アップのあるモデルが --lr に達しません"),
    # 実行中の表示と表の言葉
    "papers.spent_updates": "{updates} 回の更新",
    "papers.spent_seconds": "CPU 時間 {seconds:g} 秒",
    "papers.training_for": "{task} で {name} を学習します ({spent})",
    "papers.budget_done": ("{updates} 回の更新 ({batches} バッチのエポックを {epochs:.2f} 回) を "
                           "CPU 時間 {seconds:.1f} 秒で行いました。最後の損失 {loss:.4f}"),
    "papers.scoring_longer": ("{name} を、学習に使っていないペアと、長さ {low} から {high} の各"
                              "長さの新しい系列 {count} 個で採点します"),
    "papers.training_norms": "{label}、シード {seed} を {updates} 回の更新で学習します",
    "papers.model_failed": "{label}、シード {seed}: {error}",
    "papers.pre-warmup": "pre-norm、ウォームアップあり",
    "papers.pre-no-warmup": "pre-norm、ウォームアップなし",
    "papers.post-warmup": "post-norm、ウォームアップあり",
    "papers.post-no-warmup": "post-norm、ウォームアップなし",
    "papers.aligned": ("{name}: 学習に使っていない {count} 文で完全一致率 {exact:.1%}。正しく"
                       "翻訳できた文について:"),
    "papers.aligned_rows": ("  {kind} {rows:5d} 行: 期待されるセルのアテンションの重み {mass:.3f}、"
                            "最大の重みがそこにある行 {argmax:.1%}"),
    "papers.kind_digits": "数字",
    "papers.kind_crossing": "交差する動詞",
    "papers.kind_content": "内容語",
    "papers.heads_seed": ("{name}: 学習に使っていない {count} 文で完全一致率 {exact:.1%}。正しく"
                          "翻訳できた文 (交差する動詞の行 {verbs}、内容語の行 {words}) について、"
                          "期待されるセルのアテンションの重みと、最大の重みがそこにある行の割合:"),
    "papers.best_heads": "交差する動詞にいちばん合うヘッド (シードごと):",
    "papers.no_crossing_verb": "交差する動詞を正しく翻訳できた文がありません",
    "papers.uniform_exact": "学習に使っていない {count} 文。完全一致率: {scores}",
    "papers.uniform_by_length": ("入力文の長さごと、{learned} (学習した重み) / 一様な重み: "
                                 "{lengths}"),
    "papers.seed_pair": ("{a} と {b}: 同じ翻訳になった文 {same:.1%}。両方が同じく正しく翻訳した "
                         "{alike} 文では、{rows} 行のうち {differs:.1%} で最大の重みが別の入力"
                         "単語にあります (そのような行がある文 {with_row:.0%})。2 つのモデルの行"
                         "の間の JSD {jsd:.3f}、行と一様な重みの間の JSD {uniform:.3f}"),
    "papers.verb_rows": ("{name}: 交差する動詞の行 {rows}、動詞への重み {verb:.2f}、その前の を "
                         "への重み {wo:.2f}"),
    "papers.source_length": "入力文の長さ",
    "papers.sentences": "文の数",
    "papers.exact_match": "完全一致率",
    "papers.longer_rule": "-- 学習したどの入力文よりも長い --",
    "papers.scoring_head": "{task}、学習に使っていない {count} 文、シードごとの値:",
    "papers.score": "スコア",
    "papers.parameters": "パラメータ",
    "papers.cpu_per_epoch": "CPU 秒/エポック",
    "papers.same_budget": ("どのタスクでも各モデルに同じ {spent}。学習に使っていないペアで採点"
                           "しました:"),
    "papers.task": "タスク",
    "papers.model": "モデル",
    "papers.updates": "更新数",
    "papers.cpu_seconds": "CPU 秒",
    "papers.epochs": "エポック",
    "papers.held_out": "検証用",
    "papers.toy_by_length": "toy-ja-en、入力文の長さ (単語数) ごとの完全一致率:",
    "papers.length": "長さ",
    "papers.seed_one": "シード {seeds}",
    "papers.seed_many": "シード {seeds}",
    "papers.positions_head": ("{task}、{low} から {high} 桁で学習 ({pairs:,} 組のペアで "
                              "{epochs})、{seeds}:"),
    "papers.positions_note": "完全一致率はシード間の最小から最大、出力の長さはその平均",
    "papers.output_length": "出力の長さ",
    "papers.norms_head": ("{task}、{layers} + {layers} 層、Adam (学習率 {lr:g}、ウォームアップ: "
                          "{warmup} 回の更新)、{batch} 組のバッチで {updates} 回の更新、{seeds}:"),
    "papers.lowest_to_highest": "シード間の最小から最大",
    "papers.mean_loss": "平均損失 (更新)",
    "papers.first_block": "最初のブロックの勾配",
    "papers.last": "最後の {count}",
    "papers.update_one": "更新 1",
    "papers.uniform_guess": ("(V 個の出力トークンを一様に当て推量すると ln V = {loss:.3f} "
                             "です)"),

    # ---- デモ (seq2seq.commands.demo) ---------------------------------------------------------
    "demo.training": ("{attention} 付きの LSTM エンコーダ・デコーダを {task} で学習します "
                      "({pairs:,} 組のペア、{epochs} エポック、双方向エンコーダ)"),
    "demo.attention_dot": "内積アテンション (注意機構)",
    "demo.scores": "{held_out}: 完全一致率 {exact}、BLEU {bleu} ({over}単位)",
    "demo.over_characters": "文字",
    "demo.over_words": "単語",
    "demo.held_out": ("学習に使っていない {count} 文 (別のシードで生成しました。{left_out})"),
    "demo.none_seen": "入力文が学習データにあったものはありません",
    "demo.left_out_one": "入力文が学習データにあった {count} 文は除きました",
    "demo.left_out_many": "入力文が学習データにあった {count} 文は除きました",
    "demo.most_attended": "最も注目したトークン: {pairs}",
    "demo.written": "{out}/ に書き出しました: {files}",
    "demo.graphs_not_drawn": "計算グラフは描きませんでした: {error}",

    # ---- 検査のメッセージ: ja_checks.py, ja_checkpoint.py ---------------------------------
    **ja_checks.MESSAGES,
    **ja_checkpoint.MESSAGES,
    **ja_left.MESSAGES,
}
