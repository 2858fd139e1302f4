"""mx.test_utils' checks of symbols: forward outputs and backward gradients against expected arrays, and
backward against central finite differences (``check_numeric_gradient``), on an executor bound here."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet.test_utils.compare import (
    assert_almost_equal,
    default_context,
    default_dtype,
    default_numeric_eps,
    get_tolerance,
)

__all__ = ["check_numeric_gradient", "check_symbolic_backward", "check_symbolic_forward", "numeric_grad",
           "same_symbol_structure", "simple_forward"]


def _nd() -> Any:
    from cellonnx.mxnet import ndarray

    return ndarray


def _as_nd(value: Any, dtype: Any) -> Any:
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    value = np.asarray(value)
    return _nd().array(value, dtype=value.dtype if dtype == "asnumpy" else dtype)


def _parse_location(sym: Any, location: Any, dtype: Any) -> dict[str, Any]:
    names = sym.list_arguments()
    if isinstance(location, dict):
        if set(location) != set(names):
            raise ValueError(f"Symbol arguments and keys of the given location do not match. "
                             f"symbol args:{set(names)}, location.keys():{set(location)}")
    else:
        location = dict(zip(names, location))
    return {k: _as_nd(v, dtype) for k, v in location.items()}


def _parse_aux_states(sym: Any, aux_states: Any, dtype: Any) -> dict[str, Any] | None:
    if aux_states is None:
        return None
    names = sym.list_auxiliary_states()
    if isinstance(aux_states, dict):
        if set(aux_states) != set(names):
            raise ValueError(f"Symbol aux_states names and given aux_states do not match. symbol aux_names:"
                             f"{set(names)}, aux_states.keys:{set(aux_states)}")
    else:
        aux_states = dict(zip(names, aux_states))
    return {k: _as_nd(v, dtype) for k, v in aux_states.items()}


def simple_forward(sym: Any, ctx: Any = None, is_train: bool = False, **inputs: Any) -> Any:
    """The outputs (NumPy arrays; one array for one output) of ``sym`` on the named inputs."""
    ctx = ctx or default_context()
    exe = sym.bind(ctx, args={k: _nd().array(v) for k, v in inputs.items()})
    exe.forward(is_train=is_train)
    outputs = [x.asnumpy() for x in exe.outputs]
    return outputs[0] if len(outputs) == 1 else outputs


def numeric_grad(executor: Any, location: dict[str, np.ndarray], aux_states: Any = None, eps: float = 1e-4,
                 use_forward_train: bool = True, dtype: Any = np.float32) -> dict[str, np.ndarray]:
    """Central finite differences of the sum of the executor's first output, per floating argument."""
    approx = {k: np.zeros(v.shape, dtype=np.float64 if dtype == "asnumpy" else dtype)
              for k, v in location.items()}
    for k in location:
        location[k] = np.asarray(location[k], order="C")
    for k, v in location.items():
        if v.dtype.kind != "f":
            continue
        old = v.copy()
        for i in range(int(np.prod(v.shape))):
            results = []
            for step in (eps / 2.0, -eps):
                v.ravel()[i] += step
                executor.arg_dict[k][:] = v
                if aux_states is not None:
                    for key, val in aux_states.items():
                        executor.aux_dict[key][:] = val
                executor.forward(is_train=use_forward_train)
                results.append(executor.outputs[0].asnumpy())
            approx[k].ravel()[i] = (results[0] - results[1]).sum() / eps
            v.ravel()[i] = old.ravel()[i]
        executor.arg_dict[k][:] = old
    return approx


def check_numeric_gradient(sym: Any, location: Any, aux_states: Any = None, numeric_eps: Any = None,
                           rtol: float | None = None, atol: float | None = None, grad_nodes: Any = None,
                           use_forward_train: bool = True, ctx: Any = None, grad_stype_dict: Any = None,
                           dtype: Any = None) -> None:
    """Assert the symbol's backward matches central finite differences of its output projected on a random
    array (MXNet's check), for the arguments in ``grad_nodes`` (all by default; a dict gives grad_reqs)."""
    from cellonnx.mxnet import symbol as msym

    dtype = default_dtype() if dtype is None else dtype
    ctx = ctx or default_context()
    location = _parse_location(sym, location, dtype)
    location_npy = {k: v.asnumpy() for k, v in location.items()}
    aux = _parse_aux_states(sym, aux_states, dtype)
    aux_npy = None if aux is None else {k: v.asnumpy() for k, v in aux.items()}
    if grad_nodes is None:
        grad_nodes = sym.list_arguments()
        grad_req = dict.fromkeys(grad_nodes, "write")
    elif isinstance(grad_nodes, (list, tuple)):
        grad_nodes = list(grad_nodes)
        grad_req = dict.fromkeys(grad_nodes, "write")
    elif isinstance(grad_nodes, dict):
        grad_req = dict(grad_nodes)
        grad_nodes = list(grad_nodes)
    else:
        raise ValueError("grad_nodes must be None, a list or a dict")
    _, out_shape, _ = sym.infer_shape(**{k: v.shape for k, v in location.items()})
    out = msym.make_loss(sym * msym.Variable("__random_proj"))
    location["__random_proj"] = _nd().array(np.random.rand(*out_shape[0]) + 0.1, dtype=dtype)
    args_grad_npy = {k: np.random.normal(0, 0.01, size=location[k].shape) for k in grad_nodes}
    args_grad_npy["__random_proj"] = np.random.normal(0, 0.01, size=out_shape[0])
    args_grad = {k: _nd().array(v, dtype=dtype) for k, v in args_grad_npy.items()}
    executor = out.bind(ctx, grad_req=grad_req, args=location, args_grad=args_grad, aux_states=aux)
    executor.forward(is_train=True)
    eps = get_tolerance(executor.outputs[0], numeric_eps, default_numeric_eps())
    if dtype in (np.float32, np.float16) and eps < 1e-5:
        raise AssertionError(f"numeric_eps {eps} is too small for {np.dtype(dtype).name}")
    executor.backward()
    symbolic = executor.grad_dict
    numeric = numeric_grad(executor, location_npy, aux_npy, eps=eps, use_forward_train=use_forward_train,
                           dtype=dtype)
    for name in grad_nodes:
        fd, orig, got = numeric[name], args_grad_npy[name], symbolic[name]
        names = (f"NUMERICAL_{name}", f"BACKWARD_{name}")
        if grad_req[name] == "write":
            assert_almost_equal(fd, got, rtol, atol, names)
        elif grad_req[name] == "add":
            assert_almost_equal(fd, got.asnumpy() - orig, rtol, atol, names)
        elif grad_req[name] == "null":
            assert_almost_equal(orig, got if got is not None else orig, rtol, atol, names)
        else:
            raise ValueError(f"Invalid grad_req {grad_req[name]} for argument {name}")


def check_symbolic_forward(sym: Any, location: Any, expected: Any, rtol: float | None = None,
                           atol: float | None = None, aux_states: Any = None, ctx: Any = None,
                           equal_nan: bool = False, dtype: Any = np.float32) -> list[Any]:
    """Assert the symbol's outputs at ``location`` (a list in argument order or a dict) equal ``expected``
    (a list in output order or a dict); returns the outputs."""
    ctx = ctx or default_context()
    location = _parse_location(sym, location, dtype)
    aux = _parse_aux_states(sym, aux_states, dtype)
    if isinstance(expected, dict):
        expected = [expected[k] for k in sym.list_outputs()]
    args_grad = {k: _nd().zeros(v.shape, dtype=v.dtype) for k, v in location.items()}
    executor = sym.bind(ctx=ctx, args=location, args_grad=args_grad, aux_states=aux)
    executor.forward(is_train=False)
    for name, expect, output in zip(sym.list_outputs(), expected, executor.outputs):
        assert_almost_equal(expect, output, rtol, atol, (f"EXPECTED_{name}", f"FORWARD_{name}"),
                            equal_nan=equal_nan)
    return executor.outputs


def check_symbolic_backward(sym: Any, location: Any, out_grads: Any, expected: Any, rtol: float | None = None,
                            atol: float | None = None, aux_states: Any = None, grad_req: Any = "write",
                            ctx: Any = None, grad_stypes: Any = None, equal_nan: bool = False,
                            dtype: Any = np.float32) -> dict[str, Any]:
    """Assert the gradients of the arguments, given the outputs' gradients ``out_grads``, equal
    ``expected`` (a list in argument order or a dict); 'add' requests add to a random start, 'null' ones
    leave it. Returns the gradient arrays."""
    ctx = ctx or default_context()
    location = _parse_location(sym, location, dtype)
    aux = _parse_aux_states(sym, aux_states, dtype)
    if isinstance(expected, (list, tuple)):
        expected = dict(zip(sym.list_arguments(), expected))
    args_grad_npy = {k: np.random.normal(size=np.shape(v)) for k, v in expected.items()}
    args_grad = {k: _nd().array(v, dtype=location[k].dtype if dtype == "asnumpy" else dtype)
                 for k, v in args_grad_npy.items()}
    if isinstance(grad_req, str):
        grad_req = dict.fromkeys(sym.list_arguments(), grad_req)
    elif isinstance(grad_req, (list, tuple)):
        grad_req = dict(zip(sym.list_arguments(), grad_req))
    executor = sym.bind(ctx=ctx, args=location, args_grad=args_grad, aux_states=aux, grad_req=grad_req)
    executor.forward(is_train=True)
    if isinstance(out_grads, (list, tuple)):
        out_grads = [_as_nd(v, dtype) for v in out_grads]
    elif isinstance(out_grads, dict):
        out_grads = {k: _as_nd(v, dtype) for k, v in out_grads.items()}
    elif out_grads is not None:
        out_grads = _as_nd(out_grads, dtype)
    executor.backward(out_grads)
    for name in expected:
        names = (f"EXPECTED_{name}", f"BACKWARD_{name}")
        got = args_grad[name].asnumpy()
        if grad_req[name] == "write":
            assert_almost_equal(expected[name], got, rtol, atol, names, equal_nan=equal_nan)
        elif grad_req[name] == "add":
            assert_almost_equal(expected[name], got - args_grad_npy[name], rtol, atol, names,
                equal_nan=equal_nan)
        elif grad_req[name] == "null":
            assert_almost_equal(args_grad_npy[name], got, rtol, atol, names, equal_nan=equal_nan)
        else:
            raise ValueError(f"Invalid grad_req {grad_req[name]} for argument {name}")
    return args_grad


def same_symbol_structure(sym1: Any, sym2: Any) -> bool:
    """Whether two symbols have the same graph: the same operators, in the same order, wired the same."""
    import json

    def structure(sym: Any) -> list[tuple]:
        nodes = json.loads(sym.tojson())["nodes"]
        return [(n["op"], [tuple(i[:2]) for i in n["inputs"]]) for n in nodes]

    return structure(sym1) == structure(sym2)
