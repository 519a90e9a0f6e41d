"""Layers with parameters, as in `torch.nn`: `from minigrad import nn`.

module       Module (parameters, state_dict, train/eval, to(dtype)) and Parameter
layers       Linear, Embedding, Dropout, and the activations ReLU and GELU
containers   Sequential and ModuleList (modules named "0", "1", ... as in PyTorch)
layer_norm   LayerNorm, built from primitive ops (layer_norm); fused=True
fused_layer_norm  layer normalisation as one op with a hand-derived backward (FusedLayerNorm)
lstm         LSTMCell and LSTM, built from primitive ops
recurrent    the recurrent-layer contract (what the seq2seq model asks of an LSTM or a GRU),
             and Recurrent, a layer run over time from its one-step cell
fused_lstm_cell  the LSTM step as one op with a hand-derived backward (FusedLSTMCell)
fused_lstm   the LSTM over a whole sequence as one op (FusedLSTM, backpropagation through time
             derived by hand); fused=True
init         initialisation (uniform_, normal_, zeros_)
utils        clip_grad_norm_
"""

from minigrad.nn import init, utils
from minigrad.nn.containers import ModuleList, Sequential
from minigrad.nn.layer_norm import LayerNorm
from minigrad.nn.layers import GELU, Dropout, Embedding, Linear, ReLU
from minigrad.nn.lstm import LSTM, LSTMCell
from minigrad.nn.module import Module, Parameter
from minigrad.nn.recurrent import Recurrent

__all__ = ["Module", "Parameter", "Linear", "Embedding", "Dropout", "ReLU", "GELU", "LayerNorm",
           "Sequential", "ModuleList", "LSTMCell", "LSTM", "Recurrent", "init", "utils"]
