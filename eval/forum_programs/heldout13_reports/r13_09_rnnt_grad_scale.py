# source: https://github.com/k2-fsa/k2/pull/1106 ("Removing inplace grad multiplication to allow `retain_graph` in backprop")
# A transducer-style joiner trained with a fused loss Function that computes its gradient in forward.
import torch
import torch.nn as nn

torch.manual_seed(0)


class FusedJoinerLoss(torch.autograd.Function):
    """Per-frame cross entropy over joiner logits; the gradient is computed
    together with the loss (as the k2 rnnt losses do) and only scaled in backward."""

    @staticmethod
    def forward(ctx, logits, targets):
        log_probs = logits.log_softmax(dim=-1)
        nll = -log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        grad = log_probs.exp()
        grad.scatter_add_(-1, targets.unsqueeze(-1), -torch.ones_like(nll).unsqueeze(-1))
        grad /= nll.numel()
        ctx.save_for_backward(grad)
        return nll.mean()

    @staticmethod
    def backward(ctx, ans_grad):
        (grad,) = ctx.saved_tensors
        grad.mul_(ans_grad)  # culprit
        return grad, None


class Joiner(nn.Module):
    def __init__(self, enc_dim, dec_dim, joint_dim, vocab):
        super().__init__()
        self.enc_proj = nn.Linear(enc_dim, joint_dim)
        self.dec_proj = nn.Linear(dec_dim, joint_dim)
        self.out = nn.Linear(joint_dim, vocab)

    def forward(self, enc, dec):
        # enc: (B, T, E), dec: (B, U, D) -> (B, T, U, V)
        x = self.enc_proj(enc).unsqueeze(2) + self.dec_proj(dec).unsqueeze(1)
        return self.out(torch.tanh(x))


B, T, U, V = 2, 6, 4, 10
encoder = nn.GRU(8, 16, batch_first=True)
decoder = nn.Embedding(V, 12)
joiner = Joiner(16, 12, 24, V)
params = list(encoder.parameters()) + list(decoder.parameters()) + list(joiner.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3)

for step in range(3):
    feats = torch.randn(B, T, 8)
    labels = torch.randint(1, V, (B, U))
    targets = torch.randint(0, V, (B, T, U))
    enc_out, _ = encoder(feats)
    logits = joiner(enc_out, decoder(labels))
    loss = FusedJoinerLoss.apply(logits, targets)

    # log how strongly the loss pulls on the encoder output before the real update
    (enc_grad,) = torch.autograd.grad(loss, enc_out, retain_graph=True)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f} |d enc| {enc_grad.norm().item():.4f}")
