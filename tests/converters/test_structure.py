"""converters.structure on plain {name: shape} lists: grouping into layers, the in-order alignment, the layout
rules, the documented errors (missing, extra, ambiguous, reordered) and the mapping file."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cellonnx.converters.structure import (
    Entry,
    StructureError,
    apply_mapping,
    group,
    load_mapping,
    match,
    match_with,
    save_mapping,
)


def entries(*items: tuple[str, tuple[int, ...]]) -> list[Entry]:
    return [Entry(name, shape) for name, shape in items]


def conv_bn(prefix: str, bn: str, out: int, inp: int, torch: bool = True
            ) -> list[tuple[str, tuple[int, ...]]]:
    leaves = ("weight", "bias", "running_mean", "running_var") if torch else \
        ("gamma", "beta", "moving_mean", "moving_variance")
    return [(f"{prefix}.weight", (out, inp, 3, 3))] + [(f"{bn}.{leaf}", (out,)) for leaf in leaves]


SOURCE = entries(*conv_bn("conv1", "bn1", 8, 3), ("bn1.num_batches_tracked", ()),
                 *conv_bn("layer1.0.conv1", "layer1.0.bn1", 8, 8),
                 ("layer1.0.downsample.0.weight", (8, 8, 1, 1)),
                 ("fc.weight", (10, 8)), ("fc.bias", (10,)))
TARGET = entries(*conv_bn("conv1", "bn1", 8, 3, torch=False),
                 *conv_bn("layer1.0.conv1", "layer1.0.bn1d", 8, 8, torch=False),
                 ("layer1.0.down_sample_layer.0.weight", (8, 8, 1, 1)),
                 ("end_point.weight", (10, 8)), ("end_point.bias", (10,)))


def test_groups_layers_and_roles() -> None:
    layers, dropped = group(SOURCE)
    assert [(x.name, x.kind) for x in layers] == [
        ("conv1", "Conv"), ("bn1", "BatchNorm"), ("layer1.0.conv1", "Conv"), ("layer1.0.bn1", "BatchNorm"),
        ("layer1.0.downsample.0", "Conv"), ("fc", "Dense")]
    assert set(layers[1].tensors) == {"gamma", "beta", "mean", "var"}
    assert dropped == ["bn1.num_batches_tracked"]


def test_mxnet_prefix_names_group_by_suffix() -> None:
    layers, _ = group(entries(("arg:densenet0_conv0_weight", (4, 3, 3, 3)),
                              ("arg:densenet0_batchnorm0_gamma", (4,)),
                              ("arg:densenet0_batchnorm0_beta", (4,)),
                              ("aux:densenet0_batchnorm0_running_mean", (4,)),
                              ("aux:densenet0_batchnorm0_running_var", (4,)),
                              ("lstm0_l0_i2h_weight", (32, 4)), ("lstm0_l0_h2h_weight", (32, 8))))
    assert [(x.name, x.kind) for x in layers] == [("densenet0_conv0", "Conv"),
                                                   ("densenet0_batchnorm0", "BatchNorm"), ("lstm0", "LSTM")]
    assert set(layers[2].tensors) == {"weight_ih_l0", "weight_hh_l0"}


def test_matches_across_names_in_order() -> None:
    table, dropped = match(SOURCE, TARGET)
    pairs = {e.target: e.source for e in table}
    assert pairs["layer1.0.down_sample_layer.0.weight"] == "layer1.0.downsample.0.weight"
    assert pairs["layer1.0.bn1d.gamma"] == "layer1.0.bn1.weight"
    assert pairs["layer1.0.bn1d.moving_variance"] == "layer1.0.bn1.running_var"
    assert pairs["end_point.bias"] == "fc.bias"
    assert len(table) == len(TARGET) and dropped == ["bn1.num_batches_tracked"]
    assert {e.rule for e in table} >= {"BatchNorm gamma", "Conv weight", "Dense bias"}


def test_missing_layer_is_named() -> None:
    source = [e for e in SOURCE if not e.name.startswith("layer1.0.downsample")]
    with pytest.raises(StructureError,
                       match=r"missing: target layer layer1\.0\.down_sample_layer\.0 \(Conv") as err:
        match(source, TARGET)
    assert err.value.missing == ["layer1.0.down_sample_layer.0"] and not err.value.extra


def test_extra_layer_is_named() -> None:
    source = SOURCE + entries(("aux_head.weight", (5, 8)), ("aux_head.bias", (5,)))
    with pytest.raises(StructureError, match=r"extra: source layer aux_head \(Dense: weight \(5, 8\)") as err:
        match(source, TARGET)
    assert err.value.extra == ["aux_head"]


def test_two_same_shaped_candidates_without_tie_breaker() -> None:
    """One target conv, two same-shaped source convs whose names say nothing: ambiguous, both listed."""
    source = entries(("0.weight", (8, 8, 3, 3)), ("1.weight", (8, 8, 3, 3)))
    target = entries(("a.weight", (8, 8, 3, 3)))
    with pytest.raises(StructureError,
                       match=r"ambiguous: target layer a \(Conv.*fits source layer\(s\) 0, 1") as err:
        match(source, target)
    assert err.value.ambiguous == {"a": ["0", "1"]}


def test_names_break_a_tie() -> None:
    """The same, but one source name is close to the target's: that one is taken; the other is still extra."""
    source = entries(("body.conv.weight", (8, 8, 3, 3)), ("aux.weight", (8, 8, 3, 3)))
    target = entries(("body.conv2d.weight", (8, 8, 3, 3)))
    with pytest.raises(StructureError) as err:
        match(source, target)
    assert err.value.extra == ["aux"] and not err.value.ambiguous


def test_reordered_block_of_same_shapes_is_ambiguous() -> None:
    """Two same-shaped layers swapped against a third that pins the order: no alignment covers both."""
    target = entries(("c.weight", (8, 8, 3, 3)), ("b.weight", (4, 8, 1, 1)), ("a.weight", (8, 8, 3, 3)))
    source = entries(("z.weight", (4, 8, 1, 1)), ("y.weight", (8, 8, 3, 3)), ("x.weight", (8, 8, 3, 3)))
    with pytest.raises(StructureError, match="ambiguous") as err:
        match(source, target)
    assert err.value.ambiguous and set(err.value.ambiguous) <= {"a", "b", "c"}


def test_a_list_sorted_by_name_has_no_order() -> None:
    source = entries(("a.weight", (8, 8, 3, 3)), ("b.weight", (4, 8, 1, 1)), ("c.weight", (8, 8, 3, 3)))
    with pytest.raises(StructureError, match="source holds its tensors sorted by name"):
        match(source, source[::-1])


def test_reordered_block_of_other_shapes_is_missing_and_extra() -> None:
    target = entries(("stage1.weight", (8, 3, 3, 3)), ("stage2.weight", (16, 8, 3, 3)),
                     ("head.weight", (10, 16)))
    source = entries(("stage2.weight", (16, 8, 3, 3)), ("stage1.weight", (8, 3, 3, 3)),
                     ("head.weight", (10, 16)))
    with pytest.raises(StructureError,
                       match=r"reordered: target layer stage1 \(Conv.*fits source layer stage1") as err:
        match(source, target)
    assert err.value.reordered == {"stage1": "stage1", "stage2": "stage2"}
    assert not err.value.missing and not err.value.extra


def test_fused_in_projection_both_ways() -> None:
    e = 4
    fused = entries(("attn.in_proj_weight", (3 * e, e)), ("attn.in_proj_bias", (3 * e,)),
                    ("attn.out_proj.weight", (e, e)), ("attn.out_proj.bias", (e,)))
    separate = entries(*[(f"{p}.{leaf}", (e, e) if leaf == "weight" else (e,))
                         for p in ("q", "k", "v", "o") for leaf in ("weight", "bias")])
    rng = np.random.default_rng(0)
    values = {x.name: rng.normal(size=x.shape).astype(np.float32) for x in fused}
    table, _ = match(fused, separate)
    out = apply_mapping(table, values, {x.name: x.shape for x in separate})
    np.testing.assert_array_equal(out["k.weight"], values["attn.in_proj_weight"][e:2 * e])
    np.testing.assert_array_equal(out["v.bias"], values["attn.in_proj_bias"][2 * e:])
    assert "k rows of the fused in-projection" in next(x.rule for x in table if x.target == "k.weight")
    back, _ = match(separate, fused)
    again = apply_mapping(back, out, {x.name: x.shape for x in fused})
    np.testing.assert_array_equal(again["attn.in_proj_weight"], values["attn.in_proj_weight"])
    np.testing.assert_array_equal(again["attn.in_proj_bias"], values["attn.in_proj_bias"])


def test_transposed_dense_and_per_group_norm() -> None:
    source = [Entry("fc.weight", (8, 10), kind="Dense", role="weight", layer="Gemm_0", transposed=True),
              Entry("fc.bias", (10,), kind="Dense", role="bias", layer="Gemm_0"),
              Entry("gn.gamma", (2,)), Entry("gn.beta", (2,))]
    target = [Entry("dense.weight", (10, 8)), Entry("dense.bias", (10,)),
              Entry("norm.gamma", (6,), kind={"kind": "GroupNorm", "num_groups": 2, "num_channels": 6}),
              Entry("norm.beta", (6,), kind={"kind": "GroupNorm", "num_groups": 2, "num_channels": 6})]
    table, _ = match(source, target)
    ops = {e.target: e.op for e in table}
    assert ops == {"dense.weight": "transpose", "dense.bias": "copy", "norm.gamma": "expand_groups",
                   "norm.beta": "expand_groups"}
    values = {"fc.weight": np.arange(80, dtype=np.float32).reshape(8, 10),
              "fc.bias": np.zeros(10, np.float32),
              "gn.gamma": np.array([1.0, 2.0], np.float32), "gn.beta": np.array([0.0, 3.0], np.float32)}
    out = apply_mapping(table, values, {e.name: e.shape for e in target})
    np.testing.assert_array_equal(out["dense.weight"], values["fc.weight"].T)
    np.testing.assert_array_equal(out["norm.gamma"], [1, 1, 1, 2, 2, 2])


def test_mapping_file_round_trip_and_override(tmp_path: Path) -> None:
    table, dropped = match(SOURCE, TARGET)
    path = tmp_path / "map.json"
    save_mapping(path, table, source="a.pth", target="net", dropped=dropped)
    loaded = load_mapping(path)
    assert loaded["entries"] == table and loaded["dropped"] == dropped
    reused, _ = match_with(SOURCE, TARGET, loaded)
    assert reused == table
    # an override: the ambiguous pair of test_two_same_shaped_candidates, decided by a pinned entry
    source = entries(("0.weight", (8, 8, 3, 3)), ("1.weight", (8, 8, 3, 3)))
    target = entries(("a.weight", (8, 8, 3, 3)))
    pinned = load_mapping({"entries": [{"target": "a.weight", "source": "1.weight"}]})
    with pytest.raises(StructureError, match="extra: source layer 0 "):
        match_with(source, target, pinned)
    pinned["ignore_source"] = ["0"]
    table, _ = match_with(source, target, pinned)
    assert [(e.target, e.source) for e in table] == [("a.weight", "1.weight")]


def test_mapping_file_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="expected a JSON object with a list 'entries'"):
        load_mapping(path)
    bad = load_mapping({"entries": [{"target": "nope.weight", "source": "fc.weight"}]})
    with pytest.raises(ValueError, match="the target has no tensor 'nope.weight'"):
        match_with(SOURCE, TARGET, bad)
