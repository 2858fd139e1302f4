"""``import cellonnx`` leaves SciPy's special functions and linear algebra unloaded (a third of its time),
and the ops that call them load them on first use."""
from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import numpy as np
import cellonnx as ms
from cellonnx import ops
assert "scipy.special._ufuncs" not in sys.modules and "scipy.linalg._basic" not in sys.modules, \\
    sorted(m for m in sys.modules if m.startswith("scipy."))
x = np.array([0.5, 1.0, 2.5], np.float32)
j0 = ops.BesselJ0()(ms.Tensor(x)).asnumpy()
expm = ops.matrix_exp(ms.Tensor(np.diag(x))).asnumpy()
import math
from scipy import special
np.testing.assert_allclose(j0, special.j0(x.astype(np.float64)), rtol=1e-6)
np.testing.assert_allclose(np.diag(expm), [math.exp(v) for v in x], rtol=1e-6)
print("ok")
"""


def test_scipy_loads_on_first_use() -> None:
    proc = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
