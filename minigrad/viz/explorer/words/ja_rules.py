"""The rules of minigrad's ops in Japanese, for the explorer's panel and hints (ja.py takes
them into its table): the formula and the derivative as each op's docstring writes them, the
words in Japanese. A setting named in backticks (`axis`) is filled in with the op's value, as
data.py's `rule` does for the docstrings; lines are separated by newlines.
"""

RULES = {
    "rule.Add": "y = a + b        dL/da = dL/dy        dL/db = dL/dy        (それぞれ、"
                "ブロードキャストされた軸で和をとって元の形に戻す)",
    "rule.Sub": "y = a - b        dL/da = dL/dy        dL/db = -dL/dy       (それぞれ、"
                "ブロードキャストされた軸で和をとって元の形に戻す)",
    "rule.Mul": "y = a * b        dL/da = dL/dy * b    dL/db = dL/dy * a    (それぞれ、"
                "ブロードキャストされた軸で和をとって元の形に戻す)",
    "rule.Div": "y = a / b        dL/da = dL/dy / b    dL/db = -dL/dy * a / b**2 = -dL/dy * y / b",
    "rule.Neg": "y = -x           dL/dx = -dL/dy",
    "rule.Pow": "y = a ** b       dL/da = dL/dy * b * a**(b-1)\n"
                "dL/db = dL/dy * y * log(a)   (a <= 0 では 0: 実数のべき乗は b で微分できません)",
    "rule.PowConstant": "y = x ** p (p は定数)      dL/dx = dL/dy * p * x**(p-1)",
    "rule.MatMul": "Y = A @ B     A: (..., n, k)  B: (..., k, m)  ->  Y: (..., n, m)\n"
                   "dL/dA = dL/dY @ B^T        dL/dB = A^T @ dL/dY   (ブロードキャストした"
                   "バッチ次元は和をとります)\n"
                   "ベクトルは NumPy と同じく 1 行 (A として) または 1 列 (B として) の行列です。",
    "rule.Exp": "y = exp(x)       dL/dx = dL/dy * y",
    "rule.Log": "y = log(x)       dL/dx = dL/dy / x",
    "rule.Sqrt": "y = sqrt(x)      dL/dx = dL/dy / (2 y)",
    "rule.Tanh": "y = tanh(x)      dL/dx = dL/dy * (1 - y**2)",
    "rule.Sigmoid": "y = 1 / (1 + exp(-x))     dL/dx = dL/dy * y * (1 - y)",
    "rule.ReLU": "y = max(x, 0)    dL/dx = x > 0 では dL/dy、それ以外は 0",
    "rule.GELU": "y = x * Phi(x)、Phi は標準正規分布の累積分布関数 (torch.nn.functional.gelu "
                 "と同じ)\n"
                 "dL/dx = dL/dy * (Phi(x) + x * phi(x)),  phi(x) = exp(-x^2/2) / sqrt(2 pi)",
    "rule.Abs": "y = |x|          dL/dx = dL/dy * sign(x)      (PyTorch と同じく x = 0 では 0)",
    "rule.Clip": "y = min(max(x, low), high)     dL/dx = low <= x <= high では dL/dy、それ以外は 0",
    "rule.Where": "y = cond が真なら a、偽なら b    (cond: 固定のブール配列。"
                  "a, b はブロードキャスト)\n"
                  "dL/da = cond が真の要素で dL/dy、それ以外は 0      dL/db = cond が偽の要素で "
                  "dL/dy、それ以外は 0",
    "rule.Sum": "y = x を `axis` の方向に足し合わせたもの        dL/dx = dL/dy を足し合わせた軸の"
                "方向にコピー",
    "rule.Mean": "y = x を `axis` の方向に平均したもの = 和 / n      dL/dx = dL/dy / n をその軸の"
                 "方向にコピー",
    "rule.Max": "y = x の `axis` の方向の最大値       dL/dx = 最大値の要素で dL/dy、"
                "それ以外は 0。\n"
                "同じ最大値が複数あれば勾配を等分します (PyTorch の全体の縮約と同じ)。",
    "rule.Min": "y = x の `axis` の方向の最小値       dL/dx = 最小値の要素で dL/dy、"
                "それ以外は 0。\n"
                "同じ最小値が複数あれば勾配を等分します (PyTorch の全体の縮約と同じ)。",
    "rule.Reshape": "y = x を形 `shape` にしたもの (要素も順序も同じ)      dL/dx = dL/dy を元の形に"
                    "戻したもの",
    "rule.Transpose": "y = x の軸を並べ替えたもの (`axes=None` なら逆順)\n"
                      "dL/dx = dL/dy を逆の並べ替えで戻したもの",
    "rule.GetItem": "y = x[index]    (整数、スライス、None、...、ブールのマスク、整数配列)\n"
                    "dL/dx = x の形のゼロに、x[index] の位置へ dL/dy を加えたもの。代入ではなく"
                    "加算: 整数配列が同じ要素を 2 回選ぶと両方の勾配が足されます (np.add.at)。",
    "rule.Concat": "y = 入力を `axis` に沿ってつなげたもの      dL/dx_i = x_i が占めていた dL/dy "
                   "の部分",
    "rule.Stack": "y = 入力 (すべて同じ形) を新しい軸 `axis` に沿って積み重ねたもの\n"
                  "dL/dx_i = その軸の位置 i の dL/dy",
    "rule.FusedLayerNorm": "y = xhat * weight + bias,  xhat = (x - mean(x)) / sigma,  sigma = "
                           "sqrt(var(x) + eps)\n"
                           "平均と分散はそれぞれ行 (最後の軸) ごと。var は D - 1 ではなく D で"
                           "割ります:\n"
                           "dL/dx = (1/sigma) (g - mean(g) - xhat * mean(g * xhat)),  g = dL/dy "
                           "* weight\n"
                           "dL/dweight = sum(dL/dy * xhat), dL/dbias = sum(dL/dy) (最後以外の"
                           "すべての軸で和)",
    "rule.EmbeddingLookup": "y = weight[ids]     weight: (V, E)  ids: (...) 整数  ->  y: (..., "
                            "E)\n"
                            "dL/dweight = ゼロ (V, E) の行 ids[n] に各 dL/dy[n] を加えたもの "
                            "(同じ id が繰り返されれば足し合わせます)。`padding_idx` の行には"
                            "勾配が届きません。",
    "rule.DropoutMask": "y = x * mask / (1 - p)、mask ~ Bernoulli(1 - p) は順伝播で一度だけ"
                        "引きます\n"
                        "dL/dx = dL/dy * mask / (1 - p)           (同じマスク: 落としたユニット"
                        "には勾配が届きません)",
    "rule.Softmax": "y_i = exp(x_i) / sum_j exp(x_j)   (`axis` に沿って)\n"
                    "dL/dx = y * (dL/dy - sum(dL/dy * y))   (和は `axis` に沿って)        x, y: "
                    "任意の形",
    "rule.LogSoftmax": "y_i = x_i - log(sum_j exp(x_j))    (`axis` に沿って)\n"
                       "dL/dx = dL/dy - softmax(x) * sum(dL/dy)                x, y: 任意の形",
    "rule.CrossEntropy": "L_n = -sum_c q_c log(softmax(logits)_c)、対象となるターゲットで平均 "
                         "(または和)\n"
                         "q はターゲットの分布: onehot(target)。ラベル平滑化 eps があれば q = "
                         "(1 - eps) onehot(target) + eps / C\n"
                         "dL/dlogits = (softmax(logits) - q) * dL/dL_n、target == ignore_index "
                         "では 0",
    "rule.FusedLSTMCell": "[h', c'] = LSTM の 1 ステップ(x, h, c)       (導出はこの演算の"
                          "ファイルの docstring にあります)",
    "rule.FusedLSTM": "[h_1 .. h_T, c_T] = (h_0, c_0) から T ステップ進む LSTM\n"
                      "(時間方向の逆伝播の導出はこの演算のファイルの docstring にあります)",
}
