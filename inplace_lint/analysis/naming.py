"""What names say about values the analysis cannot see being made.

An unannotated parameter, or an attribute of one, may be anything; its name is often the only evidence.
These patterns come from false positives on real code (docs/real-world-findings.md): shapes and sizes are
Python ints, token ids and labels are integer tensors (which can never require grad), and functions that
post-process or generate return values nobody backpropagates through.
"""

from __future__ import annotations

import re

# Python ints/tuples/strings: shapes, sizes, counts, indices, steps, configuration, kinds and modes
# (``norm_type``, ``reduction_mode``), small constants (``eps``).
_COUNT = re.compile(
    r"^(?:.*_)?(?:shape|shapes|size|sizes|dim|dims|ndim|len|length|lengths|num|count|counts|multiple|stride|"
    r"strides|padding|kernel_size|step|steps|global_step|epoch|epochs|iteration|iter|rank|"
    r"world_size|seed|depth|width|height|channels|heads|layers|type|types|mode|kind|name|names|eps|epsilon|"
    r"alignment)$"
    r"|^(?:num|n|max|min)_.+$"
    r"|^(?:config|cfg|conf|args|hparams|opts|options|kwargs_dict)$"
    r"|^.+_(?:config|cfg)$"
)
# Integer or boolean tensors: they can never require grad.
_INTEGER_TENSOR = re.compile(
    r"^(?:.*_)?(?:ids|labels|label|target|targets|target_ids|index|indices|positions|tokens|mask|masks)$"
)
# Functions whose results are for people, not for backward.
_INFERENCE_FUNCTION = re.compile(
    r"^_*(?:post_?process|postprocess|predict|infer|inference|generate|sample|evaluate|visuali[sz]e|"
    r"plot|show|draw|render|export|save|log|summari[sz]e|to_numpy|to_list)"
)


# Callables we cannot see that are probably nn.Modules (they keep their inputs and parameters for
# backward); a generic callable (func, fn, callback, hook, op) is not assumed to.
_MODULE = re.compile(
    r"(?:^|_)(?:model|models|net|network|layer|layers|module|encoder|decoder|block|blocks|head|heads|backbone|"
    r"mlp|ffn|conv|linear|lin|lstm|rnn|gru|cell|attn|attention|embed|embedding|embeddings|proj|projection|fc|"
    r"classifier|generator|discriminator|critic|actor|policy|stem|neck|transformer|bert|vit|resnet|unet|"
    r"g|d|netg|netd|gen|disc|teacher|student|ema|expert|experts|gate|router)\d*$"
)


def looks_like_module(name: str) -> bool:
    """``model``, ``self.encoder``, ``netD``, ``layer3``: a module, not ``func``/``callback``/``hook``."""
    last = name.split(".")[-1].lower()
    return bool(_MODULE.search(last))


def looks_like_count(name: str) -> bool:
    """``input_shape``, ``vocab_size``, ``num_heads``, ``config``: not a tensor."""
    return bool(_COUNT.match(name.lower()))


def looks_like_integer_tensor(name: str) -> bool:
    """``input_ids``, ``labels``, ``attention_mask``: a tensor that cannot require grad."""
    return bool(_INTEGER_TENSOR.match(name.lower()))


def looks_like_inference(function_name: str) -> bool:
    """``post_process_detection``, ``predict``, ``generate``: its results are not backpropagated."""
    return bool(_INFERENCE_FUNCTION.match(function_name.lower()))
