"""``mx.contrib.text.embedding``: token embeddings (a Vocabulary with a vector per token): GloVe and
FastText read from pre-trained files under a local root, CustomEmbedding from any file of
``token v1 v2 ...`` lines, CompositeEmbedding concatenating several for one vocabulary; and the registry
(``register``, ``create``, ``get_pretrained_file_names``).

Nothing is downloaded: a pre-trained file is looked for at ``<embedding_root>/<glove|fasttext>/<file>``
(by default under ``$MXNET_HOME/embeddings``, where MXNet keeps the files it downloaded)."""
from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Callable
from typing import Any

from cellonnx.mxnet import base
from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.contrib.text import _constants as C
from cellonnx.mxnet.contrib.text import vocab
from cellonnx.mxnet.util import is_np_array

__all__ = ["CompositeEmbedding", "CustomEmbedding", "FastText", "GloVe", "create",
           "get_pretrained_file_names", "register"]

_REGISTRY: dict[str, type] = {}


def register(embedding_cls: type) -> type:
    """Register a token embedding class under its lower-cased name, for ``create``.

    Examples:
        >>> from cellonnx.mxnet.contrib.text import embedding
        >>> @embedding.register
        ... class MyEmbed(embedding._TokenEmbedding):
        ...     def __init__(self, pretrained_file_name='my_file'):
        ...         super().__init__()
        >>> type(embedding.create('myembed')).__name__
        'MyEmbed'
    """
    assert issubclass(embedding_cls, _TokenEmbedding), "Can only register subclass of _TokenEmbedding"
    name = embedding_cls.__name__.lower()
    if name in _REGISTRY:
        new, old = embedding_cls, _REGISTRY[name]
        warnings.warn(f"New token embedding {new.__module__}.{new.__name__} registered with name {name} is "
                      f"overriding existing token embedding {old.__module__}.{old.__name__}", UserWarning,
                      stacklevel=2)
    _REGISTRY[name] = embedding_cls
    return embedding_cls


def create(embedding_name: str, **kwargs: Any) -> Any:
    """An instance of the registered token embedding ``embedding_name`` (case-insensitive).

    Examples:
        >>> from cellonnx.mxnet.contrib.text import embedding
        >>> embedding.create('word2vec')
        Traceback (most recent call last):
        ...
        AssertionError: word2vec is not registered. Please register with token embedding.register first
    """
    name = embedding_name.lower()
    assert name in _REGISTRY, f"{name} is not registered. Please register with token embedding.register first"
    return _REGISTRY[name](**kwargs)


def get_pretrained_file_names(embedding_name: str | None = None) -> Any:
    """The pre-trained file names of a registered embedding, or of each (a dict) when no name is given.

    Examples:
        >>> from cellonnx.mxnet.contrib.text import embedding
        >>> embedding.get_pretrained_file_names('glove')[:2]
        ['glove.42B.300d.txt', 'glove.6B.50d.txt']
    """
    if embedding_name is not None:
        if embedding_name not in _REGISTRY:
            raise KeyError(f"Cannot find `embedding_name` {embedding_name}. Use "
                           "`get_pretrained_file_names(embedding_name=None).keys()` to get all the valid "
                           "embedding names.")
        return list(_REGISTRY[embedding_name].pretrained_file_names)
    return {name: list(cls.pretrained_file_names) for name, cls in _REGISTRY.items()}


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


def _pretrained(cls: type, file_name: str, embedding_root: str, init_unknown_vec: Callable[..., Any],
                vocabulary: vocab.Vocabulary | None, instance: Any) -> None:
    cls._check_pretrained_file_names(file_name)
    instance._load_embedding(cls._get_pretrained_file(embedding_root, file_name), " ", init_unknown_vec)
    if vocabulary is not None:
        instance._build_embedding_for_vocabulary(vocabulary)


@register
class GloVe(_TokenEmbedding):
    """The GloVe word vectors, read from ``<embedding_root>/glove/<pretrained_file_name>``.

    Args:
        pretrained_file_name (str): one of ``get_pretrained_file_names('glove')``.
            Default: ``'glove.840B.300d.txt'``.
        embedding_root (str): the root of the embedding files. Default: ``$MXNET_HOME/embeddings``.
        init_unknown_vec (Callable): makes the unknown token's vector when the file has none.
            Default: ``nd.zeros``.
        vocabulary (Vocabulary | None): index these tokens (else every token of the file). Default: None.

    Raises:
        FileNotFoundError: the file is not there (the message names the path looked at).

    Examples:
        >>> import os, tempfile
        >>> from cellonnx.mxnet.contrib.text.embedding import GloVe
        >>> root = tempfile.mkdtemp()
        >>> os.makedirs(os.path.join(root, 'glove'))
        >>> with open(os.path.join(root, 'glove', 'glove.6B.50d.txt'), 'w') as f:
        ...     _ = f.write('hello 1 2\\nworld 3 4\\n')
        >>> glove = GloVe('glove.6B.50d.txt', embedding_root=root)
        >>> glove.idx_to_token, glove.get_vecs_by_tokens('world').asnumpy()
        (['<unk>', 'hello', 'world'], array([3., 4.], dtype=float32))
    """

    pretrained_file_names = tuple(C.PRETRAINED_FILES["glove"])

    def __init__(self, pretrained_file_name: str = "glove.840B.300d.txt",
                 embedding_root: str = os.path.join(base.data_dir(), "embeddings"),
                 init_unknown_vec: Callable[..., Any] = nd.zeros, vocabulary: vocab.Vocabulary | None = None,
                 **kwargs: Any) -> None:
        GloVe._check_pretrained_file_names(pretrained_file_name)
        super().__init__(**kwargs)
        _pretrained(GloVe, pretrained_file_name, embedding_root, init_unknown_vec, vocabulary, self)


@register
class FastText(_TokenEmbedding):
    """The fastText word vectors, read from ``<embedding_root>/fasttext/<pretrained_file_name>``.

    Args:
        pretrained_file_name (str): one of ``get_pretrained_file_names('fasttext')``.
            Default: ``'wiki.simple.vec'``.
        embedding_root (str): the root of the embedding files. Default: ``$MXNET_HOME/embeddings``.
        init_unknown_vec (Callable): makes the unknown token's vector when the file has none.
            Default: ``nd.zeros``.
        vocabulary (Vocabulary | None): index these tokens (else every token of the file). Default: None.

    Raises:
        FileNotFoundError: the file is not there (the message names the path looked at).

    Examples:
        >>> import tempfile
        >>> from cellonnx.mxnet.contrib.text.embedding import FastText
        >>> try:
        ...     FastText('wiki.simple.vec', embedding_root=tempfile.mkdtemp())
        ... except FileNotFoundError as error:
        ...     print(str(error).split(';')[0].split(' is not at ')[0])
        FastText: the pre-trained file wiki.simple.vec
    """

    pretrained_file_names = tuple(C.PRETRAINED_FILES["fasttext"])

    def __init__(self, pretrained_file_name: str = "wiki.simple.vec",
                 embedding_root: str = os.path.join(base.data_dir(), "embeddings"),
                 init_unknown_vec: Callable[..., Any] = nd.zeros, vocabulary: vocab.Vocabulary | None = None,
                 **kwargs: Any) -> None:
        FastText._check_pretrained_file_names(pretrained_file_name)
        super().__init__(**kwargs)
        _pretrained(FastText, pretrained_file_name, embedding_root, init_unknown_vec, vocabulary, self)


class CustomEmbedding(_TokenEmbedding):
    """Token vectors from a file of ``token<elem_delim>v1<elem_delim>v2 ...`` lines.

    Args:
        pretrained_file_path (str): the file.
        elem_delim (str): the delimiter within a line. Default: ``' '``.
        encoding (str): the file's encoding. Default: ``'utf8'``.
        init_unknown_vec (Callable): makes the unknown token's vector when the file has none.
            Default: ``nd.zeros``.
        vocabulary (Vocabulary | None): index these tokens (else every token of the file). Default: None.

    Examples:
        >>> import os, tempfile
        >>> from collections import Counter
        >>> from cellonnx.mxnet.contrib.text.embedding import CustomEmbedding
        >>> from cellonnx.mxnet.contrib.text.vocab import Vocabulary
        >>> path = os.path.join(tempfile.mkdtemp(), 'vecs.txt')
        >>> with open(path, 'w') as f:
        ...     _ = f.write('a,1,2\\nb,3,4\\n')
        >>> embed = CustomEmbedding(path, elem_delim=',', vocabulary=Vocabulary(Counter(['b', 'c'])))
        >>> embed.idx_to_token, embed.idx_to_vec.asnumpy().tolist()
        (['<unk>', 'b', 'c'], [[0.0, 0.0], [3.0, 4.0], [0.0, 0.0]])
    """

    def __init__(self, pretrained_file_path: str, elem_delim: str = " ", encoding: str = "utf8",
                 init_unknown_vec: Callable[..., Any] = nd.zeros, vocabulary: vocab.Vocabulary | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._load_embedding(pretrained_file_path, elem_delim, init_unknown_vec, encoding)
        if vocabulary is not None:
            self._build_embedding_for_vocabulary(vocabulary)


class CompositeEmbedding(_TokenEmbedding):
    """The vectors of several token embeddings side by side, for the tokens of one vocabulary.

    Args:
        vocabulary (Vocabulary): the tokens to index.
        token_embeddings (_TokenEmbedding | list): the embeddings to concatenate.

    Examples:
        >>> import os, tempfile
        >>> from collections import Counter
        >>> from cellonnx.mxnet.contrib.text.embedding import CompositeEmbedding, CustomEmbedding
        >>> from cellonnx.mxnet.contrib.text.vocab import Vocabulary
        >>> path = os.path.join(tempfile.mkdtemp(), 'vecs.txt')
        >>> with open(path, 'w') as f:
        ...     _ = f.write('a 1 2\\nb 3 4\\n')
        >>> one = CustomEmbedding(path)
        >>> both = CompositeEmbedding(Vocabulary(Counter(['a'])), [one, one])
        >>> both.vec_len, both.get_vecs_by_tokens('a').asnumpy().tolist()
        (4, [1.0, 2.0, 1.0, 2.0])
    """

    def __init__(self, vocabulary: vocab.Vocabulary, token_embeddings: Any) -> None:
        assert isinstance(vocabulary, vocab.Vocabulary), \
            "The argument `vocabulary` must be an instance of mxnet.contrib.text.indexer.Vocabulary."
        if not isinstance(token_embeddings, list):
            token_embeddings = [token_embeddings]
        for embed in token_embeddings:
            assert isinstance(embed, _TokenEmbedding), \
                "The argument `token_embeddings` must be an instance or a list of instances of " \
                "`mxnet.contrib.text.embedding.TextEmbedding` whose embedding vectors will be" \
                "loaded or concatenated-then-loaded to map to the indexed tokens."
        self._index_tokens_from_vocabulary(vocabulary)
        self._set_idx_to_vec_by_embeddings(token_embeddings, len(self), self.idx_to_token)
