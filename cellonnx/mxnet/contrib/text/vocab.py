"""``mx.contrib.text.vocab``: Vocabulary, the index of text tokens (unknown token first, then the reserved
tokens, then the counted tokens by falling frequency)."""
from __future__ import annotations

import collections
from collections.abc import Hashable
from typing import Any

from cellonnx.mxnet.contrib.text import _constants as C

__all__ = ["Vocabulary"]


class Vocabulary:
    """Indices of text tokens: index 0 is ``unknown_token``, then ``reserved_tokens``, then the keys of
    ``counter`` by falling frequency (ties in key order) down to ``min_freq``, at most ``most_freq_count``
    of them.

    Args:
        counter (collections.Counter | None): token frequencies. Default: None.
        most_freq_count (int | None): the most counted tokens to index. Default: None (all).
        min_freq (int): the least frequency of an indexed token. Default: 1.
        unknown_token (Hashable): what any unknown token maps to. Default: ``'<unk>'``.
        reserved_tokens (list | None): tokens always indexed (padding, sentence marks). Default: None.

    Examples:
        >>> from collections import Counter
        >>> from cellonnx.mxnet.contrib.text.vocab import Vocabulary
        >>> vocab = Vocabulary(Counter(['a', 'b', 'b', 'c', 'c', 'c']), reserved_tokens=['<pad>'])
        >>> vocab.idx_to_token
        ['<unk>', '<pad>', 'c', 'b', 'a']
        >>> vocab.to_indices(['b', 'zzz']), vocab.to_tokens(2)
        ([3, 0], 'c')
    """

    def __init__(self, counter: collections.Counter | None = None, most_freq_count: int | None = None,
                 min_freq: int = 1, unknown_token: Hashable = "<unk>",
                 reserved_tokens: list | None = None) -> None:
        assert min_freq > 0, "`min_freq` must be set to a positive value."
        if reserved_tokens is not None:
            assert unknown_token not in set(reserved_tokens), \
                "`reserved_token` cannot contain `unknown_token`."
            assert len(set(reserved_tokens)) == len(reserved_tokens), \
                "`reserved_tokens` cannot contain duplicate reserved tokens."
        self._index_unknown_and_reserved_tokens(unknown_token, reserved_tokens)
        if counter is not None:
            self._index_counter_keys(counter, unknown_token, reserved_tokens, most_freq_count, min_freq)

    def _index_unknown_and_reserved_tokens(self, unknown_token: Hashable,
                                           reserved_tokens: list | None) -> None:
        self._unknown_token = unknown_token
        self._idx_to_token: list = [unknown_token]
        self._reserved_tokens = None if reserved_tokens is None else reserved_tokens[:]
        if reserved_tokens is not None:
            self._idx_to_token.extend(reserved_tokens)
        self._token_to_idx: dict = {token: idx for idx, token in enumerate(self._idx_to_token)}

    def _index_counter_keys(self, counter: collections.Counter, unknown_token: Hashable,
                            reserved_tokens: list | None, most_freq_count: int | None, min_freq: int) -> None:
        assert isinstance(counter, collections.Counter), \
            "`counter` must be an instance of collections.Counter."
        special = set(reserved_tokens) if reserved_tokens is not None else set()
        special.add(unknown_token)
        token_freqs = sorted(counter.items(), key=lambda x: x[0])
        token_freqs.sort(key=lambda x: x[1], reverse=True)
        token_cap = len(special) + (len(counter) if most_freq_count is None else most_freq_count)
        for token, freq in token_freqs:
            if freq < min_freq or len(self._idx_to_token) == token_cap:
                break
            if token not in special:
                self._idx_to_token.append(token)
                self._token_to_idx[token] = len(self._idx_to_token) - 1

    def __len__(self) -> int:
        return len(self.idx_to_token)

    @property
    def token_to_idx(self) -> dict:
        """dict: each indexed token's index."""
        return self._token_to_idx

    @property
    def idx_to_token(self) -> list:
        """list: the indexed tokens, in index order."""
        return self._idx_to_token

    @property
    def unknown_token(self) -> Hashable:
        """The token any unknown token maps to (index 0)."""
        return self._unknown_token

    @property
    def reserved_tokens(self) -> list | None:
        """list | None: the reserved tokens."""
        return self._reserved_tokens

    def to_indices(self, tokens: Any) -> Any:
        """The index of a token, or the indices of a list of tokens (0 for unknown ones)."""
        single = not isinstance(tokens, list)
        tokens = [tokens] if single else tokens
        indices = [self.token_to_idx.get(token, C.UNKNOWN_IDX) for token in tokens]
        return indices[0] if single else indices

    def to_tokens(self, indices: Any) -> Any:
        """The token of an index, or the tokens of a list of indices.

        Raises:
            ValueError: an index that is not an int of the vocabulary.
        """
        single = not isinstance(indices, list)
        indices = [indices] if single else indices
        max_idx = len(self.idx_to_token) - 1
        tokens = []
        for idx in indices:
            if not isinstance(idx, int) or idx > max_idx:
                raise ValueError(f"Token index {idx} in the provided `indices` is invalid.")
            tokens.append(self.idx_to_token[idx])
        return tokens[0] if single else tokens
