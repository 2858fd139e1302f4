"""ImageRecordIter's affine, crop-size and colour augmentations (MXNet's default augmenter), written once
for real MXNet 1.9.1 (tests/fixtures/mxnet/gen_io_aug.py records the results) and cellonnx.mxnet
(test_io_aug.py replays them). Each case packs the committed test images (11 x 14) into a .rec and
records every batch of one or more epochs, as io_cases does."""
from __future__ import annotations

from collections.abc import Callable

from tests.mxnet.io_cases import _imagerec

_U8 = "ImageRecordUInt8Iter"

CASES: dict[str, Callable[..., list]] = {
    "rotate": _imagerec(epochs=1, cls=_U8, rotate=30, fill_value=7),
    "rotate_cubic": _imagerec(epochs=1, cls=_U8, rotate=20, inter_method=2, data_shape=(3, 10, 10)),
    "enlarge": _imagerec(epochs=1, cls=_U8, data_shape=(3, 16, 20)),
    "rotate_cubic_enlarge": _imagerec(epochs=1, cls=_U8, rotate=20, inter_method=2, data_shape=(3, 10, 12)),
    "resize_cubic": _imagerec(epochs=1, cls=_U8, resize=17, inter_method=2, data_shape=(3, 16, 16)),
    "resize_cubic_down": _imagerec(epochs=1, cls=_U8, resize=9, inter_method=2, data_shape=(3, 9, 9)),
    "resize_lanczos": _imagerec(epochs=1, cls=_U8, resize=19, inter_method=4, data_shape=(3, 18, 18)),
    "resize_auto_up": _imagerec(epochs=1, cls=_U8, resize=24, inter_method=9, data_shape=(3, 20, 20)),
    "crop_size_cubic": _imagerec(epochs=2, cls=_U8, min_crop_size=5, max_crop_size=9, inter_method=2,
                                 data_shape=(3, 12, 12)),
    "resized_crop_lanczos": _imagerec(epochs=2, cls=_U8, random_resized_crop=True, min_random_area=0.3,
                                      max_random_area=0.8, inter_method=4, data_shape=(3, 9, 9)),
    "rotate_area": _imagerec(epochs=1, cls=_U8, rotate=15, inter_method=3),
    "rotate_lanczos": _imagerec(epochs=1, cls=_U8, rotate=60, inter_method=4, fill_value=0),
    "rotate_auto": _imagerec(epochs=1, cls=_U8, rotate=10, inter_method=9),
    "rotate_list": _imagerec(epochs=2, cls=_U8, rotate_list="10,20,-30", batch_size=3),
    "rotate_list_over_max": _imagerec(epochs=1, cls=_U8, rotate_list=" 45,+5", max_rotate_angle=30,
                                      rotate=12),
    "max_rotate": _imagerec(epochs=2, cls=_U8, max_rotate_angle=40, batch_size=3),
    "rand_inter": _imagerec(epochs=2, cls=_U8, max_rotate_angle=25, inter_method=10, rand_crop=True),
    "shear": _imagerec(epochs=2, cls=_U8, max_shear_ratio=0.4, rand_mirror=True),
    "aspect": _imagerec(epochs=2, cls=_U8, max_aspect_ratio=0.3, data_shape=(3, 7, 7)),
    "aspect_range": _imagerec(epochs=1, cls=_U8, max_aspect_ratio=1.5, min_aspect_ratio=0.75,
                              data_shape=(3, 6, 6)),
    "random_scale": _imagerec(epochs=2, cls=_U8, min_random_scale=0.8, max_random_scale=1.6,
                              rand_crop=True, data_shape=(3, 8, 9)),
    "scale_up_small": _imagerec(epochs=1, cls=_U8, min_random_scale=0.4, max_random_scale=0.5,
                                data_shape=(3, 8, 8)),
    "img_size": _imagerec(epochs=1, cls=_U8, max_img_size=10, min_img_size=9, data_shape=(3, 9, 9)),
    "resize_rotate_pad": _imagerec(epochs=1, cls=_U8, resize=12, rotate=35, pad=2, fill_value=200,
                                   data_shape=(3, 12, 12)),
    "crop_size": _imagerec(epochs=2, cls=_U8, min_crop_size=5, max_crop_size=9, rand_crop=True),
    "crop_size_centre": _imagerec(epochs=1, cls=_U8, min_crop_size=7, max_crop_size=7,
                                  data_shape=(3, 5, 6)),
    "resized_crop": _imagerec(epochs=2, cls=_U8, random_resized_crop=True, min_random_area=0.3,
                              max_random_area=0.9, max_aspect_ratio=0.4, data_shape=(3, 6, 6)),
    "resized_crop_ratio": _imagerec(epochs=1, cls=_U8, random_resized_crop=True, min_aspect_ratio=0.5,
                                    max_aspect_ratio=2.0, data_shape=(3, 5, 7)),
    "resized_crop_off": _imagerec(epochs=1, cls=_U8, random_resized_crop=True),
    "brightness": _imagerec(epochs=2, cls=_U8, brightness=0.4),
    "contrast": _imagerec(epochs=2, cls=_U8, contrast=0.5),
    "saturation": _imagerec(epochs=2, cls=_U8, saturation=0.6),
    "colour_jitter": _imagerec(epochs=3, cls=_U8, brightness=0.3, contrast=0.3, saturation=0.3),
    "hsl": _imagerec(epochs=2, cls=_U8, random_h=30, random_s=40, random_l=50),
    "hue_only": _imagerec(epochs=2, cls=_U8, random_h=90),
    "pca": _imagerec(epochs=2, cls=_U8, pca_noise=0.8),
    "pca_float": _imagerec(epochs=1, pca_noise=0.2, mean_r=10, std_g=3, max_random_contrast=0.2),
    "everything": _imagerec(epochs=2, max_rotate_angle=20, max_shear_ratio=0.1, min_random_scale=0.9,
                            max_random_scale=1.3, max_aspect_ratio=0.2, brightness=0.2, contrast=0.2,
                            saturation=0.2, random_h=10, random_s=10, random_l=10, pca_noise=0.1,
                            rand_crop=True, rand_mirror=True, fill_value=128, mean_r=100, std_b=50),
    "everything_seed_aug": _imagerec(epochs=2, cls=_U8, max_rotate_angle=30, min_random_scale=0.9,
                                     max_random_scale=1.2, brightness=0.3, random_h=20, pca_noise=0.3,
                                     rand_crop=True, rand_mirror=True, seed_aug=3),
}
