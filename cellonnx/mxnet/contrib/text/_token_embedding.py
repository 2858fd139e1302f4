"""The base of mx.contrib.text's token embeddings: a Vocabulary with one vector per index, read from
``token v1 v2 ...`` files, looked up by token, updated in place."""
from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Callable
from typing import Any

from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.contrib.text import _constants as C
from cellonnx.mxnet.contrib.text import vocab
from cellonnx.mxnet.util import is_np_array

__all__ = ["_TokenEmbedding"]


def _array(values: Any) -> Any:
    from cellonnx.mxnet import numpy as mx_np

    return mx_np.array(values) if is_np_array() else nd.array(values)


class _TokenEmbedding(vocab.Vocabulary):
    """Base of the token embeddings: a Vocabulary whose ``idx_to_vec`` holds one vector per index (index 0,
    the unknown token, holds the file's vector for it, or ``init_unknown_vec``'s)."""

    pretrained_file_names: tuple[str, ...] = ()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    @classmethod
    def _check_pretrained_file_names(cls, pretrained_file_name: str) -> None:
        name = cls.__name__.lower()
        if pretrained_file_name not in cls.pretrained_file_names:
            raise KeyError(f"Cannot find pretrained file {pretrained_file_name} for token embedding {name}. "
                           f"Valid pretrained files for embedding {name}: "
                           f"{', '.join(cls.pretrained_file_names)}")

    @classmethod
    def _get_pretrained_file(cls, embedding_root: str, pretrained_file_name: str) -> str:
        path = os.path.join(os.path.expanduser(embedding_root), cls.__name__.lower(), pretrained_file_name)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{cls.__name__}: the pre-trained file {pretrained_file_name} is not at "
                                    f"{path}; cellonnx does not download embeddings: put the file there (as "
                                    "MXNet's download left it) or pass embedding_root=")
        return path

    def _load_embedding(self, pretrained_file_path: str, elem_delim: str,
                        init_unknown_vec: Callable[..., Any], encoding: str = "utf8") -> None:
        """Read ``token v1 v2 ...`` lines: the first vector of a token wins, one-number lines (headers) are
        skipped, every vector must have the first one's length."""
        pretrained_file_path = os.path.expanduser(pretrained_file_path)
        if not os.path.isfile(pretrained_file_path):
            raise ValueError("`pretrained_file_path` must be a valid path to the pre-trained token embedding "
                             "file.")
        logging.info("Loading pre-trained token embedding vectors from %s", pretrained_file_path)
        vec_len: int | None = None
        all_elems: list[float] = []
        tokens: set = set()
        loaded_unknown_vec = None
        with open(pretrained_file_path, encoding=encoding) as f:
            for line_num, line in enumerate(f, 1):
                elems = line.rstrip().split(elem_delim)
                assert len(elems) > 1, (f"At line {line_num} of the pre-trained text embedding file: the "
                                        "data format of the pre-trained token embedding file "
                                        f"{pretrained_file_path} is unexpected.")
                token, values = elems[0], [float(i) for i in elems[1:]]
                if token == self.unknown_token and loaded_unknown_vec is None:
                    loaded_unknown_vec = values
                    tokens.add(self.unknown_token)
                elif token in tokens:
                    warnings.warn(f"At line {line_num} of the pre-trained token embedding file: the "
                                  f"embedding vector for token {token} has been loaded and a duplicate "
                                  "embedding for the  same token is seen and skipped.", stacklevel=2)
                elif len(values) == 1:
                    warnings.warn(f"At line {line_num} of the pre-trained text embedding file: token {token} "
                                  f"with 1-dimensional vector {values} is likely a header and is skipped.",
                                  stacklevel=2)
                else:
                    if vec_len is None:
                        vec_len = len(values)
                        all_elems.extend([0] * vec_len)  # index 0 is the unknown token's
                    else:
                        assert len(values) == vec_len, (
                            f"At line {line_num} of the pre-trained token embedding file: the dimension of "
                            f"token {token} is {len(values)} but the dimension of previous tokens is "
                            f"{vec_len}. Dimensions of all the tokens must be the same.")
                    all_elems.extend(values)
                    self._idx_to_token.append(token)
                    self._token_to_idx[token] = len(self._idx_to_token) - 1
                    tokens.add(token)
        self._vec_len = vec_len
        self._idx_to_vec = _array(all_elems).reshape((-1, self.vec_len))
        if loaded_unknown_vec is None:
            init = init_unknown_vec(shape=self.vec_len)
            self._idx_to_vec[C.UNKNOWN_IDX] = init.as_np_ndarray() if is_np_array() else init
        else:
            self._idx_to_vec[C.UNKNOWN_IDX] = _array(loaded_unknown_vec)

    def _index_tokens_from_vocabulary(self, vocabulary: vocab.Vocabulary) -> None:
        self._token_to_idx = vocabulary.token_to_idx.copy()
        self._idx_to_token = vocabulary.idx_to_token[:]
        self._unknown_token = vocabulary.unknown_token
        reserved = vocabulary.reserved_tokens
        self._reserved_tokens = reserved[:] if reserved is not None else None

    def _set_idx_to_vec_by_embeddings(self, token_embeddings: list, vocab_len: int,
                                      vocab_idx_to_token: list) -> None:
        """One row per vocabulary token: the embeddings' vectors side by side (row 0: the unknown ones)."""
        from cellonnx.mxnet import numpy as mx_np

        new_vec_len = sum(embed.vec_len for embed in token_embeddings)
        new_idx_to_vec = (mx_np.zeros if is_np_array() else nd.zeros)(shape=(vocab_len, new_vec_len))
        col_start = 0
        for embed in token_embeddings:
            col_end = col_start + embed.vec_len
            new_idx_to_vec[0, col_start:col_end] = embed.idx_to_vec[0]
            new_idx_to_vec[1:, col_start:col_end] = embed.get_vecs_by_tokens(vocab_idx_to_token[1:])
            col_start = col_end
        self._vec_len = new_vec_len
        self._idx_to_vec = new_idx_to_vec

    def _build_embedding_for_vocabulary(self, vocabulary: vocab.Vocabulary | None) -> None:
        if vocabulary is not None:
            assert isinstance(vocabulary, vocab.Vocabulary), \
                "The argument `vocabulary` must be an instance of mxnet.contrib.text.vocab.Vocabulary."
            self._set_idx_to_vec_by_embeddings([self], len(vocabulary), vocabulary.idx_to_token)
            self._index_tokens_from_vocabulary(vocabulary)

    @property
    def vec_len(self) -> int | None:
        """int: the length of each vector."""
        return self._vec_len

    @property
    def idx_to_vec(self) -> Any:
        """NDArray: the vectors, one row per index."""
        return self._idx_to_vec

    def get_vecs_by_tokens(self, tokens: Any, lower_case_backup: bool = False) -> Any:
        """The vector of a token (1-D), or of each token of a list (2-D); unknown tokens get row 0.

        Args:
            tokens (str | list[str]): the token(s).
            lower_case_backup (bool): look a token up lower-cased when it is not indexed as given.
                Default: False.
        """
        single = not isinstance(tokens, list)
        tokens = [tokens] if single else tokens
        if lower_case_backup:
            indices = [self.token_to_idx[t] if t in self.token_to_idx
                       else self.token_to_idx.get(t.lower(), C.UNKNOWN_IDX) for t in tokens]
        else:
            indices = [self.token_to_idx.get(t, C.UNKNOWN_IDX) for t in tokens]
        if is_np_array():
            from cellonnx.mxnet import numpy_extension as npx

            vecs = npx.embedding(_array(indices), self.idx_to_vec, self.idx_to_vec.shape[0],
                                 self.idx_to_vec.shape[1])
        else:
            vecs = nd.Embedding(nd.array(indices), self.idx_to_vec, self.idx_to_vec.shape[0],
                                self.idx_to_vec.shape[1])
        return vecs[0] if single else vecs

    def update_token_vectors(self, tokens: Any, new_vectors: Any) -> None:
        """Replace the vectors of indexed tokens.

        Args:
            tokens (str | list[str]): the token(s); the unknown token only when named as such.
            new_vectors (NDArray): 1-D or 2-D for one token, (len(tokens), vec_len) for several.

        Raises:
            ValueError: a token that is not indexed.
        """
        assert self.idx_to_vec is not None, "The property `idx_to_vec` has not been properly set."
        if not isinstance(tokens, list) or len(tokens) == 1:
            assert isinstance(new_vectors, nd.NDArray) and len(new_vectors.shape) in [1, 2], \
                "`new_vectors` must be a 1-D or 2-D NDArray if `tokens` is a singleton."
            tokens = tokens if isinstance(tokens, list) else [tokens]
            if len(new_vectors.shape) == 1:
                new_vectors = new_vectors.reshape((1, -1))
        else:
            assert isinstance(new_vectors, nd.NDArray) and len(new_vectors.shape) == 2, \
                "`new_vectors` must be a 2-D NDArray if `tokens` is a list of multiple strings."
        assert tuple(new_vectors.shape) == (len(tokens), self.vec_len), \
            "The length of new_vectors must be equal to the number of tokens and the width of" \
            "new_vectors must be equal to the dimension of embeddings of the glossary."
        indices = []
        for token in tokens:
            if token not in self.token_to_idx:
                raise ValueError(f"Token {token} is unknown. To update the embedding vector for an unknown "
                                 "token, please specify it explicitly as the `unknown_token` "
                                 f"{self.idx_to_token[C.UNKNOWN_IDX]} in `tokens`. This is to avoid "
                                 "unintended updates.")
            indices.append(self.token_to_idx[token])
        for row, idx in enumerate(indices):
            self._idx_to_vec[idx] = new_vectors[row]
