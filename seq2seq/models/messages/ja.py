"""モデルのメッセージ (日本語)。キーと差し込み箇所は en.py と同じです。"""

MESSAGES = {
    # ---- 利用者のコードの失敗 (seq2seq.models.recurrent.raised) -------------------------------
    "raised": "{kind} が発生しました: {error}",
    "decoder_step": "デコーダのステップ",
    "exited": "{call} が呼ばれました",

    # ---- 利用者の再帰層 (seq2seq.models.recurrent) --------------------------------------------
    "rnn.instance": ("rnn には再帰層のインスタンスではなくクラスを渡してください: rnn={name} と"
                     "渡せば、モデルが自分の大きさで層を作ります"),
    "rnn.not_a_class": "rnn には再帰層のクラスを渡してください ({name} ではなく)",
    "rnn.made": "{made} で {raised}",

    # ---- 利用者のエンコーダのブロック (seq2seq.models.block_contract, transformer) -------------
    "block.not_a_class": "block にはエンコーダのブロックのクラスを渡してください ({name} ではなく)",
    "block.made": "{made} で {raised}",
    "block.not_a_module": ("{made} が作ったのは {type} で、minigrad の nn.Module ではありません。"
                           "{name} を nn.Module のサブクラスにしてください (そのパラメータはモデル"
                           "のものと一緒に学習・保存されます)"),
    "block.ignores_mask": ("{made} はマスクを無視しています: 例のパディングの位置を変えると、実際"
                           "の位置の出力が変わりました。forward(x, mask) は mask が True の位置"
                           "だけにアテンションしなければなりません (mask は (B, 1, T) で、"
                           "パディングで False)"),
    "block.batch": ("{made} は同じバッチのほかの文に左右されています: 文をひとつだけ入れたときと、"
                    "バッチの行に入れたときとで出力が違いました (長さ {length} の文を {count} 行"
                    "中の {row} 行目に置き、T は {size})。forward(x, mask) は各文を別々に扱わ"
                    "なければなりません (バッチをまたぐ平均や正規化、行やバッチの大きさ・長さ、"
                    "パディングによるものは使えません)"),
    "block.forward_raised": "{made}: forward(x {x}, mask={mask}) で {raised}",
    "block.not_a_tensor": ("{made}: forward(x, mask) は x と同じ形 {shape} の Tensor を返すはず"
                           "ですが、{type} を返しました"),
    "block.shape": ("{made}: forward(x, mask) が形 {found} を返しました。x の形 {shape} "
                    "(B, T, d_model) のはずです"),
    "block.not_finite": "{made}: forward(x, mask) が NaN か無限大の値を返しました",
    "block.in_model": ("{name}: forward(x, mask) が形 {shape} の x に対して {found} を返しました: "
                       "ブロックは入力の形を保たなければなりません"),
}
