"""Training-graph convolutions in onnxruntime's blocked-channel (NCHWc) kernels (CPU training graphs).

onnxruntime runs an inference graph's Conv in MLAS's NCHWc direct-convolution kernels: its layout transformer
reorders a constant weight once, at load time, into blocks of B output channels (B = 8 with AVX2, 16 with
AVX-512). In a training graph the weight is a graph input that changes every step, so the transformer leaves
every Conv to the generic kernel, one im2col and one small GEMM per image, and every ConvTranspose (a conv's
input gradient) to one GEMM and one col2im per image. The NCHWc kernel itself reads the reordered weight as
an ordinary input, so this pass writes the reorder into the graph: a Reshape and a Transpose of the weight
(a few thousand values) each step, the input blocked by ``ReorderInput`` where it has a multiple of B
channels (an input with fewer than B channels is read as it is, by the kernel's NCHW-input form), and the
output taken back by ``ReorderOutput``. Measured one kernel at a time (bench/nchwc_conv_forms.py, 1 thread):
0.54-0.60x the Conv's time at LeNet-5's second convolution, 0.71-0.87x at ResNet-18's stem and 8 x 8
layers, 0.74-0.75x for the 8 x 8 layers' ConvTranspose; at 16 output pixels and fewer, and for 1 x 1
kernels, it was no faster or slower, so those keep their lowering, as do convs whose output channels would
be mostly padding.

The weight's reorder costs onnxruntime's Transpose about 5 ns a value (190 us for 64 x 64 x 3 x 3, 2.9 ms for
256 x 256 x 3 x 3, one thread), against a saving of about 0.01 ns per weight value, output pixel and image:
from 64 output pixels it is repaid at a batch of about 8, so a conv is rewritten only where the images of the
batch the step was traced with (the batch is dynamic in the graph) times its output pixels reach 512.

A ConvTranspose is rewritten where it is the input gradient of a stride-1 'same' convolution: the full
correlation of the gradient with the kernel turned by 180 degrees and its channel axes swapped is then a
convolution with the same pads. At other pads the padded gradient holds more zeros than values (LeNet-5's
valid 5 x 5 conv: 1.6-2x ConvTranspose's time), and strides need the gradient spread out first.

CPU graphs only, and not an exported training graph (cellonnx/graph/export_step.py): the blocked layout
depends on the machine's B, read from onnxruntime here.
"""
from __future__ import annotations

import functools

import numpy as np
import onnx
from onnx import helper, numpy_helper

_ONNX = ("", "ai.onnx")
DOMAIN = "com.microsoft.nchwc"
MIN_OUTPUT_PIXELS = 64   # below this the NCHWc kernel was not faster (bench/RESULTS.md)
# output channels padded up to whole blocks compute zeros: LeNet-5's 6 channels in a block of 8 (1.33x the
# work) ran in 0.89x the time, so twice the work would not pay (16 with AVX-512)
MAX_PADDED_WORK = 1.5
REORDER_REPAID = 512   # images x output pixels from which the weight's reorder is repaid (module doc)


@functools.cache
def block_size() -> int:
    """B, the channel block of onnxruntime's NCHWc kernels on this machine, or 0 where they are missing:
    ``ReorderInput`` pads 4 channels up to one block."""
    import onnxruntime as ort

    graph = helper.make_graph(
        [helper.make_node("ReorderInput", ["x"], ["y"], domain=DOMAIN)], "probe",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 4, 1, 1])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13),
                                                    helper.make_opsetid(DOMAIN, 1)])
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    try:
        sess = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
        blocked = sess.run(None, {"x": np.zeros((1, 4, 1, 1), np.float32)})[0]
    except Exception:  # onnxruntime raises its own types; a build without the kernels
        return 0
    b = int(blocked.shape[1])
    return b if b >= 8 and b & (b - 1) == 0 else 0


def blocked_copy(model: onnx.ModelProto, inferred: tuple[dict, dict] | None = None,
                 batch: int | None = None) -> onnx.ModelProto | None:
    """A copy of ``model`` with its convs rewritten (:func:`use_nchwc_convs`), or None where none is: the
    model itself stays plain ONNX for what reads it after (splitting, export, shape inference)."""
    if not block_size() or not any(n.op_type in ("Conv", "ConvTranspose") for n in model.graph.node):
        return None
    from cellonnx.graph.optimize import _inferred

    inferred = inferred or _inferred(model)
    if not any(_plan(n, *inferred, {t.name for t in model.graph.initializer}, block_size(), batch)
               for n in model.graph.node):
        return None
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    use_nchwc_convs(copy, inferred, batch)
    return copy


def for_session(model: onnx.ModelProto, device_target: str, batch: int | None = None) -> onnx.ModelProto:
    """The model to hand an onnxruntime session on ``device_target``: on the CPU a :func:`blocked_copy` where
    one applies, else ``model`` itself."""
    blocked = blocked_copy(model, batch=batch) if device_target == "CPU" else None
    return model if blocked is None else blocked


def use_nchwc_convs(model: onnx.ModelProto, inferred: tuple[dict, dict] | None = None,
                    batch: int | None = None) -> int:
    """Rewrite the Conv and ConvTranspose nodes of ``model`` that the NCHWc kernels run faster (module doc)
    into them (in place); returns how many were rewritten. ``batch``: the images a step is expected to take
    where the graph's batch is dynamic (None: not known, not a condition). ``inferred``: (shapes, element
    types) from ONNX shape inference where the caller has them."""
    g = model.graph
    convs = any(n.op_type in ("Conv", "ConvTranspose") and n.domain in _ONNX for n in g.node)
    b = block_size() if convs else 0
    if not b:
        return 0
    from cellonnx.graph.optimize import _inferred

    shapes, types = inferred or _inferred(model)
    consts = {t.name for t in g.initializer}
    out: list[onnx.NodeProto] = []
    done = 0
    for node in g.node:
        plan = _plan(node, shapes, types, consts, b, batch)
        if plan is None:
            out.append(node)
            continue
        out.extend(_blocked_conv(g, node, b, *plan))
        done += 1
    if done:
        del g.node[:]
        g.node.extend(out)
        if not any(o.domain == DOMAIN for o in model.opset_import):
            model.opset_import.append(helper.make_opsetid(DOMAIN, 1))
    return done


def _plan(node: onnx.NodeProto, shapes: dict, types: dict, consts: set, b: int,
          batch: int | None = None) -> tuple | None:
    """(in channels, out channels, kernel, pads, strides, dilations, flipped) of a node to rewrite, else None;
    ``flipped``: a ConvTranspose, whose weight is turned and its channel axes swapped."""
    if node.domain not in _ONNX or node.op_type not in ("Conv", "ConvTranspose") or len(node.input) < 2:
        return None
    x, w = node.input[0], node.input[1]
    sx, sw = shapes.get(x), shapes.get(w)
    if (types.get(x) != onnx.TensorProto.FLOAT or w in consts or sx is None or sw is None or len(sx) != 4
            or len(sw) != 4 or not all(isinstance(d, int) and d > 0 for d in [*sx[1:], *sw])):
        return None
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    if attrs.get("group", 1) != 1 or attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET") \
            or "output_shape" in attrs:
        return None
    kernel = list(sw[2:])
    pads = list(attrs.get("pads", [0] * 4))
    strides = list(attrs.get("strides", [1, 1]))
    dilations = list(attrs.get("dilations", [1, 1]))
    if kernel == [1, 1]:
        return None
    if node.op_type == "Conv":
        c_in, c_out = sw[1], sw[0]
        out_hw = [(sx[2 + i] + pads[i] + pads[2 + i] - dilations[i] * (kernel[i] - 1) - 1) // strides[i] + 1
                  for i in range(2)]
        flipped = False
    else:
        same = [(k - 1) // 2 for k in kernel]
        if (strides != [1, 1] or dilations != [1, 1] or any(attrs.get("output_padding", [0, 0]))
                or any(k % 2 == 0 for k in kernel) or pads != same + same or len(node.input) > 2):
            return None
        c_in, c_out = sw[0], sw[1]
        out_hw = list(sx[2:])
        flipped = True
    pixels = out_hw[0] * out_hw[1]
    images = sx[0] if isinstance(sx[0], int) else batch
    if (sx[1] != c_in or not (c_in < b or c_in % b == 0) or pixels < MIN_OUTPUT_PIXELS
            or -(-c_out // b) * b > MAX_PADDED_WORK * c_out or (images and images * pixels < REORDER_REPAID)):
        return None
    return c_in, c_out, kernel, pads, strides, dilations, flipped


def _blocked_conv(g: onnx.GraphProto, node: onnx.NodeProto, b: int, c_in: int, c_out: int, kernel: list,
                  pads: list, strides: list, dilations: list, flipped: bool) -> list[onnx.NodeProto]:
    """The nodes computing ``node``'s output by the NCHWc Conv: the weight reordered, the input blocked where
    it has whole blocks, the output reordered back."""
    name = node.name or node.output[0]
    pre = f"{name}/nchwc"
    nodes: list[onnx.NodeProto] = []

    def const(suffix: str, value: list[int]) -> str:
        cname = f"{pre}/const_{suffix}"
        g.initializer.append(numpy_helper.from_array(np.array(value, np.int64), cname))
        return cname

    def add(op: str, inputs: list[str], suffix: str, domain: str = "", **attrs) -> str:
        out = f"{pre}/{suffix}"
        nodes.append(helper.make_node(op, inputs, [out], name=out, domain=domain, **attrs))
        return out

    padded = -(-c_out // b) * b
    w = node.input[1]
    if flipped:  # the kernel turned by 180 degrees: (c_in, c_out, kh, kw) read back to front
        low = np.iinfo(np.int64).min
        w = add("Slice", [w, const("flip_starts", [-1, -1]), const("flip_ends", [low, low]),
                          const("flip_axes", [2, 3]), const("flip_steps", [-1, -1])], "flipped")
    out_axis = 1 if flipped else 0   # the weight's axis of the conv's output channels
    if padded != c_out:
        widths = [0] * 8
        widths[4 + out_axis] = padded - c_out
        w = add("Pad", [w, const("weight_pads", widths)], "weight_padded")
    kh, kw = kernel
    kk = kh * kw   # the kernel's taps stay together: one axis fewer for the Transpose
    if c_in < b:   # OIHWBo: [O/B][I][kh][kw][Bo]
        split = [padded // b, b, c_in, kk] if not flipped else [c_in, padded // b, b, kk]
        perm = [0, 2, 3, 1] if not flipped else [1, 0, 3, 2]
    else:          # OIHWBiBo: [O/B][I/B][kh][kw][Bi][Bo]
        split = [padded // b, b, c_in // b, b, kk] if not flipped else [c_in // b, b, padded // b, b, kk]
        perm = [0, 2, 4, 3, 1] if not flipped else [2, 0, 4, 1, 3]
    w = add("Reshape", [w, const("weight_split", split)], "weight_split")
    w = add("Transpose", [w], "weight_blocked", perm=perm)
    w = add("Reshape", [w, const("weight_shape", [padded, c_in, kh, kw])], "weight")
    x = node.input[0]
    if c_in >= b:
        x = add("ReorderInput", [x], "input", domain=DOMAIN)
    inputs = [x, w]
    if len(node.input) > 2 and node.input[2]:   # a Conv's (a ConvTranspose with one is left alone)
        bias = node.input[2]
        if padded != c_out:
            bias = add("Pad", [bias, const("bias_pads", [0, padded - c_out])], "bias")
        inputs.append(bias)
    y = add("Conv", inputs, "conv", domain=DOMAIN, kernel_shape=kernel, pads=pads, strides=strides,
            dilations=dilations)
    nodes.append(helper.make_node("ReorderOutput", [y], [node.output[0]], name=f"{pre}/output", domain=DOMAIN,
                                  channels=c_out))
    return nodes

