"""cellonnx.rewrite's API as MindSpore 2.10 documents it: ScopedValue and NodeType, the node names MindSpore's
own docstrings print for its LeNet5 (cellonnx.models.LeNet5 has the same construct), argument checks and
errors, and networks rewritten with functions, sub-networks and new layers, trained and exported."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from cellonnx.models import LeNet5

import cellonnx
from cellonnx import Tensor, nn, ops
from cellonnx.rewrite import Node, NodeType, ScopedValue, SymbolTree, ValueType
from tests.tolerance import assert_close


def _x(batch: int = 2) -> Tensor:
    return Tensor(np.random.default_rng(0).standard_normal((batch, 1, 32, 32)).astype(np.float32))


# ------------------------------------------------------------------ values and types
def test_scoped_values() -> None:
    assert str(ScopedValue.create_variable_value(2)) == "2"
    assert str(ScopedValue.create_naming_value("conv", "self")) == "self.conv"
    assert [str(v) for v in ScopedValue.create_name_values(["z", "z_1"], ["self", "self"])] == ["self.z",
                                                                                              "self.z_1"]
    t = ScopedValue.create_variable_value((1, "a", [2.0]))
    assert t.type == ValueType.TupleValue and t.value[2].type == ValueType.ListValue
    assert ScopedValue.create_variable_value({"k": 1}).type == ValueType.DictValue
    assert ScopedValue.create_variable_value(object()).type == ValueType.CustomObjValue
    assert ScopedValue.create_naming_value("x") == ScopedValue(ValueType.NamingValue, "", "x")
    assert len({ScopedValue.create_naming_value("x"), ScopedValue.create_naming_value("x")}) == 1
    with pytest.raises(TypeError):
        ScopedValue.create_naming_value(1)
    with pytest.raises(TypeError):
        ScopedValue.create_name_values(["a", 1])
    with pytest.raises(ValueError, match="length"):
        ScopedValue.create_name_values(["a", "b"], ["self"])
    with pytest.raises(TypeError):
        ScopedValue("NamingValue", "", "x")


def test_node_type_members_as_mindspore() -> None:
    assert {m.name: m.value for m in NodeType} == {
        "Unknown": 0, "CallCell": 1, "CallPrimitive": 2, "CallModule": 3, "CallFunction": 4, "CallMethod": 5,
        "Python": 6, "Input": 7, "Output": 8, "Tree": 9, "CellContainer": 10, "MathOps": 11,
        "ControlFlow": 12}
    assert {m.name: m.value for m in ValueType} == {
        "ConstantValue": 0, "TupleValue": 20, "ListValue": 21, "DictValue": 22, "NamingValue": 40,
        "CustomObjValue": 41, "UnsupportedValue": 50}


def test_top_level_names() -> None:
    assert cellonnx.SymbolTree is SymbolTree and cellonnx.Node is Node
    assert cellonnx.NodeType is NodeType and cellonnx.ScopedValue is ScopedValue


# ------------------------------------------------------------------ MindSpore's documented LeNet5 outputs
def test_lenet_nodes_as_mindspore_docs_print_them() -> None:
    stree = SymbolTree.create(LeNet5())
    assert [n.get_name() for n in stree.nodes()] == [
        "input_x", "conv1", "relu", "max_pool2d", "conv2", "relu_1", "max_pool2d_1", "unaryop_not", "if_node",
        "flatten", "fc1", "relu_2", "fc2", "relu_3", "fc3", "return_1"]
    assert [n.get_name() for n in stree.get_node("conv2").get_inputs()] == ["max_pool2d"]
    assert [n.get_name() for n in stree.get_node("conv1").get_users()] == ["relu"]
    assert stree.get_node("conv1").get_node_type() == NodeType.CallCell
    assert stree.get_node("conv1").get_instance_type() is nn.Conv2d
    assert [str(a) for a in stree.get_node("conv1").get_args()] == ["x"]
    dst = stree.get_node("relu_3")
    dst.set_arg(0, "fc1")
    assert [str(a) for a in dst.get_args()] == ["fc1"]
    dst.set_arg_by_node(0, stree.get_node("fc1"), 0)
    assert [str(a) for a in dst.get_args()] == ["fc1_var"]
    assert [n.get_name() for n in dst.get_inputs()] == ["fc1"]
    assert stree.get_node("missing") is None


def test_kwargs_and_sub_tree_as_mindspore_docs() -> None:
    class SubNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.relu = nn.ReLU()

        def construct(self, x):
            x = self.relu(input=x)
            return x

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.subnet = SubNet()

        def construct(self, x):
            x = self.subnet(x)
            return x

    stree = SymbolTree.create(Net())
    node = stree.get_node("subnet")
    assert node.get_node_type() == NodeType.Tree
    sub = node.get_sub_tree()
    assert {k: str(v) for k, v in sub.get_node("relu").get_kwargs().items()} == {"input": "x"}
    assert sub.get_node("relu").get_symbol_tree() == sub
    with pytest.raises(TypeError, match="NodeType.Tree"):
        sub.get_node("relu").get_sub_tree()


# ------------------------------------------------------------------ checks and errors
def test_argument_checks() -> None:
    stree = SymbolTree.create(LeNet5())
    with pytest.raises(TypeError, match="network"):
        SymbolTree.create(lambda x: x)
    with pytest.raises(TypeError):
        stree.get_node(1)
    with pytest.raises(TypeError):
        stree.nodes(all_nodes=1).__next__()
    with pytest.raises(TypeError, match="cell"):
        Node.create_call_cell(ops.relu, targets=["x"])
    with pytest.raises(TypeError, match="targets"):
        Node.create_call_cell(nn.ReLU(), targets=[1])
    with pytest.raises(TypeError, match="args"):
        Node.create_call_cell(nn.ReLU(), targets=["x"], args=["x"])
    with pytest.raises(TypeError, match="kwargs"):
        Node.create_call_cell(nn.ReLU(), targets=["x"], kwargs={"a": "x"})
    with pytest.raises(TypeError, match="position"):
        stree.insert("conv1", Node.create_call_cell(nn.ReLU(), targets=["x"]))


def test_edit_errors() -> None:
    stree = SymbolTree.create(LeNet5())
    relu = Node.create_call_cell(nn.ReLU(), targets=["x"], args=[ScopedValue.create_naming_value("x")])
    with pytest.raises(RuntimeError, match="inputs of construct"):
        stree.insert(stree.before("input_x"), relu)
    stree.insert(stree.after("fc3"), relu)
    with pytest.raises(ValueError, match="already in a SymbolTree"):
        stree.insert(stree.after("fc2"), relu)
    other = SymbolTree.create(LeNet5())
    with pytest.raises(ValueError, match="SymbolTree of"):
        other.insert(stree.after("fc2"), Node.create_call_cell(nn.ReLU(), targets=["x"]))
    with pytest.raises(RuntimeError, match="does not belong"):
        stree.after("no_such_node")
    with pytest.raises(ValueError, match="out of range"):
        stree.get_node("fc3").set_arg(3, "x")
    with pytest.raises(ValueError, match="out_idx"):
        stree.get_node("fc3").set_arg_by_node(0, stree.get_node("fc2"), 2)


# ------------------------------------------------------------------ rewritten networks
def test_insert_names_and_topology() -> None:
    stree = SymbolTree.create(LeNet5())
    assert stree.unique_name("x") == "x_1"
    a = stree.insert(stree.after("fc2"), Node.create_call_cell(nn.ReLU(), targets=["fc2_var"],
                                                               args=[ScopedValue.create_naming_value("fc2_var")]))
    b = stree.insert(stree.after(a), Node.create_call_cell(nn.ReLU(), targets=["fc2_var"],
                                                           args=[ScopedValue.create_naming_value("fc2_var")]))
    assert (a.get_name(), b.get_name()) == ("ReLU", "ReLU_1")
    assert [n.get_name() for n in stree.get_node("fc2").get_users()] == ["ReLU"]
    assert [n.get_name() for n in stree.get_node("relu_3").get_inputs()] == ["ReLU_1"]
    assert stree.erase(b).get_name() == "ReLU_1"
    assert [n.get_name() for n in stree.get_node("relu_3").get_inputs()] == ["ReLU"]


def test_rewritten_network_shares_weights_trains_and_exports(tmp_path) -> None:
    net = LeNet5()
    stree = SymbolTree.create(net)
    dense = nn.Dense(84, 84)
    stree.insert(stree.after("relu_3"), Node.create_call_cell(dense, targets=["x"], name="extra",
                                                              args=[ScopedValue.create_naming_value("x")]))
    stree.insert(stree.after("conv1"), Node.create_call_function(
        ops.abs, targets=["conv1_var"], args=[ScopedValue.create_naming_value("conv1_var")]))
    new = stree.get_network()
    assert type(new).__name__.startswith("LeNet5Opt") and isinstance(new, LeNet5)
    names = [p.name for p in new.trainable_params()]
    assert "extra.weight" in names and "conv1.weight" in names
    assert new.conv1.weight is net.conv1.weight
    x = _x()
    # the same computation written by hand
    h = net.max_pool2d(net.relu(ops.abs(net.conv1(x))))
    h = net.flatten(net.max_pool2d(net.relu(net.conv2(h))))
    want = net.fc3(dense(net.relu(net.fc2(net.relu(net.fc1(h))))))
    assert_close(new(x).asnumpy(), want.asnumpy(), rtol=1e-6, scale_rtol=1e-6)
    loss, grads = cellonnx.value_and_grad(lambda v: new(v).sum(), None, new.trainable_params())(x)
    assert len(grads) == len(new.trainable_params()) and np.isfinite(float(loss.asnumpy()))
    path = cellonnx.export(new, x, file_name=str(tmp_path / "lenet_rewritten"))
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: x.asnumpy()})[0]
    assert_close(got, want.asnumpy(), rtol=1e-5, scale_rtol=1e-5)


def test_insert_sub_network_and_code() -> None:
    class Twice(nn.Cell):
        def __init__(self):
            super().__init__()
            self.act = nn.Tanh()

        def construct(self, x):
            y = self.act(x)
            return y + x

    stree = SymbolTree.create(LeNet5())
    node = Node.create_call_cell(Twice(), targets=["x"], args=[ScopedValue.create_naming_value("x")],
                                 name="twice", is_sub_net=True)
    stree.insert(stree.before("fc3"), node)
    assert node.get_node_type() == NodeType.Tree
    assert [n.get_name() for n in node.get_sub_tree().nodes()] == ["input_x", "act", "binop_add", "return"]
    code = stree.get_code()
    assert "x = self.twice(x)" in code and "class TwiceOpt" in code
    assert code.index("class TwiceOpt") < code.index("class LeNet5Opt")
    new = stree.get_network()
    x = _x(1)
    assert new(x).shape == (1, 10)
    assert "twice" in dict(new.name_cells())


def test_print_node_tabulate(capsys: pytest.CaptureFixture[str]) -> None:
    SymbolTree.create(LeNet5()).print_node_tabulate(all_nodes=True)
    out = capsys.readouterr().out
    for text in ("node type", "arg providers", "NodeType.CallCell", "conv1_var = self.conv1(x)",
                 "[['input_x', 0]]".replace("[['", "[[0, ('").replace("', 0]]", "', 0)]]")):
        assert text in out, text


def test_generated_code_runs() -> None:
    net = LeNet5()
    stree = SymbolTree.create(net)
    stree.insert(stree.after("conv1"), Node.create_call_cell(
        nn.ReLU6(), targets=["conv1_var"], args=[ScopedValue.create_naming_value("conv1_var")]))
    namespace: dict = {}
    exec(compile(stree.get_code(), "<rewritten>", "exec"), namespace)  # noqa: S102
    cls = next(v for k, v in namespace.items() if k.startswith("LeNet5Opt"))
    x = _x()
    np.testing.assert_array_equal(cls(net)(x).asnumpy(), stree.get_network()(x).asnumpy())


@pytest.mark.parametrize("name", ["lenet5", "lstm_classifier", "mlp", "transformer_classifier"])
def test_zoo_models_rewrite_unchanged(name: str) -> None:
    from cellonnx.models.registry import example_input, get_model
    net = get_model(name)
    x = example_input(name, batch=2)
    new = SymbolTree.create(net).get_network()
    np.testing.assert_array_equal(new(x).asnumpy(), net(x).asnumpy())
