"""seq2seq のメッセージ (日本語)。キーと差し込み箇所 ({path} など) は en.py と同じです。"""

MESSAGES = {
    # ---- 学習の進み具合 (seq2seq.commands.progress) -------------------------------------------
    "progress.starting": ("{weights} 個の重みを {pairs} 組の文対で学習します (検証用 {validate} "
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
    "progress.level_default": "文対ファイルの既定",
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
    "runs.not_earlier": ("{out} には以前の {what} の結果ではないファイルがあります ({files}): "
                         "別の --out を選ぶか、--overwrite を指定して {what} のファイルを置き"
                         "換えてください"),
    "runs.replacing_files": "{out} にある {what} のファイルを置き換えます",
    "runs.replacing_earlier": "{out} にある以前の {what} の結果を置き換えます",
    "runs.train_one": "(学習するには: python -m seq2seq train --out {path} ...)",
    "runs.not_a_run": "{path}: {checkpoint} がないため、学習結果のフォルダではありません {train}",
    "runs.no_run": "{path}: そのような学習結果のフォルダはありません {train}",

    # ---- evaluate (seq2seq.commands.cli, evaluate) --------------------------------------------
    "evaluate.dropped": ("  (生成した文対のうち {dropped} 組を除きました: その入力文で学習して"
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

    # ---- デモ (seq2seq.commands.demo) ---------------------------------------------------------
    "demo.training": ("{attention} 付きの LSTM エンコーダ・デコーダを {task} で学習します "
                      "({pairs} 組の文対、{epochs} エポック、双方向エンコーダ)"),
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
}
