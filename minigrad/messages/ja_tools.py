"""minigrad のメッセージ (日本語) その 3: ファイルと設定の細部 (minigrad.files、
minigrad.settings、minigrad.optim.lr_scheduler)、描画とエクスプローラ (minigrad.viz)。
ja.py の MESSAGES にまとめられます。キーは en_tools.py と同じです。"""

TOOLS = {
    # ---- フォルダがないファイル (minigrad.files.no_directory) ---------------------------------
    "files.no_directory": ("{path!r} に{verb}ません: フォルダ {folder!r} がありません (先に作って"
                           "ください: mkdir -p {command})"),
    "files.cannot_write": "{path!r} に書き出せません: {reason}",
    "files.verb_write": "書き出せ",
    "files.verb_save_to": "保存でき",
    "files.verb_draw": "描け",

    # ---- 表示するには大きすぎる値 (minigrad.settings、minigrad.optim.lr_scheduler) -------------
    "setting.big_int": "{bits} ビットの整数",

    # ---- Graphviz での描画 (minigrad.viz.render) ----------------------------------------------
    "render.not_a_format": ("{path} は描けません: .{format} は Graphviz が書き出す形式では"
                            "ありません (.svg、.png、.pdf、.dot など)"),
    "render.dot_failed": "dot -T{format} が失敗しました",
    "render.pygraphviz_failed": "pygraphviz は {format} を描けませんでした",
    "render.no_message": "メッセージはありません",
    "render.empty": "{path} は空です。描くグラフが入っていません",
    "render.none_available": ("なし: pip install pygraphviz でインストールするか、Graphviz を"
                              "インストールしてください (apt install graphviz、brew install "
                              "graphviz、winget install graphviz)"),
    "render.no_suffix": ("render: {path} には拡張子がありません。format= を指定してください (svg、"
                         "png、pdf、dot)"),
    "render.not_our_dot": ("{dot} はすでにあり、{name} の DOT テキストではありません。置き"
                           "換えるには overwrite=True を指定してください"),
    "render.not_our_picture": ("{path} はすでにあり、以前の描画が書いたものではありません (その "
                               "DOT テキスト {dot} が隣にありません)。置き換えるには "
                               "overwrite=True を指定してください"),
    "render.how_to_get_one": ("どちらかをインストールしてください: `pip install pygraphviz` (その "
                              "wheel には Linux、macOS、Windows x86-64 用の Graphviz が入って"
                              "います)、またはシステムの Graphviz パッケージ (apt install "
                              "graphviz、brew install graphviz、winget install graphviz)"),
    "render.smaller": ("もっと小さなグラフを描いてください: スコープをそれぞれひとつの箱にまとめる "
                       "(draw_graph(..., collapse=[...]))か、根に近い箱だけを残します "
                       "(draw_graph(..., max_nodes=...))"),
    "render.no_graphviz": ("描画に使える Graphviz がありません: `dot` プログラムも pygraphviz "
                           "パッケージも見つかりませんでした。{how}"),
    "render.no_dot": "`dot` プログラムが PATH にありません",
    "render.no_pygraphviz": "pygraphviz パッケージがインストールされていません",
    "render.no_engine": "engine={engine!r} では描画できません: {what}。{how}",
    "render.too_many_boxes": ("グラフの箱が {boxes} 個あり、Graphviz が現実的な時間で配置できる "
                              "{most} 個を超えています (minigrad.viz.render.MAX_BOXES。スコープの"
                              "枠も 1 個の箱に数えます)。{smaller}"),
    "render.too_deep": ("グラフの枠の入れ子が {deepest} 段あり、Graphviz に渡せる {most} 段を"
                        "超えています (minigrad.viz.dot.MAX_SCOPE_DEPTH)。{smaller}"),
    "render.stopped": ("Graphviz ({engine}) は {boxes} 個の箱を配置している途中、{seconds} 秒で"
                       "止められました (minigrad.viz.render.TIMEOUT)。{smaller}"),
    "render.dot_text_in": "{error}。DOT テキストは {path} にあります",

    # ---- 日本語フォント (minigrad.viz.fonts) --------------------------------------------------
    "fonts.missing": ("システムのフォントが持っていなければ、Graphviz はこの日本語のラベルを空の"
                      "四角で描きます。プロジェクトの日本語フォントがインストールされていません。"
                      "{how} を実行してください (または CJK フォントをインストールしてください。"
                      "例: apt install fonts-noto-cjk)"),

    # ---- python -m minigrad.viz のオプション (minigrad.viz.__main__) --------------------------
    "viz.at_least_one": "--{option} には 1 以上を指定してください",
    "viz.seed": "--seed には 0 以上を指定してください (指定された値: {seed})",

    # ---- エクスプローラのページ (minigrad.viz.explorer) ---------------------------------------
    "explorer.not_html": ("{path}: エクスプローラが書き出すのは HTML ページです。.html で終わる"
                          "名前を指定してください"),
    "explorer.is_a_directory": "{path} はフォルダです。ページのファイル名を指定してください",
    "explorer.collapse_not_names": ("にはスコープの名前 (文字列、またはそのリスト) を指定して"
                                    "ください ({type} ではなく)"),
    "explorer.collapse_not_strings": ("にはスコープの名前 (文字列) を指定してください ({type} の "
                                      "{name!r} ではなく)"),
    "explorer.no_such_scope": ("に指定された {unknown} は、このグラフのスコープではありません。"
                               "このグラフのスコープ: {listed}"),
    "explorer.no_scopes": "なし",
    "explorer.list_joiner": "、",
    "explorer.bad_lang": ("{where}: lang には {languages} のどれかを指定してください (指定"
                          "された値: {lang})"),

    # ---- 読み込みで拒否したチェックポイントや結果のファイル (minigrad.npz_reader) -----------
    "npz.two_members": "{path!r} は受け付けません: 同じ名前 {name!r} のメンバーが 2 つあります",
    "npz.too_large": ("{path!r} は大きすぎて読み込めません: メンバー {member!r} は {size} で、"
                      "{limit} を超えています"),
    "npz.truncated": ("{path!r} は途中で切れているか壊れています: メンバー {member!r} は {nbytes} "
                      "バイトのうち {read} バイトで終わっています"),
    "npz.longer": ("{path!r} は壊れています: メンバー {member!r} には {nbytes} バイトより多くの"
                   "データがあります"),
    "npz.claims": ("{path!r} は壊れています: メンバー {member!r} は格納された {stored} バイトから "
                   "{claimed} バイトになると書いていますが、それほどは入りません"),
    "npz.version": ("{path!r} は壊れています: メンバー {member!r} はバージョン {version} の .npy "
                    "ファイルで、チェックポイントにこれが入ることはありません"),
    "npz.pickled": ("{path!r} のメンバー {member!r} には pickle のデータがあり、これは決して読み"
                    "込みません (拒否しました。中身は何も実行していません)"),
    "npz.dtype": ("{path!r} は壊れています: メンバー {member!r} は dtype {dtype} の配列で、"
                  "チェックポイントのそこにこれが入ることはありません"),
    "npz.declares": ("{path!r} は壊れています: メンバー {member!r} は {dtype} の値 {count} 個 "
                     "({size}) と宣言していますが、中身は {held} です"),
    "npz.bytes": "{count} バイト",

    # ---- チェックポイントでないか、壊れているファイル (minigrad.checkpoint.load) --------------
    "checkpoint.metadata_too_deep": ("{path!r} は受け付けません: メタデータの入れ子が、チェック"
                                     "ポイントに許される {depth} 段より深くなっています"),
    "checkpoint.object_too_deep": ("{path!r} は受け付けません: オブジェクトの入れ子が、チェック"
                                   "ポイントに許される {depth} 段より深くなっています"),
    "checkpoint.truncated": "{path!r} は途中で切れているか壊れています: {error}",
    "checkpoint.no_metadata": ("{path!r} は minigrad のチェックポイントではありません ("
                               "メタデータのない .npz アーカイブです。np.savez で書いたものなど)"),
    "checkpoint.metadata_not_string": ("{path!r} は壊れています: メタデータがひとつの文字列では"
                                       "ありません"),
    "checkpoint.no_format": ("{path!r} は minigrad のチェックポイントではありません (メタデータが"
                             "形式を示していません)"),
    "checkpoint.version": ("{path!r} はバージョン {found} の minigrad チェックポイントです。この "
                           "minigrad が読めるのはバージョン {version} です"),
    "checkpoint.missing_array": "{path!r} は壊れています: 配列 {name!r} がありません",
    "checkpoint.unexpected": ("{path!r} は壊れています: メタデータの {where} に予期しない項目 "
                              "{entry} があります"),
    "checkpoint.tagged": ("{path!r} は壊れています: メタデータの {where} には {kind!r} の印が"
                          "あり、{expected} が入るはずですが、{found} が入っています"),
    "checkpoint.in_all": "全部で {size}",

    # ---- 採点のケース名 (minigrad.grade.exercises) --------------------------------------------
    "cases.one_example": "例ひとつ",
    "cases.batch_of_3": "例 3 個のバッチ",
    "cases.first_step": "最初のステップ: h = 0",
    "cases.large_weights": "大きな重み: 飽和したゲート",
    "cases.rows_of_6": "長さ 6 の行",
    "cases.input_3d": "3 次元の入力",
    "cases.barely_vary": "ほとんど変化しない行 (var < eps)",
    "cases.eps": "eps=0.1 の場合",
    "cases.rows": "行ごと、axis=-1",
    "cases.columns": "列ごと、axis=0",
    "cases.keepdims": "keepdims=True、axis=1 の場合",
    "cases.one_vector": "ベクトルひとつ (0 次元の出力)",
    "cases.huge_values": "とても大きな値 (exp があふれます)",

    # ---- 読むファイルが通常のファイルでない (minigrad.files) ----------------------------------
    # kind_* は、続く「、通常のファイルではありません」につながる形 (「FIFO で」) です。
    "files.not_regular": ("{path!r} は{what}ではありません ({kind}、通常のファイルではありま"
                          "せん。何も読まずに拒否しました)"),
    "files.too_many_bytes": ("{path!r} は{what}として読める {most:,} バイトを超えています。"
                             "拒否しました"),
    "files.missing": "ファイルがありません",
    "files.is_directory": "フォルダで、{what}ではありません",
    "files.is_special": "{kind}、通常のファイルではありません",
    "files.what_py": ".py ファイル",
    "files.what_dot": " DOT ファイル",            # 「は DOT ファイルではありません」
    "files.what_file": "ファイル",
    "files.what_checkpoint": "チェックポイント",
    "files.what_results": "結果ファイル",
    "files.kind_directory": "フォルダで",
    "files.kind_fifo": "FIFO で",
    "files.kind_device": "デバイスで",
    "files.kind_socket": "ソケットで",
    "files.kind_not_regular": "種類のわからないファイルで",
    "files.kind_special": "特殊なファイルで",

    # ---- システムと zipfile が言う理由を、選んだ言語で (minigrad.files) ---------------------
    "os.ENOENT": "ファイルまたはフォルダがありません",
    "os.ENOTDIR": "フォルダではありません",
    "os.EISDIR": "フォルダです",
    "os.EACCES": "アクセスが許可されていません",
    "os.EPERM": "その操作は許可されていません",
    "os.ENAMETOOLONG": "ファイル名が長すぎます",
    "os.EROFS": "読み取り専用のファイルシステムです",
    "os.ENOSPC": "デバイスに空き容量がありません",
    "os.EEXIST": "ファイルがすでにあります",
    "os.ELOOP": "シンボリックリンクの段数が多すぎます",
    "os.error": "{reason}: {path!r} (エラー番号 {number})",
    "zip.not_zip": "zip ファイルではありません",
    "zip.bad_crc": "メンバー {member} の CRC-32 が合いません",
    "zip.central_magic": "zip の中央ディレクトリの印が正しくありません",
    "zip.central_truncated": "zip の中央ディレクトリが途中で切れています",
    "zip.header_magic": "メンバーのヘッダの印が正しくありません",
    "zip.header_truncated": "メンバーのヘッダが途中で切れています",
    "zip.name_differs": ("メンバー {member} の名前が、アーカイブのディレクトリとメンバー自身の"
                         "ヘッダとで食い違っています"),
    "zip.extra_field": "メンバーの拡張フィールドが壊れています",
    "zip.central_offset": "zip の中央ディレクトリの位置が正しくありません",
    "zip.compression": "メンバーが、この読み込みの対応していない方式で圧縮されています",
    "zip.offset": "アーカイブ内の位置がファイルの外を指しています",
    "zip.other": "zip アーカイブとして読めません (zipfile: {text})",
    "zip.npy_header": "中の配列の .npy ヘッダが壊れています (NumPy: {text})",
    "zip.ended": "メンバーが、ヘッダに記録された大きさより前で終わっています",
    "files.not_a_folder": ("{path!r} に{verb}ません: {folder!r} はファイルで、フォルダでは"
                           "ありません"),
    "render.not_utf8": ("{path}: UTF-8 のテキストではありません (ファイルの {position} バイト目が "
                        "0x{byte:02x} です)"),
    "grade.cannot_look": "{path} を読めません: {reason}",
    "render.no_suffix_out": ("{path} は描けません: 拡張子がありません。--out の名前を形式の拡張子 "
                             "(.svg、.png、.pdf、.dot) で終えてください"),

    # ---- 再帰層の約束 (minigrad.nn.recurrent) -------------------------------------------------
    "recurrent.time_step": "時刻 {t} のステップ",
    "recurrent.tuple_of": "要素 {count} 個の {kind}",
    "recurrent.step_parts": ("{name}: {where}で、cell(x, state) が {got} を返しましたが、"
                             "state_parts {state_parts} によれば、状態は渡された状態と同じく"
                             "テンソル {count} 個です"),
    "recurrent.step_shape": ("{name}: {where}で、cell(x, state) が {part} {new_shape} "
                             "{new_dtype} を返しましたが、渡された状態の {part} は {old_shape} "
                             "{old_dtype} です。各ステップは状態の形状 (batch, hidden_size) と "
                             "dtype を保ちます"),
    "recurrent.pass_a_layer": ("check_recurrent: クラス {cls} ではなく、層を渡してください "
                               "(たとえば {cls}({input_size!r}, {hidden_size!r}))"),
    "recurrent.size": ("check_recurrent: {argument} は 1 以上の整数であるべきですが、{size!r} "
                       "でした"),
    "recurrent.outputs_shape": ("{name}: forward が返した出力の形状は {found} で、(batch, time, "
                                "hidden_size) = (2, 3, {hidden_size}) であるべきです"),
    "recurrent.ignores_mask": ("{name}: forward がマスクを無視しています。左にパディングした"
                               "系列が、同じ系列だけを読んだときとは別の状態で終わります "
                               "(パディングのステップは状態をそのまま残すべきです。"
                               "nn.Recurrent の forward は"
                               "そうします)"),
    "recurrent.disagree": ("{name}: cell と forward が食い違っています。ゼロから cell を 1 ステップ"
                           "進めた結果は、forward の最初の出力と同じになるべきです"),
    "recurrent.state_parts": ("{name}: state_parts は状態の部分の名前を、隠れ状態を先頭にして文字列"
                              "のタプルで示すべきです (('h',) または ('h', 'c'))。見つかったのは "
                              "{state_parts!r} です"),
    "recurrent.size_attribute": ("{name}: layer.{attribute} は {found!r} で、{size!r} であるべき"
                                 "です (層は、作られたときの大きさを属性として持ちます)"),
    "recurrent.no_cell": "{name}: cell(x, state) メソッド (層の 1 ステップ) がありません",
    "recurrent.no_mask": ("{name}: forward がマスクを受け取りませんが、エンコーダはパディングした"
                          "バッチを読みます。forward(x, state=None, mask=None) と書くか、"
                          "forward がマスクを受け取る nn.Recurrent を継承してください"),
    "recurrent.raised": "{name}: {what} で {kind} が発生しました: {error}{where}",
    "recurrent.raised_at": " ({file} の {line} 行目)",
    "recurrent.cell_takes_one": ("{name}: state_parts {state_parts} によれば状態はテンソル "
                                 "{count} 個のタプルですが、cell(x, state) はテンソルひとつを"
                                 "受け取ります (そして返します)。部分をひとつだけ名付ける "
                                 "(state_parts = ('h',)) か、セルがタプルを受け取って返すように"
                                 "してください"),
    "recurrent.state_kind": ("{name}: {where} が返した状態は {got} ですが、state_parts "
                             "{state_parts} によれば{want}のはずです"),
    "recurrent.one_tensor": "テンソルひとつ",
    "recurrent.tuple_of_tensors": "テンソル {count} 個のタプル",
    "recurrent.state_shape": ("{name}: {where} が返した {part} の形状は {found} で、(batch, "
                              "hidden_size) = ({batch}, {hidden_size}) であるべきです"),
    "recurrent.state_not_finite": ("{name}: 小さな有限の入力とゼロの状態に対して、{where} が NaN "
                                   "または無限大を含む {part} を返しました"),

    # ---- explore の、max_ops より多くの演算を持つグラフ (minigrad.viz.explorer.data) ----------
    "explore.too_many_ops": ("explore: このグラフには {count:,} 個の演算があり、max_ops={most:,} "
                             "を超えています (ブラウザは数千個を配置するのに数秒かかります)。"
                             "もっと小さな部分 (1 ステップ、1 層) を探るか、max_ops を大きく"
                             "してください"),
}
