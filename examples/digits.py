"""The data of part 4's training lessons: scikit-learn's handwritten digits, split one way for all.

The 1,797 8×8 images ship inside scikit-learn (nothing is downloaded). "A training loop with Optax"
and "Models with Flax NNX" train on the same split, so that their accuracies are measured on the
same 450 test images.
"""

from __future__ import annotations

import numpy as np


def load_split():
    """The digits as float32 images in [0, 1] and int32 labels: (X_train, X_test, y_train, y_test),
    75% to train and 25% to test, stratified by label, from a fixed seed.

    >>> X_train, X_test, y_train, y_test = load_split()
    >>> X_train.shape, X_test.shape, X_train.dtype, y_train.dtype, float(X_train.max())
    ((1347, 64), (450, 64), dtype('float32'), dtype('int32'), 1.0)
    """
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    X = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)
    return train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
