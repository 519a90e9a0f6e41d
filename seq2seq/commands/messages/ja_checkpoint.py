"""seq2seq のメッセージ (日本語) の 3 つめ: この版で読めないエントリを持つチェックポイントに
ついてのメッセージ (seq2seq.commands.entry_error, checkpoint_entries, checkpoint_history,
checkpoint_reading, config_entry)。キーと差し込み箇所は en_checkpoint.py と同じです。"""

MESSAGES = {
    # ---- チェックポイントのエントリ (seq2seq.commands.entry_error, checkpoint_entries, _history) -
    "checkpoint.cannot_load": ("{file}: この版で読める seq2seq のチェックポイントではありません: "
                               "{problem}"),
    "checkpoint.no_entry": ("{file}: この版で読める seq2seq のチェックポイントではありません: {name"
                            "} エントリがありません"),
    "checkpoint.entry_error": ("{file}: この版で読める seq2seq のチェックポイントではありません: "
                               "{name} エントリ: {kind}: {problem}"),
    "checkpoint.not_a_dict": ("{file}: seq2seq のチェックポイントではありません: 中身が dict で"
                              "はなく {type} です"),
    "entry.should_be": "{entry} エントリは {expected}であるべきですが、{found} でした",
    "entry.missing": "{entry} エントリがありません",
    "entry.missing_why": "{entry} エントリがありません ({why})",
    "entry.array": "形 {shape}、dtype {dtype} の配列",
    "entry.big_int": "{bits} ビットの int (int)",
    "entry.list_of": "{what}のリスト",
    "expect.entries": "エントリの dict",
    "expect.longest_source": "None か、1 以上のトークン数 (整数)",
    "expect.file_recorded": "チェックポイントが記録するファイル (None ではなく)",
    "expect.no_file_recorded": "None (チェックポイントはファイルを記録していません)",
    "expect.class_recorded": "チェックポイントが記録するクラス FILE.py:{name}",
    "expect.block_weight": "エンコーダのブロックの重みの大きさ",
    "expect.layer_weight": "再帰層の重みの大きさ",
    "expect.absent": "ないはずのもの (モデルにそのような重みはありません)",
    "expect.shape": "形 {shape} (model_config のとおり)",
    "expect.finite": "有限の数",
    "expect.found_not_finite": "{size} 個の値のうち {bad} 個が NaN か無限大",
    "expect.bounded": "大きさ {most} 以下の数 (重みがそれを超える前に学習は止まります)",
    "expect.found_beyond": "{size} 個の値のうち {beyond} 個がそれを超え、最大は {largest}",
    "expect.arrays": "配列の dict",
    "expect.str_keys": "キーが str の dict",
    "expect.float_array": "浮動小数点数の配列",
    "expect.vocab": 'dict {{"tokens": [str, ...]}} (語彙)',
    "expect.token": "制御文字を含まない str (トークン)",
    "expect.split": "dict (分割の記録) か None",
    "expect.pairs": "[source, target] のペア",
    "expect.pair": "制御文字を含まない str の [source, target] のペア",
    "expect.hashes": "uint64 のハッシュ値の 1 次元配列",
    "expect.most_hashes": "多くとも {most} 個のハッシュ値 (学習に使えた入力文ひとつにつき 1 個)",
    "expect.str": "str (文字列)",
    "expect.task_file": 'None か dict {{"path": ..., "sha256": ...}} (ペアファイルの記録)',
    "expect.absolute_path": "絶対パス (str)",
    "expect.sha256": "16 進 64 桁の sha256",
    "expect.no_larger": "いちばん大きな重み ({most} バイト) 以下の大きさ",
    "expect.epochs_dicts": "エポックごとにひとつの dict",
    "expect.epoch": "{number} (エポックは 1 から順に番号が付きます)",
    "expect.loss": "0 以上の有限の数",
    "expect.score": "[0, 1] の範囲の有限の数",
    "expect.count": "0 以上の整数",
    "expect.bleu_tokens": "'char' か '13a'",
    "expect.epochs": "0 以上の整数 (学習したエポック数)",
    "expect.epochs_long": "{epochs} エポック分の長さ ('epochs' エントリのとおり)",
    "expect.one_epoch": "少なくとも 1 エポック分の長さ (最適化手法は {steps} ステップ進んでいます)",
    "expect.at_most_epochs": ("多くとも {steps} エポック分の長さ (最適化手法は {steps} ステップ"
                              "進んでいます)"),
    "expect.examples": "{count} (分割の検証用のペアの数)",
    "expect.blank": "多くとも例の数 ({examples})",
    "expect.at_least_epochs": ("少なくとも {needed} エポック分の長さ (最適化手法は {steps} "
                               "ステップ進んでおり、1 エポックは多くとも {most} ステップです)"),
    "expect.finite_number": "有限の数",
    "expect.json": "str、数、true、false か null",

    # ---- チェックポイントの model_config と config (checkpoint_reading, config_entry) ---------
    "expect.integer_in": "[1, {high}] の範囲の整数",
    "reading.arrays": "配列の dict のはずですが、{type} でした",
    "reading.flag": "true か false のはずですが、{value} でした",
    "reading.level": "'char' か 'word' のはずですが、{value} でした",
    "reading.size": "トークンは {found} 個ですが、model_config では {name} が {expected} です",
    "reading.pad": ("padding_idx は {found} ですが、<pad> は {side} 側の語彙のトークン {pad_id} "
                    "です"),
    "reading.arch": "arch は {choices} のいずれかのはずですが、{arch} でした",
    "reading.arch_transformer": ("arch は {arch} ですが、model_config には Transformer の設定が"
                                 "入っています"),
    "reading.arch_lstm": "arch は {arch} ですが、model_config には LSTM モデルの設定が入っています",
    "reading.settings": "{name} は {value} ですが、学習の config では {name} は {saved} です",
    "reading.max_len_short": ("max_len {max_len} は学習した長さより短くなっています (いちばん長い"
                              "入力文が {longest} トークンなので、max_len >= {least} です)"),
    "reading.dict": "dict のはずですが、{type} でした",
    "reading.transformer_rnn": "Transformer の model_config に、再帰層のファイルが付いています",
    "reading.must_flag": "{name} は true か false のはずですが、{value} でした",
    "reading.attention": "attention は {choices} か None のはずですが、{value} でした",
    "reading.wiring": "wiring は 'luong' か 'bahdanau' のはずですが、{value} でした",
    "reading.padding_idx": ("padding_idx は両方の語彙の添字のはずですが、{value} でした"),
    "reading.lstm_shape": ("その大きさ (src_vocab_size {src}、tgt_vocab_size {tgt}、embed_size "
                           "{embed}、hidden_size {hidden}) では {key} の形は {shape} のはずですが、"
                           "保存されたものは {saved} です"),
    "reading.transformer_shape": ("その大きさ (src_vocab_size {src}、tgt_vocab_size {tgt}、"
                                  "d_model {d}) では {key} の形は {shape} のはずですが、保存"
                                  "されたものは {saved} です"),
    "reading.missing": "ありません",
    "reading.nor": "{names} もありません",
    "reading.transformer_keys": "Transformer の設定 ({keys}) のはずですが、{found} でした",
    "reading.sinusoidal_max_len": ("正弦波の位置エンコーディングでは max_len は {most} 以下の"
                                   "はずです (それがいちばん長いデコードで、学習はその値を書き"
                                   "ます) が、{value} でした"),
    "reading.heads": "heads {heads} では d_model {d_model} を割り切れません",
    "reading.dropout": "dropout は [0, 1) の範囲の数のはずですが、{value} でした",
    "reading.norm_positions": ("norm は {norms} のいずれか、positions は {positions} のいずれかの"
                               "はずですが、{norm} と {position} でした"),
    "expect.settings": "学習の設定の dict",
    "expect.not_none": "{type} (None ではなく)",
    "expect.flag": "true か false",
    "expect.plain_str": "制御文字を含まない str",
    "expect.plain_str_or_none": "制御文字を含まない str か None",
    "expect.one_of": "{choices} のいずれか",
    "expect.one_of_or_none": "{choices} のいずれか、または None",
    "expect.known": "この版が確かめ方を知っている設定",
    "expect.sep": "区切り文字 (空ではないもの)",
    "expect.columns": "1 から数えた、互いに異なる 2 つの列番号 ('1,2' など) か None",
    "expect.tab": "既定の '\\t' (組み込みのタスク {task} はペアファイルを読みません)",
    "expect.no_columns": "None (組み込みのタスク {task} はペアファイルを読みません)",
    "expect.layer_spec": "FILE.py:CLASS か None",
    "expect.min_len": "config.max_len ({high}) 以下",
    "expect.transformer_setting": "None (Transformer の設定で、この学習の arch は lstm です)",
    "expect.lstm_setting": "{usual} (LSTM の設定で、この学習の arch は transformer です)",
    "expect.divisor": "config.d_model ({d_model}) の約数",
    "expect.one_schedule": ("ウォームアップ (config.warmup) があるときは 1 (ひとつの学習率に"
                            "スケジュールはひとつです)"),
    "expect.arch_why": ("Transformer の学習の config には arch 'transformer' が記録されます。"
                        "arch のないものは古い LSTM の学習のものです"),
    "expect.arch_built": "{built} (model_config が表すモデル)",
    "expect.level": "{level} ('level' エントリのとおり)",
    "expect.level_or_none": "{level} ('level' エントリのとおり。またはタスクの既定を表す None)",
    "expect.as_model_config": "{value} (model_config のとおり)",
}
