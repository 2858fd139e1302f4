"""``mx.contrib.text.utils``: counting the tokens of a string."""
from __future__ import annotations

import collections
import re

__all__ = ["count_tokens_from_str"]


def count_tokens_from_str(source_str: str, token_delim: str = " ", seq_delim: str = "\n",
                          to_lower: bool = False,
                          counter_to_update: collections.Counter | None = None) -> collections.Counter:
    """Count the tokens of a string split at ``token_delim`` and ``seq_delim`` (regular expressions).

    Args:
        source_str (str): the text.
        token_delim (str): the token delimiter. Default: ``' '``.
        seq_delim (str): the sequence delimiter. Default: ``'\\n'``.
        to_lower (bool): count lower-cased tokens. Default: False.
        counter_to_update (collections.Counter | None): a Counter to add the counts to (and return).
            Default: None (a new Counter).

    Returns:
        collections.Counter: the token counts.

    Examples:
        >>> from cellonnx.mxnet.contrib.text.utils import count_tokens_from_str
        >>> sorted(count_tokens_from_str(' Life is great ! \\n life is good . \\n', to_lower=True).items())
        [('!', 1), ('.', 1), ('good', 1), ('great', 1), ('is', 2), ('life', 2)]
    """
    tokens = [t for t in re.split(token_delim + "|" + seq_delim, source_str) if t]
    if to_lower:
        tokens = [t.lower() for t in tokens]
    if counter_to_update is None:
        return collections.Counter(tokens)
    counter_to_update.update(tokens)
    return counter_to_update
