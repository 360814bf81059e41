"""``inplace-lint explain``: run a program under a tracer and name the in-place write behind torch's
autograd error. Importing this package does not import torch; running the tracer does.

- :mod:`.tracer`   the TorchFunctionMode + saved-tensor hooks (imports torch)
- :mod:`.report`   the explanation's text, and the static check of the culprit's line (no torch)
- :mod:`.session`  ``inplace_lint.explain()``, the context manager
- :mod:`.cli`      ``inplace-lint explain script.py`` / ``-m module``
- :mod:`.pytest_plugin`  ``pytest --inplace-explain``
"""
