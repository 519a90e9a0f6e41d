"""minigrad のメッセージ (日本語) その 4: 自分で書いた演算についてエンジンが言うこと
(minigrad.op_errors)。forward や backward が返したものについてで、採点プログラムも判定の中で
引用します。ja.py の MESSAGES にまとめられます。キーは en_ops.py と同じです。"""

OPS = {
    # ---- 演算の forward や backward が、エンジンの使えないものを返した ------------------------
    "op.wrote_in_place": ("。{kind}.forward が入力の配列をその場で書き換えました (x -= m、"
                          "x[i] = v、out=x)。その配列はほかのテンソルのものです。新しい配列を"
                          "作ってください (x = x - m)"),
    "op.set_inputs": ("{kind}.forward が self.inputs を設定しました。これはエンジンが演算の入力"
                      "テンソルを持つための名前です。配列は別の名前で (そして `saves` に) 保存して"
                      "ください"),
    "op.forward_tensor": ("{kind}.forward がテンソルを返しました。forward は NumPy 配列で計算し"
                          "(引数はテンソルではなく配列です)、配列を返します"),
    "op.backward_tensor": ("{op}.backward がテンソルを返しました。backward は NumPy 配列で計算し、"
                           "配列を返します (grad.data を返すか、NumPy で計算してください)"),
    "op.wrong_count": ("{op}.backward は入力 {count} 個に対して勾配を {got} 個返しました。入力"
                       "ごとに勾配 (または None) をひとつずつ並べたタプルを返してください"),
    "op.wrong_shape": ("{op}.backward が入力 {index} に返した勾配の形状は {got} ですが、その入力"
                       "の形状は {shape} です{hint}"),
    "op.broadcast_hint": ("。入力はブロードキャストされていました。ブロードキャストされた軸に"
                          "沿って勾配の和をとってください (minigrad.ops.arithmetic.unbroadcast("
                          "grad, shape))"),
}
