// Softmax over rows of 32 values, one warp per row, up to four warps per block.
#include "prelude.h"

extern "C" __global__ void softmax_row(const float *in, float *out) {
  __shared__ float vals_[4][32];
  __shared__ float red_[4][32];
  int t = TID_X & 31;
  int w = (TID_X >> 5) & 3;
  float *vals = vals_[w];
  float *red = red_[w];
  int row = CTA_X * 4 + w;
  float v = in[row * 32 + t];
  vals[t] = v;
  red[t] = v;
  SYNC();
  for (int s = 16; s > 0; s >>= 1) {
    if (t < s)
      red[t] = fmax_f32(red[t], red[t + s]);
    SYNC();
  }
  float m = red[0];
  SYNC();
  float e = __nvvm_ex2_approx_f((vals[t] - m) * 1.4426950f);
  red[t] = e;
  SYNC();
  for (int s = 16; s > 0; s >>= 1) {
    if (t < s)
      red[t] += red[t + s];
    SYNC();
  }
  out[row * 32 + t] = e / red[0];
}
