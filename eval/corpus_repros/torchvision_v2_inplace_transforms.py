"""torchvision 0.20.1 ``transforms/v2/functional``: three functions use in-place ops on a float image
that break backward when the image requires grad (differentiable augmentation):

* ``_geometry.py:635`` ``_apply_grid_transform`` (affine/rotate/perspective with ``fill`` and bilinear
  interpolation): ``mask`` and ``float_img`` are both views of the ``grid_sample`` output;
  ``float_img.sub_(fill_img).mul_(mask)`` saves ``mask``; ``.add_(fill_img)`` bumps their shared version.
* ``_color.py:270`` ``adjust_sharpness_image``: ``conv2d(output, kernel)`` saves ``output``;
  ``view.add_(...)`` writes into ``output`` through a view.
* ``_color.py:541-543`` ``autocontrast_image``: ``amax``/``amin`` save their results; ``maximum.sub_()``,
  ``minimum[eq_idxs] = 0.0`` and ``inv_scale[eq_idxs] = 1.0`` overwrite them.

* ``_color.py:334``-``:338`` ``_rgb_to_hsv`` (``adjust_hue``, ``adjust_saturation``' helpers):
  ``rc, gc, bc = (...).unbind(dim=-3)`` are views torch refuses to modify in place while they require
  grad; ``bc.sub_(gc)`` raises at once (AGI003; the later lines would too). ``_color.py:394``
  ``adjust_hue_image``: ``h, s, v = image.unbind(dim=-3)``; ``h.add_(hue_factor)`` likewise.

The lines of ``:637`` (``round_()``) and ``:548``/``:550`` run only for integer images, which cannot
require grad: false positives. Each function below is the torchvision code for float images, verbatim.
"""
import torch
from torch.nn.functional import conv2d, grid_sample

from _common import main


def apply_grid_transform_tail(float_img, grid, fill):
    squashed_batch_size, num_channels, input_height, input_width = float_img.shape
    mask = torch.ones(
        (squashed_batch_size, 1, input_height, input_width), dtype=float_img.dtype, device=float_img.device
    )
    float_img = torch.cat((float_img, mask), dim=1)
    float_img = grid_sample(float_img, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    float_img, mask = torch.tensor_split(float_img, indices=(-1,), dim=-3)
    mask = mask.expand_as(float_img)
    fill_list = fill if isinstance(fill, (tuple, list)) else [float(fill)]
    fill_img = torch.tensor(fill_list, dtype=float_img.dtype, device=float_img.device).view(1, -1, 1, 1)
    float_img = float_img.sub_(fill_img).mul_(mask).add_(fill_img)  # culprit
    return float_img


def adjust_sharpness_float(image, sharpness_factor):
    num_channels = image.shape[-3]
    bound = 1.0
    kernel_dtype = image.dtype
    a, b = 1.0 / 13.0, 5.0 / 13.0
    kernel = torch.tensor([[a, a, a], [a, b, a], [a, a, a]], dtype=kernel_dtype, device=image.device)
    kernel = kernel.expand(num_channels, 1, 3, 3)
    output = image.to(dtype=kernel_dtype, copy=True)
    blurred_degenerate = conv2d(output, kernel, groups=num_channels)
    view = output[..., 1:-1, 1:-1]
    view.add_(blurred_degenerate.sub_(view), alpha=(1.0 - sharpness_factor))  # culprit
    output = output.clamp_(0, bound)
    return output


def autocontrast_float(image):
    bound = 1.0
    float_image = image
    minimum = float_image.amin(dim=(-2, -1), keepdim=True)
    maximum = float_image.amax(dim=(-2, -1), keepdim=True)
    eq_idxs = maximum == minimum
    inv_scale = maximum.sub_(minimum).mul_(1.0 / bound)  # culprit
    minimum[eq_idxs] = 0.0
    inv_scale[eq_idxs] = 1.0
    diff = float_image.sub(minimum)
    return diff.div_(inv_scale).clamp_(0, bound).to(image.dtype)




def rgb_to_hsv_float(image):
    r, g, _ = image.unbind(dim=-3)

    # Implementation is based on
    # https://github.com/python-pillow/Pillow/blob/4174d4267616897df3746d315d5a2d0f82c656ee/src/libImaging/Convert.c#L330
    minc, maxc = torch.aminmax(image, dim=-3)

    # The algorithm erases S and H channel where `maxc = minc`. This avoids NaN
    # from happening in the results, because
    #   + S channel has division by `maxc`, which is zero only if `maxc = minc`
    #   + H channel has division by `(maxc - minc)`.
    #
    # Instead of overwriting NaN afterwards, we just prevent it from occurring so
    # we don't need to deal with it in case we save the NaN in a buffer in
    # backprop, if it is ever supported, but it doesn't hurt to do so.
    eqc = maxc == minc

    channels_range = maxc - minc
    # Since `eqc => channels_range = 0`, replacing denominator with 1 when `eqc` is fine.
    ones = torch.ones_like(maxc)
    s = channels_range / torch.where(eqc, ones, maxc)
    # Note that `eqc => maxc = minc = r = g = b`. So the following calculation
    # of `h` would reduce to `bc - gc + 2 + rc - bc + 4 + rc - bc = 6` so it
    # would not matter what values `rc`, `gc`, and `bc` have here, and thus
    # replacing denominator with 1 when `eqc` is fine.
    channels_range_divisor = torch.where(eqc, ones, channels_range).unsqueeze_(dim=-3)
    rc, gc, bc = ((maxc.unsqueeze(dim=-3) - image) / channels_range_divisor).unbind(dim=-3)

    mask_maxc_neq_r = maxc != r
    mask_maxc_eq_g = maxc == g

    hg = rc.add(2.0).sub_(bc).mul_(mask_maxc_eq_g & mask_maxc_neq_r)
    hr = bc.sub_(gc).mul_(~mask_maxc_neq_r)  # culprit
    hb = gc.add_(4.0).sub_(rc).mul_(mask_maxc_neq_r.logical_and_(mask_maxc_eq_g.logical_not_()))

    h = hr.add_(hg).add_(hb)
    h = h.mul_(1.0 / 6.0).add_(1.0).fmod_(1.0)
    return torch.stack((h, s, maxc), dim=-3)


def adjust_hue_float_tail(image, hue_factor):
    h, s, v = image.unbind(dim=-3)
    h.add_(hue_factor).remainder_(1.0)  # culprit
    return torch.stack((h, s, v), dim=-3)


def image():
    return torch.rand(1, 3, 8, 8, requires_grad=True)


def grid_case():
    theta = torch.tensor([[[0.9, 0.1, 0.0], [-0.1, 0.9, 0.0]]])
    grid = torch.nn.functional.affine_grid(theta, (1, 3, 8, 8), align_corners=False)
    apply_grid_transform_tail(image() * 1.0, grid, fill=0.5).sum().backward()


if __name__ == "__main__":
    main([
        ("_geometry.py:635 _apply_grid_transform (fill, bilinear)", grid_case, True),
        ("_color.py:270 adjust_sharpness_image", lambda: adjust_sharpness_float(image(), 2.0).sum().backward(),
         True),
        ("_color.py:541 autocontrast_image", lambda: autocontrast_float(image() * 1.0).sum().backward(),
         True),
        ("_color.py:334 _rgb_to_hsv", lambda: rgb_to_hsv_float(image() * 1.0).sum().backward(), True),
        ("_color.py:394 adjust_hue_image", lambda: adjust_hue_float_tail(image() * 1.0, 0.1).sum().backward(),
         True),
    ])
