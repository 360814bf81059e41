"""Focused checks of the analysis on short snippets (the runnable, runtime-confirmed cases live in
tests/fixtures/; these pin down name resolution, grad modes, control flow and robustness)."""

import re
import subprocess
import sys
import textwrap

import pytest

from inplace_lint import LintOptions, lint_source
from inplace_lint.engine.core import LintError, might_have_hazard

MARKER = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")


def expected(source):
    out = set()
    for number, line in enumerate(source.splitlines(), 1):
        match = MARKER.search(line)
        if match:
            out |= {(number, code.strip()) for code in match.group(1).split(",")}
    return out


# The snippets are mostly plain functions: they state what holds when a parameter requires grad, the
# assumption the opt-in level (assume-params-are-tensors) makes; the default level is tested on its own below.
ASSUMED = LintOptions(assume_params_are_tensors=True)


def found(source, **options):
    options.setdefault("assume_params_are_tensors", True)
    return {(f.start.line, f.code) for f in lint_source(source, "snippet.py", LintOptions(**options))}


CASES = {
    # a module setting its own flag (self.inplace = True) switches no other module in place: the relu after
    # the sigmoid stays out of place
    "own_inplace_flag_switches_no_other_module": """
        import torch
        import torch.nn as nn
        class Swish(nn.Module):
            def __init__(self):
                super().__init__()
                self.inplace = True
            def forward(self, x):
                return x * torch.sigmoid(x)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = nn.ReLU()
                self.swish = Swish()
            def forward(self, x):
                return self.act(torch.sigmoid(x)) + self.swish(x)
    """,
    # a script whose top level calls a helper that writes its argument in place: the top level's backward
    # (and everything after the call) must be kept by the selection, or the save is never found stale
    # (runnable: eval/forum_programs/heldout11_reports/s11_23_custom_exp_function_saved_output_mul.py)
    "top_level_script_calls_a_writing_helper": """
        import torch
        def gate_(a, b):
            a.mul_(torch.sigmoid(b))  # expect: AGI001
            return a
        w = torch.randn(4, 4, requires_grad=True)
        h = torch.randn(3, 4) @ w
        e = torch.exp(h)
        y = gate_(e, h)
        loss = (y * y).sum()
        loss.backward()
    """,
    # a slice along several dimensions, under no_grad, of a forward's input (a tensor: no list is indexed
    # so), blended with a parameter after the block (runnable:
    # eval/forum_programs/heldout11_reports/s11_11_mae_patch_view_nograd_inplace.py)
    "nograd_slice_of_input_blended_with_parameter": """
        import torch
        import torch.nn as nn
        class Blend(nn.Module):
            def __init__(self):
                super().__init__()
                self.fill = nn.Parameter(torch.zeros(1, 2, 4, 4))
            def forward(self, x):
                with torch.no_grad():
                    patch = x[:, :, 0:4, 0:4]
                patch.add_(self.fill)  # expect: AGI004
                return x
    """,
    # a no_grad helper handing back a slice of a parameter it was given that may be a list: a list's slice
    # is a copy, so only a view made by a tensor method (or of a known tensor) is a no_grad view to fill
    "nograd_helper_slice_of_unknown_argument_filled": """
        import torch
        import torch.nn as nn
        @torch.no_grad()
        def head_of(items):
            return items[:2], len(items)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.token = nn.Parameter(torch.zeros(3))
            def forward(self, items):
                first, n = head_of(items)
                first[0] = self.token * 2
                return first
    """,
    # a plain class of this file (no base) whose method writes what it is passed: ``scaler.scale_loss(loss)``
    # writes the caller's loss, which sqrt saved (runnable:
    # eval/forum_programs/heldout10_training/g10_29_rmse_loss_static_scaling_inplace.py).
    # A snippet, not a fixture: a write inside a helper has no safe fix (its callers may rely on it)
    "plain_object_method_writes_the_loss_it_is_passed": """
        import torch
        import torch.nn as nn
        class StaticLossScaler:
            def __init__(self, scale=1024.0):
                self.scale = scale
            def scale_loss(self, loss):
                loss *= self.scale  # expect: AGI001
                return loss
        def run():
            model, scaler = nn.Linear(3, 1), StaticLossScaler()
            loss = torch.sqrt(((model(torch.randn(4, 3)) - torch.randn(4, 1)) ** 2).mean())
            scaler.scale_loss(loss).backward()
    """,
    # a submodule called through the model a helper is handed (``model.embedding(ids)``: an attribute its
    # __init__ built, called as ``emb = model.embedding; emb(ids)`` is) saves the ids, which the helper then
    # masks in place (runnable: eval/forum_programs/heldout13_reports/r13_06_difflm_masked_fill.py).
    # A snippet, not a fixture: the write is to the caller's tensor, which no rewrite can safely stop
    "passed_model_submodule_call_saves_the_ids_it_then_masks": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class TinyLM(nn.Module):
            def __init__(self):
                super().__init__()
                self.embedding = nn.Embedding(50, 16)
                self.out = nn.Linear(16, 50)
            def forward(self, h):
                return self.out(torch.tanh(h))
        def compute_loss(model, input_ids, keep):
            x_0 = model.embedding(input_ids)
            logits = model(x_0)
            input_ids.masked_fill_(~keep, -100)  # expect: AGI001
            return F.cross_entropy(logits.reshape(-1, 50), input_ids.reshape(-1), ignore_index=-100)
        model = TinyLM()
        compute_loss(model, torch.randint(0, 50, (2, 6)), torch.rand(2, 6) < 0.5).backward()
    """,
    # a helper handing back a view of what it is passed (``return t.reshape(-1, d)``) shares the argument's
    # version counter; so does ``.to(torch.float32)`` of a float32 tensor (runnable:
    # eval/forum_programs/heldout10_probes/p10_53_reshape_view_write.py, p10_57_to_same_dtype_alias.py).
    # Snippets, not fixtures: a write through an alias another name holds has no safe fix
    "helper_returns_a_reshape_view_of_its_argument": """
        import torch
        import torch.nn as nn
        def flatten_tokens(t):
            return t.reshape(-1, t.shape[-1])
        def run():
            fc = nn.Linear(4, 3)
            probs = torch.sigmoid(fc(torch.randn(2, 5, 4)))
            flat = flatten_tokens(probs)
            flat[0].zero_()  # expect: AGI001
            probs.sum().backward()
    """,
    "to_the_default_dtype_returns_the_tensor_itself": """
        import torch
        import torch.nn as nn
        def as_float32(t):
            return t.to(torch.float32)
        def run():
            head = nn.Linear(6, 3)
            probs = torch.softmax(head(torch.randn(4, 6)), dim=-1)
            percent = as_float32(probs)
            percent.mul_(100.0)  # expect: AGI001
            direct = probs.to(dtype=torch.float32)
            direct *= 2.0  # expect: AGI001
            (probs * torch.arange(3.0)).sum().backward()
    """,
    # a custom Function whose forward writes its input in place (``ctx.mark_dirty``) applied to a forward's
    # parameter that a shortcut Linear saved: ``apply`` writes the caller's tensor (runnable:
    # eval/forum_programs/heldout9_training/t9_09_inplace_leaky_fn_mark_dirty_on_saved_block_input.py).
    # A snippet, not a fixture: cloning a parameter before the write is no safe fix (callers may rely on it)
    "custom_function_marks_dirty_a_parameter_a_shortcut_saved": """
        import torch
        import torch.nn as nn
        class InplaceLeakyReLU(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, slope):
                x.mul_(torch.where(x < 0, slope, 1.0))
                ctx.mark_dirty(x)
                ctx.save_for_backward(x)
                ctx.slope = slope
                return x
            @staticmethod
            def backward(ctx, grad_out):
                (y,) = ctx.saved_tensors
                return grad_out * torch.where(y < 0, ctx.slope, 1.0), None
        class PreActBlock(nn.Module):
            def __init__(self, dim, slope=0.1):
                super().__init__()
                self.shortcut = nn.Linear(dim, dim, bias=False)
                self.fc = nn.Linear(dim, dim)
                self.slope = slope
            def forward(self, x):
                skip = self.shortcut(x)
                out = InplaceLeakyReLU.apply(x, self.slope)  # expect: AGI001
                return self.fc(out) + skip
    """,
    # a forward that passes what it is given on to a method that writes it (``scores =
    # self.regularise(labels, scores)`` with ``logits += self.neg_bias`` there) writes the caller's tensor:
    # here a Sigmoid head's output, which the sigmoid saved (runnable, re-created from a report:
    # eval/forum_programs/heldout9_reports/r21_distribution_balanced_loss_neg_bias_iadd_on_sigmoid_head.py).
    # A snippet, not a fixture: a write inside a helper has no safe fix (its callers may rely on it)
    "forward_passes_its_argument_to_a_method_that_writes_it": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class BalancedLoss(nn.Module):
            def __init__(self, bias):
                super().__init__()
                self.neg_bias = bias
            def regularise(self, labels, logits):
                logits += self.neg_bias  # expect: AGI001
                return logits * (1 - labels) + logits * labels
            def forward(self, scores, labels):
                scores = self.regularise(labels, scores)
                return F.binary_cross_entropy_with_logits(scores, labels)
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(5, 3), nn.Sigmoid())
            def forward(self, x):
                return self.net(x)
        def run():
            criterion, head = BalancedLoss(torch.full((3,), 0.1)), Head()
            loss = criterion(head(torch.randn(4, 5)), (torch.rand(4, 3) < 0.4).float())
            loss.backward()
    """,
    # ``rows[2:5].contiguous()`` returns the slice itself (leading rows are contiguous): shifting it writes
    # the projection a key view was saved from (runnable: torch raises). A slot of a middle dimension
    # (``heads[:, :, 0]``) is strided, and ``.contiguous()`` copies it (the safe fixture
    # contiguous_copy_of_strided_slice_written.py). No fix: the write is meant to reach ``rows``.
    "contiguous_of_a_row_slice_is_the_view": """
        import torch
        def attend(x, w):
            rows = x @ w
            queries = rows[2:5].contiguous()
            keys = rows[5:8]
            scores = (queries + 0.5) @ keys.t()
            queries += 1.0  # expect: AGI001
            return scores.sum() + queries.sum()
        def attend_heads(x, w):
            heads = (x @ w).view(2, 5, 3, 4)
            q = heads[:, :, 0].contiguous()
            k = heads[:, :, 1]
            s = torch.einsum("bid,bjd->bij", q + 0.5, k)
            q += 1
            return s
    """,
    # a forward that writes its argument through a plain alias (x = token; x += pos), called by a script's
    # top level on a tensor an earlier module saved (runnable, re-created from a report:
    # eval/forum_programs/heldout_reports/k18_vit_vqgan_two_decoders_token_pos_iadd.py); an alias
    # rebound first writes its own tensor
    "forward_writes_its_argument_through_an_alias": """
        import torch
        from torch import nn
        class Decoder(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.pos = nn.Parameter(torch.zeros(1, dim))
                self.out = nn.Linear(dim, dim)
            def forward(self, token):
                x = token
                x += self.pos  # expect: AGI001
                return self.out(x)
        class Rebinding(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.pos = nn.Parameter(torch.zeros(1, dim))
                self.out = nn.Linear(dim, dim)
            def forward(self, token):
                x = token
                x = x * 1.0
                x += self.pos
                return self.out(x)
        first, second, third = Decoder(4), Decoder(4), Rebinding(4)
        quant = torch.tanh(torch.randn(2, 4, requires_grad=True))
        (first(quant) + second(quant) + third(quant)).sum().backward()
    """,
    # a module returning a list of tensors its own ops saved, built in its loop (deep supervision's stage
    # features): an element written in place by the caller is stale for backward (runnable:
    # eval/forum_programs/heldout_dataflow/d05_feature_pyramid_list_append_clamped.py; the safe twin is
    # the fixture safe/stage_features_list_of_linear_outputs_clamped.py). No fix is offered: cloning the
    # list is none, and an out-of-place element store is not planned yet.
    "returned_list_of_saved_tensors": """
        import torch
        from torch import nn
        class Stages(nn.Module):
            def __init__(self, dim, depth):
                super().__init__()
                self.layers = nn.ModuleList(nn.Linear(dim, dim) for _ in range(depth))
            def forward(self, x):
                feats = []
                for layer in self.layers:
                    x = torch.relu(layer(x))
                    feats.append(x)
                return feats
        def main():
            net = Stages(6, 3)
            feats = net(torch.randn(4, 6))
            feats[1].clamp_(max=1.0)  # expect: AGI001
            sum(f.pow(2).mean() for f in feats).backward()
    """,
    # a helper's write to its parameter before the name is rebound writes what the caller passed, and so
    # does one through a view of it bound to the same name; one after a real rebinding writes the helper's
    # own tensor (each run under torch: the first two raise, the third does not)
    "helper_writes_its_parameter_before_rebinding_it": """
        import torch
        def mask_then_project(seqs, mask, w):
            seqs *= mask  # expect: AGI001
            seqs = seqs * 2
            return seqs @ w
        def transpose_then_mask(seqs, mask, w):
            seqs = seqs.transpose(0, 1)
            seqs *= mask.t()  # expect: AGI001
            return seqs @ w
        def project_then_mask(seqs, mask, w):
            seqs = seqs @ w
            seqs *= mask
            return seqs
        def main():
            w = torch.randn(3, 3, requires_grad=True)
            h = torch.tanh(torch.randn(3, 3, requires_grad=True))
            mask = torch.ones(3, 3)
            (mask_then_project(h, mask, w).sum() + h.sum()).backward()
            g = torch.tanh(torch.randn(3, 3, requires_grad=True))
            (transpose_then_mask(g, mask, w).sum() + g.sum()).backward()
            f = torch.tanh(torch.randn(3, 3, requires_grad=True))
            (project_then_mask(f, mask, w).sum() + f.sum()).backward()
    """,
    # a module's forward (or another method) that writes what it is passed in place writes its caller's
    # tensor: here the tanh's saved result, masked by the first encoder (runnable:
    # eval/forum_programs/heldout_reports/k03_vgsan_two_encoders_mask_input_inplace.py; run under torch,
    # it raises at the backward). Its fix is unsafe (the caller sees the write), hence a snippet here.
    "module_method_writes_its_argument": """
        import torch
        from torch import nn
        class Encoder(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.fc = nn.Linear(dim, dim)
            def forward(self, seqs, mask):
                seqs *= mask  # expect: AGI001
                return self.fc(seqs)
            def scaled(self, seqs, by):
                seqs.mul_(by)  # expect: AGI001
                return self.fc(seqs)
        class VAE(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.encoder_mu = Encoder(dim)
                self.encoder_logvar = Encoder(dim)
            def forward(self, x, mask):
                h = torch.tanh(x)
                return self.encoder_mu(h, mask), self.encoder_logvar(h, mask)
            def sharpen(self, x):
                h = torch.sigmoid(x)
                return self.encoder_mu.scaled(h, 2.0)
            def fresh(self, x, mask):
                return self.encoder_mu(x * 2, mask)
    """,
    # star-unpacking binds a list of the remaining elements: parameters stay leaves (torch raises the leaf
    # error, not the split-view one), and the rows of a tensor stay unbind's views
    "star_unpacking_binds_a_list": """
        import torch
        from torch import nn
        def decay_all_but_first(model):
            first, *rest = model.parameters()
            for p in rest:
                p.mul_(0.99)  # expect: AGI002
        def rows(x):
            w = torch.randn(3, 2, requires_grad=True)
            head, *tail = w * 2
            for row in tail:
                row.add_(1)  # expect: AGI003
        def main():
            decay_all_but_first(nn.Linear(3, 3))
    """,
    # a helper that writes its argument in place and rebinds the name to the same tensor
    # (``batch = batch.div_(255.0)``) still writes what its caller passed: here the tanh's saved result
    # (runnable: eval/forum_programs/heldout_reports/k07_fast_neural_style_tanh_then_normalize_batch_div_.py;
    # its fix is unsafe, the helper being public); a real rebinding first makes the write the helper's own
    "helper_rebinds_its_argument_to_an_inplace_result": """
        import torch
        from torch import nn
        def normalize_batch(batch):
            batch = batch.div_(255.0).sub_(0.5)  # expect: AGI001
            return batch * 2
        def rebound_first(batch):
            batch = batch * 1.0
            batch = batch.div_(255.0)
            return batch * 2
        def main():
            generator = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Tanh())
            normalize_batch(generator(torch.randn(1, 3, 4, 4))).sum().backward()
            rebound_first(generator(torch.randn(1, 3, 4, 4))).sum().backward()
    """,
    # torch callables held in a table or called straight from a partial build their module as written
    # (each ran under torch and raised at the backward: the in-place ReLU overwrote what gelu saved)
    "activation_tables_and_partials": """
        import torch
        import torch.nn.functional as F
        from functools import partial
        from torch import nn
        ACTS = {"relu": partial(nn.ReLU, inplace=True), "relu6": partial(nn.ReLU6, inplace=True)}
        CLASSES = {"relu": nn.ReLU}
        def table(y):
            a = F.gelu(y)
            b = ACTS["relu"]()(y)  # expect: AGI001
            return a + b
        def direct(y):
            a = F.gelu(y)
            b = partial(nn.ReLU, inplace=True)()(y)  # expect: AGI001
            return a + b
        def classes(y):
            a = F.gelu(y)
            b = CLASSES["relu"](inplace=True)(y)  # expect: AGI001
            return a + b
        def out_of_place(y):
            a = F.gelu(y)
            b = CLASSES["relu"]()(y)
            return a + b
        def main():
            fc = nn.Linear(3, 3)
            for f in (table, direct, classes, out_of_place):
                f(fc(torch.randn(2, 3))).sum().backward()
    """,
    # a script's top level (no function around it) calling a helper that returns a tensor its softmax
    # saved: the top level's findings are its own when it is run again with the helper's summary (they
    # were filed under the last function analysed, and dropped when that one was refined)
    "top_level_script_helper_returns_saved_tensor": """
        import torch
        from torch import nn
        fc = nn.Linear(3, 3)
        def attention(x):
            return torch.softmax(fc(x), -1)
        def scale(t, by):
            return t * by
        attn = attention(torch.randn(2, 3))
        attn.mul_(0.5)  # expect: AGI001
        scale(attn, 2.0).sum().backward()
        scale(torch.randn(2), 3.0)
    """,
    # a dict of outputs with string keys: writing one entry is not a write to another
    "dict_entries_are_kept_apart": """
        import torch
        from torch import nn
        fc = nn.Linear(3, 3)
        def main(x):
            attn = torch.softmax(fc(x), -1)
            res = {"attn": attn, "logits": fc(x)}
            res["logits"][:, 0] = -1e4
            res["scores"] = attn * 2
            res["scores"] += 1
            res["attn"].mul_(0.5)  # expect: AGI001
            (res["logits"].sum() + res["attn"].sum()).backward()
    """,
    # a fused manual step (torch._foreach_add_ under no_grad) between a forward and its backward writes
    # every parameter of its list: the generator's last Linear saved its weight (runnable:
    # eval/forum_programs/training/t41_foreach_manual_step_between_generator_and_critic_backward.py);
    # stepping after the only backward is fine, and a frozen shadow's fused EMA update is no leaf write
    "foreach_step_between_forward_and_backward": """
        import copy
        import torch
        from torch import nn
        def train(noise):
            generator = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 4))
            critic = nn.Linear(4, 1)
            params = list(generator.parameters())
            fake = generator(noise)
            (-critic(fake).mean()).backward(retain_graph=True)
            with torch.no_grad():
                torch._foreach_add_(params, [p.grad for p in params], alpha=-0.1)  # expect: AGI001
            critic(fake).mean().backward()
        def train_then_step(noise):
            generator = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 4))
            shadow = copy.deepcopy(generator).requires_grad_(False)
            params = list(generator.parameters())
            generator(noise).pow(2).mean().backward()
            with torch.no_grad():
                torch._foreach_add_(params, [p.grad for p in params], alpha=-0.1)
            torch._foreach_lerp_(list(shadow.parameters()), params, 0.01)
    """,
    # truncated BPTT without detaching the hidden state: the next chunk's backward runs through the
    # previous chunk's graph, whose saved weights the optimizer step rewrote (a save made again at the same
    # site in a loop must not hide the older one the carried state still needs; runnable:
    # eval/forum_programs/training/p19_tbptt_no_detach.py)
    "tbptt_hidden_state_not_detached": """
        import torch
        from torch import nn
        def train(data):
            rnn = nn.GRU(8, 8, batch_first=True)
            opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
            h = torch.zeros(1, 4, 8)
            for i in range(0, 30, 10):
                out, h = rnn(data[:, i:i + 10], h)
                loss = out.pow(2).mean()
                opt.zero_grad()
                loss.backward(retain_graph=True)
                opt.step()  # expect: AGI001
        def train_detached(data):
            rnn = nn.GRU(8, 8, batch_first=True)
            opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
            h = torch.zeros(1, 4, 8)
            for i in range(0, 30, 10):
                out, h = rnn(data[:, i:i + 10], h.detach())
                loss = out.pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
    """,
    # an optimizer over leaf tensors of the function (``SGD([w, b])``) writes exactly those: stepping it
    # between the forward and the backward breaks the matmul that saved w (from the second iteration on,
    # once w has a gradient; runnable counterpart of the safe order:
    # tests/fixtures/safe/manual_leaf_weights_step_after_backward.py)
    "optimizer_over_a_list_of_leaves_steps_before_backward": """
        import torch
        def fit(x, target):
            w = torch.randn(4, 1, requires_grad=True)
            b = torch.zeros(1, requires_grad=True)
            opt = torch.optim.SGD([w, b], lr=0.1)
            for _ in range(3):
                hidden = torch.randn(x.shape[0], 4, requires_grad=True) * x
                loss = (torch.sigmoid(hidden @ w + b) - target).pow(2).mean()
                opt.step()  # expect: AGI001
                loss.backward()
        def fit_in_order(x, target):
            w = torch.randn(4, 1, requires_grad=True)
            opt = torch.optim.SGD([w], lr=0.1)
            for _ in range(3):
                loss = (torch.sigmoid(x @ w) - target).pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
    """,
    # a helper that writes the tensors of a module's submodules (``for m in model.modules()``) writes the
    # module's tensors: called between the forward and its backward, it breaks the saved mask (runnable:
    # eval/forum_programs/lookalikes/q30_gradual_pruning_schedule_mid_step.py; the safe order is the
    # fixture tests/fixtures/safe/pruning_masks_refreshed_after_step.py)
    "submodule_masks_written_between_forward_and_backward": """
        import torch
        from torch import nn
        class MaskedLinear(nn.Linear):
            def __init__(self, n):
                super().__init__(n, n)
                self.register_buffer("mask", torch.ones_like(self.weight))
            def forward(self, x):
                return nn.functional.linear(x, self.weight * self.mask, self.bias)
        @torch.no_grad()
        def prune(model, threshold):
            for name, m in model.named_modules():
                if isinstance(m, MaskedLinear):
                    m.mask.copy_((m.weight.abs() > threshold).float())  # expect: AGI001
        def step(x, opt):
            model = nn.Sequential(MaskedLinear(4), nn.Tanh(), MaskedLinear(4))
            loss = model(x).pow(2).mean()
            prune(model, 0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
    """,
    # the same through a cell of this file (a module the analysis summarises, not one it knows)
    "user_cell_state_carried_across_steps": """
        import torch
        from torch import nn
        class Cell(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)
            def forward(self, h):
                return torch.tanh(self.fc(h))
        def train(h):
            cell = Cell()
            opt = torch.optim.SGD(cell.parameters(), lr=0.1)
            for _ in range(3):
                h = cell(h)
                h.sum().backward(retain_graph=True)
                opt.step()  # expect: AGI001
    """,
    # state_dict() hands out detached tensors that share the parameters' version counters: clipping them
    # in place between the forward and backward is AGI001; after backward it is fine
    "state_dict_values_clipped_before_backward": """
        import torch
        from torch import nn
        def step(x):
            critic = nn.Linear(4, 1)
            loss = critic(x).mean()
            for name, tensor in critic.state_dict().items():
                tensor.clamp_(-0.01, 0.01)  # expect: AGI001
            loss.backward()
        def step_after(x):
            critic = nn.Linear(4, 1)
            loss = critic(x).mean()
            loss.backward()
            for tensor in critic.state_dict().values():
                tensor.clamp_(-0.01, 0.01)
    """,
    # a method that writes one of self's tensors in place (MoCo's enqueue without clone), called after
    # an op that saved that tensor and before backward (runnable: eval/forum_programs/reports/r08_...)
    "method_writes_self_buffer_saved_by_caller": """
        import torch
        from torch import nn
        class Queue(nn.Module):
            def __init__(self, dim=8, size=24):
                super().__init__()
                self.register_buffer("queue", torch.randn(dim, size))
            @torch.no_grad()
            def _enqueue(self, keys):
                self.queue[:, : keys.shape[0]] = keys.T  # expect: AGI001
            def forward(self, q, k):
                logits = torch.einsum("nc,ck->nk", [q, self.queue])
                self._enqueue(k)
                return logits
    """,
    # a helper that updates a module's parameters through a loop over .parameters(), called between the
    # teacher's forward (with grad) and backward: the mean-teacher bug (runnable:
    # eval/forum_programs/training/t10_mean_teacher_ema_before_backward.py)
    "ema_helper_updates_teacher_before_backward": """
        import torch
        from torch import nn
        @torch.no_grad()
        def update_ema(teacher, student, alpha=0.99):
            for t_p, s_p in zip(teacher.parameters(), student.parameters()):
                t_p.mul_(alpha).add_(s_p, alpha=1 - alpha)  # expect: AGI001
        def step(x):
            student, teacher = nn.Linear(4, 2), nn.Linear(4, 2)
            loss = (student(x) - teacher(x)).pow(2).mean()
            update_ema(teacher, student)
            loss.backward()
    """,
    # ... and after backward, the usual order: nothing saved is left to go stale
    "ema_helper_updates_teacher_after_backward": """
        import torch
        from torch import nn
        @torch.no_grad()
        def update_ema(teacher, student, alpha=0.99):
            for t_p, s_p in zip(teacher.parameters(), student.parameters()):
                t_p.mul_(alpha).add_(s_p, alpha=1 - alpha)
        def step(x):
            student, teacher = nn.Linear(4, 2), nn.Linear(4, 2)
            loss = (student(x) - teacher(x)).pow(2).mean()
            loss.backward()
            update_ema(teacher, student)
    """,
    # .double() on a float32 tensor (the default dtype) is a copy: writing it leaves the saved sigmoid
    # alone (runnable: eval/forum_programs/modules/p61_double_cast_copy_safe.py)
    "double_cast_is_a_copy": """
        import torch
        def gate(x, w):
            g = torch.sigmoid(x @ w)
            g64 = g.double()
            g64.mul_(2.0)
            return x * g64.float() + g
    """,
    # a deep copy frozen in __init__ by a loop over its parameters(): updating it in place later is the
    # EMA teacher, not a leaf that requires grad (eval/forum_programs/training/p16_...)
    "deepcopy_frozen_in_init_by_parameter_loop": """
        import copy
        import torch
        class EMA:
            def __init__(self, model, decay=0.99):
                self.decay = decay
                self.shadow = copy.deepcopy(model)
                for p in self.shadow.parameters():
                    p.requires_grad_(False)
            def update(self, model):
                for s, p in zip(self.shadow.parameters(), model.parameters()):
                    s.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)
    """,
    # a Sequential's layer by index: its parameters are the ones the Sequential's call saved
    # (torch raises; the runnable program is eval/forum_programs/training/p52_reinit_mid_step.py)
    "sequential_layer_by_index_reinitialised": """
        import torch
        from torch import nn
        def step(x):
            model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
            loss = model(x).pow(2).mean()
            nn.init.zeros_(model[2].weight)  # expect: AGI001
            loss.backward()
            return loss
    """,
    # the forum-style batch's loops: a value evaluated before a later operand re-saved at the same
    # site, and frozen EMA copies updated in place
    "saved_in_flight_loop_accumulation": """
        import torch
        def penalty(x):
            acc = torch.zeros(3)
            loss = 0
            for i in range(2):
                acc += x  # expect: AGI001
                loss = loss + (acc ** 2).sum()
            return loss
    """,
    # AGI003: iterating or unpacking a tensor unbinds it; a call's unknown result may be a tuple
    "agi003_iterating_a_tensor": """
        import torch
        def rows():
            x = torch.randn(3, 4, requires_grad=True) * 1.0
            for row in x:
                row.mul_(2)  # expect: AGI003
            return x
    """,
    "agi003_unpacking_a_tensor": """
        import torch
        def halves():
            w = torch.randn(2, 3, requires_grad=True) * 1.0
            h, c = w
            h.add_(1)  # expect: AGI003
            return w
    """,
    "agi003_not_for_plain_data_or_unknown_tuples": """
        import torch
        def prepare(outs):
            x = torch.randn(3, 4)
            for row in x:
                row.mul_(2)
            a, b = outs
            a.add_(1)
            with torch.no_grad():
                q, k = torch.randn(2, 3, requires_grad=True).chunk(2)
                q.zero_()
            return x
    """,
    "seed_loop": """
        import torch
        def fn(a):
            b = a ** 2
            for i in range(5):
                b *= b  # expect: AGI001
            return b
    """,
    "seed_rebind_is_fine": """
        import torch
        def fn(a):
            b = a ** 2
            for i in range(2):
                b = b * b
            return b
    """,
    "seed_other_tensor_is_fine": """
        import torch
        def fn(a):
            b = a ** 2
            c = a ** 2
            for i in range(2):
                c *= b
            return c
    """,
    "math_and_numpy_exp_are_not_torch": """
        import math
        import numpy as np
        import torch
        def f(x):
            y = np.exp(x)
            y *= 2
            z = math.exp(3.0)
            z *= 2
            return y, z
    """,
    "from_import_alias": """
        from torch import sigmoid as sg
        def f(x):
            y = sg(x)
            y += 1  # expect: AGI001
            return y
    """,
    "functional_alias": """
        import torch.nn.functional as F
        def f(x):
            y = F.softmax(x, dim=-1)
            y[:, 0] = 0  # expect: AGI001
            return y
    """,
    "no_grad_block_saves_nothing": """
        import torch
        def f(x):
            with torch.no_grad():
                y = x.exp()
            y += 1
            return y
    """,
    "no_grad_decorator": """
        import torch
        @torch.no_grad()
        def f(x):
            y = x.exp()
            y += 1
            return y
    """,
    "inplace_inside_no_grad_still_bumps": """
        import torch
        def f(x):
            y = x.exp()
            with torch.no_grad():
                y.mul_(2)  # expect: AGI001
            return y
    """,
    "saved_tensors_hooks_silence_the_check": """
        import torch
        def f(x):
            with torch.autograd.graph.save_on_cpu():
                y = x.exp()
            y += 1
            return y
    """,
    "data_does_not_share_the_counter": """
        import torch
        def f(x):
            y = x.exp()
            y.data.mul_(2)
            return y
    """,
    "detach_shares_the_counter": """
        import torch
        def f(x):
            y = x.exp()
            y.detach().zero_()  # expect: AGI001
            return y
    """,
    "clone_is_fresh": """
        import torch
        def f(x):
            y = x.exp()
            z = y.clone()
            z += 1
            return y, z
    """,
    "view_shares_the_counter": """
        import torch
        def f(x):
            y = x.sin()
            x[2:].zero_()  # expect: AGI001
            return y
    """,
    "nothing_reaches_backward": """
        import torch
        def f(x):
            y = x.exp()
            y += 1
            print(y)
    """,
    "no_input_requires_grad": """
        import torch
        def f():
            x = torch.randn(3)
            y = x.exp()
            y += 1
            return y
    """,
    "leaf_inplace": """
        import torch
        w = torch.randn(3, requires_grad=True)
        w += 1  # expect: AGI002
    """,
    "leaf_update_under_no_grad": """
        import torch
        w = torch.randn(3, requires_grad=True)
        loss = (w * 2).sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
    """,
    "parameters_updated_without_no_grad": """
        import torch
        def step(model, lr):
            for p in model.parameters():
                p -= lr * p.grad  # expect: AGI002
    """,
    "backward_already_done": """
        import torch
        def f(x):
            y = x.exp()
            y.sum().backward()
            y += 1
            return y.detach()
    """,
    "retain_graph_then_modify_then_backward": """
        import torch
        def f(x):
            y = x.exp()
            y.sum().backward(retain_graph=True)
            y += 1  # expect: AGI001
            y.sum().backward()
    """,
    "branches_join": """
        import torch
        def f(x, flag):
            if flag:
                y = x.exp()
            else:
                y = x + 1
            y += 1  # expect: AGI001
            return y
    """,
    "module_attribute_inplace_activation": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 3)
                self.act = nn.ReLU(inplace=True)
            def forward(self, x):
                h = torch.tanh(self.fc(x))
                return self.act(h)  # expect: AGI001
    """,
    "resnet_residual_is_fine": """
        import torch
        from torch import nn
        class Block(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.conv1 = nn.Conv2d(c, c, 3, padding=1)
                self.bn1 = nn.BatchNorm2d(c)
                self.relu = nn.ReLU(inplace=True)
                self.conv2 = nn.Conv2d(c, c, 3, padding=1)
                self.bn2 = nn.BatchNorm2d(c)
            def forward(self, x):
                identity = x
                out = self.relu(self.bn1(self.conv1(x)))
                out = self.bn2(self.conv2(out))
                out += identity
                return self.relu(out)
    """,
    "sequential_inplace_after_sigmoid": """
        from torch import nn
        model = nn.Sequential(
            nn.Linear(4, 4),
            nn.Sigmoid(),
            nn.ReLU(inplace=True),  # expect: AGI001
        )
    """,
    "sequential_inplace_after_batchnorm_is_fine": """
        from torch import nn
        model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.ReLU(inplace=True))
    """,
    "helper_writes_parameter": """
        import torch
        def normalize_(t):
            t.div_(2.0)  # expect: AGI001
        def forward(x):
            y = torch.exp(x)
            normalize_(y)
            return y
    """,
    "custom_function_save_for_backward": """
        import torch
        class Exp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x.exp()
                ctx.save_for_backward(y)
                return y
            @staticmethod
            def backward(ctx, grad):
                (y,) = ctx.saved_tensors
                return grad * y
        def f(x):
            y = Exp.apply(x)
            y.add_(1)  # expect: AGI001
            return y
    """,
    "optimizer_step_between_backwards": """
        import torch
        from torch import nn
        D = nn.Linear(3, 1)
        opt_d = torch.optim.SGD(D.parameters(), lr=0.1)
        def step(fake):
            d_fake = D(fake)
            d_fake.mean().backward(retain_graph=True)
            opt_d.step()  # expect: AGI001
            d_fake.mean().backward()
    """,
    "ordinary_training_loop_is_fine": """
        import torch
        def train(model, opt, loader, loss_fn):
            for x, y in loader:
                opt.zero_grad()
                loss = loss_fn(model(x), y)
                loss.backward()
                opt.step()
    """,
    "user_module_returns_saved_result": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 1)
            def forward(self, x):
                return torch.sigmoid(self.fc(x))
        def train(x):
            out = Net()(x)
            out[out > 0.5] = 1.0  # expect: AGI001
            out.sum().backward()
    """,
    "unknown_model_keeps_its_input": """
        import torch
        def decode(model, start, steps):
            outputs = torch.zeros(steps, 4)
            outputs[0] = start
            for t in range(1, steps):
                outputs[t] = model(outputs[t - 1])  # expect: AGI001
            return outputs
    """,
    "save_on_one_branch_then_rebound": """
        import torch
        def forward(self, x, shortcut):
            x = self.conv(x)
            if self.se is not None:
                x = self.se(x)
            x += shortcut
            return x
    """,
    "number_accumulator_is_not_a_tensor": """
        import torch
        def offsets(ks, n_dim, remaining):
            out = []
            for d in range(n_dim):
                divisor = 1
                for dd in range(d + 1, n_dim):
                    divisor *= ks[dd]
                out.append(remaining // divisor)
                remaining = remaining % divisor
            return out
    """,
    "kwargs_is_a_dict": """
        import torch
        def build(default, **kwargs):
            net = default(kwargs)
            kwargs["depth"] = 3
            return net
    """,
    "only_called_under_no_grad": """
        import torch
        def project(p, grad):
            n = p.norm(dim=1).add_(1e-8)
            return p / n
        @torch.no_grad()
        def step(params):
            for p in params:
                p.copy_(project(p, p.grad))
    """,
    "sort_values_are_not_saved": """
        import torch
        def f(x):
            values, indices = torch.sort(x, dim=0)
            values += 1
            return values
    """,
    "sort_then_max_of_values": """
        import torch
        def f(x):
            y = torch.max(x)
            y += 1  # expect: AGI001
            return y
    """,
    # forward hooks of this file that write their output in place (runnable twins: tests/fixtures/
    # AGI001/forward_hook_*.py and tests/fixtures/safe/forward_hook_*.py): followed where the hooked forwards
    # are recorded as far as the file shows, never for a hook that only reads, a lambda, or under no_grad
    "forward_hook_writes_saved_output": """
        import torch
        from torch import nn
        def shrink(module, inputs, output):
            output.mul_(0.9)  # expect: AGI001
        def reads_only(module, inputs, output):
            print(output.norm())
        def train(x):
            model = nn.Sequential(nn.Linear(4, 4), nn.Softmax(dim=-1))
            model[1].register_forward_hook(shrink)
            model[1].register_forward_hook(reads_only)
            model[0].register_forward_hook(lambda m, i, o: o.mul_(2))
            model(x).sum().backward()
        @torch.no_grad()
        def probe(x):
            net = nn.Sequential(nn.Linear(4, 4), nn.Sigmoid())
            net[1].register_forward_hook(shrink)
            return net(x)
    """,
    # a hook registered in a script that never runs a backward: an ablation under no_grad, not reported
    "forward_hook_in_script_without_backward": """
        import torch
        from torch import nn
        def zero_unit(module, inputs, output):
            output[:, 0] = 0
        def ablate(x):
            model = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
            model[1].register_forward_hook(zero_unit)
            with torch.no_grad():
                return model(x)
    """,
    # a method of a module class that writes the module's own tensors in place, called from outside the
    # class between a forward and its backward (runnable twins: tests/fixtures/AGI001/wgan_critic_clips_*
    # and tests/fixtures/safe/wgan_critic_clips_*): the finding is on the method's write
    "method_writes_its_module_between_forward_and_backward": """
        import torch
        from torch import nn
        class Critic(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 1)
                self.bank = torch.zeros(4, 4)
            def forward(self, x):
                return self.fc(x)
            def clip(self, c):
                for p in self.parameters():
                    p.data.clamp_(-c, c)
                for t in self.state_dict().values():
                    t.clamp_(-c, c)  # expect: AGI001
            def refresh(self, keys):
                self.bank[0] = keys
            def describe(self):
                return {"params": sum(p.numel() for p in self.parameters())}
        def step(x):
            critic = Critic()
            loss = critic(x).mean()
            critic.describe()
            critic.clip(0.01)
            loss.backward()
        def step_after(x):
            critic = Critic()
            loss = critic(x).mean()
            loss.backward()
            critic.clip(0.01)
    """,
    "unannotated_params_switch": """
        import torch
        def f(x):
            y = x.exp()
            y += 1  # expect: AGI001
            return y
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_snippet(name):
    source = textwrap.dedent(CASES[name])
    assert found(source) == expected(source)


def test_params_not_assumed_tensors_when_switched_off():
    source = textwrap.dedent(CASES["unannotated_params_switch"])
    assert found(source) == {(5, "AGI001")}
    assert found(source, assume_params_are_tensors=False) == set()


def test_message_names_the_evidence():
    source = textwrap.dedent(CASES["helper_writes_parameter"])
    (finding,) = lint_source(source, "snippet.py", ASSUMED)
    assert finding.evidence.saving_line == 6
    assert finding.evidence.role == "result"
    assert "torch.exp(x)" in finding.message
    assert "modified by an inplace operation" in finding.message


def test_nograd_view_filled_with_grad_names_the_fill_and_offers_no_fix():
    # a view made under no_grad of a tensor that requires no grad, written with one that does: torch
    # refuses it at once; wrapping the write in no_grad would drop the gradient the code wants
    source = textwrap.dedent("""
        import torch
        def fill(w):
            canvas = torch.zeros(3, 4)
            with torch.no_grad():
                row = canvas[0]
            row.copy_(w * 2)
            return canvas
        fill(torch.ones(4, requires_grad=True))
    """)
    (finding,) = lint_source(source, "snippet.py", ASSUMED)
    assert (finding.code, finding.start.line) == ("AGI004", 7)
    assert "writes a tensor that requires grad into 'row'" in finding.message
    assert "created in no_grad mode and is being modified inplace" in finding.message
    assert finding.fix is None


def test_select_and_ignore():
    source = textwrap.dedent(CASES["leaf_inplace"])
    assert found(source, select=("AGI001",)) == set()
    assert found(source, select=("AGI",), ignore=("AGI002",)) == set()
    assert found(source, select=("AGI002",)) == {(4, "AGI002")}


def test_prefilter_skips_files_without_torch_or_inplace_syntax():
    assert not might_have_hazard("x = 1\ny = x * 2\n")
    assert not might_have_hazard("import torch\ny = torch.exp(x)\n")
    assert might_have_hazard("import torch\ny = torch.exp(x)\ny += 1\n")


@pytest.mark.parametrize(
    "source",
    [
        "import torch\ndef f(:\n    x += 1\n",
        "import torch\nx += (\n",
        "import torch\n\x00\nx += 1\n",
    ],
)
def test_bad_input_is_one_clear_error(source):
    with pytest.raises(LintError) as info:
        lint_source(source)
    assert "\n" not in str(info.value)


def test_odd_control_flow_never_crashes():
    source = textwrap.dedent(
        """
        import torch
        async def f(x, xs):
            try:
                y = x.exp()
            except (ValueError, TypeError) as e:
                raise
            else:
                y += 1  # expect: AGI001
            finally:
                pass
            while True:
                if x:
                    break
                continue
            zs = [v.exp() for v in xs if v is not None]
            d = {k: v for k, v in zip(xs, xs)}
            async with x as (a, b):
                await a
            match x:
                case [1, *rest]:
                    pass
                case _:
                    pass
            lam = lambda t: t.add_(1)
            def inner(t):
                t *= 2
                return t
            global G
            del zs
            return y
        """
    )
    assert found(source) == expected(source)


def test_deep_nesting_terminates():
    body = "import torch\ndef f(x):\n    y = x.exp()\n"
    indent = "    "
    for depth in range(12):
        body += indent * (depth + 1) + "for i in range(3):\n"
    body += indent * 13 + "y += 1\n" + "    return y\n"
    assert found(body) == {(16, "AGI001")}


def test_linting_never_imports_torch():
    code = (
        "import sys, inplace_lint\n"
        "inplace_lint.lint_source(open('examples/seed.py').read())\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_reduced_text_that_does_not_parse_falls_back_to_the_whole_file(monkeypatch):
    import inplace_lint.syntax.select as select_module

    source = textwrap.dedent(CASES["seed_loop"])
    monkeypatch.setattr(select_module, "select", lambda text, tree=None: select_module.Selection("def f(:\n"))
    assert found(source) == expected(source)


def test_forward_hook_fix_needs_a_hook_without_returns():
    """The fix writes a copy and returns it; a hook that already returns somewhere gets no automatic fix."""
    source = textwrap.dedent("""
        import torch
        from torch import nn
        def shrink(module, inputs, output):
            if output.dim() > 2:
                return None
            output.mul_(0.9)
        def train(x):
            model = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
            model[1].register_forward_hook(shrink)
            model(x).sum().backward()
    """)
    (finding,) = lint_source(source, "snippet.py", ASSUMED)
    assert finding.code == "AGI001" and finding.start.line == 7 and finding.fix is None
    assert "Write a copy in 'shrink' and return it" in finding.message


def test_a_method_writing_its_module_is_moved_after_the_backward():
    """The fix moves the one call to after the next backward of its block, and only over statements that
    do not mention the module (another forward between them would see its tensors unwritten)."""
    source = textwrap.dedent("""
        import torch
        from torch import nn
        class Critic(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 1)
            def forward(self, x):
                return self.fc(x)
            def clip(self, c):
                for t in self.state_dict().values():
                    t.clamp_(-c, c)
        def step(opt, x):
            critic = Critic()
            loss = critic(x).mean()
            critic.clip(0.01)
            opt.zero_grad()
            loss.backward()
            return loss
        def step_with_second_forward(x, y):
            critic = Critic()
            loss = critic(x).mean()
            critic.clip(0.01)
            other = critic(y).mean()
            (loss + other).backward()
    """)
    findings = lint_source(source, "snippet.py")
    assert [(f.code, f.start.line) for f in findings] == [("AGI001", 12)]
    (finding,) = findings
    # two calls reach the same write: no single call to move
    assert finding.fix is None and "after the backward that needs them" in finding.message
    one_call = source.split("def step_with_second_forward")[0]
    (finding,) = lint_source(one_call, "snippet.py")
    assert finding.fix is not None and finding.fix.applicability == "safe"
    assert finding.fix.title == "Call 'critic.clip(0.01)' after 'loss.backward()'"


_BUILT_GATE = '''
from functools import partial

import torch
from torch import nn


class GatedMlp(nn.Module):
    def __init__(self, dim, act_layer=nn.GELU):
        super().__init__()
        self.gate = nn.Linear(dim, dim)
        self.act = act_layer()

    def forward(self, x):
        g = torch.sigmoid(self.gate(x))
        return self.act(g)


def build_inplace():
    return GatedMlp(4, act_layer=partial(nn.ReLU, inplace=True))
'''


@pytest.mark.parametrize("reduce", [True, False])
def test_a_class_built_with_an_inplace_act_layer_runs_it_in_place(reduce):
    from inplace_lint.engine.core import lint_with_tree

    findings = lint_with_tree(_BUILT_GATE, None, "x.py", reduce=reduce)
    assert [(f.code, f.line) for f in findings] == [("AGI001", 16)]


@pytest.mark.parametrize("reduce", [True, False])
@pytest.mark.parametrize("other", ["GatedMlp(4, act_layer=nn.Tanh)", "make(GatedMlp)"])
def test_a_class_built_with_other_layers_too_keeps_its_default(reduce, other):
    # another call passing another layer (the join is no known callable), or the class passed around (it is
    # never refined): the default stands, in the reduced text (the other part kept, or a witness) as in the
    # whole one
    from inplace_lint.engine.core import lint_with_tree

    source = _BUILT_GATE + f"\n\ndef build_other():\n    return {other}\n"
    assert lint_with_tree(source, None, "x.py", reduce=reduce) == []


def test_a_helper_writing_a_modules_counter_buffer_or_table_updates_no_parameter():
    # only a layer's weight or bias is a parameter a helper updates for its caller
    source = textwrap.dedent('''
        import torch
        from torch import nn

        def count(model):
            model.calls += 1

        def stats(model):
            model.stats["calls"] = 1
            model.ema.mul_(0.9)

        def run(model, x):
            out = model(x)
            count(model)
            stats(model)
            out.sum().backward()
    ''')
    from inplace_lint.engine.core import lint_with_tree

    assert lint_with_tree(source, None, "x.py", reduce=True) == []
    assert lint_with_tree(source, None, "x.py", reduce=False) == []


@pytest.mark.parametrize("default", ["", "=None", "=partial(nn.GELU, approximate='tanh')"])
def test_constructor_refinement_is_the_same_in_the_reduced_text(default):
    from inplace_lint.engine.core import lint_with_tree

    source = _BUILT_GATE.replace("act_layer=nn.GELU", "act_layer" + default) + \
        "\n\ndef build_other():\n    return GatedMlp(4, act_layer=nn.Tanh)\n"
    assert lint_with_tree(source, None, "x.py", reduce=True) == lint_with_tree(source, None, "x.py", reduce=False)


_CONV_OR_IDENTITY = textwrap.dedent('''\
    import torch
    import torch.nn as nn


    class Block(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.stem = nn.Conv2d(3, cin, 3, padding=1)
            self.proj = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

        def forward(self, x):
            h = self.stem(x)
            shortcut = self.proj(h)
            h.mul_(0.5)
            return shortcut + h.mean()


    Block(3, 4)(torch.randn(1, 3, 4, 4)).sum().backward()
''')


@pytest.mark.parametrize("reduce", [True, False])
def test_a_conv_or_identity_projection_still_saves_its_input(reduce):
    # the convolution path saves ``h`` for its weight's gradient, and writing ``h`` afterwards stales it
    # (torch raises: "modified by an inplace operation"); only writes of the projection's result are spared
    # that save (on the identity path the result is ``h`` itself and nothing saved it). No safe fix: on the
    # identity path ``shortcut`` is ``h`` and is read after the write
    from inplace_lint.engine.core import lint_with_tree

    findings = lint_with_tree(_CONV_OR_IDENTITY, None, "x.py", reduce=reduce)
    assert [(f.code, f.line) for f in findings] == [("AGI001", 14)]


_FLAG_BLOCK = textwrap.dedent('''\
    import torch
    import torch.nn as nn


    class Block(nn.Module):
        def __init__(self, c, inplace=True):
            super().__init__()
            self.fc = nn.Linear(c, c)
            self.act = nn.ReLU(inplace=inplace)

        def forward(self, x):
            return self.act(torch.sigmoid(self.fc(x)))
''')


@pytest.mark.parametrize("reduce", [True, False])
@pytest.mark.parametrize("variant, flagged", [
    ("", True),  # never built: the default is what runs
    ("\n\nMODEL = Block(3)\n", True),
    ("\n\nMODEL = Block(3, inplace=False)\n", False),  # a construction the selection would blank decides
    ("\n\nMODEL = Block(3, False)\n", False),
    ("\n\nMODEL = Block(*[3, False])\n", False),
    ("\n\nFACTORY = lambda: Block\n", False),  # named but not called: its callers are not seen
])
def test_an_inplace_flag_left_at_its_default(reduce, variant, flagged):
    from inplace_lint.engine.core import lint_with_tree

    findings = lint_with_tree(_FLAG_BLOCK + variant, None, "x.py", reduce=reduce)
    assert [(f.code, f.line) for f in findings] == ([("AGI001", 12)] if flagged else [])


@pytest.mark.parametrize("reduce", [True, False])
@pytest.mark.parametrize("edit", [
    # passed positionally: nn.ReLU(inplace) is in place too
    ("nn.ReLU(inplace=inplace)", "nn.ReLU(inplace)", True),
    # rebound before use
    ("        self.act = nn.ReLU(inplace=inplace)",
     "        inplace = False\n        self.act = nn.ReLU(inplace=inplace)", False),
    # a registry builds decorated classes with what a config says
    ("class Block(nn.Module):", "@register\nclass Block(nn.Module):", False),
])
def test_an_inplace_flag_default_that_may_not_hold(reduce, edit):
    from inplace_lint.engine.core import lint_with_tree

    old, new, flagged = edit
    source = _FLAG_BLOCK.replace(old, new)
    if "@register" in source:
        source = source.replace("import torch.nn as nn\n",
                                "import torch.nn as nn\n\nregister = lambda c: c\n", 1)
    findings = lint_with_tree(source, None, "x.py", reduce=reduce)
    assert bool(findings) == flagged, [f.message for f in findings]


@pytest.mark.parametrize("reduce", [True, False])
def test_a_methods_own_inplace_flag_is_not_taken_for_true(reduce):
    # forward runs through __call__ (net(x, inplace=False)): its callers are never all seen
    from inplace_lint.engine.core import lint_with_tree

    source = _FLAG_BLOCK.replace(
        "    def forward(self, x):\n        return self.act(",
        "    def forward(self, x, inplace=True):\n        return nn.ReLU(inplace=inplace)(")
    assert "inplace=True):\n        return nn.ReLU" in source
    assert lint_with_tree(source, None, "x.py", reduce=reduce) == []


PLAIN_FUNCTION = """
import torch
from torch import nn


def rescale(x):
    y = x.exp()
    y += 1
    return y
"""


def test_a_plain_function_parameter_requires_grad_only_by_evidence():
    # no caller, no annotation: nothing says x requires grad -- only the opt-in level assumes it
    assert found(PLAIN_FUNCTION, assume_params_are_tensors=False) == set()
    assert found(PLAIN_FUNCTION) == {(8, "AGI001")}
    # a call passing a tensor that requires grad is the evidence (the seed's fn(a))
    called = PLAIN_FUNCTION + "\nrescale(torch.ones(2, requires_grad=True)).sum().backward()\n"
    assert found(called, assume_params_are_tensors=False) == {(8, "AGI001")}
    # ... and one passing a schedule built by linspace is evidence of the contrary, at either level
    schedule = PLAIN_FUNCTION + "\nrescale(torch.linspace(0, 1, 5))\n"
    assert found(schedule, assume_params_are_tensors=False) == set()
    assert found(schedule) == set()
    # a module's forward gets a network's activations: its parameters may require grad by default
    module = PLAIN_FUNCTION.replace("def rescale(x):", "class M(nn.Module):\n    def forward(self, x):").replace(
        "\n    y", "\n        y").replace("\n    return", "\n        return")
    assert found(module, assume_params_are_tensors=False) == {(9, "AGI001")}


STRAIGHT = """
import torch
from torch import nn


class Layer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.gate = nn.Linear(d, d)

    def forward(self, x):
        h = x + 1
        residual = h
        h = self.gate(h)
        h = residual + h
        h *= 2
        return h
"""


@pytest.mark.parametrize("assume", [False, True])
def test_a_branch_creates_no_hazard_that_straight_code_lacks(assume):
    assert found(STRAIGHT, assume_params_are_tensors=assume) == set()
    # the same code under ``if True:`` (one path saves the old h as residual, the other keeps h): clean
    body = STRAIGHT.split("        h = x + 1\n")[1].split("        return h\n")[0]
    wrapped = STRAIGHT.replace(body, "        if True:\n" + body.replace("        h *= 2\n", "").replace(
        "\n        ", "\n            ").replace("        residual", "            residual", 1) + "        h *= 2\n")
    assert "if True:" in wrapped
    assert found(wrapped, assume_params_are_tensors=assume) == set()
    # and a write on the saving path itself is still found
    hazard = STRAIGHT.replace("        h = residual + h\n", "        residual.mul_(2)  # the gate saved it\n")
    assert found(hazard, assume_params_are_tensors=assume) == {(15, "AGI001")}


HELPER_CHAIN = """
import torch


def positive(logits):
    return torch.exp(logits)


def pool(feats, logits):
    w = positive(logits)
    w.clamp_(max=10.0)
    return (feats * w).sum(dim=0)


pool(torch.randn(6, 3, requires_grad=True), torch.randn(6, 1, requires_grad=True)).sum().backward()
"""


def test_evidence_from_a_call_reaches_the_helpers_helper():
    # pool's parameters require grad by its call; positive's by pool's call, refined in turn
    assert found(HELPER_CHAIN, assume_params_are_tensors=False) == {(11, "AGI001")}


def test_a_function_handed_to_autograd_gets_tensors_that_require_grad():
    source = (
        "import torch\n\n"
        "def func(a):\n"
        "    b = torch.zeros_like(a)\n"
        "    b[:, 0] = a[:, 0]\n"
        "    b[:, 1] = torch.nn.Softplus()(b[:, 0])\n"
        "    return b\n\n"
        "print(torch.autograd.functional.jacobian(func, torch.randn(3, 2)))\n"
    )
    assert found(source, assume_params_are_tensors=False) == {(6, "AGI001")}


GUARDED_FAST_PATH = """
import torch


def _fast_path_ok(a: torch.Tensor) -> bool:
    return a.is_contiguous() and not (torch.is_grad_enabled() and a.requires_grad)


def norm(a: torch.Tensor) -> torch.Tensor:
    if _fast_path_ok(a):
        b = a.exp()
        b.add_(1)
        return b
    return a.exp() + 1
"""


def test_a_predicate_of_this_file_guarding_grad_is_evidence():
    # the predicate's ``not (is_grad_enabled() and a.requires_grad)``: nothing records on the fast path
    assert found(GUARDED_FAST_PATH) == set()
    # a predicate that says nothing about grad guards nothing
    unguarded = GUARDED_FAST_PATH.replace(" and not (torch.is_grad_enabled() and a.requires_grad)", "")
    assert found(unguarded) == {(12, "AGI001")}
    # nor does the inverse test, on the path where grad may record
    inverted = GUARDED_FAST_PATH.replace("    if _fast_path_ok(a):", "    if not _fast_path_ok(a):")
    assert found(inverted) == {(12, "AGI001")}


LIST_CACHE = """
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 2, 1)

    def forward(self, x, feat_cache=None):
        x = self.conv(x * feat_cache[0])
        feat_cache[0] = x.detach()
        return x
"""


@pytest.mark.parametrize("evidence, container", [
    ("feat_cache.append(None)", True), ("assert feat_cache[0] is not None", True),
    ("feat_cache[1] = 'Rep'", True), ("feat_cache.mul_(1)", False),
])
def test_a_parameter_used_as_a_list_is_no_tensor(evidence, container):
    source = LIST_CACHE.replace("        x = self.conv(", f"        {evidence}\n        x = self.conv(")
    assert found(source) == (set() if container else {(14, "AGI001")})


GRAD_OFF_DECORATORS = """
import functools
import torch
from torch import nn


def smart_inference_mode(mode=True):
    def decorate(fn):
        return (torch.inference_mode if mode else torch.no_grad)()(fn)
    return decorate


def quiet(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        with torch.no_grad():
            return fn(*args)
    return wrapper


def timed(fn):
    def wrapper(*args):
        with torch.no_grad():
            print("start")
        return fn(*args)
    return wrapper


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    @smart_inference_mode()
    def encode(self, x):
        f = self.fc(x)
        f /= f.norm(dim=-1, keepdim=True)
        return f

    @quiet
    def encode_quietly(self, x):
        f = self.fc(x)
        f /= f.norm(dim=-1, keepdim=True)
        return f

    @timed
    def encode_timed(self, x):
        f = self.fc(x)
        f /= f.norm(dim=-1, keepdim=True)
        return f
"""


def test_a_decorator_of_this_file_that_turns_grad_off_makes_no_grad_code():
    # smart_inference_mode and quiet run the method under no_grad; timed only its own print
    assert found(GRAD_OFF_DECORATORS) == {(49, "AGI001")}


NESTED_IN_NOGRAD = """
import torch


@torch.no_grad()
def convert(weight, scale):
    def _scaled(w):
        out = torch.exp(w)
        out.mul_(scale)
        return out
    return _scaled(weight)
"""


def test_a_helper_nested_in_a_no_grad_function_runs_with_grad_off():
    options = dict(assume_params_are_tensors=True)
    assert found(NESTED_IN_NOGRAD, **options) == set()
    # returned, it may be called anywhere, with grad on
    escaped = NESTED_IN_NOGRAD.replace("    return _scaled(weight)", "    return _scaled")
    assert found(escaped, **options) == {(9, "AGI001")}
    # and nested in a function with grad on, it records
    plain = NESTED_IN_NOGRAD.replace("@torch.no_grad()\n", "")
    assert found(plain, **options) == {(8, "AGI001")}
