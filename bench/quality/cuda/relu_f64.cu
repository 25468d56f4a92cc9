// Leaky ReLU in double precision, with a bias per channel.
#include "prelude.h"

extern "C" __global__ void relu_f64(const double *in, const double *bias, double *out, int channels, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n || channels <= 0)
    return;
  int c = i % channels;
  double v = in[i] + bias[c];
  out[i] = v > 0.0 ? v : 0.01 * v;
}
