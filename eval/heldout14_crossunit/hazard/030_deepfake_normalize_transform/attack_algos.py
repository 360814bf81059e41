import torch
import torch.nn.functional as F

from dataset import xception_default_data_transforms


def predict_with_model(preprocessed_image, model):
    resized_image = F.interpolate(preprocessed_image, size=(6, 6), mode="bilinear", align_corners=False)
    norm_transform = xception_default_data_transforms["test"]
    normalized_image = norm_transform(resized_image[0])
    logits = model(normalized_image.unsqueeze(0))
    return logits.argmax(1), logits


def robust_fgsm(input_img, model, eps=0.05):
    input_var = input_img.clone().requires_grad_(True)
    transformed = input_var * 1.0
    _, logits = predict_with_model(transformed, model)
    loss = F.cross_entropy(logits, torch.tensor([0]))
    loss.backward()
    return (input_var + eps * input_var.grad.sign()).detach()
