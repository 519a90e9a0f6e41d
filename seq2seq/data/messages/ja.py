"""データのメッセージ (日本語)。キーと差し込み箇所は en.py と同じです。"""

MESSAGES = {
    # ---- ペアファイル (seq2seq.data.corpus) ---------------------------------------------------
    "corpus.not_utf8": ("{where}: UTF-8 のテキストではありません (この行の {column} バイト目が "
                        "0x{byte:02x} です)"),
    "corpus.file_empty": ("{where}: ペアがありません。ファイルが空です。'source{sep}target' の行"
                          "を書いてください"),
    "corpus.lines_empty": ("{where}: ペアがありません。{count} 行すべてが空です。"
                           "'source{sep}target' の行を書いてください"),
    "what.pairs": "ペアファイル",
    "corpus.too_big": "{path}: {size} あり、ペアファイルの上限 {most} を超えています",
    "corpus.too_many_lines": ("{path}: {lines} 行あり、ペアファイルのペアの上限 {most} を超えて"
                              "います"),
    "corpus.too_much_memory": ("{path}: {lines} 行、{size}: 読み込んで学習の準備をすると約 "
                               "{need} になり、使えるメモリ {limit} を超えます"),
    "corpus.long_line": ("{where}: 行が {most} バイトより長く、ペアファイルの 1 行の上限を超えて"
                         "います"),
    "corpus.columns_found": ("{where}: {line} には {sep} で区切られた列が {count} 個あります。"
                             "2 個 (source、target) のはずです"),
    "corpus.columns_hint": ("{plain}。そのうち 2 列で学習するには、--columns で選んでください "
                            "(Tatoeba/Anki の書き出しなら --columns 1,2)"),
    "corpus.no_sep": ("{where}: 'source{escaped}target' の形のはずですが、{line} には {sep} が"
                      "ありません"),
    "corpus.sep_hint": "。列がほかの文字で区切られているなら、--sep で指定してください",
    "corpus.sep_hint_other": ("。列がほかの文字で区切られているなら、--sep で指定してください"
                              " (たとえば --sep {other})"),
    "corpus.needs_columns": ("{where}: --columns {first},{second} には {most} 列が必要ですが、"
                             "{line} には {count} 列しかありません"),
    "corpus.empty_both": "{where}: {line} は入力文も出力文も空です",
    "corpus.empty_source": "{where}: {line} は入力文が空です",
    "corpus.empty_target": "{where}: {line} は出力文が空です",
    "corpus.control_source": ("{where}: {line} の入力文に、文にはないはずの制御文字 {char} が"
                              "含まれています"),
    "corpus.control_target": ("{where}: {line} の出力文に、文にはないはずの制御文字 {char} が"
                              "含まれています"),
    "corpus.reserved": ("{where}: {token} は単語単位で予約されたトークンです ({specials} は"
                        "パディング、文の始め、文の終わり、未知の単語を表します)。書き換えるか、"
                        "文字単位で学習してください"),
    "corpus.columns_syntax": ("には 1 から数えた 2 つの列番号を、入力文の列から 1,2 のように"
                              "指定してください (指定された値: {text})"),
    "corpus.columns_same": "{text}: 入力文と出力文が同じ列です",
    "corpus.val_fraction": "val_fraction は [0, 1) の範囲のはずですが、{value} でした",

    # ---- 組み込みのタスクと検証用の記録 (seq2seq.data.tasks, heldout) ------------------------
    "tasks.toy_too_short": ("toy-ja-en の文は少なくとも 3 単語あるので、max_len={max_len} は短"
                            "すぎます"),
    "tasks.unknown": "そのようなタスクはありません: {name}。タスクは {tasks} です",
    "tasks.lengths": ("1 <= min_len <= max_len のはずですが、min_len={low}、max_len={high} "
                      "でした"),
    "tasks.no_source": "タスク {name} は長さ {low}..{high} の入力文を作れません",
    "vocab.specials": "語彙は {specials} で始まるべきですが、この語彙は {found} で始まっています",
    "vocab.repeated": "語彙に同じトークンが 2 度以上あってはいけません",
    "heldout.other_hash": ("{file}: 'split.hash' エントリが {found} です: そのハッシュ値は、"
                           "この版の作り方 {hash} とは別の方法で作られています"),

    # ---- 見本のペアファイルを書き出すスクリプト (examples/numbers.py) -------------------------
    "sample.error": "エラー: {message}",
    "sample.cannot_read": "{out} を読めません: {reason}",
    "sample.cannot_write": "{out} に書き出せません: {reason}",
    "sample.checked": "{out}: このスクリプトが書き出す {count:,} 組のペアとバイト単位で同じです",
    "sample.check_missing": ("{out}: ファイルがありません。書き出すには --check を付けずにこの"
                             "スクリプトを実行してください"),
    "sample.check_differs": ("{out}: このスクリプトが書き出すものと違います。書き出すには --check "
                             "を付けずにこのスクリプトを実行してください"),
    "sample.already": "{out} はすでにこのスクリプトが書き出すとおりです。そのままにしました",
    "sample.edited": ("{out} には、このスクリプトが書き出すものとは別の内容があります (編集した"
                      "コピーでしょうか?)。置き換えるには --overwrite を付けるか、別の --out を"
                      "指定してください"),
    "sample.wrote": "{out} に書き出しました: {count:,} 組のペア",
    "sample.dangling": ("--out {path} は、存在しないものを指すシンボリックリンクです ({target})。"
                        "ファイルを指定してください"),
    "sample.not_a_file": "--out {path} は{kind}。ファイルを指定してください",
    "sample.folder": "フォルダです",
    "sample.fifo": " FIFO です",                 # 「は FIFO です」
    "sample.device": "デバイスです",
    "sample.socket": "ソケットです",
    "sample.not_regular": "通常のファイルではありません",
}
