"""Turning a network into its THOR-layer network (MindSpore's ``ConvertNetUtils``) and the layer kinds THOR's
optimizer walks the parameters by. Lives beside the optimizer (``nn.thor`` converts the network it is given);
``cellonnx.train.ConvertNetUtils`` is this class."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes
from cellonnx.nn.cell import Cell

__all__ = ["ConvertNetUtils", "layer_kinds"]

OTHER, CONV, FC, EMBEDDING, LAYERNORM, BATCHNORM = -1, 1, 2, 3, 4, 5


def _layers() -> Any:
    from cellonnx import nn

    return nn


def _thor_classes() -> tuple:
    nn = _layers()
    return nn.DenseThor, nn.Conv2dThor, nn.EmbeddingThor, nn.EmbeddingLookupThor


class ConvertNetUtils:
    """Convert net to thor layer net, used to compute and store second-order information matrix.

    Dense becomes DenseThor (its weight and bias kept; the activation by name), Conv2d becomes Conv2dThor (its
    weight kept; kernel size, stride, padding and bias flag as MindSpore passes them: the bias starts at zero,
    dilation and group at 1), Embedding becomes EmbeddingThor and EmbeddingLookup EmbeddingLookupThor (their
    tables kept). Layers whose weight is frozen, and Dense / Conv2d under a path holding ``wide`` or
    ``rpn_with_loss.rpn_convs_list.``, stay as they are.

    Examples:
        >>> net = nn.SequentialCell([nn.Dense(4, 3, activation="relu"), nn.Dense(3, 2)])
        >>> ms.train.ConvertNetUtils().convert_to_thor_net(net)
        >>> [type(cell).__name__ for cell in net]
        ['DenseThor', 'DenseThor']
    """

    def __init__(self) -> None:
        nn = _layers()
        self._convert_method_map = {nn.Dense: ConvertNetUtils._convert_dense,
                                    nn.Embedding: ConvertNetUtils._convert_embedding,
                                    nn.Conv2d: ConvertNetUtils._convert_conv2d,
                                    nn.EmbeddingLookup: ConvertNetUtils._convert_embeddinglookup}

    @staticmethod
    def _convert_dense(subcell: Cell) -> Cell:
        nn = _layers()
        act_name = None
        if subcell.activation_flag:
            act_name = type(subcell.activation).__name__.lower()
            act_name = "fast_gelu" if act_name == "fastgelu" else act_name
        new = nn.DenseThor(in_channels=subcell.in_channels, out_channels=subcell.out_channels,
                           weight_init=subcell.weight, has_bias=subcell.has_bias, bias_init="zeros",
                           activation=act_name)
        if subcell.out_channels != 1001:  # MindSpore's float16 on Ascend, float32 elsewhere
            new.to_float(dtypes.float32)
        if subcell.has_bias:
            new.bias = subcell.bias
        return new

    @staticmethod
    def _convert_embedding(subcell: Cell) -> Cell:
        new = _layers().EmbeddingThor(vocab_size=subcell.vocab_size, embedding_size=subcell.embedding_size,
                                      use_one_hot=False)
        new.embedding_table = subcell.embedding_table
        return new

    @staticmethod
    def _convert_embeddinglookup(subcell: Cell) -> Cell:
        new = _layers().EmbeddingLookupThor(vocab_size=subcell.vocab_size,
                                            embedding_size=subcell.embedding_size,
                                            target=subcell.target, sparse=subcell.sparse)
        new.embedding_table = subcell.embedding_table
        return new

    @staticmethod
    def _convert_conv2d(subcell: Cell) -> Cell:
        return _layers().Conv2dThor(subcell.in_channels, subcell.out_channels,
                                    kernel_size=subcell.kernel_size[0], stride=subcell.stride,
                                    padding=subcell.padding, pad_mode=subcell.pad_mode,
                                    has_bias=subcell.has_bias, weight_init=subcell.weight)

    @staticmethod
    def _need_change(subcell: Cell, prefix: str) -> bool:
        nn = _layers()
        if isinstance(subcell, (nn.Dense, nn.Conv2d)) and subcell.weight.requires_grad:
            return "rpn_with_loss.rpn_convs_list." not in prefix.lower() and "wide" not in prefix.lower()
        return (isinstance(subcell, (nn.Embedding, nn.EmbeddingLookup))
                and subcell.embedding_table.requires_grad)

    def _convert_to_thor_net(self, net: Cell) -> None:
        nn = _layers()
        kept = (nn.Conv2dTranspose, nn.Conv1d, nn.Conv1dTranspose, nn.BatchNorm1d, nn.GroupNorm, nn.LayerNorm,
                nn.BatchNorm2d, nn.MaxPool2d)
        change = False
        for name, subcell in list(net.name_cells().items()):
            if subcell is net or isinstance(subcell, _thor_classes() + kept):
                continue
            if isinstance(subcell, (nn.Embedding, nn.Dense, nn.Conv2d, nn.EmbeddingLookup)):
                prefix = subcell.param_prefix
                convert = self._convert_method_map.get(type(subcell))
                if convert is not None and self._need_change(subcell, prefix):
                    new = convert(subcell)
                    new.update_parameters_name(prefix + ".")
                    net.insert_child_to_cell(name, new)
                    change = True
            else:
                self._convert_to_thor_net(subcell)
        if isinstance(net, nn.SequentialCell) and change:
            net.cell_list = list(net.cells())

    def convert_to_thor_net(self, net: Cell) -> None:
        """Convert ``net``'s layers to THOR layers in place (``nn.thor`` calls this).

        Args:
            net (Cell): the network to be trained by THOR.
        """
        net.update_cell_prefix()
        self._convert_to_thor_net(net)
        net.update_cell_type("second-order")


def _kinds(net: Cell, out: list[int]) -> None:
    nn = _layers()
    dense_thor, conv_thor, emb_thor, lookup_thor = _thor_classes()
    for subcell in net.name_cells().values():
        if subcell is net:
            continue
        prefix = subcell.param_prefix.lower()
        if isinstance(subcell, conv_thor):
            out.append(CONV)
        elif isinstance(subcell, dense_thor):
            out.append(FC)
        elif isinstance(subcell, (emb_thor, lookup_thor)):
            out.append(EMBEDDING)
        elif isinstance(subcell, nn.LayerNorm):
            out.append(LAYERNORM)
        elif isinstance(subcell, nn.BatchNorm2d):
            if subcell.gamma.requires_grad:
                out.append(BATCHNORM)
        elif isinstance(subcell, (nn.Dense, nn.Conv2d)):
            if subcell.weight.requires_grad and ("rpn_with_loss.rpn_convs_list." not in prefix
                                                 or "rpn_with_loss.rpn_convs_list.0." in prefix):
                out.append(OTHER)
        elif isinstance(subcell, (nn.Embedding, nn.Conv2dTranspose, nn.Conv1d, nn.Conv1dTranspose,
                                  nn.BatchNorm1d, nn.GroupNorm)):
            out.append(OTHER)
        else:
            _kinds(subcell, out)


def layer_kinds(net: Cell) -> list[int]:
    """The kind of each trainable layer of ``net`` in order (MindSpore's layer-type mask): 1 Conv2dThor,
    2 DenseThor, 3 EmbeddingThor / EmbeddingLookupThor, 4 LayerNorm, 5 BatchNorm2d, -1 the other layers."""
    out: list[int] = []
    _kinds(net, out)
    return out
