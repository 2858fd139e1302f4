"""The MindSpore names cellonnx does not provide, each with the reason: one list.

A ported file may import such a name (many files import what they only use on an Ascend NPU or in a cluster);
the import succeeds and using the name raises :class:`UnsupportedError` saying what the name is and why it is
not here. Everything else of MindSpore 2.10's ``mindspore``, ``mindspore.nn``, ``mindspore.ops`` and
``mindspore.numpy`` namespaces is implemented (tests/mindspore_api checks both against names dumped from real
MindSpore).

    >>> from cellonnx import ops
    >>> ops.NPUGetFloatStatus()
    Traceback (most recent call last):
    ...
    cellonnx.unsupported.UnsupportedError: mindspore.ops.NPUGetFloatStatus is not available in cellonnx: ...
"""
from __future__ import annotations

from typing import Any, NoReturn

ASCEND = "it drives an Ascend NPU's own hardware (float-status registers, fused NPU kernels)"
DEVICE = "it manages accelerator streams, events or memory pools, which onnxruntime owns in cellonnx"
AUTO_PARALLEL = ("it belongs to MindSpore's semi-auto / auto / pipeline parallel training; cellonnx trains "
                 "data-parallel only")
INTERNAL = "it is an internal module of MindSpore's own implementation, not user API"
GRAPH_KERNEL = ("it registers kernels for MindSpore's own compiler (AKG / TBE / AiCPU), which cellonnx has "
                "no use for")
FAULT_TOLERANCE = ("it drives Huawei's MindIO fault-tolerance service for Ascend clusters (device-error "
                   "recovery, checkpoint replicas across ranks)")
ADASUM = ("it combines gradients / weight deltas across the ranks of a distributed run with MindSpore's "
          "AdaSum, which needs MindSpore's parallel context; cellonnx has no such context")
DEVICE_QUEUE = ("it reads a device-side data queue that MindSpore's dataset sink fills; cellonnx feeds data "
                "from the host (DatasetHelper, connect_network_with_dataset and data_sink sink on the host)")

NO_PEAKS = ("peaks are not tracked: the process heap, where cellonnx's tensors live, reports its current use "
            "only (memory_allocated / memory_reserved)")
ASCEND_CORES = "it limits the cube / vector cores an Ascend NPU gives a stream or device"
MINDIO = ("it drives MindIO, Huawei's storage acceleration service for checkpoints, which cellonnx does not "
          "use")
DUMP = "it marks cells for MindSpore's data dump of compiled kernels, which cellonnx does not have"
LAUNCH = ("it configures MindSpore's own kernel-launch and dispatch threads; cellonnx computes in NumPy and "
          "runs graphs in onnxruntime (set_context(intra_op_num_threads=...) sets its threads)")
FLOPS = "it counts the FLOPs of MindSpore's compiled graphs (its profiler's model-FLOPs utilization)"
GRAPH_COMPILER = ("it is a primitive of MindSpore's graph compiler (gradient environments, switch / merge, "
                  "sequence-shape checks) that user code does not call")
NATIVE_KERNEL = ("it compiles or loads native kernels for MindSpore's runtime (hybrid DSL, C++ extensions); "
                 "write the operator with cellonnx ops, or as ops.Custom(func_type='pyfunc')")
PARAMETER_SERVER = ("it belongs to MindSpore's parameter-server training (embedding caches, push / pull to "
                    "servers), which cellonnx does not have")
MINDIR = ("MINDIR is the protobuf of MindSpore's own compiled graph IR (its func-graphs, primitive names "
          "and attributes, as MindSpore's compiler emits and loads them); cellonnx's graphs are ONNX, so it "
          "can neither write a MINDIR that MindSpore's loader accepts faithfully nor run one "
          "(export(..., file_format='ONNX') and load_checkpoint cover the portable parts)")
FUSED_ASCEND = ("it is a fused Ascend NPU kernel of large-model inference (MoE routing and dispatch, "
                "grouped top-k, rotary embedding in the NPU's cos / sin layouts) with the NPU's own data "
                "layouts; the underlying math is cellonnx.ops' (topk, rotary_position_embedding, ...)")

UNSUPPORTED: dict[str, dict[str, str]] = {
    "mindspore": {
        "TrainFaultTolerance": FAULT_TOLERANCE,
        "Event": DEVICE,
        "MemPool": DEVICE,
        "PluggableAllocator": DEVICE,
        "Stream": DEVICE,
        "StreamCtx": DEVICE,
        "communication_stream": DEVICE,
        "current_stream": DEVICE,
        "default_stream": DEVICE,
        "set_cur_stream": DEVICE,
        "use_mem_pool": DEVICE,
        "memory_replay": DEVICE,
        "set_memory": DEVICE,
        "dispatch_threads_num": LAUNCH,
        "set_kernel_launch_capture": LAUNCH,
        "set_kernel_launch_group": LAUNCH,
        "set_cpu_affinity": LAUNCH,
        "max_memory_allocated": NO_PEAKS,
        "max_memory_reserved": NO_PEAKS,
        "reset_max_memory_allocated": NO_PEAKS,
        "reset_max_memory_reserved": NO_PEAKS,
        "reset_peak_memory_stats": NO_PEAKS,
        "StreamLimitCtx": ASCEND_CORES,
        "get_device_limit": ASCEND_CORES,
        "set_device_limit": ASCEND_CORES,
        "get_stream_limit": ASCEND_CORES,
        "set_stream_limit": ASCEND_CORES,
        "reset_stream_limit": ASCEND_CORES,
        "mindio_preload": MINDIO,
        "set_mindio_server_info": MINDIO,
        "set_dump": DUMP,
        "flops_collection": FLOPS,
        "save_mindir": MINDIR,
        "load_mindir": MINDIR,
        "export_split_mindir": MINDIR,
        "Layout": AUTO_PARALLEL,
        "shard": AUTO_PARALLEL,
        "set_algo_parameters": AUTO_PARALLEL,
        "get_algo_parameters": AUTO_PARALLEL,
        "reset_algo_parameters": AUTO_PARALLEL,
        "merge_pipeline_strategys": AUTO_PARALLEL,
        "sync_pipeline_shared_parameters": AUTO_PARALLEL,
        "build_searched_strategy": AUTO_PARALLEL,
        "get_ckpt_path_with_strategy": AUTO_PARALLEL,
        "load_distributed_checkpoint": AUTO_PARALLEL,
        "rank_list_for_transform": AUTO_PARALLEL,
        "restore_group_info_list": AUTO_PARALLEL,
        "transform_checkpoint_by_rank": AUTO_PARALLEL,
        "transform_checkpoints": AUTO_PARALLEL,
        "unified_safetensors": AUTO_PARALLEL,
        "get_ps_context": PARAMETER_SERVER,
        "set_ps_context": PARAMETER_SERVER,
    },
    "mindspore.nn": {
        "AdaSumByDeltaWeightWrapCell": ADASUM,
        "AdaSumByGradWrapCell": ADASUM,
        "GetNextSingleOp": DEVICE_QUEUE,
        "OptTFTWrapper": FAULT_TOLERANCE,
        "PipelineCell": AUTO_PARALLEL,
        "PipelineGradReducer": AUTO_PARALLEL,
        "VirtualDatasetCellTriple": AUTO_PARALLEL,
    },
    "mindspore.ops": {
        "NPUAllocFloatStatus": ASCEND,
        "NPUClearFloatStatus": ASCEND,
        "NPUGetFloatStatus": ASCEND,
        "DropoutGenMask": ASCEND,
        "DropoutDoMask": ASCEND,
        "GetNext": DEVICE_QUEUE,
        "AiCPURegOp": GRAPH_KERNEL,
        "AkgAscendRegOp": GRAPH_KERNEL,
        "AkgGpuRegOp": GRAPH_KERNEL,
        "CpuRegOp": GRAPH_KERNEL,
        "CustomRegOp": GRAPH_KERNEL,
        "DataType": GRAPH_KERNEL,
        "TBERegOp": GRAPH_KERNEL,
        "custom_info_register": GRAPH_KERNEL,
        "op_info_register": GRAPH_KERNEL,
        "kernel": NATIVE_KERNEL,
        "ms_kernel": NATIVE_KERNEL,
        "CustomOpBuilder": NATIVE_KERNEL,
        "J": GRAPH_COMPILER,
        "environ_add": GRAPH_COMPILER,
        "environ_create": GRAPH_COMPILER,
        "environ_get": GRAPH_COMPILER,
        "environ_set": GRAPH_COMPILER,
        "env_get": GRAPH_COMPILER,
        "embed": GRAPH_COMPILER,
        "distribute": GRAPH_COMPILER,
        "ref_to_embed": GRAPH_COMPILER,
        "array_reduce": GRAPH_COMPILER,
        "is_dynamic_sequence_element_unknown": GRAPH_COMPILER,
        "is_sequence_shape_unknown": GRAPH_COMPILER,
        "is_sequence_value_unknown": GRAPH_COMPILER,
        "is_tensor_bool_cond": GRAPH_COMPILER,
        "recompute_block": GRAPH_COMPILER,
        "GeSwitch": GRAPH_COMPILER,
        "Merge": GRAPH_COMPILER,
        "geswitch": GRAPH_COMPILER,
        "merge": GRAPH_COMPILER,
        "CopyWithSlice": GRAPH_COMPILER,
        "SelectView": GRAPH_COMPILER,
        "PyExecute": GRAPH_COMPILER,
        "DtypeToEnum": INTERNAL,
        "get_vm_impl_fn": INTERNAL,
        "vm_impl_registry": INTERNAL,
        "tensor_operator_registry": INTERNAL,
        "arg_dtype_cast": INTERNAL,
        "arg_handler": INTERNAL,
        "auto_generate": INTERNAL,
        "cpp_create_prim_instance_helper": INTERNAL,
        "gen_extend_func": INTERNAL,
        "gen_ops_def": INTERNAL,
        "gen_ops_prim": INTERNAL,
        "pyboost_inner_prim": INTERNAL,
        "signature": INTERNAL,
        "Reshard": AUTO_PARALLEL,
        "MapCacheIdx": PARAMETER_SERVER,
        "MapUniform": PARAMETER_SERVER,
        "SubAndFilter": PARAMETER_SERVER,
        "Push": PARAMETER_SERVER,
        "Pull": PARAMETER_SERVER,
        "make_map_parameter": PARAMETER_SERVER,
        "reshard": AUTO_PARALLEL,
        "moe_distribute_combine": FUSED_ASCEND,
        "moe_distribute_dispatch": FUSED_ASCEND,
        "moe_init_routing_v2": FUSED_ASCEND,
        "GroupTopk": FUSED_ASCEND,
        "ApplyRotaryPosEmb": FUSED_ASCEND,
    },
    "mindspore.numpy": {},
    "mindspore.train": {
        "TrainFaultTolerance": FAULT_TOLERANCE,
        "export_split_mindir": MINDIR,
        "build_searched_strategy": AUTO_PARALLEL,
        "get_ckpt_path_with_strategy": AUTO_PARALLEL,
        "load_distributed_checkpoint": AUTO_PARALLEL,
        "restore_group_info_list": AUTO_PARALLEL,
    },
}


class UnsupportedError(NotImplementedError):
    """A MindSpore name that cellonnx does not provide was used; the message says which and why."""


class Unsupported:
    """Base of the placeholders: importing one works, calling or instantiating it raises."""

    qualname = ""
    reason = ""

    def __new__(cls, *args: Any, **kwargs: Any) -> NoReturn:
        raise UnsupportedError(f"{cls.qualname} is not available in cellonnx: {cls.reason}")


_STUBS: dict[str, type[Unsupported]] = {}


def placeholder(namespaces: tuple[str, ...], name: str) -> type[Unsupported] | None:
    """The placeholder for ``name`` if the list has it under one of ``namespaces`` (first match) or None."""
    for namespace in namespaces:
        reason = UNSUPPORTED.get(namespace, {}).get(name)
        if reason is not None:
            break
    else:
        return None
    qualname = f"{namespace}.{name}"
    if qualname not in _STUBS:
        _STUBS[qualname] = type(name, (Unsupported,), {"qualname": qualname, "reason": reason,
                                                       "__module__": __name__, "__doc__": reason})
    return _STUBS[qualname]


def module_getattr(module_name: str, *namespaces: str) -> Any:
    """A module-level ``__getattr__`` for the module standing for ``namespaces`` (MindSpore's names, the most
    specific first): a listed name gives its placeholder, any other missing name an AttributeError."""

    def __getattr__(name: str) -> Any:
        found = placeholder(namespaces, name)
        if found is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return found

    return __getattr__


DEVICE_MEMORY = ("it reaches a tensor's device memory or MindSpore's runtime handling of it (device "
                 "addresses, pinned, offloaded or released copies, the asynchronous launch pipeline); a "
                 "cellonnx tensor is a host NumPy array, replaced on update, that onnxruntime copies as it "
                 "needs, so there is no address or copy to manage")
TENSOR_INTERNAL = ("it is MindSpore's internal record of a tensor (lazy-init flags, the parent of a view, "
                   "index information and parameter info kept for its graph compiler), not user API")
STORAGE_VIEW = ("it rebinds a tensor to another's storage at an offset with strides; a cellonnx tensor owns "
                "its contiguous NumPy array, and storages are not shared")

# MindSpore 2.10's Tensor / Parameter attributes cellonnx does not provide (a Parameter has the Tensor ones)
UNSUPPORTED_METHODS: dict[str, dict[str, str]] = {
    "Tensor": {
        **dict.fromkeys(("data_ptr", "delete_", "set_device_address", "offload", "offload_file_path",
                         "wait_pipeline", "pin_memory", "move_to"), DEVICE_MEMORY),
        **dict.fromkeys(("assign_value_cpp", "delta_seed", "getitem_index_info", "setitem_index_info",
                         "index_of_parent_", "parent_tensor_", "init_finished", "init_flag", "set_init_flag",
                         "is_init", "param_info", "set_param_info", "virtual_flag", "set_cast_dtype",
                         "index"),
                        TENSOR_INTERNAL),
        "symbolic_shape": ("it reads the symbolic shape MindSpore's dynamic-shape compiler gives a graph "
                           "input; cellonnx traces dynamic dims as its own SymInts "
                           "(cellonnx/graph/symint.py)"),
        "flush_from_cache": PARAMETER_SERVER,
        "set_": STORAGE_VIEW,
    },
    "Parameter": {
        **dict.fromkeys(("add_pipeline_stage", "comm_fusion", "parallel_optimizer_comm_recompute", "sliced"),
                        AUTO_PARALLEL),
        **dict.fromkeys(("cache_enable", "cache_shape", "key"), PARAMETER_SERVER),
    },
}
# those of them that MindSpore reads as properties (or class values), not calls
UNSUPPORTED_PROPERTIES = frozenset((
    "delta_seed", "index_of_parent_", "parent_tensor_", "init_finished", "init_flag", "param_info",
    "virtual_flag", "symbolic_shape", "comm_fusion", "parallel_optimizer_comm_recompute", "sliced",
    "cache_enable", "cache_shape", "key"))


class UnsupportedAttribute:
    """A class attribute standing for a MindSpore Tensor / Parameter attribute that cellonnx does not
    provide: reading a property, or calling a method, raises :class:`UnsupportedError` naming it.

    Examples:
        >>> import cellonnx as ms
        >>> ms.Tensor([1.0]).data_ptr()
        Traceback (most recent call last):
        ...
        cellonnx.unsupported.UnsupportedError: mindspore.Tensor.data_ptr is not available in cellonnx: ...
    """

    def __init__(self, qualname: str, reason: str, is_property: bool) -> None:
        self.qualname, self.reason, self.is_property = qualname, reason, is_property

    def _raise(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise UnsupportedError(f"{self.qualname} is not available in cellonnx: {self.reason}")

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if self.is_property and obj is not None:
            self._raise()
        return self._raise
