"""``mx.contrib.text.embedding``: token embeddings (a Vocabulary with a vector per token): GloVe and
FastText read from pre-trained files under a local root, CustomEmbedding from any file of
``token v1 v2 ...`` lines, CompositeEmbedding concatenating several for one vocabulary; and the registry
(``register``, ``create``, ``get_pretrained_file_names``).

Nothing is downloaded: a pre-trained file is looked for at ``<embedding_root>/<glove|fasttext>/<file>``
(by default under ``$MXNET_HOME/embeddings``, where MXNet keeps the files it downloaded)."""
from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any

from cellonnx.mxnet import base
from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.contrib.text import _constants as C
from cellonnx.mxnet.contrib.text import vocab
from cellonnx.mxnet.contrib.text._token_embedding import _TokenEmbedding

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
