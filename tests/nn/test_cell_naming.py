"""Cell structure: attribute routing, auto_prefix parameter names (the expected names are what MindSpore 2.10
gives for the same code), containers, traversal, repr, reserved names and cluster-only methods."""
from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Parameter, ParameterTuple, Tensor, nn


def _p(*shape: int, name: str | None = None) -> Parameter:
    return Parameter(Tensor(np.ones(shape, np.float32)), name=name)


class Inner(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.w = _p(2)
        self.u = _p(2, name="user_u")
        self.d = nn.Dense(2, 3)

    def construct(self, x):
        return self.d(x * self.w)


class Outer(nn.Cell):
    def __init__(self, auto_prefix: bool = True) -> None:
        super().__init__(auto_prefix=auto_prefix)
        self.inner = Inner()
        self.seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 2)])
        self.seqd = nn.SequentialCell(OrderedDict([("fc", nn.Dense(2, 2)), ("act", nn.ReLU())]))
        self.lst = nn.CellList([nn.Dense(2, 2), nn.Dense(2, 2)])
        self.cd = nn.CellDict({"a": nn.Dense(2, 2)})

    def construct(self, x):
        return self.seq(x)


# names MindSpore 2.10 prints for Outer() / Outer(auto_prefix=False) (tests/fixtures: same code under MindSpore)
PATHS = ["inner.w", "inner.u", "inner.d.weight", "inner.d.bias", "seq.0.weight", "seq.0.bias", "seq.2.weight",
         "seq.2.bias", "seqd.fc.weight", "seqd.fc.bias", "lst.0.weight", "lst.0.bias", "lst.1.weight", "lst.1.bias",
         "cd.a.weight", "cd.a.bias"]
NAMES_NO_PREFIX = ["w", "user_u", "d.weight", "d.bias", "0.weight", "0.bias", "2.weight", "2.bias", "fc.weight",
                   "fc.bias", "0.weight", "0.bias", "1.weight", "1.bias", "a.weight", "a.bias"]


def test_names_are_attribute_paths() -> None:
    inner = Inner()
    assert [p.name for p in inner.get_parameters()] == ["w", "user_u", "d.weight", "d.bias"]
    net = Outer()
    assert [n for n, _ in net.parameters_and_names()] == PATHS
    assert [p.name for p in net.get_parameters()] == PATHS  # user_u renamed once assigned into a parent


def test_auto_prefix_false_keeps_childrens_names() -> None:
    net = Outer(auto_prefix=False)
    assert [n for n, _ in net.parameters_and_names()] == PATHS
    assert [p.name for p in net.get_parameters()] == NAMES_NO_PREFIX


def test_duplicate_names_are_refreshed_on_first_call() -> None:
    net = Outer(auto_prefix=False)
    net(Tensor(np.ones((1, 2), np.float32)))
    assert [p.name for p in net.get_parameters()] == PATHS


def test_state_dict_keys_and_cells_and_names() -> None:
    net = Outer()
    assert list(net.state_dict()) == PATHS
    assert [n for n, _ in net.cells_and_names()] == [
        "", "inner", "inner.d", "seq", "seq.0", "seq.1", "seq.2", "seqd", "seqd.fc", "seqd.act", "lst", "lst.0",
        "lst.1", "cd", "cd.a"]
    assert list(net.name_cells()) == ["inner", "seq", "seqd", "lst", "cd"]
    assert list(net.cells()) == list(net.name_cells().values())
    assert net.get_sub_cell("inner.d") is net.inner.d
    assert net.get_sub_cell("") is net
    with pytest.raises(AttributeError, match="has no attribute `nope`"):
        net.get_sub_cell("inner.nope")
    with pytest.raises(AttributeError, match="is not an nn.Cell"):
        net.get_sub_cell("inner.w")


def test_parameter_collections() -> None:
    net = Outer()
    net.inner.w.requires_grad = False
    assert all(p is not net.inner.w for p in net.trainable_params())
    assert [p.name for p in net.untrainable_params()] == ["inner.w"]
    assert list(net.parameters_dict()) == PATHS
    assert [p.name for p in net.inner.get_parameters(expand=False)] == ["inner.w", "inner.u"]
    assert len(net.trainable_params(recurse=False)) == 0


def test_shared_parameter_and_cell_listed_once() -> None:
    class Shared(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.a = nn.Dense(2, 2)
            self.b = self.a

        def construct(self, x):
            return self.b(self.a(x))

    net = Shared()
    assert [n for n, _ in net.parameters_and_names()] == ["a.weight", "a.bias"]
    assert list(net.name_cells()) == ["a"]


def test_update_cell_prefix_and_scope() -> None:
    net = Outer()
    assert net.param_prefix == ""
    net.update_cell_prefix()
    assert net.inner.d.param_prefix == "inner.d"
    assert net.seq.param_prefix == "seq"
    assert net.inner.get_scope() is None
    net.generate_scope()
    assert net.inner.d.get_scope() == "Default/inner/d"


def test_setattr_routing() -> None:
    class Net(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.weight = _p(3)
            self.fc = nn.Dense(3, 1)
            self.scale = 2.0

        def construct(self, x):
            return x

    net = Net()
    assert "weight" in net._params and "weight" not in net.__dict__
    assert "fc" in net._cells and net.fc is net._cells["fc"]
    assert net.__dict__["scale"] == 2.0
    net.weight = Tensor(np.full(3, 5.0, np.float32))  # a Tensor into an existing parameter: set_data
    assert isinstance(net.weight, Parameter)
    np.testing.assert_array_equal(net.weight.asnumpy(), 5.0)
    with pytest.raises(TypeError, match="Parameter 'weight' already exists"):
        net.weight = "no"
    with pytest.raises(TypeError, match="Sub cell 'fc' already exists"):
        net.fc = 3
    net.fc = None
    assert net.fc is None and list(net.name_cells()) == []
    del net.weight
    assert "weight" not in net._params
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'missing'"):
        net.missing  # noqa: B018


def test_parameter_lists_and_tuples() -> None:
    class Net(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.params = ParameterTuple([_p(1, name="a"), _p(1, name="b")])
            self.plain = [_p(1, name="c"), _p(1, name="d")]

        def construct(self, x):
            return x

    net = Net()
    assert [n for n, _ in net.parameters_and_names()] == ["a", "b"]
    assert net.exist_names == {"c", "d"}
    clone = net.params.clone("moments", "zeros")
    assert [p.name for p in clone] == ["moments.a", "moments.b"]
    np.testing.assert_array_equal(clone[0].asnumpy(), 0.0)
    with pytest.raises(TypeError, match="expected a Parameter"):
        ParameterTuple([Tensor(np.ones(1))])

    class Dup(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.params = ParameterTuple([_p(1, name="x"), _p(1, name="x")])

    with pytest.raises(ValueError, match="its name 'x' already exists"):
        Dup()


def test_insert_child_and_param_errors() -> None:
    net = nn.Cell()
    net.insert_child_to_cell("fc", nn.Dense(2, 2))
    net.insert_param_to_cell("p", _p(2))
    assert net.p.name == "p"
    with pytest.raises(KeyError, match="can not be None and can not contain"):
        net.insert_child_to_cell("a.b", nn.ReLU())
    with pytest.raises(TypeError, match="must be 'Cell' if not None"):
        net.insert_child_to_cell("x", 3)
    with pytest.raises(KeyError, match="should not contain"):
        net.insert_param_to_cell("a.b", _p(1))
    with pytest.raises(KeyError, match="already exists in the network"):
        net.insert_param_to_cell("fc", _p(1))
    with pytest.raises(TypeError, match="must be 'Parameter' if not None"):
        net.insert_param_to_cell("q", Tensor(np.ones(1)))


def test_sequential_cell_operations() -> None:
    seq = nn.SequentialCell(nn.Dense(2, 3), nn.ReLU())
    assert len(seq) == 2 and isinstance(seq[0], nn.Dense) and isinstance(seq[-1], nn.ReLU)
    seq.append(nn.Dense(3, 1))
    assert [p.name for p in seq.get_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    seq.insert(1, nn.Dense(3, 3))
    assert list(seq.name_cells()) == ["0", "1", "2", "3"]
    assert [p.name for p in seq.get_parameters()] == ["0.weight", "0.bias", "1.weight", "1.bias", "3.weight",
                                                      "3.bias"]
    out = seq(Tensor(np.ones((4, 2), np.float32)))
    assert out.shape == (4, 1)
    sub = seq[1:3]
    assert isinstance(sub, nn.SequentialCell) and len(sub) == 2
    del seq[1]
    assert len(seq) == 3 and [p.name for p in seq.get_parameters()][-2:] == ["2.weight", "2.bias"]
    seq.extend([nn.ReLU()])
    assert len(seq) == 4
    with pytest.raises(IndexError, match="must be a number in range"):
        seq[10]
    with pytest.raises(TypeError, match="must be subclass of Cell"):
        seq.append(3)


def test_containers_inside_a_network_keep_their_prefix() -> None:
    class Net(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.blocks = nn.CellList([nn.Dense(2, 2)])

        def construct(self, x):
            return x

    net = Net()
    net.blocks.append(nn.Dense(2, 2))
    net.blocks.insert(0, nn.Dense(2, 2, has_bias=False))
    assert [p.name for p in net.get_parameters()] == ["blocks.0.weight", "blocks.1.weight", "blocks.1.bias",
                                                      "blocks.2.weight", "blocks.2.bias"]
    assert len(net.blocks) == 3 and len(net.blocks[1:]) == 2
    # slicing gives a view: names stay (MindSpore's slice renames the parameters to the slice's positions)
    assert [p.name for p in net.blocks[1:].get_parameters()] == ["blocks.1.weight", "blocks.1.bias",
                                                                 "blocks.2.weight", "blocks.2.bias"]
    del net.blocks[0]
    assert [p.name for p in net.get_parameters()] == ["blocks.0.weight", "blocks.0.bias", "blocks.1.weight",
                                                      "blocks.1.bias"]
    with pytest.raises(NotImplementedError):
        net.blocks(Tensor(np.ones(2)))


def test_cell_dict() -> None:
    d = nn.CellDict({"a": nn.Dense(2, 2)})
    d["b"] = nn.ReLU()
    d.update([("c", nn.Tanh())])
    assert list(d.keys()) == ["a", "b", "c"] and "b" in d and len(d) == 3
    assert isinstance(d.pop("b"), nn.ReLU) and list(d) == ["a", "c"]
    with pytest.raises(TypeError, match="can not be CellDict, CellList or SequentialCell"):
        d["s"] = nn.SequentialCell([nn.ReLU()])
    with pytest.raises(KeyError, match="can not contain"):
        d["x.y"] = nn.ReLU()
    d.clear()
    assert len(d) == 0


def test_nested_repr_matches_mindspore() -> None:
    # as MindSpore 2.10 prints it
    assert repr(Outer()) == (
        "Outer(\n"
        "  (inner): Inner(\n"
        "    (d): Dense(input_channels=2, output_channels=3, has_bias=True)\n"
        "  )\n"
        "  (seq): SequentialCell(\n"
        "    (0): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
        "    (1): ReLU()\n"
        "    (2): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
        "  )\n"
        "  (seqd): SequentialCell(\n"
        "    (fc): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
        "    (act): ReLU()\n"
        "  )\n"
        "  (lst): CellList(\n"
        "    (0): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
        "    (1): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
        "  )\n"
        "  (cd): CellDict(\n"
        "    (a): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
        "  )\n"
        ")")
    assert repr(nn.Dense(2, 3, activation="relu")) == (
        "Dense(\n  input_channels=2, output_channels=3, has_bias=True, activation=ReLU()\n  (activation): ReLU()\n)")

    class Custom(nn.Cell):
        def extend_repr(self) -> str:
            return "alpha=1"

    assert repr(Custom()) == "Custom(alpha=1)"


def test_reserved_names_follow_mindspore() -> None:
    """MindSpore's docs warn that a method 'cast' or attributes 'phase' / 'cells' raise; MindSpore 2.10
    itself raises only for a 'phase' that is not a str (TypeError). cellonnx does the same: a 'cast' method
    and a 'cells' attribute work, and the Cell's own traversal does not go through them."""
    class WithCast(nn.Cell):
        def cast(self, x):
            return x * 2

        def construct(self, x):
            return self.cast(x)

    assert WithCast()(Tensor(np.ones(2, np.float32))).asnumpy().tolist() == [2.0, 2.0]

    class WithPhase(nn.Cell):
        def __init__(self, phase) -> None:
            super().__init__()
            self.phase = phase

    assert WithPhase("export").phase == "export"
    with pytest.raises(TypeError, match="For 'Cell', the property 'phase' must be string type, but got type"):
        WithPhase(3)

    class WithCells(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Dense(2, 2)
            self.cells = 3

    net = WithCells()
    assert net.cells == 3
    assert [n for n, _ in net.parameters_and_names()] == ["fc.weight", "fc.bias"]
    net.set_train(True)
    assert net.fc.training


CLUSTER_METHODS = [("set_param_ps", ()), ("infer_param_pipeline_stage", ()), ("set_param_fl", ())]

# MindSpore 2.10 accepts these in a single process, where they change nothing (the settings are for its
# parallel compiler and cluster runtime); they return what MindSpore returns
SETTINGS = [
    ("shard", (((1,),),), None), ("place", ("MS_WORKER", 0), None), ("set_data_parallel", (), None),
    ("offload", (), None), ("offload", (3,), None), ("set_comm_fusion", (1,), "self"),
    ("set_boost", ("less_bn",), "self"), ("set_broadcast_flag", (), "self"),
]


@pytest.mark.parametrize("method,args,returns", SETTINGS, ids=[f"{m}{a}" for m, a, _ in SETTINGS])
def test_parallel_settings_are_kept_in_one_process(method: str, args: tuple, returns: str | None) -> None:
    net = nn.SequentialCell(nn.Dense(2, 2), nn.ReLU())
    x = Tensor(np.ones((1, 2), np.float32))
    before = net(x).asnumpy()
    out = getattr(net, method)(*args)
    assert out is (net if returns == "self" else None)
    np.testing.assert_array_equal(net(x).asnumpy(), before)


def test_parallel_settings_record_what_mindspore_records() -> None:
    net = nn.SequentialCell(nn.Dense(2, 2), nn.ReLU())
    net.set_comm_fusion(3)
    assert [p.comm_fusion for p in net.trainable_params()] == [3, 3]
    assert net.set_boost("less_bn")[1].less_bn is True
    assert net.set_broadcast_flag(False).get_flags() == {"less_bn": True, "broadcast_flag": False}


@pytest.mark.parametrize("method,args,match", [
    ("place", ("MS_SERVER", 0), "'role' must be 'MS_WORKER'"),
    ("place", ("MS_WORKER", -1), "'rank_id' must be a non-negative int"),
    ("offload", ("Later",), r"'backward_prefetch' must be str and must be in '\['Auto'\]'"),
    ("offload", (-2,), "must be int and must >= 0"),
    ("set_comm_fusion", (-1,), "must be int and must >= 0"),
    ("set_boost", ("more_bn",), "'boost_type' must be 'less_bn'"),
])
def test_parallel_settings_check_their_arguments(method: str, args: tuple, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        getattr(nn.Dense(2, 2), method)(*args)


@pytest.mark.parametrize("method,args", CLUSTER_METHODS, ids=[m for m, _ in CLUSTER_METHODS])
def test_cluster_methods_raise(method: str, args: tuple) -> None:
    with pytest.raises(NotImplementedError, match=rf"Cell\.{method} is not supported by cellonnx: it needs"):
        getattr(nn.Dense(2, 2), method)(*args)


def test_pipeline_stage_setter_raises() -> None:
    net = nn.Dense(2, 2)
    assert net.pipeline_stage == 0
    with pytest.raises(NotImplementedError, match="Cell.pipeline_stage is not supported"):
        net.pipeline_stage = 1


def test_construct_must_be_defined() -> None:
    with pytest.raises(AttributeError, match="the method 'construct' is not defined"):
        nn.Cell()(Tensor(np.ones(1)))


def test_top_level_names() -> None:
    for name in ("Tensor", "Parameter", "ParameterTuple", "nn", "ops", "common", "set_seed", "value_and_grad",
                 "grad", "no_grad"):
        assert hasattr(ms, name), name
    assert ms.common.initializer.initializer("ones", (2,)).asnumpy().tolist() == [1.0, 1.0]
