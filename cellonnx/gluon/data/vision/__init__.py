"""gluon.data.vision (being written)."""
