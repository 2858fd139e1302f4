'''The runnable examples of the reference pages in /work/shared/seeds, as the pages give them.

The extraction of the pages flattened the examples' indentation and, in places, lost lines; here each example
is valid Python again: indentation restored, a page's ``>>>`` written where ``...`` belonged (a loop body)
put back in its block, and a lost line put back when MindSpore's own docstring of that release shows it
(marked ``# restored: ...``). Nothing else is changed: the page's names, arguments and mistakes stay, so
the tests run what users read. One input is smaller than the page's (marked ``# scaled: ...``): the Conv2d
example's [1, 120, 1024, 640] costs 300 GFLOP, minutes in NumPy, for a result (the output shape under
pad_mode='same') that holds at any size. Imports name ``mindspore``; the tests rewrite the import lines to
``cellonnx`` (tests/ports/port.py) and nothing else.

``context`` is what a page presumes without showing it: the old ``mindspore.nn`` catalogue (004) runs its
examples after ``import numpy as np``, ``import mindspore`` and ``from mindspore import Tensor, nn``, and
many of them use a network ``Net`` the user is supposed to have; the context defines one that fits what the
example does with it (its weights drawn from a seeded NumPy generator, so that both frameworks start from
the same numbers).

``values`` are expressions the tests evaluate in the example's namespace once it ran, with cellonnx and
with MindSpore 2.10 (tests/fixtures/mindspore/gen_seeds.py records them in seeds.json).

This module is plain data: the MindSpore environment imports it too.
'''
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Example:
    page: str                 # "000" ... "004"
    name: str                 # what the example documents
    code: str                 # the example, restored
    page_output: str = ""     # what the page prints, line breaks restored
    context: str = ""         # what the page presumes (imports, a Net) and does not show
    values: tuple[str, ...] = field(default=())
    variant: str = ""         # the code as MindSpore 2.10 needs it, where the page's does not run there
    probe: str = ""           # statements run after the example (and after the variant) to check it further

    @property
    def id(self) -> str:
        return f"{self.page}:{self.name}"

    @property
    def source(self) -> str:
        return self.context + self.code


EXAMPLES: list[Example] = []


def example(page: str, name: str, code: str, page_output: str = "", context: str = "",
            values: tuple[str, ...] = (), variant: str = "", probe: str = "") -> None:
    EXAMPLES.append(Example(page, name, code.lstrip("\n"), page_output.strip("\n"), context.lstrip("\n"),
                            values, variant.lstrip("\n"), probe.lstrip("\n")))


def with_registered_buffers(code: str) -> str:
    """``self.x = nn.Buffer(t)`` written as MindSpore 2.10 needs it (its Buffer class is private):
    ``self.register_buffer("x", t)``."""
    return re.sub(r"self\.(\w+) = mindspore\.nn\.Buffer\((.*)\)$", r'self.register_buffer("\1", \2)', code,
                  flags=re.M)


def by_id() -> dict[str, Example]:
    return {e.id: e for e in EXAMPLES}


# =========================================================================== 000: mindspore.nn.Cell (English)
example("000", "Cell", """
import mindspore.nn as nn
from mindspore import ops
class MyCell(nn.Cell):
    def __init__(self, forward_net):
        super(MyCell, self).__init__(auto_prefix=False)
        self.net = forward_net
        self.relu = ops.ReLU()

    def construct(self, x):
        y = self.net(x)
        return self.relu(y)

inner_net = nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
my_net = MyCell(inner_net)
print(my_net.trainable_params())
# If the 'auto_prefix' set to True or not set when call the '__init__' method of the parent class,
# the parameter's name will be 'net.weight'.
""", """
[Parameter (name=weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]
""")

example("000", "Cell.add_flags", """
import mindspore as ms
from mindspore import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x
net = Net()
net.add_flags(sink_mode=True)
print(net.sink_mode)
""", "True")

example("000", "Cell.add_flags_recursive", """
import mindspore as ms
from mindspore import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x
net = Net()
net.add_flags_recursive(sink_mode=True)
print(net.sink_mode)
""", "True", values=("net.relu.sink_mode",))

example("000", "Cell.apply", """
import mindspore.nn as nn
from mindspore.common.initializer import initializer, One
net = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))
def func(cell):
    if isinstance(cell, nn.Dense):
        cell.weight.set_data(initializer(One(), cell.weight.shape, cell.weight.dtype))
net.apply(func)
print(net[0].weight.asnumpy())
""", """
SequentialCell(
  (0): Dense(input_channels=2, output_channels=2, has_bias=True)
  (1): Dense(input_channels=2, output_channels=2, has_bias=True)
)
[[1. 1.]
 [1. 1.]]
""", values=("net[1].weight",))

BUFFER_NETS = """
import mindspore


class NetB(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_b = mindspore.nn.Buffer(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_b


class NetA(mindspore.nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a


net_b = NetB()
net_a = NetA(net_b)
"""

example("000", "Cell.buffers", BUFFER_NETS + """
for buffer in net_a.buffers():
    print(f'buffer is {buffer}')
""", """
buffer is [4, 5, 6]
buffer is [1, 2, 3]
""")

example("000", "Cell.cells", """
import mindspore as ms
from mindspore import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        x = self.dense(x)
        return x
net = Net()
print(net.cells())
""", "odict_values([Dense(input_channels=2, output_channels=2, has_bias=True)])")

example("000", "Cell.cells_and_names", """
from mindspore import nn
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.conv = nn.Conv2d(3, 64, 3)
    def construct(self, x):
        out = self.conv(x)
        return out
names = []
n = Net()
for m in n.cells_and_names():
    if m[0]:
        names.append(m[0])
""", values=("names",))

example("000", "Cell.get_buffer", """
import mindspore


class NetC(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_c = mindspore.nn.Buffer(mindspore.tensor([0, 0, 0]))

    def construct(self, x):
        return x + self.buffer_c


class NetB(mindspore.nn.Cell):
    def __init__(self, net_c):
        super().__init__()
        self.net_c = net_c
        self.buffer_b = mindspore.nn.Buffer(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return self.net_c(x) + self.buffer_b


class NetA(mindspore.nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a


net_c = NetC()
net_b = NetB(net_c)
net_a = NetA(net_b)
buffer_c = net_a.get_buffer("net_b.net_c.buffer_c")
print(f'buffer_c is {buffer_c}')
""", "buffer_c is [0, 0, 0]")

example("000", "Cell.get_flags", """
import mindspore as ms
from mindspore import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x
net = Net()
net.add_flags(sink_mode=True)
print(net.get_flags())
""", "{'sink_mode':True}")

example("000", "Cell.get_inputs", """
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

class ReluNet(nn.Cell):
    def __init__(self):
        super(ReluNet, self).__init__()
        self.relu = nn.ReLU()
    def construct(self, x):
        return self.relu(x)

net = ReluNet()
input_dyn = Tensor(shape=[3, None], dtype=ms.float32)
net.set_inputs(input_dyn)
get_inputs = net.get_inputs()
print(get_inputs)
""", "(Tensor(shape=[3, -1], dtype=Float32, value= ),)")

example("000", "Cell.get_parameters", """
import mindspore as ms
from mindspore import nn, ops, Tensor
import numpy as np
class TestNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.my_w1 = ms.Parameter(Tensor(np.ones([4, 4]), ms.float32))
        self.my_w2 = ms.Parameter(Tensor(np.ones([16]), ms.float32))
    def construct(self, x):
        x += self.my_w1
        x = ops.reshape(x, (16,)) - self.my_w2
        return x
class TestNet2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.my_t1 = ms.Parameter(Tensor(np.ones([4, 4]), ms.float32))
        # self.subcell is a subcell of TestNet2, when using expand=True, the parameters of TestNet will
        # also be gathered.
        self.subcell = TestNet()
    def construct(self, x):
        x += self.my_w1
        x = ops.reshape(x, (16,)) - self.my_w2
        return x
net = TestNet2()
print([p for p in net.get_parameters(expand=True)])
""", """
[Parameter (name=my_t1, shape=(4, 4), dtype=Float32, requires_grad=True), Parameter (name=subcell.my_w1, \
shape=(4, 4), dtype=Float32, requires_grad=True), Parameter (name=subcell.my_w2, shape=(16,), dtype=Float32, \
requires_grad=True)]
""")

example("000", "Cell.get_sub_cell", """
import mindspore


class NetC(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_c = mindspore.nn.Buffer(mindspore.tensor([0, 0, 0]))
        self.dense_c = mindspore.nn.Dense(5, 3)

    def construct(self, x):
        return self.dense_c(x) + self.buffer_c


class NetB(mindspore.nn.Cell):
    def __init__(self, net_c):
        super().__init__()
        self.net_c = net_c
        self.buffer_b = mindspore.nn.Buffer(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return self.net_c(x) + self.buffer_b


class NetA(mindspore.nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a


net_c = NetC()
net_b = NetB(net_c)
net_a = NetA(net_b)
net_c = net_a.get_sub_cell("net_b.net_c")
print(f'net_c is {net_c}')
""", """
net_c is NetC(
  (dense_c): Dense(input_channels=5, output_channels=3, has_bias=True)
)
""")

example("000", "Cell.init_parameters_data", """
import mindspore as ms
from mindspore import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        x = self.dense(x)
        return x
net = Net()
print(net.init_parameters_data())
""", """
{Parameter (name=dense.weight, shape=(2,2), dtype=Float32, requires_grad=True): \
Parameter (name=dense.weight, \
shape=(2,2), dtype=Float32, requires_grad=True), Parameter (name=dense.bias, shape=(2,), dtype=Float32, \
requires_grad=True): Parameter (name=dense.bias, shape=(2,), dtype=Float32, requires_grad=True)}
""")

example("000", "Cell.insert_child_to_cell", """
import mindspore as ms
from mindspore import Tensor, nn

net1 = nn.ReLU()
net2 = nn.Dense(2, 2)
net1.insert_child_to_cell("child", net2)
print(net1)
""", """
ReLU(
  (child): Dense(input_channels=2, output_channels=2, has_bias=True)
)
""")

example("000", "Cell.insert_param_to_cell", """
import mindspore as ms
from mindspore import Tensor, nn, Parameter

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x
net = Net()
net.insert_param_to_cell("bias", Parameter(Tensor([1, 2, 3])))
print(net.bias)
""", "Parameter(name=bias, shape=(3,), dtype=Int64, requires_grad=True)")

example("000", "Cell.load_state_dict", """
import mindspore
import os
class Model(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([4, 5, 6]))
        self.param_a = mindspore.Parameter(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a


model = Model()
print(model.state_dict())
mindspore.save_checkpoint(model.state_dict(), './model_state_dict_ckpt')
new_model = Model()
new_model.load_state_dict(mindspore.load_checkpoint('./model_state_dict_ckpt'))
print(new_model.state_dict())
os.remove('./model_state_dict_ckpt')
""", """
OrderedDict([('param_a', Parameter (name=param_a, shape=(3,), dtype=Int64, requires_grad=True)), \
('buffer_a', Tensor(shape=[3], dtype=Int64, value= [4, 5, 6]))])
OrderedDict([('param_a', Parameter (name=param_a, shape=(3,), dtype=Int64, requires_grad=True)), \
('buffer_a', Tensor(shape=[3], dtype=Int64, value= [4, 5, 6]))])
""", values=("new_model.param_a", "new_model.buffer_a"))

example("000", "Cell.name_cells", """
import mindspore as ms
from mindspore import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        x = self.dense(x)
        return x
net = Net()
print(net.name_cells())
""", "OrderedDict([('dense', Dense(input_channels=2, output_channels=2, has_bias=True))])")

example("000", "Cell.named_buffers", BUFFER_NETS + """
for name, buffer in net_a.named_buffers():
    print(f'buffer name is {name}, buffer is {buffer}')
""", """
buffer name is buffer_a, buffer is [4, 5, 6]
buffer name is net_b.buffer_b, buffer is [1, 2, 3]
""")

example("000", "Cell.offload", """
import mindspore.nn as nn
from mindspore import ops
from mindspore.common import Tensor, Parameter

class Block(nn.Cell):
    def __init__(self):
        super(Block, self).__init__()
        self.transpose1 = ops.Transpose()
        self.transpose2 = ops.Transpose()
        self.transpose3 = ops.Transpose()
        self.transpose4 = ops.Transpose()
        self.real_div1 = ops.RealDiv()
        self.real_div2 = ops.RealDiv()
        self.batch_matmul1 = ops.BatchMatMul()
        self.batch_matmul2 = ops.BatchMatMul()
        self.softmax = ops.Softmax(-1)
        self.expand_dims = ops.ExpandDims()
        self.sub = ops.Sub()
        self.y = Parameter(Tensor(np.ones((1024, 128, 128)).astype(np.float32)))
    def construct(self, x):
        transpose1 = self.transpose1(x, (0, 2, 1, 3))
        real_div1 = self.real_div1(transpose1, Tensor(2.37891))
        transpose2 = self.transpose2(x, (0, 2, 3, 1))
        real_div2 = self.real_div2(transpose2, Tensor(2.37891))
        batch_matmul1 = self.batch_matmul1(real_div1, real_div2)
        expand_dims = self.expand_dims(self.y, 1)
        sub = self.sub(Tensor([1.0]), expand_dims)
        soft_max = self.softmax(sub)
        transpose3 = self.transpose3(x, (0, 2, 1, 3))
        batch_matmul2 = self.batch_matmul2(soft_max[0], transpose3)
        transpose4 = self.transpose4(batch_matmul2, (0, 2, 1, 3))
        return transpose4

class OuterBlock(nn.Cell):
    @lazy_inline
    def __init__(self):
        super(OuterBlock, self).__init__()
        self.block = Block()
    def construct(self, x):
        return self.block(x)

class Nets(nn.Cell):
    def __init__(self):
        super(Nets, self).__init__()
        self.blocks = nn.CellList()
        for _ in range(3):
            b = OuterBlock()
            b.offload()
            self.blocks.append(b)
    def construct(self, x):
        out = x
        for i in range(3):
            out = self.blocks[i](out)
        return out
""")

example("000", "Cell.param_prefix", """
import mindspore as ms
from mindspore import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        x = self.dense(x)
        return x
net = Net()
net.update_cell_prefix()
print(net.dense.param_prefix)
""", "dense")

example("000", "Cell.parameters_and_names", """
from mindspore import nn
n = nn.Dense(3, 4)
names = []
for m in n.parameters_and_names():
    if m[0]:
        names.append(m[0])
""", values=("names",))

example("000", "Cell.parameters_dict", """
import mindspore as ms
from mindspore import Tensor, nn, Parameter

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        x = self.dense(x)
        return x
net = Net()
print(net.parameters_dict())
""", """
OrderedDict([('dense.weight', Parameter(name=dense.weight, shape=(2, 2), dtype=Float32, \
requires_grad=True)), \
('dense.bias', Parameter(name=dense.bias, shape=(2,), dtype=Float32, requires_grad=True))])
""")

example("000", "Cell.place", """
from mindspore import context
import mindspore.nn as nn
context.set_context(mode=context.GRAPH_MODE)
fc = nn.Dense(2, 3)
fc.place('MS_WORKER', 0)
""")

example("000", "Cell.register_backward_hook", """
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)
def backward_hook_fn(cell, grad_input, grad_output):
    print("backward input: ", grad_output)
    print("backward output: ", grad_input)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_backward_hook(backward_hook_fn)

    def construct(self, x):
        x = x + x
        x = self.relu(x)
        return x
grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)))
print(output)
""", """
backward input:  (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]),)
backward output:  (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]),)
(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
""")

example("000", "Cell.register_backward_pre_hook", """
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)
def backward_pre_hook_fn(cell, grad_output):
    print("backward input: ", grad_output)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_backward_pre_hook(backward_pre_hook_fn)

    def construct(self, x):
        x = x + x
        x = self.relu(x)
        return x
grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)))
print(output)
""", """
backward input:  (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]),)
(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
""")

example("000", "Cell.register_buffer", """
import mindspore

class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.register_buffer("buffer0", mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.net_buffer

net = Net()
net.register_buffer(mindspore.tensor("buffer0", [4, 5, 6]))
print(net.buffer0)
""", "[1 2 3]")

example("000", "Cell.register_forward_hook", """
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)
def forward_hook_fn(cell, inputs, output):
    print("forward inputs: ", inputs)
    print("forward output: ", output)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.mul = nn.MatMul()
        self.handle = self.mul.register_forward_hook(forward_hook_fn)

    def construct(self, x, y):
        x = x + x
        x = self.mul(x, y)
        return x
grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)), Tensor(np.ones([1]).astype(np.float32)))
print(output)
""", """
forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), Tensor(shape=[1], \
dtype=Float32, value= [ 1.00000000e+00]))
forward output:  2.0
(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), Tensor(shape=[1], dtype=Float32, \
value= [ 2.00000000e+00]))
""")

example("000", "Cell.register_forward_pre_hook", """
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)
def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.mul = nn.MatMul()
        self.handle = self.mul.register_forward_pre_hook(forward_pre_hook_fn)

    def construct(self, x, y):
        x = x + x
        x = self.mul(x, y)
        return x
grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)), Tensor(np.ones([1]).astype(np.float32)))
print(output)
""", """
forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), Tensor(shape=[1], \
dtype=Float32, value= [ 1.00000000e+00]))
(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), Tensor(shape=[1], dtype=Float32, \
value= [ 2.00000000e+00]))
""")

example("000", "Cell.register_state_dict_pre_hook", """
import mindspore


class NetA(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([1, 2, 3]))
        self.param_a = mindspore.Parameter(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a


def _add_extra_param(cell, prefix, keep_vars):
    cell._params["extra_param"] = mindspore.Parameter(mindspore.tensor([4, 5, 6]))


net = NetA()
handle = net.register_state_dict_pre_hook(_add_extra_param)
net_state_dict = net.state_dict()
handle.remove()
print("extra_param" in net_state_dict)
""", "True")

example("000", "Cell.set_data_parallel", """
import mindspore.nn as nn
net = nn.Dense(3, 4)
net.set_data_parallel()
""")

example("000", "Cell.set_inputs", """
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

class ReluNet(nn.Cell):
    def __init__(self):
        super(ReluNet, self).__init__()
        self.relu = nn.ReLU()
    def construct(self, x):
        return self.relu(x)

net = ReluNet()
input_dyn = Tensor(shape=[3, None], dtype=ms.float32)
net.set_inputs(input_dyn)
input = Tensor(np.random.random([3, 10]), dtype=ms.float32)
output = net(input)

net2 = ReluNet()
net2.set_inputs(x=input_dyn)
output = net2(input)
""", values=("output", "input"))

example("000", "Cell.set_jit_config", """
import mindspore as ms
from mindspore import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x
net = Net()
jitconfig = ms.JitConfig()
net.set_jit_config(jitconfig)
""")

example("000", "Cell.shard", """
import mindspore.nn as nn

class Block(nn.Cell):
    def __init__(self):
        self.dense1 = nn.Dense(10, 10)
        self.relu = nn.ReLU()
        self.dense2 = nn.Dense2(10, 10)
    def construct(self, x):
        x = self.relu(self.dense2(self.relu(self.dense1(x))))
        return x

class example(nn.Cell):
    def __init__(self):
        self.block1 = Block()
        self.block2 = Block()
        self.block2_shard = self.block2.shard(in_strategy=((2, 1),),
                                              parameter_plan={'self.block2.shard.dense1.weight': (4, 1)})
    def construct(self, x):
        x = self.block1(x)
        x = self.block2_shard(x)
        return x
""")

example("000", "Cell.state_dict", """
import mindspore
class Model(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([4, 5, 6]))
        self.param_a = mindspore.Parameter(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a


model = Model()
print(model.state_dict())
""", """
OrderedDict([('param_a', Parameter (name=param_a, shape=(3,), dtype=Int64, requires_grad=True)), \
('buffer_a', Tensor(shape=[3], dtype=Int64, value= [4, 5, 6]))])
""")

example("000", "Cell.to_float", """
import mindspore.nn as nn
from mindspore import dtype as mstype

net = nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
net.to_float(mstype.float16)
""", """
Conv2d(input_channels=120, output_channels=240, kernel_size=(4, 4), stride=(1, 1), pad_mode=same, \
padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=normal, bias_init=None, format=NCHW)
""")

# 001, the same reference's Chinese source (mindspore.nn.Cell.rst), gives the methods' descriptions and
# parameters only: it holds no example.

# ============================================================================ 002: Functional and Cell
example("002", "functional in a Cell", """
import mindspore as ms
import mindspore.nn as nn
import mindspore.ops as ops
class MyCell(nn.Cell):
    def construct(self, x, y):
        output = ops.add(x, y)
        return output
net = MyCell()
x = ms.Tensor([1, 2, 3], ms.float32)
y = ms.Tensor([4, 5, 6], ms.float32)
output = net(x, y)
print(output)
""", "[5. 7. 9.]")

example("002", "functional standalone", """
import mindspore as ms
import mindspore.ops as ops
x = ms.Tensor([1, 2, 3], ms.float32)
y = ms.Tensor([4, 5, 6], ms.float32)
output = ops.add(x, y)
print(output)
""", "[5. 7. 9.]")

example("002", "Cell build", """
import mindspore.nn as nn
import mindspore.ops as ops
class MyCell(nn.Cell):
    def __init__(self, forward_net):
        super(MyCell, self).__init__(auto_prefix=True)
        self.net = forward_net
        self.relu = ops.ReLU()
    def construct(self, x):
        y = self.net(x)
        return self.relu(y)
inner_net = nn.Conv2d(120, 240, 4, has_bias=False)
my_net = MyCell(inner_net)
print(my_net.trainable_params())
""", "[Parameter (name=net.weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]")

example("002", "parameter obtaining", """
import mindspore.nn as nn
net = nn.Dense(2, 1, has_bias=True)
print(net.trainable_params())
for param in net.trainable_params():
    param_name = param.name
    if "bias" in param_name:
        param.requires_grad = False
print(net.trainable_params())
""", """
[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), Parameter (name=bias, shape=(1,), \
dtype=Float32, requires_grad=True)]
[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True)]
""")

example("002", "parameter saving and loading", """
import mindspore as ms
import mindspore.ops as ops
import mindspore.nn as nn
net = nn.Dense(2, 1, has_bias=True)
for param in net.get_parameters():
    print(param.name, param.data.asnumpy())
ms.save_checkpoint(net, "dense.ckpt")
dense_params = ms.load_checkpoint("dense.ckpt")
print(dense_params)
new_params = {}
for param_name in dense_params:
    print(param_name, dense_params[param_name].data.asnumpy())
    new_params[param_name] = ms.Parameter(ops.ones_like(dense_params[param_name].data), name=param_name)
ms.load_param_into_net(net, new_params)
for param in net.get_parameters():
    print(param.name, param.data.asnumpy())
""", """
weight [[-0.0042482 -0.00427286]]
bias [0.]
{'weight': Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), 'bias': Parameter \
(name=bias, shape=(1,), dtype=Float32, requires_grad=True)}
weight [[-0.0042482 -0.00427286]]
bias [0.]
weight [[1. 1.]]
bias [1.]
""")

example("002", "submodule management", """
from mindspore import nn
class MyCell(nn.Cell):
    def __init__(self):
        super(MyCell, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        # Add a submodule using insert_child_to_cell
        self.insert_child_to_cell('conv3', nn.Conv2d(64, 128, 3, 1))
        self.sequential_block = nn.SequentialCell(
            nn.ReLU(),
            nn.Conv2d(128, 256, 3, 1),
            nn.ReLU()
        )
    def construct(self, x):
        x = self.conv1(x)
        x = self.conv2(x)
        x = self.conv3(x)
        x = self.sequential_block(x)
        return x
module = MyCell()
# Iterate over all submodules (both direct and indirect) using cells_and_names
for name, cell_instance in module.cells_and_names():
    print(f"Cell name: {name}, type: {type(cell_instance)}")
""", """
Cell name: , type: <class '__main__.MyCell'>
Cell name: conv1, type: <class 'mindspore.nn.layer.conv.Conv2d'>
Cell name: conv2, type: <class 'mindspore.nn.layer.conv.Conv2d'>
Cell name: conv3, type: <class 'mindspore.nn.layer.conv.Conv2d'>
Cell name: sequential_block, type: <class 'mindspore.nn.layer.container.SequentialCell'>
Cell name: sequential_block.0, type: <class 'mindspore.nn.layer.activation.ReLU'>
Cell name: sequential_block.1, type: <class 'mindspore.nn.layer.conv.Conv2d'>
Cell name: sequential_block.2, type: <class 'mindspore.nn.layer.activation.ReLU'>
""")

# ============================================================================ 004: the mindspore.nn catalogue
# of an older release (0.1). Its examples run after these imports (the page's own convention).
PRELUDE = """
import numpy as np
import mindspore
from mindspore import Tensor, nn
"""

# a classifier of 16 features into 10 classes, the `Net` of the optimizer and wrapper examples
NET = PRELUDE + """
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        rng = np.random.RandomState(0)
        self.dense = nn.Dense(16, 10, weight_init=Tensor(rng.normal(0, 0.1, (10, 16)).astype(np.float32)),
                              bias_init=Tensor(rng.normal(0, 0.1, (10,)).astype(np.float32)))

    def construct(self, x):
        return self.dense(x)
"""

# a network with its loss, called with (inputs, label) of shape [16, 16]: the loss-scale examples' `Net`
NET_WITH_LOSS = PRELUDE + """
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        rng = np.random.RandomState(0)
        self.dense = nn.Dense(16, 16, weight_init=Tensor(rng.normal(0, 0.1, (16, 16)).astype(np.float32)),
                              bias_init=Tensor(rng.normal(0, 0.1, (16,)).astype(np.float32)))
        self.loss = nn.MSELoss()

    def construct(self, x, label):
        return self.loss(self.dense(x), label)
"""

# three training steps with the example's network, loss and optimizer (the optimizer examples stop at
# building a Model): the losses are printed, the parameters recorded
TRAIN_PROBE = """
train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), {optim})
data = Tensor(np.random.RandomState(1).normal(0, 1, (4, 16)).astype(np.float32))
label = Tensor(np.eye(10)[[1, 3, 5, 7]].astype(np.float32))
for _ in range(3):
    print(train(data, label))
"""
TRAINED = ("net.dense.weight", "net.dense.bias", "[p.name for p in net.trainable_params()]")


def _nn(name: str, code: str, page_output: str = "", context: str = PRELUDE,
        values: tuple[str, ...] = (), variant: str = "", probe: str = "") -> None:
    example("004", name, code, page_output, context, values, variant, probe)


_nn("Accuracy", """
x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), mindspore.float32)
y = Tensor(np.array([1, 0, 1]), mindspore.float32)
metric = nn.Accuracy('classification')
metric.clear()
metric.update(x, y)
accuracy = metric.eval()
""", values=("accuracy",))

_nn("Adam", """
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
optim = nn.Adam(params=net.trainable_params())  # restored: the page lost this line
model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
""", context=NET + "from mindspore import Model\n", values=TRAINED, probe=TRAIN_PROBE.format(optim="optim"))

_nn("AdamWeightDecay", """
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
optim = nn.AdamWeightDecay(params=net.trainable_params())  # restored: the page lost this line
model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
""", context=NET + "from mindspore import Model\n", values=TRAINED, probe=TRAIN_PROBE.format(optim="optim"))

_nn("AdamWeightDecayDynamicLR", """
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
optim = nn.AdamWeightDecayDynamicLR(params=net.trainable_params(), decay_steps=10)  # restored: lost line
model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
""", context=NET + "from mindspore import Model\n", values=TRAINED, probe=TRAIN_PROBE.format(optim="optim"),
    variant="""
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
optim = nn.AdamWeightDecay(params=net.trainable_params(),
                           learning_rate=nn.PolynomialDecayLR(0.001, 0.0001, decay_steps=10, power=10.0))
model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
""")

_nn("AvgPool2d", """
pool = AvgPool2d(kernel_size=3, stride=1)
x = Tensor(np.random.randint(0, 10, [1, 2, 4, 4]), mindspore.float32)
output = pool(x)
output.shape()
output
""", """
[[[[5. 5. 9. 9.]
   [8. 4. 3. 0.]
   [2. 7. 1. 2.]
   [1. 8. 3. 3.]]
  [[6. 8. 2. 4.]
   [3. 0. 2. 1.]
   [0. 8. 9. 7.]
   [2. 1. 4. 9.]]]]
(1, 2, 2, 2)
[[[[4.888889  4.4444447]
   [4.111111  3.4444444]]
  [[4.2222223 4.5555553]
   [3.2222223 4.5555553]]]]
""", context=PRELUDE + "from mindspore.nn import AvgPool2d\n", values=("x", "output", "output.shape"))

_nn("BatchNorm1d", """
net = nn.BatchNorm1d(num_features=16)
input = Tensor(np.random.randint(0, 255, [3, 16]), mindspore.float32)
net(input)
""", values=("input", "net(input)"))

_nn("BatchNorm2d", """
net = nn.BatchNorm2d(num_features=3)
input = Tensor(np.random.randint(0, 255, [1, 3, 224, 224]), mindspore.float32)
net(input)
""", values=("net(input).shape", "net(input)[0, :, :3, :3]", "input[0, :, :3, :3]"))

_nn("Cell", """
class MyCell(Cell):
    def __init__(self):
        super(MyCell, self).__init__()
        self.relu = P.ReLU()

    def construct(self, x):
        return self.relu(x)
""", context=PRELUDE + "from mindspore.nn import Cell\nfrom mindspore.ops import operations as P\n",
    values=("MyCell()(Tensor(np.array([-1.0, 0.0, 2.0]), mindspore.float32))",))

_nn("Cell.cells_and_names", """
n = Net()
names = []
for m in n.cells_and_names():
    if m[0]:
        names.append(m[0])
""", context=NET, values=("names",))

_nn("Cell.get_parameters", """
net = Net()
for item in net.get_parameters():
    print(item)
""", context=NET)

_nn("Cell.parameters_and_names", """
n = Net()
names = []
for m in n.parameters_and_names():
    if m[0]:
        names.append(m[0])
""", context=NET, values=("names",))

_nn("CellList", """
conv = nn.Conv2d(100, 20, 3)
bn = nn.BatchNorm2d(20)
relu = nn.ReLU()
cell_ls = nn.CellList([bn])
cell_ls.insert(0, conv)
cell_ls.append(relu)
x = Tensor(np.random.random((1, 3, 4, 4)), dtype=mindspore.float32)
# not same as nn.SequentialCell, cell_ls(x) is not correct
cell_ls
""", """
CellList< (0): Conv2d<input_channels=100, ..., bias_init=None>
(1): BatchNorm2d<num_features=20, ..., moving_variance=Parameter (name=variance)>
(2): ReLU<> >
""")

_nn("ClipByNorm", """
net = nn.ClipByNorm()
input = Tensor(np.random.randint(0, 10, [4, 16]), mindspore.float32)
clip_norm = Tensor(np.array([100]).astype(np.float32))
net(input, clip_norm)
""", values=("input", "net(input, clip_norm)"))

_nn("Conv2d", """
net = nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
input = Tensor(np.ones([1, 120, 64, 40]), mindspore.float32)  # scaled: the page's is [1, 120, 1024, 640]
net(input).shape()
""", "(1, 240, 1024, 637)")

_nn("Conv2dTranspose", """
net = nn.Conv2dTranspose(3, 64, 4, has_bias=False, weight_init='normal')
input = Tensor(np.ones([1, 3, 16, 50]), mindspore.float32)
net(input)
""", values=("net(input).shape", "net(input)[0, :2, :3, :3]", "net(input)[0, 62:, -3:, -3:]"), probe="""
net.weight.set_data(Tensor(np.random.RandomState(2).normal(0, 0.1, (3, 64, 4, 4)).astype(np.float32)))
""")

_nn("DataWrapper", """
# call create_dataset function to create a regular dataset, refer to mindspore.dataset
train_dataset = create_dataset()
dataset_helper = mindspore.DatasetHelper(train_dataset)
net = Net()
net = DataWrapper(net, *(dataset_helper.types_shapes()), train_dataset.queue_name)
""", context=NET + """
from mindspore.nn import DataWrapper
import mindspore.dataset as ds

def create_dataset():
    data = np.random.RandomState(0).normal(0, 1, (8, 16)).astype(np.float32)
    return ds.NumpySlicesDataset({"data": data}, shuffle=False).batch(4)
""")

_nn("Dense", """
net = nn.Dense(3, 4)
input = Tensor(np.random.randint(0, 255, [2, 3]), mindspore.float32)
net(input)
""", """
[[ 2.5246444   2.2738023   0.5711005  -3.9399147 ]
 [ 1.0739875   4.0155234   0.94188046 -5.459526  ]]
""", values=("net(input).shape", "net(input).dtype", "net(input)"), probe="""
net.weight.set_data(Tensor(np.random.RandomState(2).normal(0, 1, (4, 3)).astype(np.float32)))
net.bias.set_data(Tensor(np.random.RandomState(3).normal(0, 1, (4,)).astype(np.float32)))
input = Tensor(np.random.RandomState(4).randint(0, 255, [2, 3]), mindspore.float32)
print(net(input))
""")

_nn("Dropout", """
x = Tensor(np.ones([20, 16, 50]), mindspore.float32)
net = nn.Dropout(keep_prob=0.8)
net(x)
""", values=("net(x).shape", "bool((net(x).asnumpy() == x.asnumpy()).all())", "net.training"))

_nn("DynamicLossScaleUpdateCell", """
net_with_loss = Net()
optimizer = nn.Momentum(net_with_loss.trainable_params(), learning_rate=0.1, momentum=0.9)
manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**12, scale_factor=2, scale_window=1000)
train_network = nn.TrainOneStepWithLossScaleCell(net_with_loss, optimizer, scale_update_cell=manager)
train_network.set_train()

inputs = Tensor(np.ones([16, 16]).astype(np.float32))
label = Tensor(np.zeros([16, 16]).astype(np.float32))
output = train_network(inputs, label)
""", context=NET_WITH_LOSS, values=("output", "net_with_loss.dense.weight", "net_with_loss.dense.bias"))

_nn("Embedding", """
net = nn.Embedding(20000, 768,  True)
input_data = Tensor(np.ones([8, 128]), mindspore.int32)

# Maps the input word IDs to word embedding.
output = net(input_data)
output.shape()
""", "(8, 128, 768)",
    values=("output.shape", "bool((output.asnumpy() == net.embedding_table.asnumpy()[1]).all())"))

_nn("F1", """
x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
y = Tensor(np.array([1, 0, 1]))
metric = nn.F1()
metric.update(x, y)
fbeta = metric.eval()
""", values=("fbeta",))

_nn("Fbeta", """
x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
y = Tensor(np.array([1, 0, 1]))
metric = nn.Fbeta(1)
metric.update(x, y)
fbeta = metric.eval()
""", "[0.66666667 0.66666667]", values=("fbeta",))

_nn("FixedLossScaleUpdateCell", """
net_with_loss = Net()
optimizer = nn.Momentum(net_with_loss.trainable_params(), learning_rate=0.1, momentum=0.9)
manager = nn.FixedLossScaleUpdateCell(loss_scale_value=2**12)
train_network = nn.TrainOneStepWithLossScaleCell(net_with_loss, optimizer, scale_update_cell=manager)
train_network.set_train()

inputs = Tensor(np.ones([16, 16]).astype(np.float32))
label = Tensor(np.zeros([16, 16]).astype(np.float32))
output = train_network(inputs, label)
""", context=NET_WITH_LOSS, values=("output", "net_with_loss.dense.weight", "net_with_loss.dense.bias"))

_nn("Flatten", """
net = nn.Flatten()
input = Tensor(np.array([[[1.2, 1.2], [2.1, 2.1]], [[2.2, 2.2], [3.2, 3.2]]]), mindspore.float32)
input.shape()
net(input)
""", """
(2, 2, 2)
[[1.2 1.2 2.1 2.1]
 [2.2 2.2 3.2 3.2]]
""", values=("net(input)",))

_nn("L1Loss", """
loss = nn.L1Loss()
input_data = Tensor(np.array([1, 2, 3]), mindspore.float32)
target_data = Tensor(np.array([1, 2, 2]), mindspore.float32)
loss(input_data, target_data)
""", values=("loss(input_data, target_data)",))

_nn("LARS", """
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
opt_lars = nn.LARS(opt, epsilon=1e-08, hyperpara=0.02)
model = Model(net, loss_fn=loss, optimizer=opt_lars, metrics=None)
""", context=NET + "from mindspore import Model\n", values=TRAINED,
    probe=TRAIN_PROBE.format(optim="opt_lars"),
    variant="""
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
opt_lars = nn.LARS(opt, epsilon=1e-08, coefficient=0.02)
model = Model(net, loss_fn=loss, optimizer=opt_lars, metrics=None)
""")

_nn("LSTM", """
class LstmNet(nn.Cell):
    def __init__(self, input_size, hidden_size, num_layers, has_bias, batch_first, bidirectional):
        super(LstmNet, self).__init__()
        self.lstm = nn.LSTM(input_size=input_size,
                            hidden_size=hidden_size,
                            num_layers=num_layers,
                            has_bias=has_bias,
                            batch_first=batch_first,
                            bidirectional=bidirectional,
                            dropout=0.0)

    def construct(self, inp, h0, c0):
        return self.lstm(inp, (h0, c0))

net = LstmNet(10, 12, 2, has_bias=True, batch_first=True, bidirectional=False)
input = Tensor(np.ones([3, 5, 10]).astype(np.float32))
h0 = Tensor(np.ones([1 * 2, 3, 12]).astype(np.float32))
c0 = Tensor(np.ones([1 * 2, 3, 12]).astype(np.float32))
output, (hn, cn) = net(input, h0, c0)
""", values=("output", "hn", "cn", "[p.name for p in net.trainable_params()]"), probe="""
rng = np.random.RandomState(2)
for p in net.trainable_params():
    p.set_data(Tensor(rng.uniform(-0.3, 0.3, p.shape).astype(np.float32)))
output, (hn, cn) = net(input, h0, c0)
""")

_nn("Lamb", """
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
optim = nn.Lamb(params=net.trainable_params(), decay_steps=10)
model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
""", context=NET + "from mindspore import Model\n", values=TRAINED, probe=TRAIN_PROBE.format(optim="optim"),
    variant="""
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
optim = nn.Lamb(params=net.trainable_params(),
                learning_rate=nn.PolynomialDecayLR(0.1, 0.0001, decay_steps=10, power=1.0))
model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
""")

_nn("LayerNorm", """
x = Tensor(np.ones([20, 5, 10, 10], np.float32))
shape1 = x.shape()[1:]
m = nn.LayerNorm(shape1,  begin_norm_axis=1, begin_params_axis=1)
m(x)
""", values=("m(x)[:2, :2, :2, :2]", "m.gamma.shape", "m(x * Tensor(np.arange(1000).reshape(5, 10, 10), \
mindspore.float32))[0, :2, :2, :3]"))

_nn("Loss", """
x = Tensor(np.array(0.2), mindspore.float32)
loss = nn.Loss()
loss.clear()
loss.update(x)
result = loss.eval()
""", "0.20000000298023224", values=("result",))

_nn("MAE", """
x = Tensor(np.array([0.1, 0.2, 0.6, 0.9]), mindspore.float32)
y = Tensor(np.array([0.1, 0.25, 0.7, 0.9]), mindspore.float32)
error = nn.MAE()
error.clear()
error.update(x, y)
result = error.eval()
""", values=("result",))

_nn("MSE", """
x = Tensor(np.array([0.1, 0.2, 0.6, 0.9]), mindspore.float32)
y = Tensor(np.array([0.1, 0.25, 0.5, 0.9]), mindspore.float32)
error = nn.MSE()
error.clear()
error.update(x, y)
result = error.eval()
""", values=("result",))

_nn("MSELoss", """
loss = nn.MSELoss()
input_data = Tensor(np.array([1, 2, 3]), mindspore.float32)
target_data = Tensor(np.array([1, 2, 2]), mindspore.float32)
loss(input_data, target_data)
""", values=("loss(input_data, target_data)",))

_nn("MaxPool2d", """
pool = MaxPool2d(kernel_size=3, stride=1)
x = Tensor(np.random.randint(0, 10, [1, 2, 4, 4]), mindspore.float32)
output = pool(x)
output.shape()
output
""", """
[[[[1. 5. 5. 1.]
   [0. 3. 4. 8.]
   [4. 2. 7. 6.]
   [4. 9. 0. 1.]]
  [[3. 6. 2. 6.]
   [4. 4. 7. 8.]
   [0. 0. 4. 0.]
   [1. 8. 7. 0.]]]]
(1, 2, 2, 2)
[[[[7. 8.]
   [9. 9.]]
  [[7. 8.]
   [8. 8.]]]]
""", context=PRELUDE + "from mindspore.nn import MaxPool2d\n", values=("x", "output", "output.shape"))

_nn("Momentum", """
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
optim = nn.Momentum(params=net.trainable_params(), learning_rate=0.1, momentum=0.9)
model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
""", context=NET + "from mindspore import Model\n", values=TRAINED, probe=TRAIN_PROBE.format(optim="optim"))

_nn("Norm", """
net = nn.Norm(axis=0)
input = Tensor(np.random.randint(0, 10, [4, 16]), mindspore.float32)
net(input)
""", values=("input", "net(input)"))

_nn("OneHot", """
net = nn.OneHot(depth=4, axis=1)
indices = Tensor([[1, 3], [0, 2]], dtype=mindspore.int32)
net(indices)
""", """
[[[0. 0.]
  [1. 0.]
  [0. 0.]
  [0. 1.]]
 [[1. 0.]
  [0. 0.]
  [0. 1.]
  [0. 0.]]]
""", values=("net(indices)",))

_nn("ParameterUpdate", """
network = Net()
param = network.parameters_dict()['learning_rate']
update = nn.ParameterUpdate(param)
update.phase = "update_param"
lr = Tensor(0.001, mindspore.float32)
update(lr)
""", context=PRELUDE + """
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.learning_rate = mindspore.Parameter(Tensor(0.1, mindspore.float32), name='learning_rate')
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        return self.dense(x) * self.learning_rate
""", values=("network.learning_rate", "update(lr)"))

_nn("Precision", """
x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
y = Tensor(np.array([1, 0, 1]))
metric = nn.Precision('classification')
metric.clear()
metric.update(x, y)
precision = metric.eval()
""", "[0.5 1. ]", values=("precision",))

_nn("Recall", """
x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
y = Tensor(np.array([1, 0, 1]))
metric = nn.Recall('classification')
metric.clear()
metric.update(x, y)
recall = metric.eval()
""", "[1.  0.5]", values=("recall",))

_nn("SGD", """
net = Net()
loss = nn.SoftmaxCrossEntropyWithLogits()
optim = nn.SGD(params=net.trainable_params())
model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
""", context=NET + "from mindspore import Model\n", values=TRAINED, probe=TRAIN_PROBE.format(optim="optim"))

_nn("SequentialCell", """
conv = nn.Conv2d(3, 2, 3, pad_mode='valid')
bn = nn.BatchNorm2d(2)
relu = nn.ReLU()
seq = nn.SequentialCell([conv, bn, relu])

x = Tensor(np.random.random((1, 3, 4, 4)), dtype=mindspore.float32)
seq(x)
""", """
[[[[0.02531557 0.        ]
   [0.04933941 0.04880078]]
  [[0.         0.        ]
   [0.         0.        ]]]]
""", values=("seq(x).shape", "seq(x)"), probe="""
conv.weight.set_data(Tensor(np.random.RandomState(2).normal(0, 0.1, (2, 3, 3, 3)).astype(np.float32)))
x = Tensor(np.random.RandomState(3).random((1, 3, 4, 4)), dtype=mindspore.float32)
print(seq(x))
""")

_nn("SmoothL1Loss", """
loss = nn.SmoothL1Loss()
input_data = Tensor(np.array([1, 2, 3]), mindspore.float32)
target_data = Tensor(np.array([1, 2, 2]), mindspore.float32)
loss(input_data, target_data)
""", values=("loss(input_data, target_data)",))

_nn("SoftmaxCrossEntropyExpand", """
loss = nn.SoftmaxCrossEntropyExpand(sparse=True)
input_data = Tensor(np.ones([64, 512]), dtype=mindspore.float32)
label = Tensor(np.ones([64]), dtype=mindspore.int32)
loss(input_data, label)
""", values=("loss(input_data, label)",))

_nn("SoftmaxCrossEntropyWithLogits", """
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=False)
logits = Tensor(np.random.randint(0, 9, [1, 10]), mindspore.float32)
labels_np = np.zeros([1, 10]).astype(np.float32)
labels_np[0][0] = 1
labels = Tensor(labels_np)
loss(logits, labels)
""", values=("logits", "loss(logits, labels)"))

_TOPK_X = """
x = Tensor(np.array([[0.2, 0.5, 0.3, 0.6, 0.2], [0.1, 0.35, 0.5, 0.2, 0.],
        [0.9, 0.6, 0.2, 0.01, 0.3]]), mindspore.float32)
y = Tensor(np.array([2, 0, 1]), mindspore.float32)
"""

_nn("Top1CategoricalAccuracy", _TOPK_X + """
topk = nn.Top1CategoricalAccuracy()
topk.clear()
topk.update(x, y)
result = topk.eval()
""", values=("result",))

_nn("Top5CategoricalAccuracy", _TOPK_X + """
topk = nn.Top5CategoricalAccuracy()
topk.clear()
topk.update(x, y)
result = topk.eval()
""", values=("result",))

_nn("TopKCategoricalAccuracy", _TOPK_X + """
topk = nn.TopKCategoricalAccuracy(3)
topk.clear()
topk.update(x, y)
result = topk.eval()
""", "0.6666666666666666", values=("result",))

_nn("TrainOneStepCell", """
net = Net()
loss_fn = nn.SoftmaxCrossEntropyWithLogits()
optim = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
loss_net = nn.WithLossCell(net, loss_fn)
train_net = nn.TrainOneStepCell(loss_net, optim)
""", context=NET, values=TRAINED, probe="""
data = Tensor(np.random.RandomState(1).normal(0, 1, (4, 16)).astype(np.float32))
label = Tensor(np.eye(10)[[1, 3, 5, 7]].astype(np.float32))
for _ in range(3):
    print(train_net(data, label))
""")

_nn("TrainOneStepWithLossScaleCell", """
net_with_loss = Net()
optimizer = nn.Momentum(net_with_loss.trainable_params(), learning_rate=0.1, momentum=0.9)
manager = nn.DynamicLossScaleUpdateCell(init_loss_scale=2**12, scale_factor=2, scale_window=1000)
train_network = nn.TrainOneStepWithLossScaleCell(net_with_loss, optimizer, scale_update_cell=manager)
train_network.set_train()

inputs = Tensor(np.ones([16, 16]).astype(np.float32))
label = Tensor(np.zeros([16, 16]).astype(np.float32))
scaling_sens = Tensor(np.full((1), np.finfo(np.float32).max), dtype=mindspore.float32)
output = train_network(inputs, label, scaling_sens)
""", context=NET_WITH_LOSS)

_nn("WithEvalCell", """
# For a defined network Net without loss function
net = Net()
loss_fn = nn.SoftmaxCrossEntropyWithLogits()
eval_net = nn.WithEvalCell(net, loss_fn)
""", context=NET, values=("loss_value", "outputs", "labels"), probe="""
data = Tensor(np.random.RandomState(1).normal(0, 1, (4, 16)).astype(np.float32))
label = Tensor(np.eye(10)[[1, 3, 5, 7]].astype(np.float32))
loss_value, outputs, labels = eval_net(data, label)
""")

_nn("WithGradCell", """
# For a defined network Net without loss function
net = Net()
loss_fn = nn.SoftmaxCrossEntropyWithLogits()
grad_net = nn.WithGradCell(net, loss_fn)  # restored: the page lost this line

# For a network wrapped with loss function
net = Net()
net_with_criterion = nn.WithLossCell(net, loss_fn)
grad_net = nn.WithGradCell(net_with_criterion)  # restored: the page lost this line
""", context=NET, values=("grads",), probe="""
data = Tensor(np.random.RandomState(1).normal(0, 1, (4, 16)).astype(np.float32))
label = Tensor(np.eye(10)[[1, 3, 5, 7]].astype(np.float32))
grads = grad_net(data, label)
""")

_nn("WithLossCell", """
net = Net()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(is_grad=False, sparse=True)  # restored: the page lost this line
net_with_criterion = nn.WithLossCell(net, loss_fn)

batch_size = 2
data = Tensor(np.ones([batch_size, 3, 64, 64]).astype(np.float32) * 0.01)
label = Tensor(np.ones([batch_size, 1, 1, 1]).astype(np.int32))

net_with_criterion(data, label)
""", context=PRELUDE + """
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.conv = nn.Conv2d(3, 10, 64, pad_mode='valid', weight_init='ones')

    def construct(self, x):
        return self.conv(x)
""")

_nn("get_activation", """
sigmoid = nn.get_activation('sigmoid')
""", values=("type(sigmoid).__name__", "sigmoid(Tensor(np.array([0.0, 2.0]), mindspore.float32))"))

_nn("get_metric_fn", """
metric = get_metric_fn('precision', eval_type='classification')
""", context=PRELUDE + "from mindspore.nn.metrics import get_metric_fn\n",
    values=("type(metric).__name__", "metric._class_num if hasattr(metric, '_class_num') else None"))


# -------------------------------------------------------------------------- what MindSpore 2.10 needs instead
# Where a page's code does not run with MindSpore 2.10, its variant is the same code with the page's older
# spelling replaced by 2.10's (one rule each); cellonnx runs the page's code and must show what MindSpore 2.10
# shows for the variant. Variants written out in full above (AdamWeightDecayDynamicLR, LARS, Lamb) are kept.
VARIANT_RULES: list[tuple[str, str, str]] = [
    # (what the page writes, what MindSpore 2.10 needs, why)
    ("mindspore.nn.Buffer(", "register_buffer", "2.10's Buffer class is private (_Buffer)"),
    (".shape()", ".shape", "Tensor.shape is a tuple since MindSpore 0.5"),
    ("scale_update_cell=", "scale_sense=", "TrainOneStepWithLossScaleCell's argument was renamed"),
    ("init_loss_scale=", "loss_scale_value=", "the page's keyword; the class's own signature names it so"),
    ("is_grad=False, ", "", "SoftmaxCrossEntropyWithLogits lost is_grad (a graph-mode flag)"),
    ("nn.SoftmaxCrossEntropyExpand(sparse=True)",
     "nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')",
     "SoftmaxCrossEntropyExpand left mindspore.nn; this is the same loss"),
]


def _variant(code: str) -> str:
    for old, new, _ in VARIANT_RULES:
        if old not in code:
            continue
        code = with_registered_buffers(code) if new == "register_buffer" else code.replace(old, new)
    return code


for _i, _e in enumerate(EXAMPLES):
    if not _e.variant and _variant(_e.code) != _e.code:
        EXAMPLES[_i] = replace(_e, variant=_variant(_e.code))
