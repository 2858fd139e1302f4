"""Text metrics: BLEU over token sequences and perplexity over predicted class probabilities."""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["BleuScore", "Perplexity"]


def _ngrams(tokens: Sequence[Any], n_max: int) -> Counter:
    """Every n-gram of 1..n_max tokens with its count."""
    counts: Counter = Counter()
    for n in range(1, n_max + 1):
        for i in range(len(tokens) - n + 1):
            counts[tuple(tokens[i:i + n])] += 1
    return counts


class BleuScore(Metric):
    r"""BLEU: the geometric mean of the clipped n-gram precisions (n = 1..``n_gram``) of candidate sentences
    against their references, times the brevity penalty :math:`\min(1, e^{1 - r/c})` (:math:`c` the candidate
    length, :math:`r` the closest reference length, both summed over the corpus).

    Args:
        n_gram (int): the largest n-gram, 1 to 4. Default: ``4``.
        smooth (bool): add one to every n-gram count and total. Default: ``False``.

    Examples:
        >>> m = nn.BleuScore()
        >>> m.update([["cat", "is", "on", "the", "mat"]], [[["there", "is", "a", "cat", "on", "the", "mat"]]])
    """

    def __init__(self, n_gram: int = 4, smooth: bool = False) -> None:
        super().__init__()
        if not isinstance(n_gram, int) or isinstance(n_gram, bool):
            raise TypeError(f"For 'BleuScore', the 'n_gram' must be an int, but got {type(n_gram).__name__}.")
        if not 1 <= n_gram <= 4:
            raise ValueError("For 'BleuScore', the argument 'n_gram' should range from 1 to 4, but got "
                             f"{n_gram}.")
        if not isinstance(smooth, bool):
            raise TypeError(f"For 'BleuScore', the 'smooth' must be a bool, but got {type(smooth).__name__}.")
        self.n_gram = n_gram
        self.smooth = smooth
        self.clear()

    def clear(self) -> None:
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Args: ``candidate_corpus`` (a list of token lists) and ``reference_corpus`` (for each candidate, a
        list of reference token lists)."""
        if len(inputs) != 2:
            raise ValueError("For 'BleuScore.update', it needs 2 inputs (candidate_corpus, "
                             f"reference_corpus), but got {len(inputs)}.")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError("For 'BleuScore.update', 'translate_corpus' (inputs[0]) and 'reference_corpus' "
                             f"(inputs[1]) should be equal in length, but got {len(candidates)}, "
                             f"{len(references)}")
        for cand, refs in zip(candidates, references):
            self._c += len(cand)
            lengths = [len(r) for r in refs]
            gaps = [abs(len(cand) - n) for n in lengths]
            self._r += lengths[gaps.index(min(gaps))]
            cand_counts = _ngrams(cand, self.n_gram)
            ref_counts: Counter = Counter()
            for ref in refs:
                ref_counts |= _ngrams(ref, self.n_gram)
            for gram, count in (cand_counts & ref_counts).items():
                self._numerator[len(gram) - 1] += count
            for gram, count in cand_counts.items():
                self._denominator[len(gram) - 1] += count
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._numerator + 1.0) / (self._denominator + 1.0)
        else:
            precision = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.log(precision) / self.n_gram))
        brevity = np.array(1.0) if self._c > self._r else np.exp(1 - np.array(self._r) / np.array(self._c))
        return brevity * geometric_mean


class Perplexity(Metric):
    r"""Perplexity :math:`\exp(-\frac{1}{N}\sum_i \log p_i(y_i))` of predicted class probabilities (the last
    axis) at the labels, the probabilities floored at 1e-10.

    Args:
        ignore_label (int, optional): a label whose positions are left out. Default: ``None``.

    Examples:
        >>> m = nn.Perplexity(ignore_label=None)
        >>> m.update(np.array([[0.6, 0.5, 0.1], [0.3, 0.6, 0.05]]), np.array([2, 1]))
    """

    def __init__(self, ignore_label: int | None = None) -> None:
        super().__init__()
        if ignore_label is not None and (not isinstance(ignore_label, int) or isinstance(ignore_label, bool)):
            raise TypeError(f"For 'Perplexity', the 'ignore_label' must be an int, but got "
                            f"{type(ignore_label).__name__}.")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self) -> None:
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Args: the predicted probabilities (..., C) and the labels (...)."""
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, label), but got "
                             f"{len(inputs)}.")
        pred = self._convert_data(inputs[0])
        label = self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError("For 'Perplexity.update', predicted value (input[0]) and label (input[1]) "
                               "should have "
                               f"the same shape, but got predicted value shape {pred.shape}, label shape "
                               f"{label.shape}.")
        label = label.reshape(-1)
        picked = pred.reshape(-1, pred.shape[-1])[np.arange(label.size), label.astype(int)]
        num = picked.size
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(picked.dtype)
            num -= np.sum(ignore)
            picked = picked * (1 - ignore) + ignore
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._num_inst += num

    def eval(self) -> float:
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of samples is 0, "
                               "please "
                               "check whether the update method has been called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)
