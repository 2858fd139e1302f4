"""Docstring examples of mx.nd's linear algebra, random sampling and densities,
and the descriptions of those whose implementation has none (checked against MXNet 1.9.1 by
tests/docs/mxnet_crosscheck.py)."""
from __future__ import annotations

EXAMPLES = {
    "linalg_det": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[4.0, 2.0], [2.0, 3.0]])
    >>> print(nd.linalg_det(A))
    <BLANKLINE>
    [8.]
    <NDArray 1 @cpu(0)>
    """,
    "linalg_slogdet": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[-4.0, 2.0], [2.0, 3.0]])
    >>> sign, logabsdet = nd.linalg_slogdet(A)
    >>> print(sign)
    <BLANKLINE>
    [-1.]
    <NDArray 1 @cpu(0)>
    >>> print(logabsdet.asnumpy().round(4))
    [2.7726]
    """,
    "linalg_inverse": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[4.0, 2.0], [2.0, 3.0]])
    >>> print(nd.linalg_inverse(A))
    <BLANKLINE>
    [[ 0.375 -0.25 ]
     [-0.25   0.5  ]]
    <NDArray 2x2 @cpu(0)>
    """,
    "linalg_extractdiag": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(nd.linalg_extractdiag(A))
    <BLANKLINE>
    [1. 4.]
    <NDArray 2 @cpu(0)>
    >>> print(nd.linalg_extractdiag(A, offset=1))
    <BLANKLINE>
    [2.]
    <NDArray 1 @cpu(0)>
    """,
    "linalg_makediag": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.linalg_makediag(nd.array([1.0, 2.0])))
    <BLANKLINE>
    [[1. 0.]
     [0. 2.]]
    <NDArray 2x2 @cpu(0)>
    >>> print(nd.linalg_makediag(nd.array([1.0, 2.0]), offset=1))
    <BLANKLINE>
    [[0. 1. 0.]
     [0. 0. 2.]
     [0. 0. 0.]]
    <NDArray 3x3 @cpu(0)>
    """,
    "linalg_extracttrian": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(nd.linalg_extracttrian(A))
    <BLANKLINE>
    [1. 3. 4.]
    <NDArray 3 @cpu(0)>
    >>> print(nd.linalg_extracttrian(A, lower=False))
    <BLANKLINE>
    [1. 2. 4.]
    <NDArray 3 @cpu(0)>
    """,
    "linalg_maketrian": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.linalg_maketrian(nd.array([1.0, 2.0, 3.0])))
    <BLANKLINE>
    [[1. 0.]
     [2. 3.]]
    <NDArray 2x2 @cpu(0)>
    >>> print(nd.linalg_maketrian(nd.array([1.0, 2.0, 3.0]), lower=False))
    <BLANKLINE>
    [[1. 2.]
     [0. 3.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "linalg_gemm": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[1.0, 2.0], [3.0, 4.0]])
    >>> B = nd.array([[1.0, 0.0], [1.0, 1.0]])
    >>> C = nd.ones((2, 2))
    >>> print(nd.linalg_gemm(A, B, C, alpha=2.0, beta=10.0))
    <BLANKLINE>
    [[16. 14.]
     [24. 18.]]
    <NDArray 2x2 @cpu(0)>
    >>> print(nd.linalg_gemm(A, B, C, transpose_a=True, beta=0.0))
    <BLANKLINE>
    [[4. 3.]
     [6. 4.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "linalg_potrf": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[4.0, 2.0], [2.0, 3.0]])
    >>> print(nd.linalg_potrf(A).asnumpy().round(4))
    [[2.     0.    ]
     [1.     1.4142]]
    """,
    "linalg_potri": """
    >>> from cellonnx.mxnet import nd
    >>> L = nd.array([[2.0, 0.0], [1.0, 1.0]])
    >>> print(nd.linalg_potri(L).asnumpy().round(4))
    [[ 0.5 -0.5]
     [-0.5  1. ]]
    """,
    "linalg_sumlogdiag": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(nd.linalg_sumlogdiag(A).asnumpy().round(4))
    [1.3863]
    """,
    "linalg_syrk": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(nd.linalg_syrk(A))
    <BLANKLINE>
    [[ 5. 11.]
     [11. 25.]]
    <NDArray 2x2 @cpu(0)>
    >>> print(nd.linalg_syrk(A, transpose=True, alpha=0.5))
    <BLANKLINE>
    [[ 5.  7.]
     [ 7. 10.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "linalg_trmm": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[1.0, 0.0], [2.0, 1.0]])
    >>> B = nd.array([[1.0, 1.0], [1.0, 1.0]])
    >>> print(nd.linalg_trmm(A, B))
    <BLANKLINE>
    [[1. 1.]
     [3. 3.]]
    <NDArray 2x2 @cpu(0)>
    >>> print(nd.linalg_trmm(A, B, rightside=True, alpha=2.0))
    <BLANKLINE>
    [[6. 2.]
     [6. 2.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "linalg_trsm": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[1.0, 0.0], [2.0, 1.0]])
    >>> B = nd.array([[1.0, 1.0], [4.0, 3.0]])
    >>> print(nd.linalg_trsm(A, B))
    <BLANKLINE>
    [[1. 1.]
     [2. 1.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "linalg_gelqf": """
    >>> from cellonnx.mxnet import nd
    >>> A = nd.array([[3.0, 4.0]])
    >>> Q, L = nd.linalg_gelqf(A)
    >>> print(Q.asnumpy().round(4))
    [[-0.6 -0.8]]
    >>> print(L.asnumpy().round(4))
    [[-5.]]
    """,
    "random_exponential": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.random_exponential(lam=2.0, shape=(2, 3))
    >>> x.shape
    (2, 3)
    """,
    "random_gamma": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.random_gamma(alpha=2.0, beta=1.0, shape=(2, 3))
    >>> x.shape
    (2, 3)
    """,
    "random_generalized_negative_binomial": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.random_generalized_negative_binomial(mu=2.0, alpha=0.5, shape=(2, 3))
    >>> x.shape
    (2, 3)
    """,
    "random_negative_binomial": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.random_negative_binomial(k=3, p=0.4, shape=(2, 3))
    >>> x.shape
    (2, 3)
    """,
    "random_poisson": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.random_poisson(lam=4.0, shape=(2, 3))
    >>> x.shape
    (2, 3)
    """,
    "random_randint": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.random_randint(low=0, high=5, shape=(2, 3))
    >>> x.shape
    (2, 3)
    >>> x.dtype
    <class 'numpy.int32'>
    >>> bool(((x >= 0) * (x < 5)).min())
    True
    """,
    "sample_exponential": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.sample_exponential(nd.array([1.0, 2.0]), shape=3)
    >>> x.shape
    (2, 3)
    """,
    "sample_gamma": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.sample_gamma(nd.array([1.0, 2.0]), nd.array([1.0, 0.5]), shape=3)
    >>> x.shape
    (2, 3)
    """,
    "sample_generalized_negative_binomial": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.sample_generalized_negative_binomial(nd.array([1.0, 2.0]), nd.array([0.5, 1.0]), shape=3)
    >>> x.shape
    (2, 3)
    """,
    "sample_negative_binomial": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.sample_negative_binomial(nd.array([3, 5]), nd.array([0.4, 0.2]), shape=3)
    >>> x.shape
    (2, 3)
    """,
    "sample_normal": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.sample_normal(nd.array([0.0, 10.0]), nd.array([1.0, 2.0]), shape=3)
    >>> x.shape
    (2, 3)
    """,
    "sample_poisson": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.sample_poisson(nd.array([1.0, 4.0]), shape=3)
    >>> x.shape
    (2, 3)
    """,
    "sample_uniform": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.sample_uniform(nd.array([0.0, 2.0]), nd.array([1.0, 3.0]), shape=3)
    >>> x.shape
    (2, 3)
    >>> bool((x[1] >= 2).min())
    True
    """,
    "random_pdf_normal": """
    >>> from cellonnx.mxnet import nd
    >>> sample = nd.array([[0.0, 1.0]])
    >>> print(nd.random_pdf_normal(sample, mu=nd.array([0.0]), sigma=nd.array([1.0])).asnumpy().round(4))
    [[0.3989 0.242 ]]
    """,
    "random_pdf_uniform": """
    >>> from cellonnx.mxnet import nd
    >>> sample = nd.array([[0.5, 1.5]])
    >>> print(nd.random_pdf_uniform(sample, low=nd.array([0.0]), high=nd.array([2.0])))
    <BLANKLINE>
    [[0.5 0.5]]
    <NDArray 1x2 @cpu(0)>
    """,
    "random_pdf_exponential": """
    >>> from cellonnx.mxnet import nd
    >>> sample = nd.array([[0.0, 1.0]])
    >>> print(nd.random_pdf_exponential(sample, lam=nd.array([2.0])).asnumpy().round(4))
    [[2.     0.2707]]
    """,
    "random_pdf_poisson": """
    >>> from cellonnx.mxnet import nd
    >>> sample = nd.array([[0, 1, 2]])
    >>> print(nd.random_pdf_poisson(sample, lam=nd.array([1.0])).asnumpy().round(4))
    [[0.3679 0.3679 0.1839]]
    """,
    "random_pdf_gamma": """
    >>> from cellonnx.mxnet import nd
    >>> sample = nd.array([[1.0, 2.0]])
    >>> print(nd.random_pdf_gamma(sample, alpha=nd.array([2.0]), beta=nd.array([1.0])).asnumpy().round(4))
    [[0.3679 0.2707]]
    """,
    "random_pdf_negative_binomial": """
    >>> from cellonnx.mxnet import nd
    >>> sample = nd.array([[0, 1]])
    >>> print(nd.random_pdf_negative_binomial(sample, k=nd.array([2]), p=nd.array([0.5])).asnumpy().round(4))
    [[0.25 0.25]]
    """,
    "random_pdf_generalized_negative_binomial": """
    >>> from cellonnx.mxnet import nd
    >>> sample = nd.array([[0, 1]])
    >>> p = nd.random_pdf_generalized_negative_binomial(sample, mu=nd.array([2.0]), alpha=nd.array([0.5]))
    >>> print(p.asnumpy().round(4))
    [[0.25 0.25]]
    """,
    "random_pdf_dirichlet": """
    >>> from cellonnx.mxnet import nd
    >>> sample = nd.array([[[0.2, 0.3, 0.5]]])
    >>> print(nd.random_pdf_dirichlet(sample, alpha=nd.array([[1.0, 1.0, 1.0]])).asnumpy().round(4))
    [[2.]]
    """,
    "shuffle": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2], [3, 4], [5, 6]])
    >>> y = nd.shuffle(x)
    >>> y.shape
    (3, 2)
    >>> sorted(y.asnumpy()[:, 0].tolist())
    [1.0, 3.0, 5.0]
    """,
}

# the descriptions of the operators whose implementation has none
SUMMARIES = {
    "linalg_det": "The determinant of (a batch of) square matrices.",
    "linalg_slogdet": ("The sign and the log of the absolute value of the determinant of (a batch of) square "
                       "matrices."),
    "linalg_inverse": "The inverse of (a batch of) square matrices.",
    "random_randint": "Random integers in [``low``, ``high``) of ``shape`` (int32 by default).",
    "random_pdf_normal": ("The density of the normal distribution (``mu``, ``sigma``) at each row of "
                          "``sample``."),
    "random_pdf_uniform": ("The density of the uniform distribution on [``low``, ``high``) at each row of "
                           "``sample``."),
    "random_pdf_exponential": ("The density of the exponential distribution with rate ``lam`` at each row of "
                               "``sample``."),
    "random_pdf_poisson": ("The probability of each count of ``sample`` under the Poisson distribution of "
                           "rate ``lam``."),
    "random_pdf_negative_binomial": ("The probability of each count of ``sample`` under the negative binomial"
                                     " distribution (``k`` failures, success probability ``p``)."),
}
