// Scale, then clamp into [lo, hi] through small helper functions.
#include "prelude.h"

static __device__ float clampf(float v, float lo, float hi) { return fmin_f32(fmax_f32(v, lo), hi); }

extern "C" __global__ void clamp_scale(float *data, float scale, float lo, float hi, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n)
    return;
  float v = data[i] * scale;
  data[i] = clampf(v, lo, hi);
}
