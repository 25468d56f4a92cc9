// Three-point weighted stencil with clamped borders.
#include "prelude.h"

extern "C" __global__ void stencil1d(const float *in, float *out, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n)
    return;
  int l = i > 0 ? i - 1 : i;
  int r = i + 1 < n ? i + 1 : i;
  float w[3] = {0.25f, 0.5f, 0.25f};
  out[i] = w[0] * in[l] + w[1] * in[i] + w[2] * in[r];
}
