"""minigrad のメッセージ (日本語) の続き: 採点プログラムが解答を拒否する理由。ja.py の MESSAGES に
まとめて入ります。キーと差し込み箇所は en_refusals.py と同じです。"""

REFUSALS = {
    # ---- 答えを実行する解答 (minigrad.grade.answers) ------------------------------------------
    "refusal.answer": ("{name}: {who} {answer} を実行しています。これはこの課題の答え (模範解答、"
                       "またはプロジェクト自身の実装) なので、何を書いても合格してしまいます。"
                       "自分で書いてください: 答えを読むのはかまいませんが、実行してはいけま"
                       "せん。"),
    "refusal.importing": "あなたのファイルは読み込み時に",
    "refusal.yours": "あなたの {defines} は",
    "refusal.forged_caches": ("{name}: 採点の前に、採点プログラムのバイトコードキャッシュが"
                              "書き換えられていました ({files})。採点プログラムがそれを実行した"
                              "おそれがあるため、判定しません。キャッシュは削除しました。もう一度"
                              "採点してください。"),
    "refusal.wrote_into_grader": ("{name}: あなたのコードの採点中に、採点プログラム自身の"
                                  "ファイルが変わりました ({shown}): 採点されたコードが採点"
                                  "プログラムに書き込みました{caches}。もう一度採点する前に元に"
                                  "戻してください (git checkout か再インストール)。"),
    "refusal.and_more": " ほか {count} 個",
    "refusal.caches_removed": (" (変わったバイトコードキャッシュは削除しました。Python がソース"
                               "から作り直します)"),
    "answer.from": "{function} ({file} のもの)",
    "answer.again": "{answer} (もう一度、{file} の {function} として)",

    # ---- 採点中のコードがしようとして拒否されたこと (minigrad.grade.audit) -------------------
    "guard.opens": "{what} ({file}) を開こうとしました",
    "guard.opens_process": "別のプロセスのファイル {path} を開こうとしました",
    "guard.writes_by_folder": ("{path} に書き込もうとしました (少なくとも、書き込める状態に"
                               "しました: そのフォルダを開いており、そのハンドルでフォルダの中の"
                               "ファイルを指定できます)"),
    "guard.writes": "{path} に書き込もうとしました",
    "guard.process": "別のプロセスを起動しようとしました ({event})",
    "guard.signal": "別のプロセスにシグナルを送ろうとしました ({event})",
    "guard.objects": "インタプリタのオブジェクトを調べようとしました ({event})",
    "guard.interpreter": ("同じプロセスの中で別のインタプリタ (サブインタプリタ) を起動しよう"
                          "としました"),
    "guard.profile": ("{event} を呼ぼうとしました (あなたのファイル、またはそれが読み込む"
                      "モジュールで)"),
    "guard.code": "{function} のコードを置き換えようとしました",
    "guard.reads_git": ("git フォルダの中にある {path} を読もうとしました (git フォルダには"
                        "プロジェクトのファイルのすべての版があります)"),
    "guard.reads_outside": "読んでよい場所の外にある {path} を読もうとしました",
    "guard.replaces": "採点プログラムの監視が頼りにしている {name} を置き換えました",
    "guard.path_object": ("独自の型 ({type}) のオブジェクトでパスを指定しようとしました。"
                          "このオブジェクトは、確認には一方のファイルを、呼び出しには別のファイル"
                          "を示せます ({event})"),
    "guard.torch_past_finder": ("torch のファイル関数を確かめる採点プログラムの finder を "
                                "sys.meta_path から外して、torch を使おうとしました"),
    "guard.torch_unchecked": ("採点プログラムが確かめていない {function} のまま torch を使い"
                              "ました (finder を通さずに torch を読み込んだか、関数を元に戻し"
                              "ました)"),
    "guard.torch_not_module": ("torch ではないもの ({type}) を sys.modules['torch'] に入れ"
                               "ました。採点プログラムはそこで torch のファイル関数を確かめます"),
    "guard.torch_lacks": ("torch ではないもの (torch.{name} のないモジュール) を "
                          "sys.modules['torch'] に入れました。採点プログラムはそこで torch の"
                          "ファイル関数を確かめます"),
    "guard.changes": "採点プログラム自身のコード {module}.{name} を、そのプロセスの中で変えました",

    # ---- 採点中に誰も開けないファイル (minigrad.grade.process) --------------------------------
    "blocked.expected": "採点プログラムの期待値",
    "blocked.reference": "模範解答",
    "blocked.expected_copy": "採点プログラムの期待値のコピー",
    "blocked.reference_copy": "模範解答のコピー",
    "blocked.module": "{module} のファイル",

    # ---- 拒否を伝える不合格の行 (minigrad.grade.refusals) -------------------------------------
    "refusal.refused": "採点プログラムが拒否しました: {why}",
    "refusal.refused_quietly": "採点プログラムが拒否しました: 別のプロセスを起動しようとしました",
    "refusal.writes": ("{name}: 採点中のあなたのコードが、{why}。採点中のコードがファイルを"
                       "書けるのは、自分専用の一時フォルダ ({folder}) の中だけです。採点"
                       "プログラムやほかのコードを書き換えて、次の採点を変えられないように"
                       "するためです。"),
    "refusal.other_process": ("{name}: 採点中のあなたのコードが、{why}。採点プログラムの"
                              "メモリには正しい答えがあるため、採点中のコードが開けるのは /proc "
                              "の下にある自分のプロセスのファイルだけです。"),
    "refusal.opens": ("{name}: 採点中のあなたのコードが、{why}。これはこの課題の答えです。"
                      "import したり読み込んだりすれば、何を書いても合格してしまいます。自分で"
                      "書いてください: 答えを読むのはかまいませんが、実行してはいけま"
                      "せん。"),
    "refusal.reads": ("{name}: 採点中のあなたのコードが、{why}。採点中のコードが読めるのは、"
                      "自分のフォルダ、プロジェクトのパッケージ、インストールされたライブラリ"
                      "だけです。"),
    "refusal.path_object": ("{name}: 採点中のあなたのコードが、{why}。これでは採点プログラムは、"
                            "どのファイルが開かれ、変えられるのかを見分けられません。パスは "
                            "str、bytes か pathlib.Path で指定してください。"),
    "refusal.guard": ("{name}: 採点中のあなたのコードが、{why}。これでは採点プログラムは、何が"
                      "開かれ、起動され、変えられるのかを見分けられません。標準ライブラリの"
                      "関数と採点プログラムの関数は、そのままにしておいてください。"),
    "refusal.torch": ("{name}: 採点中のあなたのコードが、{why}。torch のファイル関数は C++ の"
                      "中でファイルを開くので、それが見えるのは採点プログラムのラッパーだけ"
                      "です。torch は採点プログラムが読み込んだとおりに使ってください。"),
    "refusal.torch_modules": ("{name}: 採点中のあなたのコードが、{why}。torch のファイル関数は "
                              "C++ の中でファイルを開くので、それが見えるのは採点プログラムの"
                              "ラッパーだけです。sys.modules['torch'] は、torch を import "
                              "したときのままにしておいてください。"),
    "refusal.signal": ("{name}: 採点中のあなたのコードが、{why}。採点プログラムを止めたり終了"
                       "させたりできないように、シグナルを送れるのは自分のプロセスにだけです。"),
    "refusal.hides": ("{name}: 採点中のあなたのコードが、{why}。これでは、この課題の答えを実行"
                      "しているかどうかが採点プログラムから見えなくなります。自分で書いて"
                      "ください: 答えを読むのはかまいませんが、実行してはいけません"
                      "。"),
}
