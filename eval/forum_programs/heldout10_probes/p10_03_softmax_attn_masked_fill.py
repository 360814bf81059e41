# probe: softmax saves its output; masked_fill_ on the attention weights after softmax makes it stale
import torch

torch.manual_seed(0)


def attention(q, k, v, pad_mask):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    attn = torch.softmax(scores, dim=-1)
    attn.masked_fill_(pad_mask, 0.0)  # culprit
    return attn @ v


def main():
    q = torch.randn(2, 4, 8, requires_grad=True)
    k = torch.randn(2, 4, 8, requires_grad=True)
    v = torch.randn(2, 4, 8, requires_grad=True)
    pad_mask = torch.zeros(2, 4, 4, dtype=torch.bool)
    pad_mask[:, :, -1] = True
    ctx = attention(q, k, v, pad_mask)
    loss = ctx.pow(2).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
