"""seq2seq のメッセージ (日本語) の後半: 検査のメッセージ (設定、発散した学習の停止、evaluate の
表、チェックポイントのエントリ、層のファイル)。キーと差し込み箇所は en_checks.py と同じです。"""

MESSAGES = {
    # ---- 設定 (seq2seq.commands.settings) -----------------------------------------------------
    "settings.heads": ("{heads} では --d-model {d_model} を割り切れません (各ヘッドが d_model / "
                       "heads 個の特徴量を受け持ちます)"),
    "settings.min_above_max": "{low} が --max-len {high} より大きくなっています",
    "settings.sep_empty": "は空にできません",
    "settings.no_pair_left": ("{val_fraction} では学習に使うペアが残りません: {pairs} 組すべてが"
                              "検証用になります"),
    "settings.too_large": "--{option} {value} が大きすぎませんか?",
    "settings.why_warmup": "学習率が最大になるまでの更新回数として、どの学習よりも多すぎます",
    "settings.why_smoothing": "1 ではどの目標も一様になり、損失から何も学べません",
    "settings.why_batch": "バッチを埋めるだけの例を持つ学習はありません",
    "settings.why_epochs": ("チェックポイントはエポックごとに書き出され、各エポックを記録します: "
                            "これより多いのは打ち間違いです"),
    "settings.why_threads": "BLAS のスレッド数として、どのマシンのコア数よりも多すぎます",
    "settings.why_beam": "ビームサーチは 1 ステップに beam_size**2 個の候補をひとつずつ比べます",

    # ---- 発散した学習 (seq2seq.commands.epoch) ------------------------------------------------
    "epoch.diverged": ("エポック {epoch}、バッチ {batch} で{what}: --lr (現在 {lr}) か --clip "
                       "(現在 {clip}) を小さくしてください。このエポックは保存していません"),
    "epoch.loss_not_finite": "損失が {value} になりました",
    "epoch.loss_too_high": ("損失がトークンあたり {value} になりました (上限は {ratio} x ln V = "
                            "{bound} です。V = {size} 個の目標トークンから一様に当て推量すると "
                            "{uniform} です)"),
    "epoch.norm_not_finite": "勾配のノルムが {norm} になりました",
    "epoch.weight_too_large": "いちばん大きな重みが {largest} になりました (上限は {bound} です)",

    # ---- evaluate の表と注意 (seq2seq.commands.cli, evaluate) ---------------------------------
    "evaluate.examples": "ペアの数 (examples)            {count}",
    "evaluate.seen": "学習で見た入力文 (seen_in_training) {seen}",
    "evaluate.unknown": "不明",
    "evaluate.exact_match": "完全一致率 (exact_match)       {value:.4f}",
    "evaluate.token_accuracy": "トークン正解率 (token_accuracy) {value:.4f}",
    "evaluate.bleu": "BLEU スコア (bleu)             {value:.4f}",
    "evaluate.bleu_char": "BLEU のトークン (bleu_tokens)  {tokens}  (文字)",
    "evaluate.bleu_13a": "BLEU のトークン (bleu_tokens)  {tokens}  (13a の単語)",
    "evaluate.bad_source": "{file}: 'split.val_pairs[{i}]' エントリの検証用の入力文は{problem}",
    "evaluate.min_above_max": ("--min-len {low} が --max-len {high} より大きくなっています "
                               "(指定しない長さは学習時のもの、なければタスクの既定です)"),
    "evaluate.origin_given": "--min-len/--max-len の指定どおり",
    "evaluate.origin_run": "学習時の --min-len/--max-len",
    "evaluate.origin_default": "タスクの既定の長さ",
    "evaluate.too_long": ("{task}: 入力文は最長 {high} トークンです ({origin}) が、このモデルが"
                          "受け付けるのは {most} トークンまでです: より小さな --max-len を指定して"
                          "ください"),
    "evaluate.lengths": "{task}: 入力文は {low} から {high} トークン ({origin})",
    "evaluate.no_split": ("警告: {run} には学習データの分割の記録がないため、どの入力文で学習した"
                          "かは不明です (seen_in_training: null)"),
    "evaluate.split_empty": ("評価するものがありません: 検証用の分割が空です (--task を使って"
                             "ください)"),
    "evaluate.all_seen": ("評価するものがありません: {task} の {dropped} 組すべての入力文で、この"
                          "モデルは学習していました"),
    "evaluate.all_blank": "警告: {count} 個の出力がすべて空白です (空か、空白だけ)",
    "evaluate.file_changed": "{task} は、学習に使った後に変わっています",
    "evaluate.not_as_trained": ("警告: {what}。学習時に記録した {count} 組の検証用のペアで評価"
                                "します"),

    # ---- 翻訳するテキスト (seq2seq.translator) ------------------------------------------------
    "translator.empty": "空です: 翻訳するものがありません",
    "translator.too_many": ("トークンが {n} 個あります ({level} 単位)。translate が受け付けるのは "
                            "{most} トークンまでです"),
    "translator.model_most": ("トークンが {n} 個あります ({level} 単位)。このモデルが受け付ける"
                              "のは {most} トークンまでです (それより先の位置を持ちません)"),
    "translator.reserved": ("単語単位で予約されたトークン {token} ({specials}) を含んでいます: "
                            "書き換えてください"),
    "translator.max_len": ("translate: max_len には 1 以上の整数か None (入力文が n トークンなら "
                           "2 n + 10) を指定してください (指定された値: {value})"),
    "translator.the_text": "テキスト",
    "translator.text_i": "{n} 個のテキストのうち {i} 番目",
    "translator.bad_text": "{which}は{problem}",
    "translator.not_transformer": ("層ごと・ヘッドごとのクロスアテンションは Transformer のもの"
                                   "です。このモデルは {model} です: そのアテンションは "
                                   "plot_heatmap で描けます"),
    "translator.transformer_rnn": ("Transformer には再帰層がありませんが、チェックポイントには"
                                   "記録されています ('rnn')"),
    "translator.lstm_block": ("LSTM エンコーダ・デコーダにはエンコーダのブロックがありませんが、"
                              "チェックポイントには記録されています ('block')"),

    # ---- 実行フォルダとそのロック、ペアファイル (runs, lock_file, task_file) ------------------
    "runs.removed_temporary": ("止まった学習が {folder} に残した一時ファイルを {count} 個"
                               "削除しました"),
    "runs.experiment_there": ("{folder} には {experiment} の実験の結果があります ({file}): "
                              "学習には別の --out を選んでください"),
    "runs.swap_of": "{experiment} の",
    "runs.swap_of_an_experiment": "ある実験の",
    "runs.unfinished_swap": ("{parent} には {what}学習結果の入れ替えが途中で止まったまま残って"
                             "います: 同じコマンドか、--out {parent} を付けたいずれかの実験コマンド"
                             "をもう一度実行して入れ替えを終えると、{run} を読めるようになります"),
    "runs.refused": "--{option} {new} (保存された値: {saved})",
    "runs.refused_for": "--{option} {new} ({task} で保存された値: {saved})",
    "runs.other_settings": ("{folder} は、モデルを学習したときと違う設定では続けられません: "
                            "{refused}。保存された設定のまま続けるか、--overwrite か別の --out "
                            "で新しく始めてください"),
    "lock.not_regular": ("{path} は通常のファイルではありません (シンボリックリンクかフォルダ"
                         "です): 削除してください"),
    "lock.cannot_open": "ロック {path} を開けません: {error}",
    "lock.hard_link": ("{path} はそれだけのファイルではありません (ハードリンクで、ひとつの"
                       "ファイルの {names} 個の名前のひとつです): 削除してください"),
    "lock.not_own": "{path} は通常のファイルではありません: 削除してください",
    "lock.process": "別の学習 (プロセス {pid})",
    "lock.another": "別の学習",
    "lock.busy": ("{folder} は{who}が使っています: 終わるのを待つか、別の --out を選んで"
                  "ください"),
    "task_file.typed": " (学習を始めたときの --task {typed})",
    "task_file.gone": ("{out} の続きを学習できません: 学習に使ったペアファイル {path}{how} が"
                       "もうありません: そのファイルかそのコピーを --task FILE で指定してください"),
    "task_file.cannot_resume": "{out} の続きを学習できません: {why}",
    "task_file.not_the_file": ("学習結果に記録されたペアファイル {path} は、学習に使った"
                               "ファイルではありません (またはありません): --task FILE で"
                               "指定してください"),

    # ---- メモリやチェックポイントに収まらないモデル (seq2seq.commands.sizes) ------------------
    "sizes.training_needs": ("学習には約 {need} が必要です ({weights} 個の重みを 4 通り持ち、"
                             "さらに 1 バッチ分の活性値を持つため)"),
    "sizes.weights_need": "{weights} 個の重みに約 {need} が必要です",
    "sizes.more_than_memory": "{what}。使えるメモリ {limit} を超えています",
    "sizes.too_large": "{value} は大きすぎます: {what}",
    "sizes.source_vocabulary": "入力側の語彙が {tokens} トークンで、大きすぎます: {what}",
    "sizes.target_vocabulary": "出力側の語彙が {tokens} トークンで、大きすぎます: {what}",
    "sizes.checkpoint_too_large": ("{what}: モデルの重みは {weights} 個で、そのチェックポイント"
                                   "(重みと Adam の 2 つのモーメント) は {need} になり、"
                                   "チェックポイントに入る {most} を超えます"),

    # ---- train のオプションとデータ (seq2seq.commands.arch, train_options, train) --------------
    "arch.one_of": "{option} には {choices} のいずれかを指定してください (指定された値: {value})",
    "arch.transformer_only": ("{option} は --arch transformer だけのオプションで、この学習の "
                              "arch は lstm です: 外すか、--arch transformer を付けてください"),
    "arch.lstm_only": ("{option} は --arch lstm だけのオプションで、Transformer には使えません: "
                       "外してください"),
    "arch.lr_too_large": ("--lr {lr} はウォームアップのスケジュールには大きすぎます: 基準の学習率 "
                          "lr x sqrt(d_model x warmup) が有限の数になりません"),
    "arch.two_schedules": ("--warmup は更新ごとに、--lr-decay はエポックごとに学習率を決めます: "
                           "どちらか一方を外してください (--warmup 0 ならウォームアップなしで、"
                           "学習率を --lr-decay がエポックごとに下げます)"),
    "train.composed_and_rnn": ("--composed は LSTM の計算のしかたを選び、--rnn は LSTM を置き換え"
                               "ます: どちらか一方を外してください"),
    "train.generating_only": ("は組み込みのタスク (ペアを生成します) だけに使えます。ペア"
                              "ファイル {task} は全行を読むので使えません: 外してください"),
    "train.recorded_pairs": "記録された検証用のペア",
    "train.built_in_task": "組み込みのタスク {task}",
    "train.pairs_only_one": ("{options} はペアファイル (--task FILE) だけに使えます。{what} には"
                             "使えません: 外してください"),
    "train.pairs_only_two": ("{options} はペアファイル (--task FILE) だけに使えます。{what} には"
                             "使えません: 外してください"),
    "train.no_validation_one": ("警告: 検証用のペアがありません: 異なる入力文 {sources} 個の "
                                "--val-fraction {fraction} ではひとつも取り分けられないので、"
                                "どのエポックも評価しません"),
    "train.no_validation": ("警告: 検証用のペアがありません: 異なる入力文 {sources} 個の "
                            "--val-fraction {fraction} ではひとつも取り分けられないので、どの"
                            "エポックも評価しません"),
    "train.no_split_record": ("{out} の続きを学習できません: 分割を記録しない古い版で保存されて"
                              "います。新しい --out に学習してください"),
    "train.other_data": ("{out} の続きを学習できません: {named} は学習を始めたときのデータでは"
                         "ありません (sha256 {was}...、今は {now}...)。新しい --out に学習して"
                         "ください"),
    "train.other_val_pairs": ("{file}: 'split.val_pairs' エントリが、val_fraction と seed から"
                              "作られる検証用の分割と一致しません。新しい --out に学習して"
                              "ください"),
    "train.other_train_sources": ("{file}: 'split.train_sources' エントリが、val_fraction と "
                                  "seed から作られる分割と一致しません。新しい --out に学習して"
                                  "ください"),
    "train.bad_optimizer": ("{file}: この版で読める seq2seq のチェックポイントではありません: "
                            "'optimizer' エントリ: {error}"),

    # ---- 利用者のファイルの層 (seq2seq.commands.layer_kinds, rnn_file, rnn_failures) ----------
    "layer.noun_rnn": "再帰層",
    "layer.noun_block": "エンコーダのブロック",
    "layer.code": "{option} の層のコード ({site}) で {raised}",
    "layer.site": "{file} の {number} 行目",
    "layer.line": "の {number} 行目",
    "layer.running": "{option}: {path} {line}を実行中に {raised}",
    "layer.not_in_a_file": ("{entry}: クラス {name} は、スクリプトやノートブックではなく、それだけ"
                            "の .py ファイルの最上位で定義してください (学習はクラスをもう一度"
                            "読み込むためにファイルを記録します)"),
    "layer.no_file": "{option} {spec}: {path} は使えません ({problem})",
    "layer.spec": ("{option} は FILE.py:CLASS の形 (たとえば {example}) で指定してください "
                   "(指定された値: {spec})"),
    "layer.cannot_read": "{option} {spec}: {path} を読めません: {error}",
    "layer.changed": ("{path} は、モデルを学習した後に変わっています (sha256 {was}...、今は "
                      "{now}...)"),
    "layer.not_defined": "{option} {spec}: {name} は {path} で定義されたクラスではありません",
    "layer.imported": ("{option} {spec}: {name} は {path} で定義されたクラスではありません "
                       "({module} から import しています)"),
    "layer.defines_no_rnn": ("{option} {spec}: {path} には、再帰層のクラスが来るはずの {name} が"
                             "定義されていません"),
    "layer.defines_no_block": ("{option} {spec}: {path} には、エンコーダのブロックのクラスが来る"
                               "はずの {name} が定義されていません"),
    "layer.defines_other_rnn": ("{option} {spec}: {path} の {name} は {type} で、再帰層のクラス"
                                "ではありません"),
    "layer.defines_other_block": ("{option} {spec}: {path} の {name} は {type} で、エンコーダの"
                                  "ブロックのクラスではありません"),
    "layer.changed_in_training": ("{option} {path} は学習の途中で変わりました: もう一度学習して"
                                  "ください"),
    "layer.bad_record": ("{checkpoint}: {entry} エントリは層のファイルの記録 (file: 表示できる"
                         "文字で {most} 文字までのパス、class、sha256) であるべきですが、{found} "
                         "でした"),
    "layer.copy_not_regular": ("{checkpoint}: 学習結果の層のファイルのコピーがあるはずの場所の "
                               "{copy} が、シンボリックリンクか通常のファイルではありません: 学習"
                               "結果の層のファイルは、そのフォルダにあるか指定されたときだけ実行"
                               "します: そのファイルを信頼するなら {file_option} PATH で指定して"
                               "ください (train --resume では {option} PATH:CLASS)"),
    "layer.no_copy": ("{checkpoint}: {noun} {name} は {file} のものですが、{folder} にはその"
                      "コピー ({copy}) がありません: 学習結果の層のファイルは、そのフォルダに"
                      "あるか指定されたときだけ実行します: そのファイルを信頼するなら "
                      "{file_option} PATH で指定してください (train --resume では {option} "
                      "PATH:CLASS。SHA-256 は記録された {sha256}... でなければなりません)"),
    "layer.copy_changed": ("{checkpoint}: {copy} は、モデルを学習した後に変わっています (sha256 "
                           "{was}...、今は {now}...): 学習に使ったファイルに戻すか、もう一度"
                           "学習してください"),
    "layer.runs_alone": (" ({copy} は変わっていませんが、実行フォルダでそれだけで実行され"
                         "ます: 隣にある自分のモジュールを import する層は、{file_option} PATH "
                         "で指定するか、ひとつのファイルにまとめると読み込めます)"),
    "layer.moved_missing": "{file_option} {moved}: 使えません ({problem})",
    "layer.moved_other": ("{file_option} {moved} は {checkpoint} の学習に使ったファイルではありま"
                          "せん (sha256 {now}...。学習結果には {file} の {was}... が記録されて"
                          "います)"),
    "layer.still_running": ("{option} {spec}: ファイルの import か、小さなバッチでの層の確認の"
                            "途中で、{seconds} 秒たっても終わりませんでした (終わらないループ? "
                            "sleep?)。止めました"),
    "layer.ended_process": ("{option} {spec}: ファイルの実行か、小さなバッチでの層の確認の途中"
                            "で、ファイルがプロセスを終了させました (終了ステータス {status}): "
                            "層のファイルは return か raise をするもので、プロセスを終了させては"
                            "いけません (os._exit)"),
    "translator.no_layer_file_block": ("{option} {named}: {file} にはエンコーダのブロックの"
                                       "ファイルの記録がありません (そのモデルのエンコーダの"
                                       "ブロックはこのプロジェクトのものです)"),
    "translator.no_layer_file_transformer": ("{option} {named}: {file} には層のファイルの記録が"
                                             "ありません (Transformer には再帰層がありません)"),
    "translator.no_layer_file_lstm": ("{option} {named}: {file} には層のファイルの記録が"
                                      "ありません (そのモデルの再帰層は LSTM です)"),

    # ---- draw と explore (seq2seq.commands.draw) ----------------------------------------------
    "draw.why_limit": "入力文が S = {tokens} トークンなので 2 S + 10",
    "draw.why_max_len": "モデルの max_len。それより先の位置を持ちません",
    "draw.past_the_end_one": ("{step} は {sentence} の翻訳の終わりより後です: 翻訳は {done} "
                              "トークンで、ステップ {done} で <eos> を書くので、ステップは 0 から "
                              "{done} までです"),
    "draw.past_the_end": ("{step} は {sentence} の翻訳の終わりより後です: 翻訳は {done} トークン"
                          "で、ステップ {done} で <eos> を書くので、ステップは 0 から {done} "
                          "までです"),
    "draw.past_the_limit": ("{step} は {sentence} のデコードが届く最後のステップより後です: "
                            "デコードは {limit} ステップで止まる ({why}) ので、ステップは 0 から "
                            "{last} までです"),
    "draw.not_built_in": ("モデルの学習に使ったのは組み込みのタスクではなく {task} です: 文を "
                          "--sentence で指定してください"),

    # ---- train --resume の保存された設定、report.json、アテンションのないモデル ---------------
    "train.saved_config": ("{out}/checkpoint.npz: このコマンドラインで指定していないオプションの"
                           "ために読んだ 'config' エントリ: {error}"),
    "train.saved_sep": ("{out}/checkpoint.npz: 'config.sep' エントリの {sep} では、学習のペア"
                        "ファイルを読めません: {error}"),
    "reports.rewritten": ("{path} が {checkpoint} と一致しなかったので、チェックポイントの履歴 "
                          "({epochs} エポック) から書き直しました"),
    "translate.no_attention": "アテンションのないモデルには、描くアテンションの重みがありません",
}
