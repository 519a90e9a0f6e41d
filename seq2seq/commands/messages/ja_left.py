"""seq2seq のメッセージ (日本語) の 4 つめ: 再開の行と進捗の行のスコア、evaluate が生成ペアを選ぶ
オプションを拒否するとき、explore が大きすぎるステップを拒否するとき、モデルにない model_config の
設定。キーと差し込み箇所は en_left.py と同じです。"""

MESSAGES = {
    # ---- 再開と進捗の行のスコア (seq2seq.commands.train, progress) -----------------------------
    "train.resuming": "エポック {epoch} の続きから学習を再開します",
    "train.resuming_changed": "。{name} は {old} から {new} に変わります",
    "progress.exact_match": "  完全一致率 {value}",
    "progress.token_accuracy": "  トークン正解率 {value}",
    "progress.bleu": "  BLEU スコア {value}",

    # ---- evaluate の、生成するペアを選ぶオプション (seq2seq.commands.evaluate) ------------------
    "evaluate.needs_task": ("{option} は組み込みの --task ({tasks}) が生成するペアを選ぶオプション"
                            "です。--task がなければ、evaluate は実行が取り分けておいたペアで評価"
                            "します: {option} を外すか、--task を指定してください"),
    "evaluate.lengths_need_task": ("--min-len と --max-len は生成する --task の長さを選ぶオプション"
                                   "です: 組み込みのタスク ({tasks}) を指定してください"),
    "evaluate.no_record": ("{run} は検証用の分割を記録していません (古い版で保存されました)。"
                           "--task を指定して評価するか、もう一度学習してください"),

    # ---- explore の、--max-ops より多くの演算を持つステップ (seq2seq.commands.explore) ----------
    "explore.too_many_ops": ("explore: このステップには {count:,} 個の演算があり、--max-ops "
                             "{most:,} を超えています (ブラウザは数千個を配置するのに数秒"
                             "かかります)。もっと大きな --max-ops を指定してください"),

    # ---- LSTM モデルにない model_config の設定 (checkpoint_reading) ----------------------------
    "expect.no_setting": ("ないはずのもの (LSTM モデルにそのような設定はありません。設定は {names} "
                          "です)"),
}
